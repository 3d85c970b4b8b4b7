"""A sequence too wide to read on a card is decided the same way over HTTP and by
`inkcard render`: drawn compact, or as the list of its steps, each said in the quality report
(the decision counts px and steps, never time, so it does not depend on the path)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.app.test_api_errors import post

Client = TestClient[Litestar]
CASES = Path(__file__).resolve().parents[1] / "cases" / "mermaid"


@pytest.mark.parametrize(
    ("case", "said"),
    [
        ("73-sequence-long", "a wide sequence drawn compact"),
        ("96-sequence-wide-six", "a wide sequence drawn as a list of its steps"),  # 7.8 px
        ("95-sequence-wide-dense", "a wide sequence drawn as a list of its steps"),  # 3.8 px
    ],
)
def test_http_and_the_cli_decide_a_wide_sequence_alike(
    client: Client,
    key: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    case: str,
    said: str,
) -> None:
    from inkcard.app.cli import main

    markdown = (CASES / f"{case}.md").read_text("utf-8")
    body = {"markdown": markdown, "theme": "apple-notes", "splitMode": "autoSplit"}
    response = post(client, key, body)
    assert response.status_code == 200, response.text
    http = [image["quality"] for image in response.json()["images"]]
    post_file = tmp_path / "post.md"
    post_file.write_text(markdown, "utf-8")
    args = ["render", str(post_file), "--theme", "apple-notes", "--split", "autoSplit"]
    assert main([*args, "-o", str(tmp_path / "out"), "--report"]) == 0
    cli = [json.loads(line)["quality"] for line in capsys.readouterr().out.splitlines()]
    assert cli == http
    assert any(note.startswith(said) for quality in http for note in quality["notes"])
