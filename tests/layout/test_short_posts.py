"""A post that fits one card with room to spare is composed for its length (pages/short.py):
set larger, and at the card's optical centre, where it used to sit at the top, small, over
an empty half card."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Row
from inkcard.layout.pages.quality import TITLE_FULL_ENOUGH, TITLE_WEIGHT, measure
from inkcard.layout.pages.setting.short import FULL, TITLE_ROOMY, is_title_card
from inkcard.layout.style.resolver import resolve
from tests import pngcodec

POEM = "# 静夜思\n\n床前明月光，\n疑是地上霜。\n举头望明月，\n低头思故乡。\n"
THEME_MODES = [(name, mode) for name in themes.names() for mode in themes.modes(name) or [""]]


def ink_rows(png: bytes) -> np.ndarray:
    """The pixel rows of a card of the plain theme (white) with anything drawn on them."""
    pixels = pngcodec.decode(png)[:, :, :3].astype(int)
    return np.flatnonzero((np.abs(pixels - 255).max(axis=2) > 60).any(axis=1))


def plain(align: str) -> layout.Theme:
    roles = f'[roles.card]\ncontent_align = "{align}"\nfooter_height = 0\n'
    return layout.decode_theme(f'name = "t"\n{roles}')


def test_a_short_post_is_set_larger_at_the_optical_centre(fonts: layout.FontBook) -> None:
    options = layout.RenderOptions(scale=1)
    [top] = layout.render(POEM, plain("top"), fonts, options)
    [auto] = layout.render(POEM, plain("auto"), fonts, options)
    at_top, composed = ink_rows(top), ink_rows(auto)
    height = pngcodec.decode(auto).shape[0]
    # larger: the text block grows by the zoom (1.25) and more (a poem's type, `verse`),
    # and it is one card still
    assert composed[-1] - composed[0] > 1.25 * (at_top[-1] - at_top[0])
    above, below = composed[0], height - composed[-1]
    assert 0.3 < above / (above + below) < 0.5  # a little above the middle


def test_a_long_post_and_a_table_keep_their_size(fonts: layout.FontBook) -> None:
    options = layout.RenderOptions(scale=1)
    long = "\n\n".join("床前明月光，疑是地上霜。" * 6 for _ in range(5))
    table = "| a | b |\n|---|---|\n| 1 | 2 |\n"
    for post in (long, table):
        [top] = layout.render(post, plain("top"), fonts, options)
        [auto] = layout.render(post, plain("auto"), fonts, options)
        assert np.ptp(ink_rows(top)) == np.ptp(ink_rows(auto)), post[:20]


@pytest.mark.parametrize(("theme", "mode"), THEME_MODES)
def test_every_built_in_theme_composes_the_poem(fonts, theme: str, mode: str) -> None:
    """The poem is drawn zoomed (the virtual card a step smaller) in every theme but
    minimal, which centres it at its own size."""
    options = layout.RenderOptions(mode=mode)
    [page] = layout.layout_pages(POEM, themes.load(theme), fonts, options)
    zoomed = bool(page.items) and getattr(page.items[0], "scale", 1.0) > 1.0
    assert zoomed == (theme != "minimal"), theme


def _xs(items: tuple, dx: float = 0.0) -> list[float]:
    from inkcard.layout.base.boxes import GlyphRun

    out: list[float] = []
    for item in items:
        if isinstance(item, GlyphRun):
            out.extend(dx + x for x in item.xs)
        elif isinstance(inner := getattr(item, "items", None), tuple):
            out.extend(_xs(inner, dx + getattr(item, "dx", 0.0)))
    return out


@pytest.mark.parametrize(
    ("theme", "centred"), [("traditional-chinese", True), ("apple-notes", False)]
)
def test_a_poem_follows_its_title_s_alignment(fonts, theme: str, centred: bool) -> None:
    """Under a centred title the poem's lines are centred too (a centred title over a
    flush-left poem read as a mistake); under a flush-left title they stay flush left."""
    [page] = layout.layout_pages(POEM, themes.load(theme), fonts, layout.RenderOptions())
    rows = [placed.row for placed in page.rows if placed.row.text.strip()]
    title, lines = rows[0], rows[1:]
    starts = [min(_xs(row.items)) for row in lines]
    title_mid = (min(_xs(title.items)) + max(_xs(title.items))) / 2
    mids = [(min(_xs(row.items)) + max(_xs(row.items))) / 2 for row in lines]
    if centred:
        assert all(abs(mid - title_mid) < 12 for mid in mids), (mids, title_mid)
    else:
        assert max(starts) - min(starts) < 1 and abs(min(starts) - min(_xs(title.items))) < 2


def ink_columns(png: bytes) -> np.ndarray:
    """The pixel columns of a card of the plain theme with anything drawn on them."""
    pixels = pngcodec.decode(png)[:, :, :3].astype(int)
    return np.flatnonzero((np.abs(pixels - 255).max(axis=2) > 60).any(axis=0))


@pytest.mark.parametrize("align", ["auto", "center"])
def test_a_poem_under_a_flush_left_title_is_a_block_in_the_middle_of_the_card(
    fonts, align: str
) -> None:
    """Flush left under a flush-left title, the poem left two-thirds of the card's width
    empty (23 of 30 theme-modes; minimal's `center` set it in the card's middle, flush
    left): the title and its lines keep their shared left edge and the block is centred
    on the card (`verse.block_centred`)."""
    [png] = layout.render(POEM, plain(align), fonts, layout.RenderOptions(scale=1))
    width = pngcodec.decode(png).shape[1]
    inked = ink_columns(png)
    left, right = inked[0], width - 1 - inked[-1]
    assert left > 0.25 * width  # moved off the margin
    assert abs(left - right) < 0.08 * width, (left, right)  # and centred
    prose = "# 静夜思\n\n" + "床前明月光，疑是地上霜。举头望明月，低头思故乡。" * 3
    [png] = layout.render(prose, plain(align), fonts, layout.RenderOptions(scale=1))
    assert ink_columns(png)[0] < 0.1 * width  # a paragraph that fills its lines stays put


FUND = Path(__file__).resolve().parents[1] / "cases" / "hard" / "03-fund-explainer.md"


def _row(kind: str, serial: int) -> Row:
    return Row(28.0, (), text=kind, source=((kind, serial),))


def test_a_title_card_is_the_title_and_its_lead_before_a_section() -> None:
    title, lead, section = _row("Heading", 0), _row("Paragraph", 1), _row("Heading", 2)
    assert is_title_card([[title, title, lead], [section]], 0.4)
    assert not is_title_card([[title, lead], [section]], TITLE_ROOMY)  # full enough
    assert not is_title_card([[title, lead], [_row("Paragraph", 3)]], 0.4)  # not a section
    assert not is_title_card([[title, lead, section], [section]], 0.4)  # two headings
    listed = Row(28.0, (), source=(("ListBlock", 4), ("ListItem", 5), ("Paragraph", 6)))
    assert not is_title_card([[title, listed], [section]], 0.4)
    assert not is_title_card([[lead, lead], [section]], 0.4)  # no title
    assert not is_title_card([[title, lead]], 0.4)  # a post of one card is `composed`


def test_a_title_and_lead_before_a_figure_too_tall_for_their_card_is_a_title_card() -> None:
    """The Japanese post at 500x500: its flowchart cannot start under the lead, and the
    first card, left 26 % full at the top, read as a hole; set in its middle it is the
    cover. A paragraph or a list item continuing the card's own block is no new block."""
    title, lead = _row("Heading", 0), _row("Paragraph", 1)
    figure = Row(300.0, (), source=(("CodeBlock", 2),))
    assert is_title_card([[title, lead], [figure]], 0.3)
    assert is_title_card([[title], [_row("Image", 2)]], 0.3)
    assert not is_title_card([[title, lead], [_row("Paragraph", 1)]], 0.3)  # the lead goes on
    assert not is_title_card([[title, lead], [figure]], TITLE_ROOMY)


# A branching flow (no chain to wrap into rows) too tall to start under the lead
BRANCHING = """```mermaid
flowchart TD
  A[課題を作る] --> B[ブランチを切る]
  B --> C[実装する]
  B --> G[調査する]
  C --> D{レビュー}
  G --> D
  D -- 承認 --> E[マージ]
  E --> F[リリース]
```"""


def test_the_japanese_posts_first_square_card_is_its_cover(fonts: layout.FontBook) -> None:
    """The Japanese post at 500x500 with a branching flow (its own six-step chain is now
    wrapped into rows under the lead, one card): the flow cannot start under the lead, and
    the first card is its cover."""
    post = (FUND.parent / "06-japanese-diagram.md").read_text("utf-8")
    start = post.index("```mermaid")
    post = post[:start] + BRANCHING + post[post.index("```", start + 3) + 3 :]
    square = layout.RenderOptions(width=500, height=500, split="autoSplit")
    first = layout.layout_pages(post, themes.load("apple-notes"), fonts, square)[0]
    assert first.fit is not None and first.fit.offset > 0
    quality = measure(first)  # a cover, but a card under 55 % full before the last: half price
    assert quality is not None and quality.empty_band < 0.25
    assert quality.score == round(100 - TITLE_WEIGHT * (TITLE_FULL_ENOUGH - quality.fill))


def test_a_slides_title_card_is_set_in_its_optical_centre(fonts: layout.FontBook) -> None:
    """The fund explainer at 1600x900: its title and two-line lead left the first card
    half empty at the top; set larger in the card's optical centre it is the post's cover
    (55 % full at the theme's size, 73 % as a cover), and scored as composed. At 440x586
    the first card holds a section too."""
    theme = themes.load("apple-notes")
    post = FUND.read_text("utf-8")
    slide = layout.RenderOptions(width=1600, height=900, split="autoSplit", mode="light-mode")
    first, second = layout.layout_pages(post, theme, fonts, slide)[:2]
    assert first.fit is not None and first.fit.offset > 0 and first.fit.cover
    assert second.fit is not None and second.fit.offset == 0
    quality = measure(first)  # the room round it is composition
    assert quality is not None and 0.6 < quality.fill <= FULL and quality.empty_band < 0.25
    assert quality.smallest_text >= 11 and quality.score == 100  # larger type reads
    portrait = layout.RenderOptions(width=440, height=586, split="autoSplit", mode="light-mode")
    card = layout.layout_pages(post, theme, fonts, portrait)[0]
    assert card.fit is not None and card.fit.offset == 0


HAIKU = "# 秋の京都で詠んだ三句\n\n古寺や\n紅葉の下に\n鐘の音\n\n---\n\n朝霧に\n鴨川渡る\n白き鷺\n"
ROUTES = Path(__file__).resolve().parents[1] / "cases" / "posts" / "05-hr-split-zh.md"


def test_each_hrsplit_card_is_a_part_composed_as_a_short_post(fonts: layout.FontBook) -> None:
    """Three haiku a card each sat at the top of cards four-fifths empty: each hrSplit card
    holds a part of its own, so roomy text parts are set larger together (one step for the
    set) and start where the tallest of them, at the card's optical centre, starts."""
    options = layout.RenderOptions(split="hrSplit")
    pages = layout.layout_pages(HAIKU, themes.load("japanese-magazine"), fonts, options)
    assert len(pages) == 2
    fits = [page.fit for page in pages]
    assert all(fit is not None and fit.zoom == pytest.approx(1.25) for fit in fits)
    assert fits[0] is not None and fits[0].offset > 0
    assert len({round(page.rows[0].y) for page in pages}) == 1  # one height for the set


def test_hrsplit_parts_with_a_table_keep_their_size_and_start_alike(fonts) -> None:
    """A part with a table keeps the set at the theme's size (a table hangs on the
    measure), but every roomy part still starts at the tallest one's optical top."""
    post = ROUTES.read_text(encoding="utf-8")
    options = layout.RenderOptions(split="hrSplit", mode="light-mode")
    pages = layout.layout_pages(post, themes.load("apple-notes"), fonts, options)
    assert len(pages) == 4
    assert all(page.fit is not None and page.fit.zoom == 1.0 for page in pages)
    tops = {round(page.rows[0].y) for page in pages}
    assert len(tops) == 1 and all(page.fit and page.fit.offset > 0 for page in pages)


def test_a_poem_at_500x500_is_set_larger_in_every_theme(fonts) -> None:
    """At 500x500 the poem filled 50-62 % of the card at body size in 23 theme-modes, under
    `short.ROOMY` when it was 0.5: a post that roomy is composed, drawn at least a step
    (1.08) larger than a long post in the same theme, in every theme but minimal (centred
    at its own size)."""
    poem = (Path(__file__).resolve().parents[1] / "cases" / "hard" / "04-poem.md").read_text()
    prose = "# 静夜思\n\n" + "床前明月光，疑是地上霜。" * 60
    options = layout.RenderOptions(width=500, height=500)
    for name in themes.names():
        if name == "minimal":
            continue
        [page] = layout.layout_pages(poem, themes.load(name), fonts, options)
        long = layout.layout_pages(prose, themes.load(name), fonts, options)[0]
        assert page.fit is not None and long.fit is not None
        assert page.fit.zoom >= 1.07 * long.fit.zoom, name


def _sizes(items: tuple) -> list[float]:
    from inkcard.layout.base.boxes import GlyphRun

    out: list[float] = []
    for item in items:
        if isinstance(item, GlyphRun):
            out.append(item.size)
        elif isinstance(inner := getattr(item, "items", None), tuple):
            out.extend(_sizes(inner))
    return out


@pytest.mark.parametrize(("theme", "mode"), THEME_MODES)
def test_a_poem_s_type_is_set_for_the_card_not_the_page(fonts, theme: str, mode: str) -> None:
    """At 440x586 静夜思 was drawn at the short post's zoom alone (1.25 times the theme's
    body, none in minimal) and filled about half the card: "type too small for a one-card
    poem" in 29 of 30 theme-modes. Its lines are now at least 1.35 times the body (the
    largest `verse.VERSE_STEPS` that keeps its lines), the card filled at most `FULL`."""
    poem = (Path(__file__).resolve().parents[1] / "cases" / "hard" / "04-poem.md").read_text()
    options = layout.RenderOptions(width=440, height=586, mode=mode)
    [page] = layout.layout_pages(poem, themes.load(theme), fonts, options)
    assert page.fit is not None
    row = next(placed.row for placed in page.rows if "床前" in placed.row.text)
    body = resolve(themes.load(theme), mode or None)["body"].size
    assert max(_sizes(row.items)) * page.fit.zoom >= 1.35 * body
    assert measure(page).fill <= FULL + 0.01
