"""Units a reader takes as one (hashtags, dotted names, closing attributions, a spaced number
and its measure word) never split across lines; ASCII quotes in CJK prose become “…”.

Breaks are shown as `|` after each cluster a line may end after, one character a cluster.
"""

from __future__ import annotations

import pytest

from inkcard.layout.parse.doc import Paragraph, Text
from inkcard.layout.parse.markdown import parse
from inkcard.layout.text.opportunities import ALLOWED, FORMULA, keep_units, opportunities
from inkcard.layout.text.units import MAX_UNIT, keep_whole


def breaks(text: str) -> str:
    chars = list(text)
    allowed = keep_whole(chars, keep_units(chars, opportunities(chars, [False] * len(chars))))
    return "".join(c + ("|" if allowed[i] == ALLOWED else "") for i, c in enumerate(chars))


@pytest.mark.parametrize(
    ("text", "whole"),
    [
        ("告诉我 #读书笔记 #芒格 #个人成长", ["#读书笔记 |", "#芒格 |", "#个人成长|"]),
        ("“反过来想。”——查理·芒格", ["——查理·芒格|"]),
        ("他读过列夫·托尔斯泰的书", ["列夫·托尔斯泰"]),
        ("One line to end on. — Steve Jobs", ["— Steve Jobs|"]),
        ('"…before he dies." — George R. R. Martin', ["— George R. R. Martin|"]),
        ("我记下了这 7 条“反常识”", ["7 条"]),
        # a rate stays whole: "¥25/ / 位" at 1600x900 in four theme-modes (22nd session)
        ("盖碗茶（¥25/位），顺便看看", ["¥25/位"]),
        ("每周跑3次/周，每月100元/月", ["3次/周", "100元/月"]),
        # a formula (U+FFFC among these texts) keeps its measure word as a number does:
        # "每月投 P / 元" in 15 sets of the fund post at 500x500 (23rd session)
        (f"每月投 {FORMULA} 元，持有 {FORMULA}年", [f"{FORMULA} 元", f"{FORMULA}年"]),
        # a clause's first Latin word keeps the character after it: "…都行，push / 之后"
        # ended a line on it in 14 theme-modes at 440x586 (seventh look)
        ("怎么改都行，push 之后只用 revert。", ["，|push 之|"]),
        ("改完就提交；push 完再说", ["；|push 完|"]),
        # a katakana word: art-deco's Kyoto cafés ended a line on "コー" at 500x500 (tenth
        # look); a long compound may still break between its kana
        ("砂糖が入ったコーヒーが定番", ["た|コーヒー|"]),
        ("ふわふわのホットケーキで有名", ["の|ホットケーキ|"]),
    ],
)
def test_a_unit_has_no_break_inside(text: str, whole: list[str]) -> None:
    marked = breaks(text)
    for unit in whole:
        assert unit in marked, marked


def test_a_katakana_compound_longer_than_a_loanword_may_break() -> None:
    marked = breaks("インターナショナルスクール")  # 13 kana
    assert marked.count("|") >= 10


def test_a_name_breaks_before_its_dash_not_after() -> None:
    marked = breaks("“反过来想。”——查理·芒格")
    assert "”|——" in marked
    assert "——|" not in marked


@pytest.mark.parametrize(
    "text",
    [
        "他说——我们走吧，现在就走，不然就来不及了",  # a dash inside a sentence: a clause
        "before the dash — and then a long clause that runs on past any name",
        "C# and issue#3 # and a lone mark",  # no tag: `#` inside a word, or alone
        "The Pragmatic Programmer — timeless advice",  # no quote before: a description
    ],
)
def test_what_is_not_a_unit_breaks_as_before(text: str) -> None:
    chars = list(text)
    allowed = keep_units(chars, opportunities(chars, [False] * len(chars)))
    assert keep_whole(chars, allowed) == allowed


def test_a_tag_longer_than_a_unit_breaks_as_prose() -> None:
    tag = "#" + "很" * MAX_UNIT
    assert breaks(tag).count("|") == MAX_UNIT + 1


def test_a_paragraph_of_ascii_quotes_in_chinese_gets_curly_ones() -> None:
    doc = parse('把"等待"写进计划，这是"反常识"的一条。')
    assert doc.blocks == (Paragraph((Text("把“等待”写进计划，这是“反常识”的一条。"),)),)


@pytest.mark.parametrize(
    "markdown",
    [
        'a 5" screen and a 7" one',  # inches: no mark opens or closes a word
        '把"等待写进计划',  # one mark: which is the stray cannot be known
        '写 `x = "等待"` 进去',  # inline code is never touched
    ],
)
def test_quotes_stay_as_typed_outside_cjk_pairs(markdown: str) -> None:
    doc = parse(markdown)
    text = "".join(t.text for b in doc.blocks if isinstance(b, Paragraph) for t in b.inlines)
    assert "“" not in text and '"' in text


@pytest.mark.parametrize(
    "markdown",
    [
        "'tis the season",  # an opener with no closer: an elision or a stray quote
        "He is 5' 10 tall",  # feet after a digit: a prime, not a quote
        "Call `f('x')` first",  # inline code is never touched
    ],
)
def test_single_quotes_stay_as_typed_where_a_reader_cannot_tell(markdown: str) -> None:
    doc = parse(markdown)
    text = "".join(t.text for b in doc.blocks if isinstance(b, Paragraph) for t in b.inlines)
    assert "‘" not in text and "'" in text


@pytest.mark.parametrize(
    ("markdown", "curled"),
    [
        ('He said "wait" and left.', "He said “wait” and left."),
        ("Don't obsess, it's fine.", "Don’t obsess, it’s fine."),
        (
            '"A reader lives a thousand lives." — Martin',
            "“A reader lives a thousand lives.” — Martin",
        ),
        ("'I don't know,' she said.", "‘I don’t know,’ she said."),
        ("The students' books, 'quoted' words.", "The students’ books, ‘quoted’ words."),
        ("He said \"it's 'fine'\" today.", "He said “it’s ‘fine’” today."),
        ("Back in the '90s, rock 'n' roll.", "Back in the ’90s, rock ’n’ roll."),
        ("Say **'yes'** twice.", "Say ‘yes’ twice."),
        ("我说'好'吧", "我说‘好’吧"),
    ],
)
def test_english_quotes_and_apostrophes_are_curled(markdown: str, curled: str) -> None:
    doc = parse(markdown)
    assert (
        "".join(t.text for b in doc.blocks if isinstance(b, Paragraph) for t in b.inlines) == curled
    )


def test_quotes_pair_across_marks() -> None:
    doc = parse('这是"**反常识**"的一条')
    texts = [t.text for b in doc.blocks if isinstance(b, Paragraph) for t in b.inlines]
    assert "".join(texts) == "这是“反常识”的一条"


@pytest.mark.parametrize(
    ("text", "whole"),
    [
        ("She’d say it twice", "She’d"),  # a curled apostrophe is inside its word
        ("rock ’n’ roll", "’n’"),
        ("the ’90s", "’90s"),
    ],
)
def test_a_curled_apostrophe_never_breaks_its_word(text: str, whole: str) -> None:
    assert whole in breaks(text)  # no break mark inside it


def test_a_closing_curly_quote_still_breaks_before_chinese() -> None:
    assert "识”|的" in breaks("这是“反常识”的一条")
