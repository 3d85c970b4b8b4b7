"""A post's title card is set as its cover (pages/short.py, compose.py `_cover`): a first
card holding only the title and lead, left mostly empty, has them laid out again larger in
its optical centre, its frame and page number those of the set's other cards; and the
quality report costs a title card left plain."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Cached, GlyphRun, Group, Item, Layer, Page
from inkcard.layout.pages.cardface import content_box
from inkcard.layout.pages.quality import FULL_ENOUGH, measure
from inkcard.layout.pages.setting.short import COVER_LINE, FULL, shortest_title_line, title_lines
from inkcard.layout.style import resolve

COVERS = Path(__file__).resolve().parents[1] / "cases" / "covers"
SKINCARE = (COVERS / "skincare-zh.md").read_text("utf-8")
RUNNING = (COVERS / "running-en.md").read_text("utf-8")
PORTRAIT = layout.RenderOptions(width=440, height=586, split="autoSplit")
# The exam plan with a fifth item on its daily checklist: four whole, the list moves under
# the gantt on card 2 and most themes set the title and lead on card 1 with the gantt;
# five split as before, and the title and lead stand alone as the post's cover.
EXAM_PLAN = (
    (Path(__file__).resolve().parents[1] / "cases" / "hard" / "16-exam-plan.md")
    .read_text("utf-8")
    .replace("- [ ] 睡前复盘错题", "- [ ] 睡前复盘错题\n- [ ] 周末整理笔记")
)


def _runs(items: tuple[Item, ...], scale: float = 1.0) -> Iterator[tuple[GlyphRun, float]]:
    for item in items:
        if isinstance(item, GlyphRun):
            yield item, scale
        elif isinstance(item, Group):
            yield from _runs(item.items, scale * item.scale)
        elif isinstance(item, Layer | Cached):
            yield from _runs(item.items, scale)


def _largest_text(page: Page) -> float:
    """The largest type among the card's rows (the title's), in px."""
    return max(run.size * scale for p in page.rows for run, scale in _runs(p.row.items))


def _chrome(page: Page) -> list[float]:
    """The sizes of the type the card sets over its rows (its page number)."""
    return [run.size * scale for run, scale in _runs(page.items[-1:])]


def test_a_roomy_title_card_is_the_posts_cover(fonts: layout.FontBook) -> None:
    """The fault of issue 41: a title card, the h1 and one intro paragraph, stood 57 % full
    at the theme's size (pop-art's skincare card, rated 4/5, scored 100). Its title and lead
    are set larger (warm: 1.25 times), in the card's optical centre; the page number stays
    as on card 2, and the set keeps its three cards. (pop-art's skincare post, the first
    case, now takes five cards of larger type, each section whole, its title card 78 %
    full: a short list a narrow column wrapped no longer splits, thirty-sixth session.)"""
    theme = themes.load("warm")
    pages = layout.layout_pages(SKINCARE, theme, fonts, PORTRAIT)
    first, second = pages[0], pages[1]
    assert len(pages) == 3
    assert first.fit is not None and first.fit.title and first.fit.cover and first.fit.offset > 0
    quality = measure(first)
    assert quality is not None and 0.5 < quality.fill <= FULL and quality.score == 100
    h1 = resolve(theme, None)["h1"].size
    assert _largest_text(first) == pytest.approx(1.25 * h1)
    assert _chrome(first) == _chrome(second) and _chrome(first)  # the same page number


def test_a_covers_title_keeps_whole_phrases(fonts: layout.FontBook) -> None:
    """Every line of a cover's title spans at least `COVER_LINE` of the measure (as its
    shortest at the theme's size does): a step that would leave "清单：" alone on a line
    (pop-art's skincare title at 1.2) is not taken."""
    covers = 0
    for name in ("pop-art", "nature", "traditional-chinese", "coil-notebook"):
        theme = themes.load(name)
        box = content_box(resolve(theme, None), PORTRAIT.width, PORTRAIT.height)
        for post in (SKINCARE, RUNNING):
            first = layout.layout_pages(post, theme, fonts, PORTRAIT)[0]
            if first.fit is not None and first.fit.cover:
                covers += 1
                rows = [placed.row for placed in first.rows]
                assert shortest_title_line(rows, box.width) >= COVER_LINE, name
    assert covers >= 4


def test_a_full_first_card_is_unchanged(fonts: layout.FontBook) -> None:
    """apple-notes fills its first card with the title, the lead and the first section:
    no title card, no cover, its rows at the top (87 %: its table, one line a row since
    its cells tighten their sides, leaves the breaker room to end card 2 at its section)."""
    first = layout.layout_pages(SKINCARE, themes.load("apple-notes"), fonts, PORTRAIT)[0]
    assert first.fit is not None and not first.fit.title and not first.fit.cover
    assert first.fit.offset == 0
    quality = measure(first)
    assert quality is not None and quality.fill > 0.85


@pytest.mark.parametrize("name", ["pop-art", "art-deco", "traditional-chinese", "minimal"])
def test_the_running_posts_title_card_is_a_cover_in_framed_and_plain_themes(
    fonts: layout.FontBook, name: str
) -> None:
    """The English running diary's title and lead, 49 to 64 % full at the top or in the
    middle at the theme's size, are its cover: larger, fuller, scored 100 (minimal, which
    centres rather than composes a short post, centres its cover in the middle)."""
    first = layout.layout_pages(RUNNING, themes.load(name), fonts, PORTRAIT)[0]
    assert first.fit is not None and first.fit.cover
    quality = measure(first)
    assert quality is not None and 0.7 <= quality.fill <= FULL and quality.score == 100


def test_a_title_ending_on_a_bracketed_aside_makes_a_cover(fonts: layout.FontBook) -> None:
    """考研英语 60 天冲刺计划 / （附时间表）: the aside's line, 0.45 of the measure, was taken for
    a stub and the cover refused, the title and lead left at body size in an empty card
    (the exam plan's apple-notes set, rated a weak cover at three sizes). A bracketed aside
    on the last line is a whole phrase. (apple-notes now holds the post on two cards a
    step smaller, its gantt beside the title: art-deco still sets the title as a cover,
    the aside alone on its last line.)"""
    post = EXAM_PLAN
    first = layout.layout_pages(post, themes.load("art-deco"), fonts, PORTRAIT)[0]
    assert first.rows[2].row.text == "（附时间表）"
    assert first.fit is not None and first.fit.cover
    quality = measure(first)
    assert quality is not None and quality.score > 90  # 46 at body size; 42 % full as a cover


def test_a_title_card_left_plain_costs_what_it_lacks(fonts: layout.FontBook) -> None:
    """The same first card scored as if left at the theme's size (`Fit.cover` off): in its
    middle or at the top, it loses a point a percent under `FULL_ENOUGH`, though the next
    card opens a section (warm's 57 % card: 82, as a designer's 4/5)."""
    first = layout.layout_pages(SKINCARE, themes.load("warm"), fonts, PORTRAIT)[0]
    assert first.fit is not None and first.fit.section_end
    cover = measure(first)
    plain = measure(replace(first, fit=replace(first.fit, cover=False)))
    at_top = measure(replace(first, fit=replace(first.fit, cover=False, offset=0.0)))
    assert cover is not None and plain is not None and at_top is not None
    assert cover.score == 100
    lacks = round(100 - 100 * (FULL_ENOUGH - plain.fill))
    assert plain.score == lacks < 95 and at_top.score == lacks


SLIDE = layout.RenderOptions(width=1600, height=900, split="autoSplit")
CASES = Path(__file__).resolve().parents[1] / "cases"
HABITS = (CASES / "rated" / "morning-habits.md").read_text("utf-8")
CHENGDU = (CASES / "hard" / "01-chengdu-travel.md").read_text("utf-8")


@pytest.mark.parametrize(("post", "theme"), [(HABITS, "fairytale"), (CHENGDU, "notebook")])
def test_a_decks_title_slide_is_set_as_its_cover(
    fonts: layout.FontBook, post: str, theme: str
) -> None:
    """A slide's measure is twice a card's: a title that grows into two even phrases
    ("Five habits / for a focused morning") had a line under half the measure and was
    refused: notebook's Chengdu title slide was left at the deck's type, 40 % full, and
    fairytale's habits cover took the largest step that kept its title on one line. On a
    slide no title line may be under half its longest line instead: the title slide is
    the deck's cover, its title grown into two even lines."""
    first = layout.layout_pages(post, themes.load(theme), fonts, SLIDE)[0]
    assert first.fit is not None and first.fit.title and first.fit.cover
    quality = measure(first)
    assert quality is not None and 0.55 < quality.fill <= FULL
    box = content_box(resolve(themes.load(theme), None), 1600, 900)
    lines = title_lines([placed.row for placed in first.rows], box.width)
    assert len(lines) >= 2 and min(lines) >= COVER_LINE * max(lines)


RECIPE = (CASES / "rated" / "recipe-tip.md").read_text("utf-8")
DENSE = (CASES / "hard" / "10-headings-dense.md").read_text("utf-8")


def _smallest_text(page: Page) -> float:
    return min(run.size * scale for p in page.rows for run, scale in _runs(p.row.items))


@pytest.mark.parametrize("theme", ["apple-notes", "business", "art-deco"])
def test_a_title_slide_sets_its_title_larger_than_a_cards_cover(
    fonts: layout.FontBook, theme: str
) -> None:
    """At a card's largest cover step (1.25) the recipe's one-line title spanned 64 % of
    apple-notes' slide and 38 % of its height: a heading on an empty slide. A title slide
    grows its title further while it keeps its lines, its lead at a card's step."""
    deck = layout.layout_pages(RECIPE, themes.load(theme), fonts, SLIDE)
    cover, plain = deck[0], deck[1]
    assert cover.fit is not None and cover.fit.cover
    h2 = _largest_text(plain)  # the next slide's heading, at the deck's type
    h1 = resolve(themes.load(theme), None)["h1"].size / resolve(themes.load(theme), None)["h2"].size
    assert _largest_text(cover) > 1.25 * h1 * h2 + 0.01
    assert _smallest_text(cover) <= 1.25 * _smallest_text(plain) + 0.01  # the lead: a card's


def test_a_title_slide_keeps_its_titles_lines(fonts: layout.FontBook) -> None:
    """At 1.6 pop-art's "从零到一：一个独立开发者的 / 第一年复盘（收入、踩坑与心态）" rewrapped
    into three lines, "一个独立 / 开发者" apart: past a card's steps the title keeps its lines
    (at a card's step it may take the three its balancer gives, "从零到一： / 一个独立开发者的
    第一年 / 复盘（收入、踩坑与心态）", every word whole)."""
    first = layout.layout_pages(DENSE, themes.load("pop-art"), fonts, SLIDE)[0]
    box = content_box(resolve(themes.load("pop-art"), None), 1600, 900)
    rows = [placed.row for placed in first.rows]
    assert first.fit is not None and first.fit.cover
    lines = [row.text.strip() for row in rows if row.source[0][0] == "Heading"]
    assert len(title_lines(rows, box.width)) == len(lines) <= 3
    assert not any(line.endswith(("独立", "、")) for line in lines), lines


@pytest.mark.parametrize("name", ["notebook", "cyberpunk", "art-deco", "pop-art"])
def test_a_covers_lead_breaks_between_phrases(fonts: layout.FontBook, name: str) -> None:
    """A cover's lead is display type: broken where a title is, between phrases and never
    inside a bold term (the exam plan's "55 分冲 / 到 75 分" split 冲到 on 14 covers at
    440 px; as a title's, "真题 / + 作文模板" split its key phrase)."""
    post = EXAM_PLAN
    first = layout.layout_pages(post, themes.load(name), fonts, PORTRAIT)[0]
    assert first.fit is not None and first.fit.cover
    lines = [placed.row.text.strip() for placed in first.rows]
    assert not any(line.endswith("冲") for line in lines), lines
    assert any("真题 + 作文模板" in line for line in lines), lines


@pytest.mark.parametrize("name", ["apple-notes", "brandA", "darktech", "fairytale"])
@pytest.mark.parametrize("width", [440, 1080])
def test_a_covers_lead_leaves_no_stub_before_its_last_line(
    fonts: layout.FontBook, name: str, width: int
) -> None:
    """A lead's phrase too long for what is left of a line goes down whole; filled greedily
    the line after it could be a stub: 系统 1 快、自动、凭直觉；系统 2 慢、费力、 / 讲逻辑。 /
    大多数时候… on the reading notes' cover (fifth look, 1080 px). Its lines are set with
    the least squared room before the last (`heading.lead`): each line before the last is
    at least half as wide as the widest."""
    from inkcard.layout.pages.setting.short import _edges

    post = (CASES / "hard" / "13-reading-notes.md").read_text("utf-8")
    size = layout.RenderOptions(width=width, height=width * 4 // 3, split="autoSplit")
    first = layout.layout_pages(post, themes.load(name), fonts, size)[0]
    assert first.fit is not None and first.fit.cover
    lead = [p.row for p in first.rows if p.row.source and p.row.source[-1][0] == "Paragraph"]
    spans = [right - left for left, right in (_edges(row.items) for row in lead)]
    assert len(lead) >= 3 and min(spans[:-1]) >= 0.5 * max(spans), [r.text for r in lead]


@pytest.mark.parametrize(
    ("post", "name", "size"),
    [
        ("16-exam-plan.md", "coil-notebook", (500, 500)),
        ("16-exam-plan.md", "art-deco", (440, 586)),
        ("17-home-workout.md", "business", (440, 586)),
    ],
)
def test_a_covers_lead_leaves_no_stub_last_line(
    fonts: layout.FontBook, post: str, name: str, size: tuple[int, int]
) -> None:
    """The exam plan's cover lead ended 关键是真题 + 作文模板两条线 / 同时推进。, its last line a
    quarter of the measure where the line before had room to give (tenth look, 500x500:
    "never leave a single-phrase last line"); the workout's …休息 20 秒， / 一共 4 轮。. A
    last line under `SHORT_LAST` of the measure costs as a line ending between phrases."""
    from inkcard.layout.pages.setting.short import _edges
    from inkcard.layout.text.heading.lead import SHORT_LAST

    text = (CASES / "hard" / post).read_text("utf-8")
    options = layout.RenderOptions(width=size[0], height=size[1], split="autoSplit")
    first = layout.layout_pages(text, themes.load(name), fonts, options)[0]
    lead = [p.row for p in first.rows if p.row.source and p.row.source[0] == ("Paragraph", 2)]
    spans = [right - left for left, right in (_edges(row.items) for row in lead)]
    assert len(lead) >= 3 and spans[-1] >= SHORT_LAST * max(spans), [r.text for r in lead]


@pytest.mark.parametrize("name", ["minimal", "coil-notebook", "brandC", "watercolor"])
def test_a_long_english_lead_is_set_as_a_paragraph_keeping_its_words(
    fonts: layout.FontBook, name: str
) -> None:
    """The running post's lead broken between phrases took seven lines ("…and a phone /
    full of half-finished apps. / Twelve weeks later I ran / …"): a poem, not a lead
    (`lead.LEAD_LINES`). It is set as a paragraph, but as display type still: no line
    ends on a count before the word it counts ("I ran 10 / kilometres":
    `opportunities.hold_small_words`), nor after the hyphen of "half-finished"."""
    first = layout.layout_pages(RUNNING, themes.load(name), fonts, PORTRAIT)[0]
    assert first.fit is not None and first.fit.cover
    lines = [p.row.text.strip() for p in first.rows if p.row.source[0][0] == "Paragraph"]
    assert "Twelve weeks later I ran" not in lines, lines
    assert not any(line.split(" ")[-1] == "10" for line in lines), lines
    assert not any(line.endswith("-") for line in lines), lines


@pytest.mark.parametrize(
    ("post", "size"),
    [
        ("14-git-cheatsheet.md", (440, 586)),
        ("14-git-cheatsheet.md", (500, 500)),
        ("15-english-focus.md", (500, 500)),
    ],
)
@pytest.mark.parametrize("name", ["apple-notes", "brandA", "brandC", "coil-notebook", "nature"])
def test_a_lead_broken_early_between_phrases_is_set_as_a_filled_paragraph(
    fonts: layout.FontBook, post: str, size: tuple[int, int], name: str
) -> None:
    """A title card's lead broken between phrases left 写代码三年，git 命令我最常搜的 / 就是这几
    条。收藏起来，下次手滑不慌。 (the git post's masthead, 14 theme-modes of the eleventh
    look: its first line 80 % of the measure under a full one) and set the English habits'
    lead as six lines of a poem (65-75 %): a line that ends at no pause shorter than the
    line under it reads as broken early (`lead.reads_as_display`). Such a lead is set as a
    paragraph, its lines before the last that end at no pause filling 85 % of the measure
    on average."""
    from inkcard.layout.pages.setting.short import _edges

    text = (CASES / "hard" / post).read_text("utf-8")
    options = layout.RenderOptions(width=size[0], height=size[1], split="autoSplit")
    theme = themes.load(name)
    first = layout.layout_pages(text, theme, fonts, options)[0]
    measure_width = content_box(resolve(theme, None), *size).width
    paragraphs = [p.row for p in first.rows if p.row.source[0][0] == "Paragraph"]
    lead = [row for row in paragraphs if row.source[0] == paragraphs[0].source[0]]
    spans = [right - left for left, right in (_edges(row.items) for row in lead)]
    unpaused = [span for row, span in zip(lead[:-1], spans, strict=False) if _unpaused(row.text)]
    assert len(lead) >= 2, [row.text for row in lead]
    fill = sum(unpaused) / len(unpaused) / measure_width if unpaused else 1.0
    assert fill >= 0.85, (round(fill, 2), [row.text for row in lead])


def _unpaused(text: str) -> bool:
    """Whether a line ends at no pause (`linebreak.PAUSES`) nor a sentence's end."""
    from inkcard.layout.text.heading.lead import SENTENCE_ENDS
    from inkcard.layout.text.linebreak import PAUSES

    return text.strip()[-1:] not in PAUSES | SENTENCE_ENDS


@pytest.mark.parametrize("name", ["apple-notes", "brandA", "brandC", "coil-notebook", "nature"])
@pytest.mark.parametrize("width", [440, 1080])
def test_a_leads_phrases_that_end_at_pauses_stay_display(
    fonts: layout.FontBook, name: str, width: int
) -> None:
    """The reading notes' lead, five lines of phrases each ending at a pause (丹尼尔·卡尼曼把
    人的思考分成两套系统： / 系统 1 快、自动、凭直觉； / …), reads as display type and keeps its
    lines (apple-notes, brandA); brandC's and coil-notebook's, whose first line ended 把人的
    short of a full one, are set as prose: no line of the lead ends there."""
    size = layout.RenderOptions(width=width, height=width * 4 // 3, split="autoSplit")
    text = (CASES / "hard" / "13-reading-notes.md").read_text("utf-8")
    first = layout.layout_pages(text, themes.load(name), fonts, size)[0]
    paragraphs = [p.row for p in first.rows if p.row.source[0][0] == "Paragraph"]
    lines = [row.text.strip() for row in paragraphs if row.source[0] == paragraphs[0].source[0]]
    assert lines and not any(line.endswith("把人的") for line in lines), lines
    if name in ("apple-notes", "brandA"):
        assert "系统 1 快、自动、凭直觉；" in lines, lines


SQUARE = layout.RenderOptions(width=500, height=500, split="autoSplit")


@pytest.mark.parametrize(
    ("name", "post", "options"),
    [
        ("warm", "15-english-focus", PORTRAIT),
        ("brandC", "05-english-essay", SQUARE),
        ("dreamy", "15-english-focus", PORTRAIT),
        ("pop-art", "15-english-focus", PORTRAIT),
    ],
)
def test_a_covers_lead_is_never_hyphenated(
    fonts: layout.FontBook, name: str, post: str, options: layout.RenderOptions
) -> None:
    """An English cover's lead breaks between words, never inside one ("check- / ing" on
    warm's cover of the English post). brandC sets the English post a step larger since
    its centred h2 keeps more room above it (fortieth session), a title card, not a
    cover: its English cover is the essay's at 500x500."""
    text = (CASES / "hard" / f"{post}.md").read_text("utf-8")
    first = layout.layout_pages(text, themes.load(name), fonts, options)[0]
    assert first.fit is not None and first.fit.cover
    assert not any(placed.row.broken_word for placed in first.rows), name


@pytest.mark.parametrize(
    ("name", "post"), [("brandC", "02-asyncio-tutorial"), ("fairytale", "13-reading-notes")]
)
def test_a_covers_lead_is_centred_under_a_centred_title(
    fonts: layout.FontBook, name: str, post: str
) -> None:
    """brandC and fairytale centre their titles; their covers set the lead ragged left under
    it, two compositions on one card (fourth look, 440x586). A cover's lead is centred
    under a centred title: every line's middle within an em of the measure's. (The
    English post, the case found, is set a step larger in both since their centred h2s
    keep more room above them, fortieth session: a title card, not a cover.)"""
    from inkcard.layout.pages.setting.short import _edges

    theme = themes.load(name)
    box = content_box(resolve(theme, None), PORTRAIT.width, PORTRAIT.height)
    text = (CASES / "hard" / f"{post}.md").read_text("utf-8")
    first = layout.layout_pages(text, theme, fonts, PORTRAIT)[0]
    assert first.fit is not None and first.fit.cover
    lead = [p.row for p in first.rows if p.row.source and p.row.source[-1][0] == "Paragraph"]
    assert len(lead) >= 2
    em = _largest_text(first) / 1.5
    for row in lead:
        left, right = _edges(row.items)
        assert abs((left + right) / 2 - (box.x + box.width / 2)) < em, row.text


def test_a_title_takes_smaller_type_rather_than_a_third_line(fonts: layout.FontBook) -> None:
    """pop-art's English title on a slide ran to three lines (HOW I GOT MY / MORNINGS
    BACK: / 6 HABITS THAT STUCK) and pushed half its lead onto slide 2 (fourth look,
    1600x900, four modes). Up to 10 % smaller it is two lines, each ending at a pause, and
    the lead stays whole under it."""
    post = (CASES / "hard" / "15-english-focus.md").read_text("utf-8")
    options = layout.RenderOptions(width=1600, height=900, split="autoSplit", mode="default-mode")
    first, second = layout.layout_pages(post, themes.load("pop-art"), fonts, options)[:2]
    title = [p.row.text.strip() for p in first.rows if p.row.source[0][0] == "Heading"]
    assert title == ["HOW I GOT MY MORNINGS BACK:", "6 HABITS THAT STUCK"]
    assert not any(p.row.source[0][0] == "Paragraph" for p in second.rows[:1])


@pytest.mark.parametrize("name", ["pop-art", "cyberpunk"])
def test_a_title_takes_smaller_type_to_end_a_line_before_its_aside(
    fonts: layout.FontBook, name: str
) -> None:
    """考研英语 / 60 天冲刺计划 / （附时间表） at 440 px in pop-art's and cyberpunk's wide title
    faces: up to 10 % smaller, the title is two lines, the first ending before the aside
    the second opens (a line before an aside ends at a pause, `textblocks._at_pauses`)."""
    post = EXAM_PLAN
    first = layout.layout_pages(post, themes.load(name), fonts, PORTRAIT)[0]
    title = [p.row.text.strip() for p in first.rows if p.row.source[0][0] == "Heading"]
    assert title == ["考研英语 60 天冲刺计划", "（附时间表）"]


@pytest.mark.parametrize("name", ["coil-notebook", "business", "minimal", "cyberpunk"])
def test_a_roomy_first_card_sets_its_title_and_lead_larger_over_its_section(
    fonts: layout.FontBook, name: str
) -> None:
    """The workout's card 1 (title, lead and the warm-up list, 63-69 % full, the table
    too tall to join it) read a third empty at 440x586 (seventh look: "give the cover more
    weight: a larger title or lead"). Its title and lead are set as a cover's, larger
    (`covered.masthead_of`), over the warm-up at the theme's size, and the card fills
    more, at most `FULL`."""
    post = Path(__file__).resolve().parents[1] / "cases" / "hard" / "17-home-workout.md"
    first = layout.layout_pages(post.read_text("utf-8"), themes.load(name), fonts, PORTRAIT)[0]
    styles = resolve(themes.load(name), None)
    title = {
        run.size
        for placed in first.rows
        if placed.row.source == first.rows[0].row.source
        for run, _ in _runs(placed.row.items)
    }
    items = {
        run.size
        for placed in first.rows
        if placed.row.source[0][0] == "ListBlock"
        for run, _ in _runs(placed.row.items)
    }
    assert min(title) > styles["h1"].size * 1.04, title
    assert styles["body"].size in items, items
    quality = measure(first)
    assert quality is not None and 0.7 <= quality.fill <= FULL + 0.01
