"""A theme's `slide` knobs (issue 41 at 1600x900): what a framed theme sets otherwise on a
slide, and nowhere else.

A frame thick enough for a 3:4 card held a slide's type to a smaller zoom: the fund post's
table cells read 7.8 px on a 360-px phone in traditional-chinese, and art-deco's gold frame
left the Chengdu guide at a zoom where its body read 8.4 px; pop-art's title bar ran the
slide's whole width under the title and read as a rule through the text.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Page
from inkcard.layout.errors import ThemeError
from inkcard.layout.pages.quality import measure
from inkcard.layout.pages.slidetype import slide_styles
from inkcard.layout.style.brandkit import BrandKit, branded_theme
from inkcard.layout.style.resolver import resolve
from inkcard.layout.style.theme import check_theme

HARD = Path(__file__).resolve().parents[1] / "cases" / "hard"
FUND = (HARD / "03-fund-explainer.md").read_text("utf-8")
CHENGDU = (HARD / "01-chengdu-travel.md").read_text("utf-8")
SLIDE = layout.RenderOptions(width=1600, height=900, split="autoSplit")


def pages(md: str, theme: str, options: layout.RenderOptions = SLIDE) -> list[Page]:
    return layout.layout_pages(md, themes.load(theme), layout.FontBook.load(), options)


def smallest(cards: list[Page]) -> float:
    found = [q.smallest_text for q in map(measure, cards) if q is not None]
    return min(found)


def test_traditional_chinese_fund_table_reads_larger_on_a_slide(fonts) -> None:
    """The heading, five-row table and note share a slide with the foot band thinner and
    the rows tighter: the cells read 8.2 px on the phone (7.8 before), the body 9.7."""
    cards = pages(FUND, "traditional-chinese")
    assert smallest(cards) >= 8.1
    table = next(c for c in cards if any("572.7%" in p.row.text for p in c.rows))
    assert any("来源" in p.row.text for p in table.rows)  # the note stays under its table


@pytest.mark.parametrize("name", ["art-deco", "pop-art"])
@pytest.mark.parametrize("post", [CHENGDU, FUND], ids=["chengdu", "fund"])
def test_framed_slides_zoom_larger_in_a_thinner_frame(fonts, name: str, post: str) -> None:
    """art-deco's text 16 px inside its panel's top on a slide (24 on a card), pop-art's
    72 px in at both sides, clear of its star, and nearer the panel's foot, both with
    tighter table rows: the posts were drawn at 2.5, not 2.33 or 2.36, the body read 9.0
    px on the phone (8.4-8.5), the cells 8.1 (7.6). With the cells at the body's size
    (slidetype.py) art-deco's tables hold at 2.39: body and cells read 8.6 px."""
    cards = pages(post, name)
    assert cards[0].fit is not None and cards[0].fit.zoom > 2.38
    assert smallest([c for c in cards if not _has_table(c)]) >= 8.6
    assert smallest(cards) >= 8.6


def _has_table(page: Page) -> bool:
    return any(f.decor.role == "table" for p in page.rows for f in p.row.frames)


def test_pop_art_title_bar_is_a_short_tab_on_a_slide(fonts) -> None:
    """On a slide the title's striped bar is 150 px under the title's start, 12 px below
    it; on a card it is as wide as the column, as the brief draws it."""
    (slide_bar,) = _title_bars(pages(FUND, "pop-art")[0])
    assert slide_bar.bar_length == 150
    card = layout.RenderOptions(width=440, height=586, split="autoSplit")
    (card_bar,) = _title_bars(pages(FUND, "pop-art", card)[0])
    assert card_bar.bar_length == 0


def _title_bars(page: Page) -> set:  # type: ignore[type-arg]
    return {
        f.decor
        for p in page.rows
        for f in p.row.frames
        if f.decor.role == "h1" and f.decor.bar_side == "bottom"
    }


@pytest.mark.parametrize("name", ["pop-art", "art-deco", "traditional-chinese"])
def test_slide_knobs_leave_every_other_card_as_it_was(fonts, name: str) -> None:
    """Only a slide takes the `slide` table: a 3:4 card, a square one and a tall one lay out
    exactly as the theme without it."""
    theme = themes.load(name)
    bare = msgspec.structs.replace(theme, slide={})
    assert theme.slide and resolve(theme, None).slide is not None
    for w, h in ((440, 586), (500, 500), (1080, 1440)):
        options = layout.RenderOptions(width=w, height=h, split="autoSplit")
        ours = layout.layout_pages(FUND, theme, fonts, options)
        theirs = layout.layout_pages(FUND, bare, fonts, options)
        assert [[(p.y, p.row.text) for p in c.rows] for c in ours] == [
            [(p.y, p.row.text) for p in c.rows] for c in theirs
        ]


def test_slide_styles_take_the_themes_slide_knobs() -> None:
    styles = resolve(themes.load("traditional-chinese"), None)
    slid = slide_styles(styles)
    assert slid["card"].padding == (64, 36, 24, 36)
    assert styles["card"].padding == (64, 36, 34, 36)
    assert slid["table"].padding == (6, 10, 6, 10)
    assert slid.key != styles.key  # its static layers are its own


def test_a_slide_table_names_known_roles_only() -> None:
    theme = msgspec.structs.replace(
        themes.load("minimalist"), slide={"nonsense": themes.load("pop-art").roles["h1"]}
    )
    with pytest.raises(ThemeError, match="nonsense"):
        check_theme(theme)


@pytest.mark.parametrize("name", ["art-deco", "traditional-chinese"])
def test_a_brand_kits_band_keeps_its_room_on_a_slide(fonts, name: str) -> None:
    """A brand kit raises the card's foot band for its byline and footer; a slide's own
    (thinner) band takes the kit's room too, rather than set it back."""
    kit = BrandKit(byline="@墨卡小记 · 每周一篇", footer="关注公众号「墨卡」看更多")
    theme = themes.load(name)
    branded = branded_theme(theme, kit, None)
    plain = resolve(branded, None)["card"].footer_height
    assert plain > resolve(theme, None)["card"].footer_height  # the kit needed room
    slid = slide_styles(resolve(branded, None))
    assert slid["card"].footer_height == plain
    assert slid["card"].padding == resolve(theme, None).slide["card"].padding  # type: ignore[union-attr]


def test_traditional_chinese_two_line_title_card_stays_a_cover(fonts) -> None:
    """At the larger zoom the Chengdu title takes two lines; with them 1.25 apart on a slide
    the title card is the post's cover (`covered.cover_of`: its title and lead set larger, it
    sat at the top at the theme's size with a band of 42 % under it, then centred there)."""
    first = pages(CHENGDU, "traditional-chinese")[0]
    assert first.fit is not None and first.fit.cover
    assert [p.row.text[:6] for p in first.rows][:2] == ["成都3天2晚", "不踩雷的Ci"]
