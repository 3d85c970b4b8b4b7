"""A post is parsed once: `parse_post` reads blocks and image sources from one parse, and
`layout_cards` given that `Doc` does not parse it again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from inkcard import layout
from inkcard.layout.parse import image_sources, markdown, may_name_images

POST = "# Title\n\n![a](a.png) text ![b](b.png)\n\n- ![a](a.png)\n- item\n\n![c](c.png)"
MDX = '<Callout title="Note">\n\n![a](a.png)\n\n</Callout>\n\nText ![b](b.png)'


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the Markdown parser is handed while the test runs."""
    seen: list[str] = []
    real = markdown._PARSER.parse

    def counted(text: str, *args: object, **kwargs: object) -> object:
        seen.append(text)
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(markdown._PARSER, "parse", counted)
    yield seen


def test_the_doc_carries_the_image_sources_of_its_own_parse(parses: list[str]) -> None:
    doc = layout.parse_post(POST)
    assert doc.images == ("a.png", "b.png", "c.png")
    assert len(parses) == 1
    assert list(doc.images) == image_sources(POST)


def test_mdx_collects_the_sources_of_every_markdown_run() -> None:
    assert layout.parse_post(MDX, mdx=True).images == ("a.png", "b.png")


def test_layout_of_a_doc_does_not_parse_again(
    parses: list[str], fonts: layout.FontBook, apple_notes: layout.Theme
) -> None:
    doc = layout.parse_post(POST)
    parses.clear()
    from_doc = layout.layout_cards(doc, apple_notes, fonts, layout.RenderOptions())
    assert parses == []
    from_text = layout.layout_cards(POST, apple_notes, fonts, layout.RenderOptions())
    assert len(parses) == 1
    assert from_doc.pages == from_text.pages


@pytest.mark.parametrize(
    "text", ["# No images\n\nplain [link](x) text", "Wow! Great.", "", "！［全角］（x.png）"]
)
def test_a_post_without_bang_and_bracket_names_no_image(text: str) -> None:
    assert may_name_images(text) == ("!" in text and "[" in text)
    if not may_name_images(text):
        assert image_sources(text) == []
        assert layout.parse_post(text).images == ()


def test_a_post_with_an_image_may_name_images() -> None:
    assert may_name_images(POST)
    assert may_name_images("!\u200b[a](a.png)")  # an invisible character between
