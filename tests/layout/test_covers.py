"""The cover designer: titles that fit, distinct layouts, keywords in the accent, the
article cover's square crop, and hostile input held to bounds."""

from __future__ import annotations

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Rect
from inkcard.layout.covers import coverinks, covers, covertitle
from inkcard.layout.draw import probe_image
from inkcard.layout.text import inline
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
    assert coverinks.contrast(design.tag_ink, coverinks.ground(design.styles)) >= 4.5


def test_a_title_on_the_page_wears_the_theme_heading_outline() -> None:
    """brandC's heading is lilac in a deep purple outline: the cover's title is too, so it
    reads as the theme's and its pale keywords stay legible."""
    design = _design("brandC")
    spans = covertitle.title_spans(design, 40.0, None, design.accent)
    effects = design.styles["h1"].text_effects
    assert effects and all(span.style.effects == effects for span in spans)
