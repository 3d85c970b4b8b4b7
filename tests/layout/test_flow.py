"""Layout as numbers: line breaks, y positions and which card each line lands on.

With the box font one em equals the font size, and the plain theme is the shared card
model: a 400 px wide content box, 522 px tall on a 440x586 card (padding 20, footer 24),
body text 16 px on 28 px lines, so a line holds exactly 25 CJK characters.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inkcard import layout
from inkcard.layout.base.boxes import Fill, Page, Picture

HAN = "中"


def pages(md: str, fonts: layout.FontBook, theme: layout.Theme, **options: object) -> list[Page]:
    return layout.layout_pages(md, theme, fonts, layout.RenderOptions(**options))


def texts(page: Page) -> list[str]:
    return [placed.row.text for placed in page.rows]


def ys(page: Page) -> list[float]:
    return [round(placed.y, 2) for placed in page.rows]


def test_cjk_lines_hold_25_characters(box_fonts, plain_theme) -> None:
    [page] = pages(HAN * 60, box_fonts, plain_theme)
    assert [len(t) for t in texts(page)] == [25, 25, 10]
    assert ys(page) == [0, 28, 56]
    assert page.height == 586


def test_closing_punctuation_never_starts_a_line(box_fonts, plain_theme) -> None:
    # 乙, not 文: 中文 is a word, which a ragged line keeps whole (test_whole_words.py)
    [page] = pages(HAN * 24 + "乙，" + HAN * 5, box_fonts, plain_theme)
    assert texts(page) == [HAN * 24, "乙，" + HAN * 5]


def test_opening_punctuation_never_ends_a_line(box_fonts, plain_theme) -> None:
    [page] = pages(HAN * 24 + "「" + HAN * 3, box_fonts, plain_theme)
    assert texts(page) == [HAN * 24, "「" + HAN * 3]


def test_latin_breaks_at_spaces_with_trailing_space_hanging(box_fonts, plain_theme) -> None:
    [page] = pages(" ".join(["abcd"] * 12), box_fonts, plain_theme)
    assert texts(page) == ["abcd abcd abcd abcd abcd "] * 2 + ["abcd abcd"]


def test_overlong_word_is_broken_between_characters(box_fonts, plain_theme) -> None:
    [page] = pages("x" * 30, box_fonts, plain_theme)
    assert texts(page) == ["x" * 25, "x" * 5]


def test_single_newline_is_a_line_break(box_fonts, plain_theme) -> None:
    [page] = pages("ab\ncd", box_fonts, plain_theme)
    assert texts(page) == ["ab", "cd"]


def test_auto_split_fills_18_lines_per_card(box_fonts, plain_theme) -> None:
    cards = pages(HAN * 25 * 30, box_fonts, plain_theme, split="autoSplit")
    assert [len(c.rows) for c in cards] == [18, 12]
    assert ys(cards[1])[:2] == [0, 28]
    assert all(c.height == 586 for c in cards)


def test_auto_split_leaves_no_widow_and_balances_the_last_card(box_fonts) -> None:
    """18 + 1 would leave a widow, 17 + 2 a last card mostly empty: 11 + 8, the last card
    a little under half full (224 of 522 px) rather than the first barely half (10 + 9).
    At the theme's own type (`type_scale = "none"`): where type may follow the card, 2 %
    smaller sets the 19 lines on one card (`typesteps.fault_free`, a short last card)."""
    theme = layout.decode_theme('name = "own"\n[roles.card]\ntype_scale = "none"\n')
    cards = pages(HAN * 25 * 19, box_fonts, theme, split="autoSplit")
    assert [len(c.rows) for c in cards] == [11, 8]


def test_a_type_step_sets_a_short_second_card_on_the_first(box_fonts, plain_theme) -> None:
    """The same 19 lines where type follows the card: 11 + 8 leaves the last card 43 %
    full; 2 % smaller type sets them on one card, as a designer would (r13-last)."""
    cards = pages(HAN * 25 * 19, box_fonts, plain_theme, split="autoSplit")
    assert [len(c.rows) for c in cards] == [19]


def test_heading_is_never_last_on_a_card(box_fonts, plain_theme) -> None:
    md = f"{HAN * 25 * 17}\n\n## H\n\n{HAN * 25 * 10}"
    cards = pages(md, box_fonts, plain_theme, split="autoSplit")
    assert [len(c.rows) for c in cards] == [17, 11]
    assert texts(cards[1])[0] == "H"


def test_no_split_grows_with_content(box_fonts, plain_theme) -> None:
    [page] = pages(HAN * 25 * 30, box_fonts, plain_theme)
    assert page.height == 586 + 30 * 28 - 522


def test_overflow_hidden_cuts_after_the_last_whole_line(box_fonts, plain_theme) -> None:
    [page] = pages(HAN * 25 * 30, box_fonts, plain_theme, overflow_hidden=True)
    assert len(page.rows) == 18
    assert page.height == 586


@pytest.mark.parametrize(
    ("md", "count"),
    [
        ("a\n\n---\n\nb\n\n***\n\n", 2),
        ("a\n\nb", 1),
        ("---\n\n---", 1),
        ("a\n\n___\n\nb\n\n---\n\nc", 3),
    ],
)
def test_hr_split_makes_a_card_per_part(box_fonts, plain_theme, md: str, count: int) -> None:
    assert len(pages(md, box_fonts, plain_theme, split="hrSplit")) == count


def test_paragraph_margin_collapses_with_heading(box_fonts, plain_theme) -> None:
    [page] = pages("# T\n\nab", box_fonts, plain_theme)
    assert ys(page) == [0, 30 + 16]  # h1 line 24 * 1.25, then the 16 px margin


def test_code_panel_pads_its_lines(box_fonts, plain_theme) -> None:
    [page] = pages("```\nab\ncd\n```", box_fonts, plain_theme)
    assert ys(page) == [16, round(16 + 20.48, 2)]  # 12.8 px mono on 1.6 lines, inside 16 px padding
    panel = next(i for i in page.items if isinstance(i, Fill))
    assert (panel.rect.y, round(panel.rect.height, 2)) == (20, round(16 + 2 * 20.48 + 16, 2))


def test_list_items_are_indented_with_markers(box_fonts, plain_theme) -> None:
    [page] = pages("- 中\n- 文", box_fonts, plain_theme)
    assert ys(page) == [0, 28 + 4]  # tight list: 4 px between items
    first = page.rows[0].row.items
    disc = next(i for i in first if isinstance(i, Fill))
    # The 6 px disc ends 8 px before the text, which is indented 28 px.
    assert disc.rect.right == pytest.approx(20 + 28 - 8)
    assert disc.rect.width == 6


def test_too_many_cards_is_refused(box_fonts, plain_theme) -> None:
    with pytest.raises(layout.TooManyPages):
        pages(HAN * 25 * 18 * 3, box_fonts, plain_theme, split="autoSplit", max_pages=2)


def tall_image(width: int = 100, height: int = 2000) -> str:
    import base64

    import numpy as np

    from inkcard.layout.draw.png import encode_rgb

    data = encode_rgb(np.full((height, width, 3), 90, np.uint8))
    return f"data:image/png;base64,{base64.b64encode(data).decode()}"


def test_overflow_hidden_keeps_a_first_row_taller_than_the_card(box_fonts, plain_theme) -> None:
    [page] = pages(f"![]({tall_image()})\n\nafter", box_fonts, plain_theme, overflow_hidden=True)
    [placed] = page.rows
    assert placed.row.height == 2000 and placed.scale == pytest.approx(522 / 2000)
    assert page.height == 586


def test_heading_shares_its_card_with_a_tall_image(box_fonts, plain_theme) -> None:
    """The image is sized to leave its heading room on its card; the paragraphs around it
    fill a card each, so that even at its floor it cannot join either (its caption is a row
    of its own under it)."""
    first, last = "第一段文字。" * 32, "最后一段。" * 40
    md = f"{first}\n\n## 小标题\n\n![tall]({tall_image()})\n\n{last}"
    cards = pages(md, box_fonts, plain_theme, split="autoSplit")
    assert [texts(c) for c in cards][1] == ["小标题", "[tall]", ""]
    assert len(cards) == 3
    _heading, image, caption = cards[1].rows
    assert image.scale == caption.scale == 1.0
    assert caption.y + caption.row.height <= 522


@pytest.mark.parametrize(
    ("size", "rect"),
    [
        ("", (40.0, 400.0)),  # natural size
        ("|80x50", (80.0, 50.0)),
        ("|20", (20.0, 200.0)),  # width alone keeps the aspect
        ("|4000x100", (360.0, 9.0)),  # never wider than the box, aspect of the request kept
    ],
)
def test_requested_image_size(box_fonts, plain_theme, size: str, rect: tuple[float, float]) -> None:
    [page] = pages(f"![pic{size}]({tall_image(40, 400)})", box_fonts, plain_theme, width=400)
    placed, _caption = page.rows
    [picture] = [item for item in placed.row.items if isinstance(item, Picture)]
    assert (picture.rect.width, picture.rect.height) == pytest.approx(rect)
    assert texts(page) == ["[pic]", ""]  # the caption "pic" is a row of its own


WORDS = st.text(alphabet="中文字ab，。「」！", min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(
    paragraphs=st.lists(WORDS.filter(lambda t: t.strip()), min_size=1, max_size=12),
    height=st.integers(min_value=150, max_value=900),
)
def test_auto_split_loses_nothing(box_fonts, plain_theme, paragraphs, height) -> None:
    md = "\n\n".join(paragraphs)
    cards = pages(md, box_fonts, plain_theme, split="autoSplit", height=height)
    assert "".join(t for c in cards for t in texts(c)) == "".join(paragraphs)
    for card in cards:
        assert card.height == height
        assert card.rows, "no empty cards"
        last = card.rows[-1]
        # rows are placed on the card laid out 1/zoom as large (a set with a fault may take
        # a smaller type step, typesteps.type_ladder), its 32-px paddings with them
        zoom = card.fit.zoom if card.fit is not None else 1.0
        assert last.y + last.row.height * last.scale <= height / zoom - 64 + 1e-6
