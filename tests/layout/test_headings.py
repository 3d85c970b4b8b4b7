"""Headings as a designer sets them: never hyphenated, balanced lines, no lone emoji.

Every builtin theme-mode at the narrow, default and wide card widths; the posts are only
headings, so every text row of a card is a heading line.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
import regex

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Item, Page, Row

WIDTHS = (360, 440, 1080)
THEME_MODES = [(name, mode) for name in themes.names() for mode in themes.modes(name) or [""]]
LONG_WORDS = (
    "# Beginners Guide to Internationalization",
    "## LIMITATIONS OF EXTRAORDINARILY COMPREHENSIVE BENCHMARKS",
    "## Why Convergence Improves Quadratically Near Solutions",
    "### Understanding Responsibilities, Interoperability and Accountability",
    "#### Microservices Observability Considerations Demystified",
)
UNBALANCED = "## Why Small Teams Ship Faster"
_EMOJI = regex.compile(r"^[\p{Extended_Pictographic}\p{Regional_Indicator}\uFE0F\u200D]+$")
_WORDS = [
    "Shipping",
    "the",
    "new",
    "release",
    "with",
    "small",
    "careful",
    "steps",
    "every",
    "single",
    "week",
]


def heading_rows(md: str, theme_mode: tuple[str, str], width: int, fonts) -> list[Row]:
    name, mode = theme_mode
    options = layout.RenderOptions(width=width, mode=mode)
    pages: list[Page] = layout.layout_pages(md, themes.load(name), fonts, options)
    return [p.row for page in pages for p in page.rows if p.row.text and not p.row.decorative]


def _glyph_xs(items: tuple[Item, ...], dx: float = 0.0) -> Iterator[float]:
    for item in items:
        if isinstance(item, GlyphRun):
            yield from (x + dx for x in item.xs)
        elif hasattr(item, "items"):
            yield from _glyph_xs(item.items, dx + getattr(item, "dx", 0.0))


def extent(row: Row) -> float:
    """From the first glyph's origin to the last's (the line's width but its last glyph)."""
    xs = list(_glyph_xs(row.items))
    return max(xs) - min(xs)


@pytest.mark.parametrize("width", WIDTHS)
def test_no_heading_line_ends_in_a_hyphen(width: int, fonts) -> None:
    post = "\n\n".join(LONG_WORDS)
    broken = []
    for theme_mode in THEME_MODES:
        for row in heading_rows(post, theme_mode, width, fonts):
            if row.broken_word or row.text.rstrip().endswith(("-", "\u2010")):
                broken.append((theme_mode, row.text))
    assert broken == []


@pytest.mark.parametrize("width", (360, 440))
def test_a_heading_word_wider_than_its_line_sets_the_heading_smaller(width: int, fonts) -> None:
    # art-deco's spaced capitals at 440 px cut "MISUNDERSTOO / D": the heading is set
    # smaller (down to the body's size) so each of its words stays whole.
    heading = "# The Quiet Power of Being Misunderstood"
    words = {word.casefold() for word in heading[2:].split()}
    cut = []
    for theme_mode in THEME_MODES:
        rows = heading_rows(heading, theme_mode, width, fonts)
        found = {word.casefold() for row in rows for word in row.text.split()}
        if not words <= found:  # a theme's heading mark may add its own
            cut.append((theme_mode, [row.text for row in rows]))
    assert cut == []


def test_a_word_wider_than_the_line_still_breaks(fonts) -> None:
    word = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 2
    rows = heading_rows(f"# {word}", ("apple-notes", themes.modes("apple-notes")[0]), 360, fonts)
    assert len(rows) > 1
    assert "".join(row.text for row in rows) == word
    assert not any(row.broken_word for row in rows)


@pytest.mark.parametrize("width", WIDTHS)
def test_two_line_headings_are_balanced(width: int, fonts) -> None:
    """Wherever a heading takes two lines, the shorter is at least half the longer
    (greedy filling leaves "Why Small Teams Ship" over "Faster")."""
    lopsided = []
    headings = (UNBALANCED, *LONG_WORDS)
    for theme_mode in THEME_MODES:
        for md in headings:
            rows = heading_rows(md, theme_mode, width, fonts)
            if len(rows) != 2:
                continue
            first, second = extent(rows[0]), extent(rows[1])
            if min(first, second) < 0.5 * max(first, second):
                lopsided.append((theme_mode, md, [row.text for row in rows]))
    assert lopsided == []


def test_the_short_heading_from_the_report_is_balanced(fonts) -> None:
    rows = heading_rows(UNBALANCED, ("coil-notebook", "blue-mode"), 360, fonts)
    assert [row.text.strip() for row in rows] == ["Why Small Teams", "Ship Faster"]


@pytest.mark.parametrize("width", WIDTHS)
def test_an_emoji_never_ends_alone_on_a_heading_line(width: int, fonts) -> None:
    stranded = []
    for count in range(3, len(_WORDS) + 1):
        md = "## " + " ".join(_WORDS[:count]) + " 🚀"
        for theme_mode in THEME_MODES[::3]:
            for row in heading_rows(md, theme_mode, width, fonts):
                if _EMOJI.match(row.text.strip()):
                    stranded.append((theme_mode, md))
    assert stranded == []


def test_a_balanced_cjk_heading_breaks_at_its_comma_rather_than_inside_a_word(fonts) -> None:
    """Balance alone broke "一、它在做的事 / 情，其实非常简单" (inside 事情); a set of the same
    number of lines that ends at the comma reads as the sentence does."""
    rows = heading_rows(
        "## 一、它在做的事情，其实非常简单", ("traditional-chinese", ""), 440, fonts
    )
    assert [row.text for row in rows] == ["一、它在做的事情，", "其实非常简单"]


CJK_HEADINGS = (
    "## 三、为什么它会一本正经地胡说八道",
    "## 荔枝生死时速：夏天的水果怎么选才新鲜",
    "# 从零开始理解大语言模型：一篇写给普通人的长文",
    "### 模型选型：精度、速度与成本怎么平衡",
)


@pytest.mark.parametrize("width", (360, 440))
@pytest.mark.parametrize("heading", CJK_HEADINGS)
def test_a_chinese_heading_breaks_between_words(heading: str, width: int, fonts) -> None:
    """ "一 / 本正经", "荔 / 枝" and "怎 / 么" were breaks inside a word; a segmenter's word
    boundaries (rjieba) are the only breaks between two Chinese characters now."""
    from inkcard.layout.text.words import inside_words, is_han

    text = heading.lstrip("# ")
    inside = inside_words(text)
    for theme_mode in [("apple-notes", "light-mode"), ("pop-art", "default-mode"),
                       ("traditional-chinese", "")]:  # fmt: skip
        lines = [row.text for row in heading_rows(heading, theme_mode, width, fonts)]
        assert "".join(lines) == text
        offset = 0
        for line, after in itertools.pairwise(lines):
            offset += len(line)
            if is_han(line[-1]) and is_han(after[0]):
                assert offset not in inside, f"{theme_mode}: {lines}"


# Titles whose breaks a designer fixed by hand (issue 41), with the phrases a reader takes as
# one: a segmenter cuts them into one-character words (不/踩/雷, 能/不能, 用/asyncio).
PHRASES = {
    "# 成都3天2晚🐼 不踩雷的City Walk路线": ("不踩雷", "3天2晚", "City Walk"),
    "# 基金定投到底能不能赚钱？一篇讲清楚": ("能不能", "讲清楚", "定投"),
    "## 用asyncio写一个并发爬虫：从入门到上线": ("用asyncio",),
    "## 查理·芒格的投资哲学 — 逆向思考": ("查理·芒格",),
    "## 吃到撑的成都火锅地图，本地人也说好": ("吃到撑",),
    "# はじめてのチーム開発フローとレビュー": ("チーム", "フロー", "レビュー"),
    # words a reader takes as one though a segmenter parts them: no line opens on a particle
    # (读完 / 的), nor parts a numeral, its measure word and its noun (12 / 本书, 3部 / 电影)
    # or a determiner and its word (每 / 一本)
    "# 2026年我读完的12本书：每一本都改变了我": ("读完的", "12本书", "每一本", "改变了"),
    "## 今年我最喜欢的3部电影和它们的原声": ("喜欢的", "3部电影"),
    "## 从零开始学Python的第100天总结": ("Python的", "第100天"),
    "## 我在成都吃到的8家宝藏小店": ("吃到的", "8家宝藏", "宝藏小店"),
    # a title's separator ends its place name, never opens a line
    "# 上海｜藏在梧桐区的5家宝藏咖啡馆☕️ 周末就去！": ("上海｜", "咖啡馆"),
    # Japanese phrases (BudouX): jieba's Chinese cuts had "から始め / る"
    "# 京都で過ごす週末：Blue Bottle Coffeeから始める「ゆっくり旅」のすすめ": ("始める", "過ごす"),
    # a particle stays with the Latin word before it (UAX #14 parts them)
    "## Pythonから始める機械学習入門ガイド": ("pythonから",),
}


def _parted(lines: list[str], phrase: str) -> bool:
    """Whether one of `lines` ends inside `phrase` (case aside), the rest opening the next."""
    joined, whole = "\n".join(lines).casefold(), phrase.casefold()
    return any(whole[:n] + "\n" + whole[n:] in joined for n in range(1, len(whole)))


def _phrases_parted(
    table: dict[str, tuple[str, ...]], width: int, fonts, openers: tuple[str, ...], why: str
) -> list[tuple[tuple[str, str], str, list[str]]]:
    """Each heading of `table` in every theme-mode at `width`: its phrases a line parts, and
    (as `why`) a line it opens with one of `openers`."""
    split = []
    for heading, phrases in table.items():
        for theme_mode in THEME_MODES:
            lines = [row.text.strip() for row in heading_rows(heading, theme_mode, width, fonts)]
            split += [(theme_mode, phrase, lines) for phrase in phrases if _parted(lines, phrase)]
            if any(line.startswith(openers) for line in lines):
                split.append((theme_mode, why, lines))
    return split


@pytest.mark.parametrize("width", WIDTHS)
def test_a_heading_keeps_its_phrases_and_never_starts_with_a_dash(width: int, fonts) -> None:
    split = _phrases_parted(PHRASES, width, fonts, ("—", "·"), "a dash or dot opens a line")
    assert split == []


# Two-character words a segmenter parts that a reader takes as one phrase (issue 41): the
# titles broke 并发 / 爬虫 in 10 theme-modes at 440 px, 第一年 / 复盘 in 6, 独立 / 开发者 in
# 14, 能不能 / 赚钱 in 14, 不是因为 / 讨厌 in 13; an arrow opened a line of a route.
COMPOUNDS = {
    "# 用asyncio写一个并发爬虫：从入门到不踩坑": ("并发爬虫",),
    "# 从零到一：一个独立开发者的第一年复盘（收入、踩坑与心态）": ("第一年复盘",),
    "# 基金定投到底能不能赚钱？一篇讲清楚": ("基金定投",),
    "## 一、为什么辞职——不是因为讨厌上班，而是因为想试试": ("因为讨厌",),
    "## Day 1：宽窄巷子 → 人民公园 → 太古里": ("人民公园", "宽窄巷子"),
}


@pytest.mark.parametrize("width", WIDTHS)
def test_a_heading_breaks_between_clauses_not_inside_a_compound(width: int, fonts) -> None:
    split = _phrases_parted(COMPOUNDS, width, fonts, ("→",), "an arrow opens a line")
    assert split == []


# A number spaced before a measure word opens a phrase (fifth look: 冲刺 / 计划 in 7
# theme-modes at 440 px, 燃脂 / 训练 in traditional-chinese at 1080: "英语 60" was held as a
# numbered name, 系统 1, so the title's first piece ran to 计划 and broke inside it).
QUANTITIES = {
    "# 考研英语 60 天冲刺计划（附时间表）": ("冲刺计划", "考研英语"),
    "# 在家 20 分钟燃脂训练｜零器械也能练出马甲线🔥": ("燃脂训练", "零器械"),
    # a book title's localiser ends a phrase (…里 / 最有用的 5 个概念): 里最 / 有用的 in 8
    # theme-modes before
    "# 读书笔记｜《思考，快与慢》里最有用的 5 个概念": ("最有用的", "快与慢"),
}


@pytest.mark.parametrize("width", (440, 500, 1080))
def test_a_title_breaks_before_a_quantity_not_inside_the_phrase_after_it(width: int, fonts) -> None:
    """At 360 px traditional-chinese's spaced title holds five characters a line: there
    every set of four lines parts a phrase, so the rated sizes only."""
    split = _phrases_parted(QUANTITIES, width, fonts, ("—",), "a dash opens a line")
    assert split == []


@pytest.mark.parametrize("width", (440, 1080))
def test_a_heading_keeps_more_phrases_whole_where_its_lines_allow(width: int, fonts) -> None:
    """Where the line is too narrow for a phrase, or breaking between clauses only would
    leave a line under `CLAUSE_SHARE` of the longest, a heading breaks between words as
    before: at 440 px 能不能赚钱 still parts in one theme of 23 and 独立开发者 in one."""
    parted = []
    for heading, phrase in [
        ("# 基金定投到底能不能赚钱？一篇讲清楚", "能不能赚钱"),
        ("# 从零到一：一个独立开发者的第一年复盘（收入、踩坑与心态）", "独立开发者"),
    ]:
        for theme_mode in THEME_MODES:
            lines = [row.text.strip() for row in heading_rows(heading, theme_mode, width, fonts)]
            if _parted(lines, phrase):
                parted.append(theme_mode[0])
    assert len(set(parted)) <= (2 if width == 440 else 0), parted


@pytest.mark.parametrize("theme_mode", [("apple-notes", "light-mode"), ("pop-art", "default-mode")])
def test_a_clause_break_that_leaves_a_short_line_gives_way(
    theme_mode: tuple[str, str], fonts
) -> None:
    """三、 alone on a line reads worse than a balanced break between two words: a break
    between clauses only is kept while every line stays `CLAUSE_SHARE` of the longest."""
    rows = heading_rows("## 三、为什么它会一本正经地胡说八道", theme_mode, 440, fonts)
    assert [row.text.strip() for row in rows] == ["三、为什么它会", "一本正经地胡说八道"]


def test_compound_edges_part_clauses_not_compounds() -> None:
    from inkcard.layout.text.words import clause_starts, compound_edges

    text = "基金定投到底能不能赚钱"
    assert 4 in clause_starts(text)  # 基金定投 / 到底: the one-character 投 no longer holds it
    edges = compound_edges(text)
    assert 2 in edges and 4 not in edges  # 基金 / 定投 inside, 定投 / 到底 between
    assert 9 in edges  # 能不能 / 赚钱
    assert compound_edges("写一个并发爬虫") >= {3, 5}  # 一个 / 并发, 并发 / 爬虫
    assert 3 not in compound_edges("写一个并发爬虫", past_counts=True)  # 写一个 / 并发爬虫
    assert 3 in compound_edges("第一年复盘", past_counts=True)  # a span of time is no count
    assert set(range(6, 15)) <= compound_edges("第一年复盘（收入、踩坑与心态）")  # an aside


@pytest.mark.parametrize("width", (440, 1080))
def test_a_heading_keeps_a_book_title_whole(width: int, fonts) -> None:
    # At 360 px art-deco's 读《穷查理宝典》 is wider than its line: the title parts there
    # rather than leave 读 alone on a line.
    parted = []
    for theme_mode in THEME_MODES:
        lines = [
            row.text
            for row in heading_rows("# 读《穷查理宝典》的 12 条笔记", theme_mode, width, fonts)
        ]
        if not any("《穷查理宝典》" in line for line in lines):
            parted.append((theme_mode, lines))
    assert parted == []


UPPERCASE_THEMES = [
    (name, mode) for name, mode in THEME_MODES if name in ("art-deco", "pop-art", "typewriter")
]


def heading_text(md: str, theme_mode: tuple[str, str], fonts) -> str:
    return " ".join(row.text.strip() for row in heading_rows(md, theme_mode, 1080, fonts))


@pytest.mark.parametrize("theme_mode", UPPERCASE_THEMES)
def test_capitalised_headings_keep_code_brand_words_and_latin_beside_chinese(
    theme_mode: tuple[str, str], fonts
) -> None:
    """A theme that sets headings in capitals sets English in capitals, but not code
    (`httpx`), a word whose case is its name (GitHub), nor Latin inside a Chinese heading."""
    english = heading_text("# Getting started with `httpx` on GitHub and macOS", theme_mode, fonts)
    assert "GETTING STARTED WITH" in english and "httpx" in english, english
    assert "GitHub" in english and "macOS" in english, english
    chinese = heading_text("# 用asyncio写一个City Walk爬虫", theme_mode, fonts)
    assert "asyncio" in chinese and "City Walk" in chinese, chinese


LEAD = "雨の京都は、人が少なくて実はねらい目。傘ひとつで回れる、屋根の多いルートを紹介します。"


@pytest.mark.parametrize("width", WIDTHS)
def test_a_japanese_heading_is_balanced_between_its_phrases(width: int, fonts) -> None:
    """A Japanese title on two lines is balanced at BudouX's phrase edges: jieba's Chinese
    one-character words (で, 雨, の) held every edge but one, and 京都で過ごす雨の日の / 一日
    ☔ came out 10 | 3 characters in most themes at 440 px."""
    uneven = []
    post = f"# 京都で過ごす雨の日の一日 ☔\n\n{LEAD}"
    for name, mode in THEME_MODES:
        options = layout.RenderOptions(
            width=width, height=width * 4 // 3, split="autoSplit", mode=mode
        )
        [page] = layout.layout_pages(post, themes.load(name), fonts, options)
        rows = [p.row for p in page.rows if p.row.source[:1] == page.rows[0].row.source[:1]]
        lines = [row.text.strip() for row in rows if row.text]
        if len(lines) == 2 and min(len(line.replace(" ", "")) for line in lines) < 4:
            uneven.append((name, mode, lines))
    assert not uneven


@pytest.mark.parametrize("theme_mode", [("apple-notes", "light-mode"), ("minimal", "")])
def test_a_two_line_heading_may_set_its_shorter_line_first_after_a_colon(
    theme_mode: tuple[str, str], fonts
) -> None:
    """Greedy filling at any width fills the first line: balanced, the title broke
    "打工人必备：5 个让效率 / 翻倍的小习惯" inside 效率翻倍. Two lines that break at the
    colon, the first at least `PAUSE_SHARE` of the second, read as a kicker and a title."""
    rows = heading_rows("# 打工人必备：5 个让效率翻倍的小习惯 ⚡️", theme_mode, 440, fonts)
    assert [row.text.strip() for row in rows] == ["打工人必备：", "5 个让效率翻倍的小习惯 ⚡️"]


@pytest.mark.parametrize("theme_mode", [("minimal", ""), ("pop-art", "default-mode")])
def test_a_three_line_heading_breaks_after_its_colon_and_its_modifier(
    theme_mode: tuple[str, str], fonts
) -> None:
    """At 360 px the title takes three lines: balanced, it broke "打工人必备： / 5 个让效率 /
    翻倍的小习惯", inside 效率翻倍, the colon's line found but the rest balanced blind. The
    rest balanced prefers a line that ends a modifier (…的) to one that parts two words of
    a clause, and 小, one character after 的, no longer holds the break before it."""
    lead = "试了一年，真正留下来的只有这五个。每个都不需要花钱，也不需要意志力。"
    post = "# 打工人必备：5 个让效率翻倍的小习惯 ⚡️\n\n" + "\n\n".join([lead] * 6)
    rows = heading_rows(post, theme_mode, 360, fonts)
    lines = [row.text.strip() for row in rows]
    assert lines[:3] == ["打工人必备：", "5 个让效率翻倍的", "小习惯 ⚡️"]


def test_a_break_after_a_modifier_is_a_phrase_end() -> None:
    from inkcard.layout.text.words import single_han_edges

    text = "让效率翻倍的小习惯"
    assert text.index("小") not in single_han_edges(text)  # 的 / 小习惯
    assert text.index("的") in single_han_edges(text)  # never 翻倍 / 的


def test_a_cover_keeps_a_line_that_ends_at_a_pause() -> None:
    """A cover's title line that ends at a pause is a whole phrase however short (it was
    refused under half the title's longest line, and p26's deck kept a title broken
    inside 效率翻倍); the last line is a stub when short, whatever it ends with."""
    from inkcard.layout.pages.setting.short import even_title

    def title(*lines: tuple[str, float]) -> list[Row]:
        heading = (("Heading", 1),)
        return [
            Row(
                10.0,
                (GlyphRun("f", 10.0, (1, 1), (0.0, w), (0.0, 0.0), 0),),
                text=t,
                source=heading,
            )
            for t, w in lines
        ]

    kicker = title(("打工人必备：", 100.0), ("5 个让效率翻倍的小习惯", 230.0))
    assert even_title(kicker, 400.0, 0.5, slide=True)
    stub = title(("从零到一：一个独立开发者的", 230.0), ("心态）", 100.0))
    assert not even_title(stub, 400.0, 0.5, slide=True)
    cut = title(("打工人必备", 100.0), ("5 个让效率翻倍的小习惯", 230.0))
    assert not even_title(cut, 400.0, 0.5, slide=True)


def test_a_heading_full_of_pauses_is_balanced_in_a_bounded_number_of_trials() -> None:
    """A pause-first set balanced its rest pause-first in turn: a six-line heading of 96
    characters with a pause every two or three took 5.6 million greedy layouts (84 s). The
    rest is balanced once, without a pause-first step of its own: a few hundred."""
    from inkcard.layout.text import linebreak
    from inkcard.layout.text.heading import balance

    calls = 0
    greedy = balance.break_lines

    def counted(*args, **kwargs):  # the real layout, counted
        nonlocal calls
        calls += 1
        return greedy(*args, **kwargs)

    texts = list(("一，二三，四五六，" * 4 + "甲乙丙丁戊己庚辛壬癸子丑") * 2)
    widths, allowed = [10.0] * len(texts), [linebreak.ALLOWED] * len(texts)
    balance.break_lines = counted
    try:
        for width in (180.0, 210.0, 250.0):
            calls = 0
            lines = balance.balance_lines(texts, widths, allowed, width)
            assert 2 <= len(lines) <= balance.BALANCE_MAX_LINES
            assert calls < 2_000, (width, calls)
    finally:
        balance.break_lines = greedy


def test_each_part_between_forced_breaks_is_balanced_on_its_own() -> None:
    """A forced break (a clause end) in a heading: balanced as one, the part after it kept
    the width of the widest line before it and left its last word alone (AAAA AAAA / BB: /
    C DD EE / FF); each part takes its own narrowest width."""
    from inkcard.layout.text import linebreak
    from inkcard.layout.text.heading import balance

    text = "AAAA AAAA BB: C DD EE FF"
    texts = list(text)
    widths = [10.0] * len(texts)
    allowed = [linebreak.ALLOWED if c == " " else linebreak.NEVER for c in texts]
    allowed[text.index(":") + 1] = linebreak.MANDATORY
    allowed[-1] = linebreak.ALLOWED
    lines = balance.balance_lines(texts, widths, allowed, 95.0)
    set_as = ["".join(texts[line.start : line.end]).strip() for line in lines]
    assert set_as == ["AAAA", "AAAA BB:", "C DD", "EE FF"]


ENGLISH_FOCUS = Path(__file__).resolve().parents[1] / "cases" / "hard" / "15-english-focus.md"


@pytest.mark.parametrize("theme_mode", [("art-deco", ""), ("pop-art", "default-mode")])
def test_a_titles_clause_after_its_colon_keeps_its_count_and_no_lone_word(
    theme_mode: tuple[str, str], fonts
) -> None:
    """ "HOW I GOT MY / MORNINGS BACK: 6 / HABITS THAT STUCK" (art-deco and the four pop-art
    modes at 440 px, twelfth look: the count orphaned at a line end): broken at its colon,
    the clause after it was balanced to the width of the lines before it, "6 HABITS THAT /
    STUCK", a lone last word, and the break at the colon was refused."""
    name, mode = theme_mode
    options = layout.RenderOptions(width=440, height=586, split="autoSplit", mode=mode)
    pages = layout.layout_pages(ENGLISH_FOCUS.read_text("utf-8"), themes.load(name), fonts, options)
    rows = [placed.row for placed in pages[0].rows if placed.row.text]
    title = [row.text.strip() for row in rows if row.source[:1] == rows[0].source[:1]]
    assert title[1].endswith("BACK:"), title
    assert not any(line.endswith(" 6") for line in title), title
    assert len(title[-1].split()) > 1, title


DENSE = Path(__file__).resolve().parents[1] / "cases" / "hard" / "10-headings-dense.md"


def test_a_heading_breaks_at_a_pause_inside_brackets_only_where_it_must(fonts) -> None:
    """The dense post's title ended a line on the 、 inside "（收入、踩坑与心态）" in 14
    theme-modes at 440x586, a pause counted as punctuation though it lists within one
    phrase: only a pause outside brackets ranks a break (`heading.balance._bracket_depths`)."""
    post = DENSE.read_text("utf-8")
    inside = []
    for theme_mode in THEME_MODES:
        rows = heading_rows(post, theme_mode, 440, fonts)
        title = [row for row in rows if row.source and row.source[0] == ("Heading", 0)]
        if any(row.text.strip().endswith("（收入、") for row in title):
            inside.append(theme_mode)
    assert not inside


def test_a_pause_inside_brackets_is_no_pause() -> None:
    from inkcard.layout.text.heading.balance import _bracket_depths

    text = list("复盘（收入、踩坑）后，再说")
    depths = _bracket_depths(text)
    assert depths[text.index("、") + 1] == 1  # inside
    assert depths[text.index("，") + 1] == 0  # after the bracket closed


def test_a_no_break_space_binds_a_theme_suffix_to_the_title() -> None:
    """nature hangs 🌿 on every title by a no-break space; classed as a letter, it let a line
    break after a CJK bracket before it (心态） / 🌿), the sprig alone on the title's last line
    (the 440x586 rater, the dense headings post). UAX #14's GL: no break on either side."""
    from inkcard.layout.text.opportunities import NEVER, opportunities

    for text in ("心态）\u00a0🌿", "收入\u00a0🌿", "10\u202f%"):
        texts = list(text)
        kinds = opportunities(texts, [False] * len(texts))
        at = text.index(next(c for c in text if c in "\u00a0\u202f"))
        assert kinds[at - 1] == NEVER and kinds[at] == NEVER, (text, kinds)


THIRD_LOOK = (  # titles of the third look's new posts, each parted as a reader would not
    "# 读书笔记｜《思考，快与慢》里最有用的 5 个概念",
    "# How I Got My Mornings Back: 6 Habits That Stuck",
    '## 2. One "most important task"',
)


@pytest.mark.parametrize("width", (440, 1080))
def test_a_heading_keeps_a_quote_a_localiser_and_a_clause_with_their_phrases(
    width: int, fonts
) -> None:
    """In every theme-mode: 里 stays with the book title it ends (《思考，快与慢》 / 里最有用的
    opened a line on it in all 30 at 440 px); a quoted phrase stays whole (One “most /
    important task”); a line never runs on past a title's colon into its second clause
    (How I Got My Mornings / Back: 6 Habits That Stuck)."""
    faults, past_colon = [], []
    for theme_mode in THEME_MODES:
        for md in THIRD_LOOK:
            lines = [row.text.strip() for row in heading_rows(md, theme_mode, width, fonts)]
            if len(lines) < 2:
                continue
            starts_on_li = any(line.startswith("里") for line in lines)
            if starts_on_li:  # a fault only where the title and 里 fit a line
                starts_on_li = (
                    len(heading_rows("# 《思考，快与慢》里", theme_mode, width, fonts)) == 1
                )
            parted_quote = any("“" in line and "”" not in line for line in lines)
            if parted_quote:  # a fault only where the quote fits a line of its own
                alone = heading_rows('## "most important task"', theme_mode, width, fonts)
                parted_quote = len(alone) == 1
            if starts_on_li or parted_quote:
                faults.append((theme_mode, lines))
            if any(": " in line for line in lines):
                past_colon.append((theme_mode, lines))
    assert faults == []
    # where the line more would end the title on a lone word (How I Got My / Mornings
    # Back: / 6 Habits That / Stuck), it still runs on: 3 of 30 at 440 px (all before)
    assert len(past_colon) <= 3, past_colon


@pytest.mark.parametrize("width", (440, 1080))
def test_a_japanese_title_breaks_after_its_colon_not_inside_a_phrase(width: int, fonts) -> None:
    """京都で朝ごはん：地元の / 人が通う喫茶店 4 選 parted 地元の人 (locals) in 29 of 30
    theme-modes at 500x500: BudouX ran the phrase 朝ごはん：地元の on past the colon, so the
    first break a heading may take was inside the next clause. A clause's mark ends a
    Japanese phrase."""
    parted = []
    for theme_mode in THEME_MODES:
        md = "# 京都で朝ごはん：地元の人が通う喫茶店 4 選"
        lines = [row.text.strip() for row in heading_rows(md, theme_mode, width, fonts)]
        if len(lines) > 1 and any(line.endswith("地元の") for line in lines):
            parted.append((theme_mode, lines))
    assert parted == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_verb_and_the_whole_it_ran_through_part_where_a_reader_parts_them(
    width: int, fonts
) -> None:
    """一个脚本跑完整个发布流程: jieba cuts 跑 / 完整 / 个, so the title broke 一个 /
    脚本跑完整个发布 / 流程, 一个脚本跑完整个发布 / 流程 or 一个脚本跑完整 / 个发布流程 in
    27 theme-modes at 440 px; cut 跑完 / 整个 (`words._mended`), it breaks between its
    verb and its object."""
    table = {"# 一个脚本跑完整个发布流程": ("整个", "发布流程", "一个脚本")}
    assert _phrases_parted(table, width, fonts, ("—",), "a dash opens a line") == []


@pytest.mark.parametrize(
    ("heading", "line", "theme_mode"),
    [
        (
            "# 从零到一：一个独立开发者的第一年复盘（收入、踩坑与心态）",
            "（收入、踩坑与心态）",
            (name, ""),
        )
        for name in ("brandC", "cyberpunk", "nature")
    ]
    + [
        (
            "# 读书笔记｜《思考，快与慢》里最有用的 5 个概念",
            "《思考，快与慢》",
            ("traditional-chinese", ""),
        )
    ],
)
def test_a_bracket_at_a_line_edge_is_measured_as_set(
    heading: str, line: str, theme_mode: tuple[str, str], fonts
) -> None:
    """A full-width bracket that opens or ends a line gives up its blank half; the ranks
    measured a bracketed piece whole, took it for wider than the line that holds it and
    broke inside it: 第一年复盘（收入、 / 踩坑与心态） in seven theme-modes at 440 px,
    《思考，快与 / 慢》 in traditional-chinese. Measured as set, each is a line of its own."""
    lines = [row.text.strip() for row in heading_rows(heading, theme_mode, 440, fonts)]
    assert line in lines, lines


def test_no_heading_line_before_the_last_is_a_stub(fonts) -> None:
    """年度版本节奏：/ 每个 / 里程碑都要看得清 (art-deco and notebook at 440 px): the word ranks
    took the cheaper break (每个 / 里程碑) though it left a line of two characters in the
    middle; a set whose lines are each at least `CLAUSE_SHARE` of the measure wins there
    (年度版本节奏：/ 每个里程碑 / 都要看得清)."""
    stubs = []
    for theme_mode in THEME_MODES:
        rows = heading_rows("# 年度版本节奏：每个里程碑都要看得清", theme_mode, 440, fonts)
        lines = [row.text.strip() for row in rows]
        stubs += [(theme_mode, lines)] if any(len(line) <= 2 for line in lines[:-1]) else []
    assert stubs == []


@pytest.mark.parametrize(
    ("title", "second"),
    [
        ("# 在家 20 分钟燃脂训练｜零器械也能练出马甲线🔥", "零器械也能练出马甲线🔥"),
        ("# 在家 20 分钟燃脂训练 | 零器械也能练出马甲线", "零器械也能练出马甲线"),
    ],
)
@pytest.mark.parametrize("theme_mode", [("warm", ""), ("business", ""), ("minimal", "")])
def test_a_title_that_breaks_at_its_separator_leaves_the_bar_out(
    title: str, second: str, theme_mode: tuple[str, str], fonts
) -> None:
    """The workout post's title broke after its bar, which stayed at the end of the first
    line ("在家 20 分钟燃脂训练｜", a stray stroke) in every set at 500x500 (seventh look):
    a designer drops the separator where the line breaks at it. A bar inside a line
    stays."""
    rows = heading_rows(title, theme_mode, 500, fonts)
    first = rows[0].text.strip()
    assert first.rstrip(" ｜|") == "在家 20 分钟燃脂训练" and rows[1].text.strip() == second
    bar = first[-1]  # in the text (alt text reads it), but drawn nowhere on the line
    [whole] = heading_rows(f"# 训练{bar}马甲线", theme_mode, 500, fonts)
    bar_glyph = _glyphs(whole.items)[2]
    assert bar_glyph not in _glyphs(rows[0].items)


@pytest.mark.parametrize("width", [200.0, 240.0, 300.0])
def test_a_centred_title_broken_at_its_bar_is_centred_without_it(width: float, fonts) -> None:
    """The bar left out where a centred title breaks at it still counted in the line's
    width: "油皮夏天护肤" sat 15-20 px left of centre on 15 covers at 440x586 (ninth look).
    The first line is now as wide, and as centred, as the same words alone."""
    from inkcard.layout.text.inline import layout_text
    from inkcard.layout.text.linebox import Metrics
    from inkcard.layout.text.shape import Span, SpanStyle

    look = SpanStyle("sans", 24.0, True, False, 0xFF000000)

    def centred(text: str) -> list:
        spans = [Span(text, look)]
        return layout_text(
            spans,
            fonts,
            x=0.0,
            width=width,
            metrics=Metrics(34.0, 26.0),
            align="center",
            heading=True,
        )

    first = centred("油皮夏天护肤｜早C晚A到底怎么搭？")[0]
    [alone] = centred("油皮夏天护肤")
    assert first.text.rstrip("｜") == "油皮夏天护肤"
    assert first.width == pytest.approx(alone.width)
    assert first.left == pytest.approx(alone.left) == pytest.approx((width - alone.width) / 2)


def _glyphs(items: tuple[Item, ...]) -> list[int]:
    """The glyph ids of the runs among `items`, in order."""
    out: list[int] = []
    for item in items:
        if isinstance(item, GlyphRun):
            out.extend(item.glyphs)
        elif hasattr(item, "items"):
            out.extend(_glyphs(item.items))
    return out
