"""Portrait and square cards set as large as their content allows (issue 41).

At 440x586 art-deco and traditional-chinese set the fund explainer on three cards, the
middle one a three-item list alone, 54-55 % full: their content was 26-28 px too tall for
two cards with every gap given; traditional-chinese's Chengdu guide opened card 2 with Day
1's tip above Day 2's heading. A set with a fault (`setfaults.card_faults`: a slide's faults,
and a section's end stranded on the next card) at the theme's own type now tries a few
slightly smaller steps (`typesteps.TYPE_LADDER`) and keeps the first that clears it
(`typesteps.fault_free`); a set without one is laid out once, as before, and no step sets
the post's smallest text under the report's 11 px on a phone.
"""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec
import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Page
from inkcard.layout.pages.quality import FULL_ENOUGH, READABLE_PX, measure
from inkcard.layout.pages.typesteps import TYPE_LADDER, type_ladder
from inkcard.layout.pages.zoom import set_faults, stranded_tails
from inkcard.layout.render import parse_post
from inkcard.layout.style.resolver import resolve
from inkcard.layout.style.schema import Theme

HARD = Path(__file__).resolve().parents[1] / "cases" / "hard"
FUND = (HARD / "03-fund-explainer.md").read_text("utf-8")
CARD = layout.RenderOptions(width=440, height=586, split="autoSplit")
compose = sys.modules["inkcard.layout.pages.compose"]


def pages(md: str, theme: str, options: layout.RenderOptions = CARD) -> list[Page]:
    return layout.layout_pages(md, themes.load(theme), layout.FontBook.load(), options)


def smallest(cards: list[Page]) -> float:
    return min(quality.smallest_text for page in cards if (quality := measure(page)))


def zooms(cards: list[Page]) -> set[float]:
    return {page.fit.zoom for page in cards if page.fit is not None}


@pytest.mark.parametrize("theme", ["art-deco"])
def test_the_fund_explainer_fits_two_cards_a_step_smaller(theme: str) -> None:
    """Three cards, the middle 54-55 % full; now two, both over 90 % full, the type at
    most 6 % smaller and the smallest text still 11 px or more on a phone.
    traditional-chinese fitted two cards only with its title broken 能不能 / 赚钱; its title
    now keeps the phrase in three lines and the post takes three cards (71, 66, 97 % full:
    none half-empty; docs/decisions/engine.md, twenty-first session)."""
    cards = pages(FUND, theme)
    assert len(cards) == 2
    assert all(measure(page).fill > 0.9 for page in cards)
    assert set_faults(cards) == (0, 0)
    [zoom] = zooms(cards)
    assert min(TYPE_LADDER) <= zoom < 1.0
    assert smallest(cards) >= READABLE_PX


def test_a_set_without_a_fault_is_laid_out_once_at_the_themes_own_type(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """apple-notes sets the fund explainer without a fault: one layout, zoom 1."""
    calls: list[float] = []
    real = compose._compose

    def counted(doc, styles, fonts, images, card, premade):  # type: ignore[no-untyped-def]
        calls.append(card.width)
        return real(doc, styles, fonts, images, card, premade)

    monkeypatch.setattr(compose, "_compose", counted)
    cards = pages(FUND, "apple-notes")
    assert set_faults(cards) == (0, 0)
    assert zooms(cards) == {1.0}
    assert calls == [440]


def test_no_step_sets_text_under_what_a_phone_reads() -> None:
    """At 500x500 traditional-chinese's table cells are set as large as reads 11 px on a
    phone (a small card's floor, at its own type; 10.4 px before it): any smaller step
    would set them under it, so its fund explainer takes none (its four cards, 51-85 %
    full, are set larger instead: `growntype.grown_type`, cells at 13.2 px)."""
    square = layout.RenderOptions(width=500, height=500, split="autoSplit")
    cards = pages(FUND, "traditional-chinese", square)
    assert smallest(cards) >= READABLE_PX - 0.05
    assert type_ladder(cards) == []
    assert zooms(cards) == {1.0}


def test_a_step_keeps_the_originals_where_none_clears_the_set() -> None:
    """The long table splits over two cards in every step the ladder may take (its text
    reaches 11 px at 0.96): the set stays at the theme's own type."""
    long_table = (HARD / "08-long-table.md").read_text("utf-8")
    cards = pages(long_table, "notebook")
    assert set_faults(cards) != (0, 0)
    assert zooms(cards) == {1.0}


def test_unsplit_cards_and_fit_auto_keep_their_own_steps() -> None:
    """Only autoSplit sets are stepped; fit "auto" tries its own steps around the ladder's."""
    whole = layout.RenderOptions(width=440, height=586, split="noSplit")
    assert zooms(pages(FUND, "art-deco", whole)) == {1.0}
    fitted = layout.RenderOptions(width=440, height=586, split="autoSplit", fit="auto")
    assert len(pages(FUND, "art-deco", fitted)) == 2


def as_it_was(name: str) -> Theme:
    """traditional-chinese as it was drawn when the case below was found: its `kai-serif`
    roles in the plain Kai, Latin too, its page number at the top, so that no air is
    kept above it (`cardface.folio_air`), and its h2 22 px under the block above (27 since
    the fortieth session: test_theme_heading_space): the case needs those widths and
    heights."""
    theme = themes.load(name)
    roles = {
        role: msgspec.structs.replace(knobs, family="kai") if knobs.family == "kai-serif" else knobs
        for role, knobs in theme.roles.items()
    }
    roles["page_number"] = msgspec.structs.replace(roles["page_number"], position="top")
    roles["h2"] = msgspec.structs.replace(roles["h2"], margin_top=22.0)
    return msgspec.structs.replace(theme, roles=roles)


def test_a_step_that_strands_a_sections_end_is_not_taken() -> None:
    """traditional-chinese's English notes (`as_it_was`): card 2 is 54 % full at its own
    type; at 0.98 it is not, but card 3 opens with the quote that ends card 2's section,
    above the next heading. No step clears the set without stranding it: the theme's own
    type is kept."""
    notes = (HARD.parent / "posts" / "03-english-notes.md").read_text("utf-8")
    theme = as_it_was("traditional-chinese")
    fonts = layout.FontBook.load()
    card = compose.Card(440, 586, "autoSplit", type_step=0.98)
    smaller = compose.compose(parse_post(notes, False), resolve(theme, None), fonts, {}, card)
    assert set_faults(smaller) == (0, 0)
    assert stranded_tails(smaller) == 1
    cards = layout.layout_pages(notes, theme, fonts, CARD)
    assert set_faults(cards) != (0, 0)
    assert stranded_tails(cards) == 0
    assert zooms(cards) == {1.0}


def test_a_post_a_little_too_long_for_its_card_takes_a_step_not_a_stub(box_fonts) -> None:
    """Sixteen box-font lines in six paragraphs, 6 px over the card, in a theme that gives
    up no spacing: a second card held two lines (a stub); at 0.98 the post fits one card.
    With `type_scale = "none"` the theme keeps its px sizes and its two cards."""
    md = "\n\n".join("中" * 25 * n for n in (3, 3, 3, 3, 2, 2))
    rigid = 'name = "rigid"\n[roles.card]\ngap_squeeze = 0\n'
    [card] = layout.layout_pages(md, layout.decode_theme(rigid), box_fonts, CARD)
    assert card.fit is not None and card.fit.zoom == max(TYPE_LADDER)
    fixed = layout.decode_theme(rigid + 'type_scale = "none"\n')
    assert len(layout.layout_pages(md, fixed, box_fonts, CARD)) == 2


def holding(cards: list[Page], text: str) -> list[int]:
    return [n for n, page in enumerate(cards) if any(text in p.row.text for p in page.rows)]


@pytest.mark.parametrize("size", [(440, 586), (1080, 1440)])
def test_a_sections_end_is_not_stranded_above_the_next_heading(size: tuple[int, int]) -> None:
    """traditional-chinese's Chengdu guide opened card 2 with Day 1's tip, a quote 2 px too
    tall to end card 1, above Day 2's heading; a step smaller each day has its own card."""
    chengdu = (HARD / "01-chengdu-travel.md").read_text("utf-8")
    options = layout.RenderOptions(width=size[0], height=size[1], split="autoSplit")
    cards = pages(chengdu, "traditional-chinese", options)
    assert holding(cards, "小贴士") == holding(cards, "宽窄巷子") == [0]
    assert holding(cards, "大熊猫基地") == [1]
    assert stranded_tails(cards) == 0
    assert smallest(cards) >= READABLE_PX


def test_a_square_card_whose_cells_already_read_small_keeps_its_type() -> None:
    """At 500x500 the same guide's table cells read 10.4 px on a phone at the theme's own
    type: no step sets the cells smaller still; a card more keeps the tip with its day
    (`endskept.kept_ends`), each day on its own card under the title's cover."""
    chengdu = (HARD / "01-chengdu-travel.md").read_text("utf-8")
    square = layout.RenderOptions(width=500, height=500, split="autoSplit")
    cards = pages(chengdu, "traditional-chinese", square)
    assert stranded_tails(cards) == 0
    assert holding(cards, "小贴士") == holding(cards, "宽窄巷子") == [1]
    assert type_ladder(cards) == []
    assert zooms(cards) == {1.0}


RECIPE = (Path(__file__).resolve().parents[1] / "cases" / "rated" / "recipe-tip.md").read_text(
    "utf-8"
)


@pytest.mark.parametrize("theme", ["cyberpunk", "pop-art"])
def test_a_title_card_left_alone_tries_the_smaller_steps(theme: str) -> None:
    """Keeping the recipe's tip with its table (`breakrules.table_notes`), cyberpunk at
    440x586 set its title and lead alone on card 1 (38 % full) and split the method over
    cards 2 and 3; pop-art set four cards, its last 46 % full, and 0.98 of the type three,
    the last 45 % full. A title card alone now tries the ladder, and of the steps that save
    a card the one that leaves no short last card nor lone title wins: two cards, every
    section whole on one, at most 4 % smaller type."""
    cards = pages(RECIPE, theme)
    assert len(cards) == 2
    assert all(measure(page).fill > 0.9 for page in cards)
    assert stranded_tails(cards) == 0
    [zoom] = zooms(cards)
    assert 0.96 <= zoom < 1.0


WORKOUT = (HARD / "17-home-workout.md").read_text("utf-8")


def test_a_card_left_a_third_empty_takes_the_next_block_a_step_smaller() -> None:
    """The long article in brandA at 440x586 left card 2 (section 二 alone) 60 % full with
    section 三's heading and first paragraph a little too tall to join it. A step of the
    type ladder (0.98) holds them there: card 2 at least `FULL_ENOUGH` on as many cards."""
    post = (HARD.parent / "posts" / "04-long-article-zh.md").read_text("utf-8")
    cards = pages(post, "brandA")
    assert len(cards) == 4
    second = measure(cards[1])
    assert second is not None and second.fill >= FULL_ENOUGH
    assert zooms(cards) <= set(TYPE_LADDER)


@pytest.mark.parametrize("theme", ["apple-notes", "brandA", "glassmorphism", "typewriter"])
def test_a_roomy_first_card_takes_its_masthead_not_a_step_smaller(theme: str) -> None:
    """The workout's card 1 (title, lead, warm-up, 59-66 % full, its table a little too
    tall to join it) took the table up at 0.94-0.98 (session 29, seventh look: "move the
    table up"), its rows tight to the footer and card 2 half empty (eighth look, 15 sets
    at 440x586 and 1080x1440: "move the table to card 2"). A first card that opens with
    the title and lead over its section sets them larger instead (`covered.masthead_of`):
    the table opens card 2, which it fills; no step smaller. apple-notes, brandA and
    typewriter, whose card 2 then ran to the footer beside card 1 73-75 % full, take a
    step larger a card longer (`growntype.CRAMMED`): the table on card 2 still."""
    cards = pages(WORKOUT, theme)
    assert len(cards) == (2 if theme == "glassmorphism" else 3)
    first, table = measure(cards[0]), measure(cards[1])
    assert first is not None and table is not None
    assert "波比跳" not in cards[0].alt_text() and "波比跳" in cards[1].alt_text()
    assert first.fill >= 0.7 and table.fill >= (FULL_ENOUGH if len(cards) == 2 else 0.7)
    assert not zooms(cards) & set(TYPE_LADDER)


EXAM = (HARD / "16-exam-plan.md").read_text("utf-8")


@pytest.mark.parametrize("theme", ["cyberpunk", "darktech", "minimal"])
def test_a_figures_small_labels_do_not_bar_a_step(theme: str) -> None:
    """The exam plan's gantt reads 9 px on a phone at its own floor (its labels'), and
    that barred every step: cyberpunk set cards 2 and 3 62 and 44 % full, darktech four
    cards 59-74 %, where their content fits one card a step smaller (ninth look: "one
    card too many"). The ladder now weighs the post's words, not a figure's labels
    (`Quality.smallest_words`): two cards, each at least `FULL_ENOUGH`, the words still
    11 px or more on a phone."""
    cards = pages(EXAM, theme)
    assert len(cards) == 2
    assert all(measure(page).fill >= FULL_ENOUGH for page in cards)
    [zoom] = zooms(cards)
    assert min(TYPE_LADDER) <= zoom < 1.0
    assert min(measure(page).smallest_words for page in cards) >= READABLE_PX


def test_a_step_that_leaves_a_title_alone_gives_way_to_larger_type() -> None:
    """The Kyoto cafés at 500x500 in art-deco took 0.96 for a title card alone (61 %),
    a crowded card 2 and a last card 53 % full; the same post set larger fills three
    cards 65-100 %, the title over section 1 (`typesteps.settled_type`). pop-art's exam
    plan at 440x586, once its gantt's labels let it step, would have taken 0.94 for its
    title alone and a last card crammed 98 %: it keeps its larger type too."""
    kyoto = (HARD / "18-cafe-kyoto.md").read_text("utf-8")
    square = layout.RenderOptions(width=500, height=500, split="autoSplit")
    cards = pages(kyoto, "art-deco", square)
    assert not (cards[0].fit.title and measure(cards[0]).fill < 0.75)
    assert all(measure(page).fill >= 0.6 for page in cards)
    assert not zooms(cards) & set(TYPE_LADDER)
    exam = pages(EXAM, "pop-art")
    assert measure(exam[0]).fill >= 0.75 and measure(exam[-1]).fill < 0.9
    assert not zooms(exam) & set(TYPE_LADDER)
