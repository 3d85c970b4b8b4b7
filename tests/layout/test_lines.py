"""Paragraph lines a book designer would sign: no runt at a paragraph's end (`pretty`), a
number kept with its unit, short inline code kept whole, Latin set naturally in a
justified, letter-spaced CJK theme.

On the box font (every glyph and space one em): body 16 px in a 400 px column, so a line
holds 25 characters.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout
from inkcard.layout.base.boxes import Page
from inkcard.layout.style.theme import decode_theme
from inkcard.layout.text.linebreak import break_lines
from inkcard.layout.text.lines.pretty import is_runt, pretty_lines
from inkcard.layout.text.opportunities import opportunities
from inkcard.layout.text.units import keep_whole


def pages(md: str, fonts: layout.FontBook, roles: str = "") -> list[Page]:
    theme = decode_theme('name = "t"\n' + roles)
    return layout.layout_pages(md, theme, fonts, layout.RenderOptions())


def texts_of(md: str, fonts: layout.FontBook, roles: str = "") -> list[str]:
    return [p.row.text for page in pages(md, fonts, roles) for p in page.rows]


def unit_lines(text: str, max_width: float, *, ragged: bool = False) -> list[str]:
    """`text` broken greedily then made pretty, every character one unit wide."""
    texts = list(text)
    widths = [1.0] * len(texts)
    allowed = opportunities(texts, [False] * len(texts))
    edges = [layout.text.linebreak.NO_EDGES] * len(texts)
    lines = break_lines(texts, widths, allowed, max_width, edges)
    lines = pretty_lines(texts, widths, allowed, lines, max_width, edges, ragged=ragged)
    return ["".join(texts[r.start : r.end]) for r in lines]


# --- pretty: no runt at the end ---------------------------------------------------------


def test_runts_as_the_page_break_report_counts_them() -> None:
    assert is_runt("事。💪") and is_runt("me.") and is_runt("end ") and is_runt("2️⃣3️⃣.")
    # a lone word under nine letters is one ("start." alone under a slide's wide paragraph)
    assert is_runt("books.") and is_runt("skipped.") and not is_runt("nightstand.")
    assert not is_runt("a b") and not is_runt("—")
    # two CJK characters alone are one ("钉子。"), three are not
    assert is_runt("的事") and is_runt("钉子。") and not is_runt("的事情。")
    # a number spaced from CJK counts as one character: "7 楼。" under a full slide line
    assert is_runt("7 楼。") and is_runt("第 3 ") and not is_runt("3 分钟。")
    assert not is_runt("3 4") and not is_runt("7 floors")
    # a number range is read as a whole, not as its four digits
    assert not is_runt("0.5%～1.5%。") and not is_runt("v1.2.3") and is_runt("5%。")


def test_a_short_last_word_takes_one_from_the_line_before() -> None:
    assert unit_lines("aaaa bbbb cc", 10) == ["aaaa ", "bbbb cc"]


def test_each_hard_broken_line_ends_without_a_runt() -> None:
    assert unit_lines("aaaa bbbb cc\naaaa bbbb cc", 10) == [
        "aaaa ",
        "bbbb cc\n",
        "aaaa ",
        "bbbb cc",
    ]


@pytest.mark.parametrize(
    "theme",
    ["apple-notes", "warm", "business", "typewriter", "art-deco", "minimal", "notebook", "pop-art"],
)
def test_a_runt_mended_never_leaves_a_clauses_first_word_at_a_line_end(
    fonts: layout.FontBook, theme: str
) -> None:
    """The git post's last line in all 30 theme-modes at 440x586: mended of its runt
    "revert。", it read "…都行，push / 之后只用 revert。", the clause's first word left at the
    line's end; the clause now goes down whole. Filled so at the first try (no runt to
    mend) it still read so in 14 theme-modes (seventh look): the word is held with what
    follows it (`units.keep_whole`) wherever the line breaks."""
    from inkcard import themes

    post = Path(__file__).resolve().parents[1] / "cases" / "hard" / "14-git-cheatsheet.md"
    cards = layout.layout_pages(
        post.read_text("utf-8"), themes.load(theme), fonts, layout.RenderOptions(split="autoSplit")
    )
    last = [p.row.text for p in cards[-1].rows][-2:]
    assert last == ["记住一句话：push 之前怎么改都行，", "push 之后只用 revert。"]


def test_no_runt_fix_costs_a_line_or_breaks_a_word() -> None:
    # the line before is one unbreakable word: nothing can move down
    assert unit_lines("aaaaaaaaaa cc", 10) == ["aaaaaaaaaa ", "cc"]


def test_a_paragraph_never_ends_on_one_chinese_character_and_an_emoji(box_fonts) -> None:
    # greedy: 23 characters and a comma, then "事。💪"
    assert texts_of("中" * 23 + "，事。💪", box_fonts) == ["中" * 21, "中中，事。💪"]


def test_an_english_paragraph_never_ends_on_a_short_word(box_fonts) -> None:
    # greedy: "Write notes plainly, then" / "go."
    assert texts_of("Write notes plainly, then go.", box_fonts) == [
        "Write notes plainly, ",
        "then go.",
    ]


def test_headings_stay_balanced_not_pretty(box_fonts) -> None:
    assert len(texts_of("# " + "中" * 20, box_fonts)) == 2


def test_a_runt_in_ragged_text_is_mended_at_a_clauses_end() -> None:
    """The git post's "…的提交。已经推上去 / 的，别用。" (eighth look, 11 theme-modes at
    500x500: "break after 的提交。"): mending the runt "别用。" moved the fewest characters
    down, parting 推上去的. In ragged text the last line opens after a clause's end where
    the last two lines allow it; justified text, whose shortened line would be spread,
    keeps the fewest moved."""
    text = "一二三四五六七八九十。已经推上去的，别用。"
    assert unit_lines(text, 18) == ["一二三四五六七八九十。已经推上去", "的，别用。"]
    assert unit_lines(text, 18, ragged=True) == ["一二三四五六七八九十。", "已经推上去的，别用。"]
    # none at a clause's end that keeps the last line the shortest: the fewest moved
    long_last = "一二三四五。六七八九十已经推上去的了，别用。"
    assert unit_lines(long_last, 20, ragged=True) == unit_lines(long_last, 20)


def test_the_git_posts_card_ends_its_paragraph_on_a_whole_clause(fonts: layout.FontBook) -> None:
    """At 500x500 in coil-notebook and minimal (ragged), the sentence after the amend
    command ends "已经推上去的，别用。" on a line of its own."""
    from inkcard import themes

    post = (
        Path(__file__).resolve().parents[1] / "cases" / "hard" / "14-git-cheatsheet.md"
    ).read_text("utf-8")
    for name, mode in (("coil-notebook", "blue-mode"), ("minimal", None)):
        options = layout.RenderOptions(width=500, height=500, split="autoSplit", mode=mode)
        rows = [
            p.row.text for p in layout.layout_pages(post, themes.load(name), fonts, options)[0].rows
        ]
        assert "已经推上去的，别用。" in rows, rows


def test_far_narrower_only_when_the_last_line_stays_the_shortest() -> None:
    # the line before is already under 80 % full: "bb" moves down only if it leaves a
    # first line at least as long as the new last one
    assert unit_lines("aaaa bb cccc", 10) == ["aaaa bb ", "cccc"]  # 4 over 7: upside down
    assert unit_lines("aaaaaaa bb cccc", 13) == ["aaaaaaa ", "bb cccc"]  # 7 over 7


# --- a number keeps its unit -------------------------------------------------------------


def test_a_number_keeps_its_latin_unit(box_fonts) -> None:
    lines = texts_of("aaaa bbbb cccc dddd ee 30 ms more", box_fonts)
    assert lines == ["aaaa bbbb cccc dddd ee ", "30 ms more"]


def test_a_number_keeps_the_chinese_character_after_it(box_fonts) -> None:
    assert texts_of("中" * 23 + "30小时内", box_fonts) == ["中" * 23, "30小时内"]


def test_a_numbered_name_and_a_time_stay_whole(box_fonts) -> None:
    """系统 1 (a word and the digit spaced after it: 14 theme-modes of the reading notes
    parted "系统 / 1") and 9 a.m. ("By 9 / a.m.") hold; a year (2026 年) breaks as before,
    and so does a number spaced before a measure word (英语 / 60 天), but for 第 3 天."""
    lines = texts_of("中" * 22 + "系统 1 快", box_fonts)
    assert not any(line.rstrip().endswith("系统") for line in lines), lines
    lines = texts_of("aaaa bbbb cccc dddd eee 9 a.m. my", box_fonts)
    assert not any(line.rstrip().endswith(" 9") for line in lines), lines
    for text, space, held in (
        ("系统 1 快", 2, True),
        ("By 9 a.m. my", 4, True),
        ("从 2026 年", 1, False),
        ("英语 60 天冲刺", 2, False),  # a quantity opens the phrase after it
        ("第 3 天", 1, True),  # an ordinal, whatever follows
    ):
        texts = list(text)
        allowed = opportunities(texts, [False] * len(texts))
        assert (keep_whole(texts, allowed)[space] != allowed[space]) is held, text


def test_a_short_bold_term_stays_whole(box_fonts) -> None:
    """不 / 搓泥, 系 / 统 2, 作文 / 模板: a bold run of two to four Chinese characters is a
    term its writer marked, not broken between its characters (18 slide sets of the third
    look); the same characters plain break where they fall."""
    bold = texts_of("中" * 22 + "**不搓泥**，好", box_fonts)
    assert any(line.startswith("不搓泥") for line in bold), bold
    plain = texts_of("中" * 22 + "不搓泥，好", box_fonts)
    assert plain[0].endswith("不"), plain


def test_a_number_before_an_ordinary_word_still_breaks(box_fonts) -> None:
    lines = texts_of("aaaa bbbb cccc dddd ee 30 watermelon", box_fonts)
    assert lines == ["aaaa bbbb cccc dddd ee 30 ", "watermelon"]


# --- short inline code stays whole ---------------------------------------------------------


def test_short_inline_code_never_breaks_inside(box_fonts) -> None:
    lines = texts_of("aaaa bbbb cccc dddd `make test now` eeee", box_fonts)
    assert any("make test now" in line for line in lines), lines


def test_long_inline_code_breaks_as_before(box_fonts) -> None:
    code = "make test now and then again and again"  # 38 characters
    lines = texts_of(f"aaaa bbbb `{code}`", box_fonts)
    assert not any(code in line for line in lines), lines


# --- UAX #14 and clreq: quotes and the middle dot ---------------------------------------

QUOTED = '查理·芒格说："买好公司"，再"等"。'


def test_ascii_quotes_and_a_middle_dot_hold_their_neighbours(fonts: layout.FontBook) -> None:
    """At every offset of the same sentence, no line starts with `·` or a closing `"`
    before its `，`, no opening `"` ends a line, and 查理·芒格 never splits (a browser's
    line breaker keeps all of these)."""
    for shift in range(30):
        rows = texts_of("中" * shift + QUOTED * 5, fonts)
        quotes = 0
        for row in rows:
            assert not row.startswith(("·", '"，', '"。')), rows
            assert "·" not in row or "理·芒" in row, rows
            quotes += row.count('"')
            assert not (row.endswith('"') and quotes % 2 == 1), rows  # an opening quote


# --- a word wider than the line -----------------------------------------------------------


def test_a_word_wider_than_the_line_breaks_after_an_inner_mark() -> None:
    # 20 units a line: "{error.response.status_code}" breaks after its last mark that
    # keeps half the line, not between two letters ("status_co" / "de}")
    assert unit_lines("{error.response.status_code}", 20) == ["{error.response.", "status_code}"]
    assert unit_lines("x" * 14 + ".abcdefghij", 20)[0] == "x" * 14 + "."


def test_a_forced_break_never_opens_a_line_with_a_closing_mark() -> None:
    # `fetch(client` / `, url)` read as a typo: the last letter goes down with the mark
    assert unit_lines("abcdefghijklmnopqrst, uvw", 20) == ["abcdefghijklmnopqrs", "t, uvw"]
    assert unit_lines("abcdefghijklmnopqrst), uvw", 20) == ["abcdefghijklmnopqrs", "t), uvw"]


def test_with_no_mark_in_the_last_half_the_word_breaks_where_it_overflows() -> None:
    assert unit_lines("a.bcdefghijklmnopqrstuvwxyz", 20) == ["a.bcdefghijklmnopqrs", "tuvwxyz"]


@pytest.mark.parametrize("theme", ["apple-notes", "pop-art", "typewriter", "glassmorphism"])
@pytest.mark.parametrize("size", [(440, 586), (1600, 900)])
def test_no_paragraph_ends_on_a_short_lone_word(theme: str, size: tuple[int, int]) -> None:
    """An English essay, notes and a five-habit post: "start." alone under a slide's
    three-line paragraph, "skipped." and "books." under a card's (122 one-word last lines
    of five to eight letters over these posts in all theme-modes at 440x586, 27 at
    1600x900). A last line of one word under `RUNT_LETTERS` letters takes one from the
    line before wherever a set of breaks allows it."""
    from inkcard import themes

    cases = Path(__file__).resolve().parents[1] / "cases"
    posts = ("hard/05-english-essay.md", "posts/03-english-notes.md", "rated/morning-habits.md")
    width, height = size
    options = layout.RenderOptions(width=width, height=height, split="autoSplit")
    lone = []
    for post in posts:
        text = (cases / post).read_text("utf-8")
        pages = layout.layout_pages(text, themes.load(theme), layout.FontBook.load(), options)
        rows = [placed.row for page in pages for placed in page.rows]
        for row, after in zip(rows, [*rows[1:], None], strict=True):
            last = row.source[-1:] == (("Paragraph", row.source[-1][1]),) if row.source else False
            words = row.text.split()
            short = len(words) == 1 and sum(c.isalpha() for c in words[0]) < 9
            if last and (after is None or after.source != row.source) and short:
                lone.append(row.text)
    assert not lone
