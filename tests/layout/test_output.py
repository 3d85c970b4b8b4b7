"""Output formats (PNG, JPEG, WebP, one PDF of every card) and each card's alt text."""

from __future__ import annotations

import io
import re
from collections import Counter

import pypdf
import pytest
import skia

from inkcard import layout, themes
from tests.conftest import corpus_posts
from tests.visible_text import squeeze, visible_text

POST = "# Ink and paper\n\nFirst words on the card.\n\n---\n\n# Second card\n\nLast words here."
WIDTH, HEIGHT = 300, 400


def cards(fonts, theme, fmt: str, **options) -> layout.Rendered:
    opts = layout.RenderOptions(
        width=WIDTH, height=HEIGHT, split="hrSplit", scale=1, format=fmt, **options
    )
    return layout.render_cards(POST, theme, fonts, opts)


@pytest.mark.parametrize(("fmt", "magic"), [("jpeg", b"\xff\xd8\xff"), ("webp", b"RIFF")])
def test_jpeg_and_webp_decode_to_the_cards_size(fonts, apple_notes, fmt: str, magic: bytes) -> None:
    rendered = cards(fonts, apple_notes, fmt, quality=80)
    assert len(rendered.files) == 2
    for data in rendered.files:
        assert data.startswith(magic)
        image = skia.Image.MakeFromEncoded(skia.Data.MakeWithCopy(data))
        assert (image.width(), image.height()) == (WIDTH, HEIGHT)


@pytest.mark.parametrize("fmt", ["jpeg", "webp"])
def test_quality_trades_bytes(fonts, apple_notes, fmt: str) -> None:
    low = cards(fonts, apple_notes, fmt, quality=10).files[0]
    high = cards(fonts, apple_notes, fmt, quality=100).files[0]
    assert len(low) < len(high)


def test_a_jpeg_card_looks_like_its_png(fonts, apple_notes) -> None:
    def pixels(data: bytes) -> bytes:
        image = skia.Image.MakeFromEncoded(skia.Data.MakeWithCopy(data))
        return bytes(image.toarray(colorType=skia.kRGBA_8888_ColorType))

    png = pixels(cards(fonts, apple_notes, "png").files[0])
    jpeg = pixels(cards(fonts, apple_notes, "jpeg", quality=95).files[0])
    mean_error = sum(abs(a - b) for a, b in zip(png, jpeg, strict=True)) / len(png)
    assert mean_error < 3  # the same card, only the compression's noise apart


def test_pdf_is_one_document_a_page_per_card_with_real_text(fonts, apple_notes) -> None:
    rendered = cards(fonts, apple_notes, "pdf")
    assert len(rendered.files) == 1 and rendered.files[0].startswith(b"%PDF-")
    reader = pypdf.PdfReader(io.BytesIO(rendered.files[0]))
    assert len(reader.pages) == 2
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == (WIDTH * 0.75, HEIGHT * 0.75)  # points
    texts = [squeeze(page.extract_text()) for page in reader.pages]
    assert "Inkandpaper" in texts[0] and "Firstwordsonthecard." in texts[0]
    assert "Secondcard" in texts[1] and "Firstwords" not in texts[1]
    assert rendered.alt_texts == [
        "Ink and paper\nFirst words on the card.\n\nSecond card\nLast words here."
    ]


@pytest.mark.parametrize("post", corpus_posts(), ids=lambda p: p.stem)
def test_pdf_of_a_post_holds_its_words_in_order(fonts, post) -> None:
    markdown = post.read_text("utf-8")
    options = layout.RenderOptions(split="autoSplit", scale=1, format="pdf")
    rendered = layout.render_cards(markdown, themes.load("apple-notes"), fonts, options)
    pages = layout.layout_pages(markdown, themes.load("apple-notes"), fonts, options)
    reader = pypdf.PdfReader(io.BytesIO(rendered.files[0]))
    assert len(reader.pages) == len(pages)
    extracted = squeeze("".join(page.extract_text() for page in reader.pages))
    at = 0
    for word in visible_text(markdown, cells="\t").split():
        found = _as_extracted(squeeze(word)).search(extracted, at)
        assert found, f"{word!r} of {post.name} missing (or out of order) in the PDF"
        at = found.end()
    want = squeeze(visible_text(markdown, cells=""))
    exact = sum((Counter(want) & Counter(extracted)).values()) / len(want)
    # Japanese loses the most (its localised forms, about a fifth): a known limit
    assert exact > 0.75, f"only {exact:.0%} of {post.name} extracts as it was written"


def _as_extracted(word: str) -> re.Pattern[str]:
    """`word` as a pattern of what a PDF reader can get back from it: ASCII letters as they
    are, any run of other characters as some such characters (or none).

    Skia's PDF maps each glyph back to text through the font's cmap, so a glyph the cmap does
    not name (an OpenType substitution: Japanese localised forms, Noto Sans CJK's digits, an
    emoji ZWJ sequence) extracts as U+0000, and a glyph serving several code points as one of
    them (⻅ for 见, ⸺ for ——); docs/decisions/engine.md, "Output formats and alt text". The
    caller holds how much of the text comes back exactly to a ratio.
    """
    exact = re.split(r"[^A-Za-z]+", word)
    return re.compile("[^A-Za-z]*".join(re.escape(part) for part in exact))


def test_alt_text_is_each_cards_own_part(fonts, apple_notes) -> None:
    rendered = cards(fonts, apple_notes, "png")
    assert rendered.alt_texts == [
        "Ink and paper\nFirst words on the card.",
        "Second card\nLast words here.",
    ]


THEME_MODES = [(name, mode) for name in themes.names() for mode in themes.modes(name) or [None]]


@pytest.mark.parametrize("post", corpus_posts(), ids=lambda p: p.stem)
@pytest.mark.parametrize(("theme", "mode"), THEME_MODES, ids=lambda v: str(v))
def test_alt_text_is_the_posts_visible_text(fonts, post, theme: str, mode: str | None) -> None:
    """Every corpus post in every theme and split mode: the cards' alt texts together are
    the Markdown's visible text (tests/visible_text.py says what that is), character for
    character apart from whitespace: ornaments left out, hyphenated words whole again. The
    alt text is the text as drawn, so a theme's `text_transform` (uppercase headings) shows in
    it: the comparison ignores letter case."""
    markdown = post.read_text("utf-8")
    want = squeeze(visible_text(markdown)).casefold()
    for split in ("noSplit", "autoSplit", "hrSplit"):
        options = layout.RenderOptions(split=split, mode=mode)
        pages = layout.layout_pages(markdown, themes.load(theme), fonts, options)
        got = squeeze("".join(page.alt_text() for page in pages)).casefold()
        assert got == want, (post.name, split)


def test_a_word_hyphenated_across_lines_is_whole_in_the_alt_text(fonts, apple_notes) -> None:
    markdown = "Incomprehensibilities " * 12
    options = layout.RenderOptions(width=160)
    [page] = layout.layout_pages(markdown, apple_notes, fonts, options)
    assert any(placed.row.broken_word for placed in page.rows)  # the case under test
    assert page.alt_text().split() == markdown.split()
