"""1600x900 slides a designer posts unchanged (issue 41): the set weighed, not each slide.

On the fund explainer at 1600x900 every theme-mode rated 4/5 and traditional-chinese 3/5:
the heading, table and note were taller than a traditional-chinese slide at the legible
zoom and at the roomy one, so the note opened the next slide (`kept_lines_parted`); the
slide of a heading and a three-item list was left 55-60 % full, a band of 40 % under it;
code read 8 px on a phone; the report counted the list badges' digits (6.9 px) as the
smallest text. Now a slide tries smaller zooms down to a floor (`zoom.best_zoom`), a short
slide's items and blocks are spaced out (`spread.py`), code and cells are set near the
body's size on slides (`slidetype.py`) and a badge's digits are read as a mark.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Page, Row
from inkcard.layout.pages.breaks.breakrules import HEADING_AT_END
from inkcard.layout.pages.breaks.pagebreaks import paged
from inkcard.layout.pages.quality import PHONE_WIDTH, _post_runs, measure
from inkcard.layout.pages.slidetype import has_code
from inkcard.layout.parse.markdown import parse
from inkcard.layout.style.resolver import resolve

HARD = Path(__file__).resolve().parents[1] / "cases" / "hard"
POSTS = HARD.parent / "posts"
FUND = (HARD / "03-fund-explainer.md").read_text("utf-8")
SLIDE = layout.RenderOptions(width=1600, height=900, split="autoSplit")
CARD = layout.RenderOptions(width=440, height=586, split="autoSplit")
ITEMS = (
    "## 三个原则\n\n1. **先读目录**：知道全书结构再动手。\n2. **边读边记**：每章写一句话总结。"
    "\n3. **不求读完**：读不下去就换一本。"
)
FORMULA = "$$\n\\text{平均成本} = \\frac{\\sum_{k=1}^{n} P_k}{\\sum_{k=1}^{n} P_k / S_k}\n$$"
LEGEND = "其中 S_k 是第 k 期的净值。这就是所谓的“调和平均”：净值低的时候买到的份额更多。"
QUOTE = "> 读书不是为了读完，是为了读懂。"
CODE = (
    "```python\n"
    + "\n".join(f"total_{i} = sum(range({i}))  # step {i}" for i in range(4))
    + "\n```"
)


def pages(md: str, theme: str, options: layout.RenderOptions = SLIDE) -> list[Page]:
    return layout.layout_pages(md, themes.load(theme), layout.FontBook.load(), options)


def holding(cards: list[Page], text: str) -> list[int]:
    return [n for n, page in enumerate(cards) if any(text in p.row.text for p in page.rows)]


def phone_px(page: Page, face: str) -> float:
    """The smallest run of `face` (a substring of its name) at a 360-px phone's width."""
    assert page.fit is not None
    sizes = [size for run, size, _ in _post_runs(page) if face in run.face]
    return min(sizes) * page.fit.zoom * PHONE_WIDTH / page.width


def test_a_table_and_its_note_too_tall_for_the_legible_slide_share_a_smaller_one(fonts) -> None:
    """traditional-chinese: at both zooms it had, the note opened slide 3 above the next
    heading; 8 % smaller the heading, table and note share a slide, in four slides."""
    cards = pages(FUND, "traditional-chinese")
    assert holding(cards, "来源") == holding(cards, "20 年")
    assert not any(measure(page).broken_rules for page in cards)
    assert len(cards) == 4
    # never below the floor: the 17 px body still reads 9 px on a phone
    assert all(page.fit and page.fit.zoom * 17 * PHONE_WIDTH / 1600 >= 8.99 for page in cards)


@pytest.mark.parametrize("theme", ["minimalist", "apple-notes", "art-deco", "pop-art", "warm"])
def test_a_short_slide_before_the_last_is_spaced_out_not_left_half_empty(theme: str) -> None:
    """A heading and three items, then a formula, its legend and a quote too tall to join
    them: the list's slide was 55-60 % full; its items are now spaced apart, evenly."""
    md = f"# 读书\n\n{LEGEND}\n\n{ITEMS}\n\n{FORMULA}\n\n{LEGEND}\n\n{QUOTE}"
    cards = pages(md, theme)
    [n] = holding(cards, "不求读完")
    assert n < len(cards) - 1
    assert measure(cards[n]).fill >= 0.75, theme
    items = [p for p in cards[n].rows if p.row.source[:1] and p.row.source[0][0] == "ListBlock"]
    tops = [p.y for p in items]
    assert len(tops) == 3
    assert tops[2] - tops[1] == pytest.approx(tops[1] - tops[0], abs=1.0)


def test_a_portrait_card_keeps_its_themes_spacing() -> None:
    """Spreading is a slide's: the same post at 440x586 never spreads the list's item
    gap (its display formula, set larger since the twenty-third session, fills the card:
    the gaps may be squeezed to end it, as on any card)."""
    md = f"# 读书\n\n{LEGEND}\n\n{ITEMS}\n\n{FORMULA}\n\n{LEGEND}\n\n{QUOTE}"
    gap = resolve(themes.load("minimalist"), None)["list"].item_gap
    rows = [p.row for page in pages(md, "minimalist", CARD) for p in page.rows]
    items = [row for row in rows if row.source and row.source[0][0] == "ListBlock"]
    assert len(items) == 3
    assert all(row.gap <= gap + 1e-6 for row in items[1:])


def test_notebook_spaces_a_slide_by_whole_ruled_lines() -> None:
    """Notebook's text sits on 24 px rules: a spread slide moves rows by whole rules."""
    md = f"# 读书\n\n{LEGEND}\n\n{ITEMS}\n\n{FORMULA}\n\n{LEGEND}\n\n{QUOTE}"
    cards = pages(md, "notebook")
    [n] = holding(cards, "不求读完")
    rows = [p.row for p in cards[n].rows if p.row.source and p.row.source[0][0] == "ListBlock"]
    assert rows[1].gap >= 24.0  # spread: the items had no gap (a line each, on the rules)
    assert all(row.gap % 24.0 == pytest.approx(0.0, abs=0.01) for row in rows[1:])


@pytest.mark.parametrize("theme", ["minimalist", "traditional-chinese", "darktech"])
def test_code_on_a_slide_reads_what_its_body_reads(theme: str) -> None:
    """Code set at 12.8-13.5 px read 7.4-8.5 px on a phone at 1600x900; a slide sets it
    at its body's size at least (9 px on a phone where the body reads 10 since issue 41's
    seventh session, at 14.4 px; 10 px now). The 440x586 card keeps the theme's own size
    (md2card's 12.8 px: the default card has no phone floor, `zoom.phone_floor`)."""
    md = f"# 代码\n\n一段说明。\n\n{CODE}"
    slide = [page for page in pages(md, theme) if any("total_3" in p.row.text for p in page.rows)]
    assert slide[0].fit is not None
    body = resolve(themes.load(theme), None)["body"].size
    assert phone_px(slide[0], "Mono") >= body * slide[0].fit.zoom * PHONE_WIDTH / 1600 - 0.01
    assert phone_px(slide[0], "Mono") >= 9.4
    card = [
        page for page in pages(md, theme, CARD) if any("total_3" in p.row.text for p in page.rows)
    ]
    own = resolve(themes.load(theme), None)["code_block"].size
    assert phone_px(card[0], "Mono") * 440 / PHONE_WIDTH == pytest.approx(own, abs=0.05)


def test_the_report_reads_a_list_badges_digits_as_a_mark() -> None:
    """A slide of numbered items scored 38-74 for its badge digits (6.9 px on a phone); the
    smallest text it reports is now the words', and the digits' contrast still counts."""
    cards = pages(f"# 读书\n\n{LEGEND}\n\n{ITEMS}\n\n{FORMULA}\n\n{LEGEND}", "notebook")
    [n] = holding(cards, "不求读完")
    quality = measure(cards[n])
    assert quality.smallest_text >= 9.9
    assert quality.score >= 85


def test_a_slide_sets_code_at_the_body_size_without_breaking_a_rule() -> None:
    """art-deco's asyncio tutorial: code at 14.4 px parted a heading from its code at every
    zoom of the ladder, and the slides fell back to the theme's 12.8 px (7.8 px on a
    phone); set 1.4 lines apart, code at the body's size keeps every chain whole at the
    ladder's smallest zoom, and reads what its body reads (8.6 px)."""
    md = (HARD / "02-asyncio-tutorial.md").read_text("utf-8")
    cards = pages(md, "art-deco")
    assert not any(measure(page).broken_rules for page in cards)
    assert min(measure(page).smallest_text for page in cards) >= 8.6


@pytest.mark.parametrize("theme", ["pop-art", "art-deco", "typewriter", "business"])
def test_a_table_a_roomier_slide_holds_whole_is_not_split_for_larger_type(theme: str) -> None:
    """The Chengdu guide's Day 2 table (a header and four rows) is taller than a framed
    slide at the legible zoom but fits the roomy one, its rows set tight: it is not taken
    for a block too tall for any slide (`zoom.BEYOND`), and stays whole."""
    cards = pages((HARD / "01-chengdu-travel.md").read_text("utf-8"), theme)
    assert len(set(holding(cards, "杜甫草堂") + holding(cards, "出发"))) == 1
    assert not any(measure(page).broken_rules for page in cards)


def test_a_quote_a_smaller_zoom_holds_whole_is_not_split_over_slides() -> None:
    """The 12 notes' four-paragraph opening quote split 2 | 2 over pop-art's first two
    legible slides, two boxes where the author wrote one: a quote or callout split over
    slides is a fault like a split table (`zoom._UNITS`), and a zoom one step smaller holds
    it on the title slide (four slides, the last 60 % full, became three)."""
    cards = pages((HARD / "11-quotes-lists.md").read_text("utf-8"), "pop-art")
    quotes = {n for n, page in enumerate(cards) for p in page.rows if p.row.source[0][0] == "Quote"}
    assert quotes == {0}
    assert not any(measure(page).broken_rules for page in cards)


def test_a_slide_of_two_items_is_not_spaced_out() -> None:
    """Two items a slide left over from a list (the recipe's ingredients in art-deco) set a
    line apart read as a fault: a slide spaces out three things or more."""
    md = (HARD / "07-recipe.md").read_text("utf-8")
    cards = pages(md, "art-deco")
    gap = resolve(themes.load("art-deco"), None)["list"].item_gap
    for page in cards:
        items = [p.row for p in page.rows if p.row.source and p.row.source[0][0] == "ListBlock"]
        opened = [row for a, row in itertools.pairwise(items) if a.source[:2] != row.source[:2]]
        if len(items) == 2:
            assert all(row.gap <= gap + 0.01 for row in opened)


@pytest.mark.parametrize("theme", ["business", "apple-notes", "notebook", "warm", "art-deco"])
def test_a_decks_title_with_no_lead_stands_as_its_cover(theme: str) -> None:
    """The dense headings post opens on its title and a heading with no text under it: the
    title could end no slide (a heading last), so slide 1 held the title, two headings and
    a paragraph, and slide 2 the next heading and its one-line paragraph, 29-45 % full, in
    23 theme-modes. A deck's title slide holds its title alone (`paged`'s `cover`): set as
    the cover, it frees slide 2 to hold three sections, and no slide before the last is
    half empty or breaks a rule."""
    cards = pages((HARD / "10-headings-dense.md").read_text("utf-8"), theme)
    first = cards[0]
    assert first.fit is not None and first.fit.title and first.fit.cover
    assert {p.row.source[:1] for p in first.rows} == {cards[0].rows[0].row.source[:1]}
    assert all(measure(page).fill >= 0.55 for page in cards[1:-1]), theme
    assert not any(measure(page).broken_rules for page in cards)
    assert len(cards) == 4


def test_a_title_alone_ends_a_slide_decks_first_card_only() -> None:
    """A title, two headings with nothing under them and a paragraph are a chain taller
    than a card: it broke where it had to, after a heading (`heading_at_card_end`). With
    `cover` (a deck) the title alone opens the set, and no rule is broken; without, as on a
    portrait card, the title still keeps with the heading under it."""

    def block(kind: str, n: int, height: float, *, keep: bool = False) -> Row:
        return Row(height, (), keep_with_next=keep, text=f"{kind}{n}", source=((kind, n),))

    rows = [block("Heading", 0, 30, keep=True), block("Heading", 1, 20, keep=True)]
    rows += [block("Heading", 2, 20, keep=True), block("Paragraph", 3, 40)]
    rows += [block("Heading", 4, 20, keep=True), block("Paragraph", 5, 40)]
    deck = paged(rows, 100.0, cover=True)
    assert [row.text for row in deck.pages[0]] == ["Heading0"]
    assert not any(deck.broken)
    card = paged(rows, 100.0)
    assert card.broken[0] == (HEADING_AT_END,)
    assert card.pages[0][:2] == rows[:2]


def test_a_cover_slide_is_taken_only_where_no_zoom_needs_none() -> None:
    """The recipe takes a title card alone and three slides at the legible zoom, or three
    slides at a smaller one (its title, ingredients and steps on the first): a cover is a
    slide more, weighed in the ladder (`zoom._bare`), so the three win."""
    cards = pages((HARD / "07-recipe.md").read_text("utf-8"), "business")
    assert len(cards) == 3
    assert len({p.row.source[:1] for p in cards[0].rows}) > 1


def test_a_slide_left_a_hole_gives_way_to_a_near_miss_one_zoom_smaller() -> None:
    """notebook's edge cases at the legible zooms: six slides, the second two short
    paragraphs, 38 % full (the lead-in "Nested lists:" and its list, a keep chain, went
    whole to slide 3). One step of the ladder smaller, five slides, the emoji line, the
    lead-in and the list share slide 2; the slide left at 54 % is a near miss, not a hole
    (`zoom.SLIDE_HOLE`). (Four since its table's cells tighten their sides to hold one line
    each: the table, no longer wrapped, joins the last slide.)"""
    cards = pages((POSTS / "06-edge-cases.md").read_text("utf-8"), "notebook")
    assert len(cards) <= 5
    assert holding(cards, "Emoji mix") == holding(cards, "Nested lists") == holding(cards, "second")
    assert min(measure(page).fill for page in cards[:-1]) >= 0.5
    assert not any(measure(page).broken_rules for page in cards)


HABITS = (HARD.parent / "rated" / "morning-habits.md").read_text("utf-8")
RECIPE = (HARD.parent / "rated" / "recipe-tip.md").read_text("utf-8")


@pytest.mark.parametrize(
    "theme",
    [
        "apple-notes",
        "business",
        "japanese-magazine",
        "cyberpunk",
        "art-deco",
        "traditional-chinese",
        "pop-art",
        "typewriter",
    ],
)
def test_each_slide_of_an_essay_deck_opens_with_a_heading(theme: str) -> None:
    """An English essay of five short sections: "Do the hard thing first" (a heading, a
    quote and a two- or three-line paragraph) ended its slide with the quote and opened the
    next one with its paragraph above "Move, even a little" in these eight themes (the
    report missed it: it measured the end with the gap before the next heading, and a
    slide's three lines are 41 % of its room, over the card's 30 %: `TAIL_SLIDE`). A
    deck pays more for a stranded end than for a slide of one short section, and the zoom
    ladder counts one as a fault: every slide after the title opens with a heading, on as
    many slides."""
    deck = pages(HABITS, theme)
    assert not any(page.fit is not None and page.fit.stranded for page in deck)
    assert all(page.rows and page.rows[0].row.source[:1][0][0] == "Heading" for page in deck[1:])
    assert len(deck) <= 6


@pytest.mark.parametrize("theme", ["apple-notes", "nature", "warm", "typewriter"])
def test_a_short_post_that_one_slide_holds_is_one_slide(theme: str) -> None:
    """Tokyo's and Seoul's cafés: at the legible zoom the Seoul heading and its one line
    were left alone on a second slide, 29-35 % full; a rung or two smaller the post is one
    slide, as a designer composes a short post."""
    deck = pages((POSTS / "07-japanese-korean.md").read_text("utf-8"), theme)
    assert len(deck) == 1


def test_a_deck_keeps_a_table_whole_rather_than_its_sections_end() -> None:
    """business's recipe: paying more for a stranded tip than for a split table set the
    ingredients 3 | 2 over two slides; a table that fits a slide (its rows set tight) is
    not split on a deck, and the tip that follows it is the lesser fault."""
    deck = pages(RECIPE, "business")
    tables = [
        n for n, page in enumerate(deck) if any("牛腩 | 300" in p.row.text for p in page.rows)
    ]
    last = [
        n for n, page in enumerate(deck) if any("生抽 / 老抽 |" in p.row.text for p in page.rows)
    ]
    assert tables == last


@pytest.mark.parametrize(
    ("post", "code"),
    [
        ("# T\n\n```mermaid\nflowchart TD\n  A --> B\n```\n", False),  # a diagram is no code
        ("# T\n\n```python\nprint(1)\n```\n", True),
        ("# T\n\n- a list\n\n  ```sh\n  ls\n  ```\n", True),  # code in a list still is
    ],
)
def test_a_post_with_code_is_one_predicate(post: str, code: bool) -> None:
    """The page breaker and the zoom ladder ask the same question (`has_code`): the breaker
    took a Mermaid diagram's rows for code and kept a deck's short end a card's."""
    assert has_code(parse(post)) is code


def test_a_paragraph_a_smaller_zoom_holds_on_one_slide_is_not_split_over_two() -> None:
    """The essay at 1600x900 in darktech cut "and exclusion was / dangerous." over two
    legible slides, three of its paragraphs parted mid-sentence with room left on the
    slide before: a paragraph a slide holds with room to spare, split, is a fault the zoom
    ladder weighs (`zoom.split_paragraphs`), and 0.93 of the zoom sets each one whole."""
    cards = pages((HARD / "05-english-essay.md").read_text("utf-8"), "darktech")
    slides: dict[tuple[str, int], set[int]] = {}
    for n, page in enumerate(cards):
        for placed in page.rows:
            if placed.row.source and placed.row.source[0][0] == "Paragraph":
                slides.setdefault(placed.row.source[0], set()).add(n)
    assert all(len(found) == 1 for found in slides.values()), slides
    assert not any(measure(page).broken_rules for page in cards)


@pytest.mark.parametrize("theme", ["apple-notes", "business", "minimal", "typewriter"])
def test_every_list_of_a_deck_keeps_one_item_gap(theme: str) -> None:
    """The skincare deck: the 早上 list shares its slide (full), the 晚上 list has one of its
    own, and spreading that slide set its items twice as far apart as the other list's (41
    slide sets, fifth look). A list's items grow by one amount over the deck: here none,
    as the full slide's cannot."""
    deck = pages((HARD / "12-skincare-routine.md").read_text("utf-8"), theme)
    gaps: dict[tuple[tuple[str, int], ...], set[float]] = {}
    for page in deck:
        rows = [p.row for p in page.rows]
        for above, row in itertools.pairwise(rows):
            same = row.source[:1] == above.source[:1] and row.source[:1]
            if same and row.source[0][0] == "ListBlock" and row.source[:2] != above.source[:2]:
                gaps.setdefault(row.source[:1], set()).add(round(row.gap, 3))
    assert len(gaps) >= 2, theme
    assert len(set().union(*gaps.values())) == 1, gaps


def test_a_zoom_that_sets_no_plate_wins_a_tie(fonts) -> None:
    """Skincare's tip could not join its title and lead on art-deco's legible slide: it
    stood alone on slide 2 at 31 %, set in its middle as a plate (`centring.lone_block`), so
    no fault counted it, and the set tied with the one 4 % smaller where the title, lead
    and tip share slide 1; the larger zoom won. Of sets with as many faults, the one with
    fewer plates wins (`zoom.plates`): five slides, the tip on the first."""
    post = (HARD / "12-skincare-routine.md").read_text("utf-8")
    pages = layout.layout_pages(post, themes.load("art-deco"), fonts, SLIDE)
    first = [placed.row.text for placed in pages[0].rows]
    assert len(pages) == 5 and any("耳后试用" in text for text in first), first
