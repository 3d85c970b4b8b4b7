"""Input that once bought seconds to minutes of CPU from the engine: each is now refused (or
read) after bounded work, with the error the service answers as its documented 4xx.

No bound is in seconds (a loaded machine must not fail a test: speed targets live in
benchmarks/): the work is counted where it is in steps (the rows, lines or parts laid out
before the refusal, the parser's token skips), else its CPU is compared with a reference
timed beside it (tests/cpu.py). In brackets: what each took before, on a 2-core machine.
Inputs marked "API size" fit the service's 100,000-character limit; larger ones only reach
the engine (the CLI, a library caller).
"""

from __future__ import annotations

import pytest
from markdown_it.parser_inline import ParserInline
from markdown_it.rules_inline import StateInline

from inkcard import layout
from inkcard.layout.blocks import panels
from inkcard.layout.blocks.tables import rows as tables
from inkcard.layout.flow.flow import MdxFlow
from inkcard.layout.style.spanstyle import Span, SpanStyle
from inkcard.layout.text.shape import shape
from tests.cpu import at_most, counted, cpu_of

# What the service passes (app.cards.service): its default budget for all cards is
# 120,000,000 pixels.
SERVICE = {
    "max_pages": layout.MAX_CARDS,
    "max_pixels": layout.MAX_CARD_PIXELS,
    "max_total_pixels": 120_000_000,
}


def refused(
    md: str | layout.Doc,
    fonts: layout.FontBook,
    theme: layout.Theme,
    error: type[Exception],
    **options: object,
) -> None:
    with pytest.raises(error):
        layout.render_cards(md, theme, fonts, layout.RenderOptions(**{**SERVICE, **options}))


# autoSplit: pagination was quadratic in the rows, and every row was laid out first --------

AUTO_SPLIT = {
    # a 16,000-row two-column table, API size (17 s)
    "table": "|a|b|\n|-|-|\n" + "|1|2|\n" * 16_000,
    "list": "- a\n" * 20_000,  # API size (20 s)
    "ordered-list": "".join(f"{n}. a\n" for n in range(1, 12_000)),  # API size (8.4 s)
    "code-block": "```\n" + "x\n" * 49_000 + "```\n",  # API size (stopped at 40 s)
    "one-paragraph-of-lines": "a\n" * 50_000,  # API size (stopped at 40 s)
    "paragraphs": "a\n\n" * 33_000,  # API size (stopped at 40 s)
    "headings": "# H\n" * 25_000,  # API size, one keep-with-next chain (stopped at 40 s)
    "quote": "> a\n>\n" * 16_000,  # API size (17 s)
    "rules": "a\n\n---\n\n" * 10_000,  # API size (stopped at 40 s)
    "missing-images": "![a](x)\n\n" * 10_000,  # API size, placeholders (stopped at 40 s)
}


PARSES = 6
"""A refusal costs at most this many readings of its post (and a second): on a loaded 2-core
machine it took 1-2.4 (4 for the code block, whose parse is quick); its blow-ups took 10-100."""


@pytest.mark.parametrize("md", AUTO_SPLIT.values(), ids=AUTO_SPLIT.keys())
def test_autosplit_stops_at_the_first_card_past_the_limit(md, fonts, apple_notes) -> None:
    """Refused as soon as the cards pass the limit: its CPU is compared with the post's own
    parse (linear, and needed anyway), timed beside it, so a loaded machine slows both alike;
    a fixed 5 s failed on a loaded machine at 5.8 s, and the blow-ups are in brackets."""
    spent = cpu_of(lambda: refused(md, fonts, apple_notes, layout.TooManyPages, split="autoSplit"))
    parse = cpu_of(lambda: layout.parse_post(md))
    at_most(spent, parse, PARSES, 1.0, "the refusal")


def test_columns_taller_than_a_card_stop_and_stack(fonts, apple_notes, monkeypatch) -> None:
    """mdxMode columns taller than a card are stacked: laying them out side by side stops
    as soon as one is taller than a card (it went on to the end, then paginated: 7.7 s).
    Counted: the blocks laid out, a card's worth side by side and 51 cards' worth stacked
    (885), where going on to the end laid out all 12,000 items (12,022)."""
    md = (
        "<Columns>\n<Left>\n\n"
        + "- a\n" * 12_000
        + "\n</Left>\n<Right>\n\nb\n\n</Right>\n</Columns>\n"
    )
    blocks = counted(monkeypatch, MdxFlow, "block")
    refused(md, fonts, apple_notes, layout.TooManyPages, split="autoSplit", mdx=True)
    assert 0 < blocks.count < 3_000


def test_a_limit_on_pixels_stops_autosplit_too(fonts, apple_notes, monkeypatch) -> None:
    """Cards as large as allowed: the budget of all cards' pixels runs out after 7.
    Counted: the table rows laid out before the refusal (27), not all 16,001."""
    rows = counted(monkeypatch, tables, "_row")
    refused(
        AUTO_SPLIT["table"],
        fonts,
        apple_notes,
        layout.TooManyPixels,
        split="autoSplit",
        width=1600,
        height=1200,
        scale=4,
    )
    assert 0 < rows.count < 1_000


MIXED = (
    "# Title\n\nSome text.\n\n"
    + "|a|b|\n|-|-|\n"
    + "|1|two words|\n" * 60
    + "\n"
    + "- item\n  - nested\n" * 30
    + "\n```\n"
    + "code\n" * 80
    + "```\n\n"
    + "> quoted\n>\n" * 20
    + "\n"
    + "A paragraph of some length, long enough to wrap over a few lines. " * 30
    + "\n\n---\n\n![a](x)\n"
)


@pytest.mark.parametrize("split", ["autoSplit", "noSplit", "hrSplit"])
def test_the_early_stop_refuses_only_what_the_layout_would(fonts, apple_notes, split) -> None:
    """A post of every block kind makes its cards with a page limit of exactly their
    number, and is refused one below it."""
    options = layout.RenderOptions(split=split, scale=1, max_pages=1000)
    pages = layout.layout_pages(MIXED, apple_notes, fonts, options)
    exact = layout.RenderOptions(split=split, scale=1, max_pages=len(pages))
    assert layout.layout_pages(MIXED, apple_notes, fonts, exact) == pages
    with pytest.raises(layout.TooManyPages):
        fewer = layout.RenderOptions(split=split, scale=1, max_pages=len(pages) - 1)
        layout.layout_pages(MIXED * 2 if len(pages) == 1 else MIXED, apple_notes, fonts, fewer)


def test_the_early_stop_refuses_only_cards_that_are_too_large(fonts, apple_notes) -> None:
    """A growing card exactly as large as the pixel budget is made; one pixel less, not."""
    options = layout.RenderOptions(scale=1)
    [page] = layout.layout_pages(MIXED, apple_notes, fonts, options)
    pixels = round(page.width) * round(page.height)
    fits = layout.RenderOptions(scale=1, max_pixels=pixels, max_total_pixels=pixels)
    assert layout.layout_pages(MIXED, apple_notes, fonts, fits) == [page]
    with pytest.raises(layout.CardTooLarge):
        less = layout.RenderOptions(scale=1, max_pixels=pixels - 1)
        layout.layout_pages(MIXED, apple_notes, fonts, less)


# noSplit and hrSplit: cards that grow ------------------------------------------------------


LINE_AT_LEAST = 10.0  # CSS px: no theme's code line is shorter (apple-notes: about 21)


def test_a_growing_card_is_refused_once_it_is_too_tall(fonts, apple_notes, monkeypatch) -> None:
    """A 250,000-line code block (engine only) on one card: refused once the card passes
    102,400,000 pixels, after some 60,000 CSS px of it (it laid out all of it: 11 s).
    Counted: the source lines laid out (2,806), at most what the tallest card holds."""
    md = "```\n" + "x\n" * 250_000 + "```\n"
    lines = counted(monkeypatch, panels, "layout_text")
    refused(md, fonts, apple_notes, layout.CardTooLarge)
    options = layout.RenderOptions()
    tallest = layout.MAX_CARD_PIXELS / (options.width * options.scale**2)  # CSS px
    assert 0 < lines.count < tallest / LINE_AT_LEAST


def test_a_webp_card_is_refused_once_it_is_longer_than_webp_holds(
    fonts, apple_notes, monkeypatch
) -> None:
    """Refused once the card is longer than WebP's 16,383 px: the lines laid out (805) are
    at most what that holds, not the 250,000 of the block."""
    md = "```\n" + "x\n" * 250_000 + "```\n"
    lines = counted(monkeypatch, panels, "layout_text")
    refused(md, fonts, apple_notes, layout.TooTallForFormat, format="webp", scale=1)
    assert 0 < lines.count < 16_383 / LINE_AT_LEAST


def test_hrsplit_counts_its_parts_before_laying_any_out(fonts, apple_notes, monkeypatch) -> None:
    """40,000 parts (engine only): too many cards, known once the post is read (each part
    was laid out first: 1.7 s). Counted: no part is laid out."""
    doc = layout.parse_post("a\n\n---\n\n" * 40_000)
    parts = counted(monkeypatch, MdxFlow, "doc")
    refused(doc, fonts, apple_notes, layout.TooManyPages, split="hrSplit")
    assert parts.count == 0


def test_a_long_paragraph_is_shaped_in_pieces(fonts) -> None:
    """HarfBuzz gave up on a 600 KB run of one face (MemoryError: a 500, a traceback)."""
    text = "word " * 120_000
    clusters = shape([Span(text, SpanStyle("sans", 16.0, False, False, 0))], fonts)
    assert "".join(c.text for c in clusters) == text


# Reading the Markdown ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "mdx"),
    [("![", True), ("![", False), ("[", False)],
    ids=["image-mdx", "image", "link"],
)
def test_unclosed_links_are_read_in_a_few_steps_a_character(
    text: str, mdx: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """100 KB of `![` or `[`: markdown-it looked ahead of each as deep as blocks nest, 72
    token skips a character for `![` (2.6 s), 37 for `[`; inlines now nest 8 deep: 16 and
    9. Counted, not timed: markdown-it's steps are the same on any machine."""
    steps = 0
    skip = ParserInline.skipToken

    def counted(self: ParserInline, state: StateInline) -> None:
        nonlocal steps
        steps += 1
        skip(self, state)

    monkeypatch.setattr(ParserInline, "skipToken", counted)
    md = text * (100_000 // len(text))
    layout.parse_post(md, mdx)
    assert steps < 24 * len(md)


def test_bare_url_schemes_are_found_in_linear_time() -> None:
    """100 KB of `<http://`: the scheme was searched for in all the text before each `://`
    (23 s). Its CPU is compared with the parse of as much text with no `://` in it, timed
    beside it: 1.5-2.4 times it on a loaded 2-core machine; the search was some 100 times."""
    spent = cpu_of(lambda: layout.parse_post("<http://" * 12_500))
    plain = cpu_of(lambda: layout.parse_post("<http:/ " * 12_500))
    at_most(spent, plain, 8, 0.3, "the parse of 100 KB of `<http://`")


def test_bare_urls_are_still_links() -> None:
    md = "x" * 100 + " see https://a.example/b, mailto:me@a.example and " + "y" * 70 + "://z"
    [paragraph] = layout.parse_post(md).blocks
    links = [t.text for t in paragraph.inlines if "link" in t.marks]
    assert links == ["https://a.example/b"]  # only http(s):// and www. addresses are linked


def test_links_keep_their_brackets_up_to_the_depth() -> None:
    """Inside the inline depth a link still holds balanced brackets; past it, text."""
    [inside] = layout.parse_post("[" * 6 + "x" + "]" * 6 + "(y)").blocks
    [past] = layout.parse_post("[" * 12 + "x" + "]" * 12 + "(y)").blocks
    assert [t.marks for t in inside.inlines] == [frozenset({"link"})]
    assert all("link" not in t.marks for t in past.inlines)
