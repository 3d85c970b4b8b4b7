"""mdxMode through POST /api/generate: components render, refused MDX is a 400
`invalid_mdx` naming the line, charged nothing, and with mdxMode off the same text is text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.app.apphelpers import files_path, new_key, png_size, stored_files

Client = TestClient[Litestar]
COMPONENTS = (Path(__file__).parents[1] / "cases" / "mdx" / "01-components.md").read_text()


def post(client: Client, key: str, body: dict[str, Any]) -> Any:
    return client.post("/api/generate", json=body, headers={"x-api-key": key})


def test_components_render_with_mdx_mode(client: Client, key: str) -> None:
    body = {"markdown": COMPONENTS, "mdxMode": True, "splitMode": "autoSplit", "scale": 1}
    response = post(client, key, body)
    assert response.status_code == 200, response.text
    images = response.json()["images"]
    assert len(images) == 2
    for image in images:
        png = client.get(files_path(image["url"])).content
        assert png_size(png) == (440, 586)
    # the same text without mdxMode is other cards (tags as text), not an error
    plain = post(client, key, {**body, "mdxMode": False})
    assert plain.status_code == 200
    assert plain.json()["images"] != images


@pytest.mark.parametrize(
    ("markdown", "message"),
    [
        ("# Title\n\nimport fs from 'fs'", "line 3: `import`"),
        ("a\n\n{process.exit()}", "line 3: the expression `{process.exit()}`"),
        ("<Callout title={window.x}>\nx\n</Callout>", "line 1: <Callout title=…>"),
        ("ok\n<Widget />", "line 2: unknown component <Widget>"),
        ("<Columns>\n<Left>\nx\n</Columns>", "line 4: </Columns>"),
    ],
)
def test_refused_mdx_is_400_invalid_mdx_and_charges_nothing(
    make_client: Callable[..., Client], tmp_path: Path, markdown: str, message: str
) -> None:
    client = make_client(warm=False, generate_cost=1)  # refused before any drawing
    key = new_key(client, credits=5)
    response = post(client, key, {"markdown": markdown, "mdxMode": True})
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid_mdx"
    assert body["message"].startswith("mdxMode: " + message)
    info = client.app.state.services.credits.authenticate(key)
    assert info.balance == 5
    assert stored_files(tmp_path / "files") in ([], ["screenshots"])
    off = post(client, key, {"markdown": markdown, "mdxMode": False})
    assert off.status_code == 200, off.text
