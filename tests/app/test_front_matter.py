"""YAML front matter on the card side: POST /api/generate and `inkcard render` read its theme,
mode and split mode, a request field wins, and it is never drawn; what counts as one."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard.app.cli.commands import build_parser
from inkcard.app.cli.render import card_request
from inkcard.app.errors import InvalidField
from inkcard.app.frontmatter import split
from tests.app.conftest import both_engines, shared_app

pytestmark = both_engines

Client = TestClient[Litestar]
BODY = "# Hello\n\n" + "\n\n".join(
    f"Paragraph {i}. " + "The quick brown fox. " * 8 for i in range(8)
)
FRONT = "---\ntitle: Not drawn\ntheme: coil-notebook\nmode: mint-mode\nsplit: autoSplit\n---\n"


def generate(client: Client, key: str, body: dict[str, Any]) -> list[dict[str, str]]:
    response = client.post("/api/generate", json=body, headers={"x-api-key": key})
    assert response.status_code == 200, response.text
    images: list[dict[str, str]] = response.json()["images"]
    return images


@shared_app
def test_generate_reads_front_matter_and_never_draws_it(client: Client, key: str) -> None:
    from_front = generate(client, key, {"markdown": FRONT + BODY})
    explicit = generate(
        client,
        key,
        {
            "markdown": BODY,
            "theme": "coil-notebook",
            "themeMode": "mint-mode",
            "splitMode": "autoSplit",
        },
    )
    assert [i["fileName"] for i in from_front] == [i["fileName"] for i in explicit]
    assert len(from_front) > 1  # autoSplit from the front matter
    assert not any("Not drawn" in i["altText"] or "theme:" in i["altText"] for i in from_front)


@shared_app
def test_generate_request_fields_win(client: Client, key: str) -> None:
    front = generate(client, key, {"markdown": FRONT + BODY, "splitMode": "noSplit"})
    plain = generate(
        client, key, {"markdown": BODY, "theme": "coil-notebook", "themeMode": "mint-mode"}
    )
    assert [i["fileName"] for i in front] == [i["fileName"] for i in plain]
    assert len(front) == 1


@shared_app
def test_generate_refuses_a_bad_front_matter_value_by_name(client: Client, key: str) -> None:
    response = client.post(
        "/api/generate",
        json={"markdown": "---\nsplit: sideways\n---\n# x"},
        headers={"x-api-key": key},
    )
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid_split_mode"
    assert body["message"].startswith("splitMode from the front matter must be one of")


def test_render_command_reads_front_matter_and_its_options_win() -> None:
    parser = build_parser()
    args = parser.parse_args(["render", "post.md"])
    card = card_request(args, FRONT + BODY)
    assert (card.theme, card.mode, card.split) == ("coil-notebook", "mint-mode", "autoSplit")
    assert card.markdown == BODY
    args = parser.parse_args(["render", "post.md", "--theme", "apple-notes", "--split", "noSplit"])
    card = card_request(args, FRONT + BODY)
    assert (card.theme, card.split) == ("apple-notes", "noSplit")


@pytest.mark.parametrize(
    "markdown",
    [
        "# Title\n\n---\n\ntitle: a rule later stays a rule\n\n---\n",
        "---\n\nA post that opens with a rule and a paragraph.\n\n---\n\nMore.",
        "---\ntitle: no closing fence\n\nText.",
        " ---\ntitle: not at the very start\n---\n",
    ],
)
def test_only_a_fenced_mapping_at_the_very_start_counts(markdown: str) -> None:
    assert split(markdown) == ({}, markdown)


def test_spellings_crlf_and_unknown_keys() -> None:
    markdown = (
        "\ufeff---\r\nsourceUrl: https://e.com/a\r\ncoverImageUrl: https://e.com/c.png\r\n"
        "splitMode: hrSplit\r\ndate: 2026-11-26\r\ntags:\r\n  - a\r\n---\r\nBody"
    )
    found, body = split(markdown)
    assert found == {
        "content_source_url": "https://e.com/a",
        "coverImageUrl": "https://e.com/c.png",
        "splitMode": "hrSplit",
    }
    assert body == "Body"


@pytest.mark.parametrize(
    "front",
    ["title: &a x\nauthor: *a", "theme: {a: b}", "title: a\n- b", "title: " + "x" * 9000],
)
def test_hostile_front_matter_is_invalid_front_matter(front: str) -> None:
    with pytest.raises(InvalidField) as raised:
        split(f"---\n{front}\n---\nBody")
    assert raised.value.label == "invalid_front_matter"


def test_comment_lines_before_the_first_key_cost_one_pass() -> None:
    """Each ``#\\r\\n`` line could be split two ways by a skipping pattern: 40 of them took
    days. Read line by line, any number of comment lines ahead of the first key is cheap."""
    hostile = "---\n" + "#\r\n" * 40 + "!\n---\n# x"
    assert split(hostile) == ({}, hostile)
    windows = "---\r\n" + "# note\r\n" * 800 + "title: Kept\r\n---\r\nBody"
    assert split(windows) == ({"title": "Kept"}, "Body")
