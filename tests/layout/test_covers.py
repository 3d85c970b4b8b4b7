"""The cover designer: titles that fit, distinct layouts, keywords in the accent, the
article cover's square crop, and hostile input held to bounds."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from msgspec import structs

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Group, Layer, Rect
from inkcard.layout.covers import coverinks, covers, covertitle
from inkcard.layout.draw import probe_image
from inkcard.layout.style.ground import text_ground
from inkcard.layout.text import inline
from inkcard.layout.text.heading import phrase_ends
from tests import pngcodec
from tests.cpu import Calls, counted
from tests.glyphruns import glyph_runs

TITLE = "普通人也能学会的 AI 写作方法：三步写出爆款笔记"
KEYWORDS = ("AI 写作", "爆款")
THEMES = ("brandA", "cyberpunk", "coil-notebook", "japanese-magazine", "darktech")


def _design(
    theme: str, title: str = TITLE, size: tuple[int, int] = (440, 586)
) -> covertitle.Design:
    return covers._design(title, KEYWORDS, themes.load(theme), _FONTS, None, *size)


_FONTS = layout.FontBook.load()


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize(
    "title",
    [
        TITLE,
        "一二三四五六七八九十一二三四五六七八九十一",  # 21 ideographs: no line of one
        "Seven habits of highly effective note-takers in 2026",
        "短标题",
    ],
)
def test_title_fills_its_box_without_overflow_or_a_lone_character(theme: str, title: str) -> None:
    design = _design(theme, title)
    box = Rect(40, 100, 360, 300)
    spans = lambda size: covertitle.title_spans(design, size, None, design.accent)  # noqa: E731
    lines = covertitle.fit_title(design, spans, box, "left")
    assert 1 <= len(lines) <= covertitle.MAX_TITLE_LINES
    assert sum(line.height for line in lines) <= box.height
    assert all(line.width <= box.width + 0.5 for line in lines)
    if len(lines) > 1:
        assert all(len(line.text.strip()) > 1 for line in lines)
    assert "".join(line.text for line in lines).replace(" ", "") == title.replace(" ", "")
    # The largest size that fits: one step larger does not.
    size = max(run.size for line in lines for run in glyph_runs(line.items))
    assert size > 24


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("box", [Rect(40, 100, 360, 300), Rect(30, 80, 200, 320)])
def test_a_title_breaks_between_phrases_where_slightly_smaller_type_lets_it(
    theme: str, box: Rect
) -> None:
    # "普通人也能学会 / 的 AI 写作方法： / 三步写出爆款 / 笔记" was the largest size that fit;
    # a designer takes type a step or two smaller to set "…学会的 / AI 写作方法：/ 三步…".
    design = _design(theme)
    spans = lambda size: covertitle.title_spans(design, size, None, design.accent)  # noqa: E731
    lines = [line.text.strip() for line in covertitle.fit_title(design, spans, box, "left")]
    ends = phrase_ends(TITLE)
    at = 0
    for line in lines[:-1]:
        at = TITLE.index(line, at) + len(line)
        at += TITLE[at:].startswith(" ")
        assert at in ends, lines
    assert not any(line.startswith("的") for line in lines)


@pytest.mark.parametrize("theme", THEMES)
def test_count_covers_are_distinct_layouts(theme: str) -> None:
    pages = covers.cover_pages(
        TITLE, KEYWORDS, themes.load(theme), _FONTS, width=440, height=586, count=4
    )
    assert len(pages) == 4
    assert len({page.items for page in pages}) == 4
    assert all(page.alt_text() == TITLE for page in pages)
    one = covers.cover_pages(TITLE, KEYWORDS, themes.load(theme), _FONTS, width=440, height=586)
    assert len(one) == 1


@pytest.mark.parametrize("theme", THEMES)
def test_keywords_are_drawn_in_the_emphasis_colour(theme: str) -> None:
    design = _design(theme)
    [page] = covers.cover_pages(
        TITLE, KEYWORDS, themes.load(theme), _FONTS, width=440, height=586, count=1
    )
    runs = [run for run in glyph_runs(page.items) if run.size > 24]
    marked = sum(len(run.glyphs) for run in runs if run.color == design.accent)
    assert marked >= len("AI写作爆款")
    assert design.accent != design.styles["h1"].color or design.marker is not None


def test_the_article_cover_keeps_the_title_in_the_square_crop() -> None:
    page, crops = covers.wechat_cover(TITLE, KEYWORDS, themes.load("brandA"), _FONTS)
    assert (page.width, page.height) == (900, 383)
    assert crops.crop_235_1 == "0_0_1_1"
    assert crops.crop_1_1 == "0.287222_0_0.712778_1"
    left, right = (900 - 383) / 2, (900 + 383) / 2
    runs = [run for run in glyph_runs(page.items) if run.size > 14]
    inside = [run for run in runs if left < min(run.xs) and max(run.xs) < right]
    # The whole title is set inside the square; the sides' keyword never straddles its edge.
    assert sum(len(run.glyphs) for run in inside) == len(TITLE)  # a glyph a character
    assert all(max(run.xs) < left or min(run.xs) > right for run in runs if run not in inside)
    png, same = layout.render_wechat_cover(TITLE, KEYWORDS, themes.load("brandA"), _FONTS)
    assert png.startswith(b"\x89PNG") and same == crops
    assert probe_image(png).width == 900


def _shaped(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """Counts the characters the covers shape (their layout's work)."""
    return counted(monkeypatch, inline, "shape", lambda spans, *_: sum(len(s.text) for s in spans))


def test_hostile_title_and_keywords_stay_bounded(monkeypatch) -> None:
    """A 100,000-character title and 10,000 keywords: the covers shape no more text than
    those of the title and keywords cut to what a cover shows (16,034 characters today),
    counted, not timed (about a second on a laptop)."""
    options = layout.RenderOptions(width=440, height=586, scale=1)
    shaped = _shaped(monkeypatch)
    cut = ("写" * covers.MAX_TITLE_CHARS, tuple(f"词{n}" for n in range(covers.MAX_KEYWORDS)))
    layout.render_covers(*cut, themes.load("brandA"), _FONTS, options, count=4)
    shown, shaped.weight = shaped.weight, 0
    rendered = layout.render_covers(
        "写" * 100_000,
        tuple(f"词{n}" for n in range(10_000)),
        themes.load("brandA"),
        _FONTS,
        options,
        count=4,
    )
    assert len(rendered.files) == 4
    assert 0 < shaped.weight <= shown


def test_render_covers_is_held_to_the_pixel_limits() -> None:
    options = layout.RenderOptions(width=440, height=586, scale=4, max_total_pixels=1_000_000)
    with pytest.raises(layout.TooManyPixels):
        layout.render_covers(TITLE, KEYWORDS, themes.load("brandA"), _FONTS, options, count=4)


def _every_theme_mode() -> list[tuple[str, str | None]]:
    catalogue = themes.Catalogue()
    return [
        (name, mode) for name in catalogue.names() for mode in (catalogue.get(name).modes or [None])
    ]


@pytest.mark.parametrize(("theme", "mode"), _every_theme_mode())
def test_small_keywords_read_on_the_page_in_every_theme(theme: str, mode: str | None) -> None:
    """Hashtags are small text: brandC's pale lilac accent made a good band but a hashtag of
    1.4:1 on white; they take the accent only where it reads (4.5:1)."""
    design = covers._design(TITLE, KEYWORDS, themes.load(theme), _FONTS, mode, 440, 586)
    assert coverinks.contrast(design.tag_ink, text_ground(design.styles)) >= 4.5


def test_a_title_on_the_page_wears_the_theme_heading_outline() -> None:
    """brandC's heading is lilac in a deep purple outline: the cover's title is too, so it
    reads as the theme's and its pale keywords stay legible."""
    design = _design("brandC")
    spans = covertitle.title_spans(design, 40.0, None, design.accent)
    effects = design.styles["h1"].text_effects
    assert effects and all(span.style.effects == effects for span in spans)


def _title_free(items: tuple, square: Rect, dx: float = 0.0) -> tuple:
    """`items` without the title's glyph runs (large runs that start inside the square;
    the groups that translate them followed), so a render without them shows by difference
    where the title's ink is."""
    kept: list = []
    for item in items:
        if isinstance(item, GlyphRun):
            if item.size > 14 and square.x < min(item.xs) + dx < square.right:
                continue
            kept.append(item)
        elif isinstance(item, Group):
            kept.append(structs.replace(item, items=_title_free(item.items, square, dx + item.dx)))
        elif isinstance(item, Layer):  # a heading's glow or outline
            kept.append(structs.replace(item, items=_title_free(item.items, square, dx)))
        else:
            kept.append(item)
    return tuple(kept)


WECHAT_TITLES = [
    TITLE,
    "一二三四五六七八九十一二三四五六七八九十一",
    "Seven habits of highly effective note-takers in 2026",
]


@pytest.mark.parametrize("theme", ("apple-notes", "brandA", "cyberpunk", "japanese-magazine"))
@pytest.mark.parametrize("title", WECHAT_TITLES)
def test_every_wechat_cover_holds_the_titles_ink_in_the_square_crop(theme: str, title: str) -> None:
    """The cover endpoint's default: four 900 x 383 covers, and in each the bounding box of
    the title's ink (the pixels that change when its glyphs are left out) inside the
    centred square the platform crops at 1:1, the whole title drawn."""
    pages = covers.wechat_covers(title, KEYWORDS, themes.load(theme), _FONTS, count=4)
    assert len(pages) == 4 and len({page.items for page in pages}) == 4
    width, height = covers.WECHAT_SIZE
    square = Rect((width - height) / 2, 0.0, height, height)
    options = layout.RenderOptions(width=width, height=height, scale=1)
    for page, name in zip(pages, covers.WECHAT_LAYOUTS, strict=True):
        assert (page.width, page.height) == (900, 383) and page.alt_text() == title
        bare = replace(page, items=_title_free(page.items, square))
        removed = len(list(glyph_runs(page.items))) - len(list(glyph_runs(bare.items)))
        assert removed >= 1, name
        drawn, without = (
            pngcodec.decode(layout.draw_cards([p], {}, _FONTS, options).files[0])
            for p in (page, bare)
        )
        ys, xs = np.nonzero(np.abs(drawn.astype(int) - without.astype(int)).sum(axis=-1) > 24)
        assert len(xs) > 500, name  # the title's ink
        assert square.x <= xs.min() and xs.max() < square.right, (name, xs.min(), xs.max())
        assert ys.min() > 0 and ys.max() < height - 1, (name, ys.min(), ys.max())
        glyphs = sum(
            len(run.glyphs)
            for run in glyph_runs(page.items)
            if run.size > 14 and run not in set(glyph_runs(bare.items))
        )
        assert glyphs >= len(title.replace(" ", "")), (name, glyphs)
