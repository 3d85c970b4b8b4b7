"""Line breaker: tables for classes, opportunities and fitting; Hypothesis properties.

Tables give every character unit width, so `lines("中文字", 2)` reads as "which characters
land on which line of a box two characters wide".
"""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from inkcard.layout.text.linebreak import (
    INNER_KEEP,
    INNER_MARKS,
    Edges,
    LineRange,
    avoid_lone_last,
    break_lines,
)
from inkcard.layout.text.lines.pretty import even_lines
from inkcard.layout.text.opportunities import (
    ALLOWED,
    HYPHEN,
    MANDATORY,
    NEVER,
    Brk,
    classify,
    opportunities,
)

HANGING = (" ", "\t", "\u3000", "\n")  # hang past the line end; not counted in its width
CLOSING_CJK = "，。！？；：）」』】》、"
OPENING_CJK = "（「『【《"
CLOSING_NARROW = ".,!?;:)]}%"
IDEOGRAPHS = "中文字体排版かなカナ👍"


def marks(text: str, unsafe: set[int] | None = None) -> str:
    """The text with `|` after each cluster a line may end after, `‖` where it must."""
    texts = list(text)
    unsafe = unsafe or set()
    allowed = opportunities(texts, [i in unsafe for i in range(len(texts))])
    out = []
    for i, (t, a) in enumerate(zip(texts, allowed, strict=False)):
        last = i == len(texts) - 1
        out.append(t + ("" if last else {NEVER: "", ALLOWED: "|", MANDATORY: "‖"}[a]))
    return "".join(out)


def lines(text: str, max_width: float, unsafe: set[int] | None = None) -> list[str]:
    """The text broken into lines, every character a cluster one unit wide."""
    texts = list(text)
    unsafe = unsafe or set()
    allowed = opportunities(texts, [i in unsafe for i in range(len(texts))])
    ranges = break_lines(texts, [1.0] * len(texts), allowed, max_width)
    return ["".join(texts[r.start : r.end]) for r in ranges]


# --- classify -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a", Brk.AL),
        ("Z", Brk.AL),
        ("7", Brk.AL),
        ("é", Brk.AL),
        ("#", Brk.AL),
        (" ", Brk.SP),
        ("\t", Brk.SP),
        ("\u3000", Brk.SP),
        ("\n", Brk.BK),
        *((c, Brk.CLW) for c in CLOSING_CJK),
        ("…", Brk.CLW),
        ("ー", Brk.CLW),
        ("っ", Brk.CLW),
        *((c, Brk.CL) for c in CLOSING_NARROW),
        *((c, Brk.OP) for c in OPENING_CJK),
        ("(", Brk.OP),
        ("[", Brk.OP),
        ("“", Brk.OP),
        ("-", Brk.HY),
        ("\u2010", Brk.HY),
        ("/", Brk.SL),
        ("—", Brk.B2),
        ("―", Brk.B2),
        ("中", Brk.ID),
        ("あ", Brk.ID),
        ("カ", Brk.ID),
        ("한", Brk.AL),  # Korean keeps words whole
        ("👍", Brk.ID),
        ("👍🏽", Brk.ID),
        ("👨\u200d👩\u200d👧", Brk.ID),
        ("🇨🇳", Brk.ID),
        ("1\ufe0f\u20e3", Brk.ID),
        ("❤\ufe0f", Brk.ID),
        ('"', Brk.QU),
        ("'", Brk.QU),
        ("\u00b7", Brk.GL),
    ],
)
def test_classify(text: str, expected: Brk) -> None:
    assert classify(text) == expected


# --- opportunities --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # between CJK characters, kana, hangul and emoji
        ("中文字体", "中|文|字|体"),
        ("かなカナ", "か|な|カ|ナ"),
        ("中👍文", "中|👍|文"),
        # Korean breaks at spaces only (CSS word-break: keep-all)
        ("한국어 문장", "한국어 |문장"),
        # at Latin spaces (after the run of spaces), never inside a word
        ("ab cd", "ab |cd"),
        ("ab   cd", "ab   |cd"),
        ("word", "word"),
        ("a\u3000b", "a\u3000|b"),
        # Latin next to CJK
        ("中a", "中|a"),
        ("a中", "a|中"),
        # after a hyphen inside a word, not after a leading one nor inside a run of them
        ("well-known", "well-|known"),
        ("-5", "-5"),
        ("x -1", "x |-1"),
        ("a--b", "a--b"),
        # after a slash between letters (URLs), not in "://"
        ("a/b", "a/|b"),
        ("http://x/y", "http://x/|y"),
        # em dashes: either side, not inside a run
        ("a—b", "a|—|b"),
        ("a——b", "a|——|b"),
        # clreq: no closing punctuation at a line start
        *((f"中{c}文", f"中{c}|文") for c in CLOSING_CJK),
        ("中。」文", "中。」|文"),
        ("好，（中", "好，|（中"),
        ("a, b", "a, |b"),
        ("end.x", "end.x"),
        ("a !", "a !"),
        # clreq: no opening punctuation at a line end
        *((f"中{c}文", f"中|{c}文") for c in OPENING_CJK),
        ("中「『文", "中|「『文"),
        ("a (b)", "a |(b)"),
        ("a(b", "a(b"),
        # after a zero-width space or a soft hyphen, never before one nor before closing
        ("ab\u200bcd", "ab\u200b|cd"),
        ("ab\u00adcd", "ab\u00ad|cd"),
        ("中\u200b。", "中\u200b。"),
        ("（\u200bab", "（\u200b|ab"),
        # UAX #14 LB19: ASCII quotes bind both sides, as writers type them in Chinese too;
        # a break after a space before one stays (LB18)
        ('他说"好"，走', '他|说"好"，|走'),
        ('中"文"字', '中"文"字'),
        ('say "hi" now', 'say |"hi" |now'),
        # a middle dot binds a transliterated name (查理·芒格), and a separator " · " breaks
        # after its space
        ("查理·芒格说", "查|理·芒|格|说"),
        ("a · b", "a · |b"),
        # mandatory breaks
        ("ab\ncd", "ab\n‖cd"),
        ("中\n\n文", "中\n‖\n‖文"),
        ("ab \ncd", "ab \n‖cd"),
    ],
)
def test_opportunities(text: str, expected: str) -> None:
    assert marks(text) == expected


def test_last_cluster_may_always_end_a_line() -> None:
    assert opportunities(["a"], [False]) == [ALLOWED]
    assert opportunities(["（"], [False]) == [ALLOWED]
    assert opportunities(["a", "\n"], [False, False]) == [NEVER, MANDATORY]
    assert opportunities([], []) == []


@pytest.mark.parametrize(
    ("text", "unsafe", "expected"),
    [
        ("中文字", {1}, "中文|字"),  # HarfBuzz: unsafe before 文
        ("中文字", {1, 2}, "中文字"),
        ("well-known", {5}, "well-known"),
        ("a/b", {2}, "a/b"),
        ("a—b", {1}, "a—|b"),
        ("中\n文", {1, 2}, "中\n‖文"),  # a hard break is never suppressed
        ("ab cd", {3}, "ab |cd"),  # nor a break after spaces (they hang; nothing to re-shape)
    ],
)
def test_unsafe_to_break_is_honoured(text: str, unsafe: set[int], expected: str) -> None:
    assert marks(text, unsafe) == expected


# --- break_lines -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "width", "expected"),
    [
        ("中文字体排版", 3, ["中文字", "体排版"]),
        ("中文字体排版", 4, ["中文字体", "排版"]),
        ("中文字体排版", 100, ["中文字体排版"]),
        # clreq: a closing mark pulls the character before it down with it
        ("中文，字体", 2, ["中", "文，", "字体"]),
        ("中文。」字", 3, ["中", "文。」", "字"]),
        # clreq: an opening mark goes down with the character after it
        ("中文（字", 3, ["中文", "（字"]),
        # Latin breaks at spaces; the spaces hang at the line end
        ("aa bb cc", 5, ["aa bb ", "cc"]),
        ("aa bb cc", 2, ["aa ", "bb ", "cc"]),
        ("aa    bb", 3, ["aa    ", "bb"]),
        ("well-known fact", 6, ["well-", "known ", "fact"]),
        # mandatory breaks
        ("ab\ncd", 10, ["ab\n", "cd"]),
        ("ab\n\ncd", 10, ["ab\n", "\n", "cd"]),
        ("ab\n", 10, ["ab\n"]),
        # overlong words are force-broken between clusters, as late as possible
        ("abcdefgh", 3, ["abc", "def", "gh"]),
        ("x abcdefgh", 3, ["x ", "abc", "def", "gh"]),
        ("（abcd", 2, ["（a", "bc", "d"]),
        # a line always takes at least one cluster
        ("ab", 0.5, ["a", "b"]),
    ],
)
def test_break_lines(text: str, width: float, expected: list[str]) -> None:
    assert lines(text, width) == expected


def test_trailing_spaces_hang_outside_the_width() -> None:
    texts = list("ab  cd")
    allowed = opportunities(texts, [False] * 6)
    assert break_lines(texts, [1.0, 2.0, 0.5, 0.5, 1.0, 1.0], allowed, 3.5) == [
        LineRange(0, 4, 3.0),
        LineRange(4, 6, 2.0),
    ]


def test_unsafe_boundary_moves_the_break() -> None:
    assert lines("中文字体", 3) == ["中文字", "体"]
    assert lines("中文字体", 3, unsafe={3}) == ["中文", "字体"]


def test_force_break_ignores_unsafe_flags_only_when_it_must() -> None:
    assert lines("abcd", 2, unsafe={1, 2, 3}) == ["ab", "cd"]


def test_wide_cluster_takes_a_line_of_its_own() -> None:
    texts = ["a", "👨\u200d👩\u200d👧", "b"]
    allowed = opportunities(texts, [False] * 3)
    assert break_lines(texts, [1.0, 5.0, 1.0], allowed, 2.0) == [
        LineRange(0, 1, 1.0),
        LineRange(1, 2, 5.0),
        LineRange(2, 3, 1.0),
    ]


# Regressions found by the properties below.


def test_space_before_hard_break_does_not_push_the_break_to_a_line_of_its_own() -> None:
    # "ab" fits in 2 but "ab " does not; the newline used to overflow and start a blank
    # line of its own, and the line's width counted the space.
    texts = list("ab \ncd")
    allowed = opportunities(texts, [False] * 6)
    assert break_lines(texts, [1.0] * 6, allowed, 2.0) == [
        LineRange(0, 4, 2.0),
        LineRange(4, 6, 2.0),
    ]


def test_hard_break_width_is_not_counted() -> None:
    texts = list("ab\n")
    allowed = opportunities(texts, [False] * 3)
    assert break_lines(texts, [1.0, 1.0, 3.0], allowed, 2.0) == [LineRange(0, 3, 2.0)]


# --- properties ---------------------------------------------------------------------------

CLUSTERS = [
    *list("中文字体排版かなカナ한글"),
    *["👍", "👍🏽", "👨\u200d👩\u200d👧", "🇨🇳"],
    *list("abcxyzABC0189"),
    *[" ", " ", " ", "\u3000", "\t", "\n"],
    *list(CLOSING_CJK + OPENING_CJK),
    *list(".,!?;:)(]['\"%#"),
    *["-", "-", "/", "—", "…", "\u200b", "\u00ad"],
]

cluster_texts = st.lists(st.sampled_from(CLUSTERS), min_size=0, max_size=60)
widths_for = st.floats(min_value=0.05, max_value=30.0, allow_nan=False)
FAST = settings(max_examples=200, deadline=None)


@st.composite
def paragraphs(draw: st.DrawFn) -> tuple[list[str], list[float], list[bool], float]:
    texts = draw(cluster_texts)
    widths = draw(st.lists(widths_for, min_size=len(texts), max_size=len(texts)))
    unsafe = draw(st.lists(st.booleans(), min_size=len(texts), max_size=len(texts)))
    max_width = draw(st.floats(min_value=0.5, max_value=120.0, allow_nan=False))
    return texts, widths, unsafe, max_width


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)


def _content(texts: list[str], line: LineRange) -> int:
    """Index one past the line's last non-hanging cluster."""
    end = line.end
    while end > line.start and texts[end - 1] in HANGING:
        end -= 1
    return end


@FAST
@given(paragraphs())
def test_lines_cover_the_text_in_order(
    case: tuple[list[str], list[float], list[bool], float],
) -> None:
    texts, widths, unsafe, max_width = case
    result = break_lines(texts, widths, opportunities(texts, unsafe), max_width)
    ends = [0] + [line.end for line in result]
    assert [line.start for line in result] == ends[:-1]  # no gap, no overlap, in order
    assert ends[-1] == len(texts)  # nothing lost
    assert all(line.end > line.start for line in result)  # no empty line


@FAST
@given(paragraphs())
# an indent before a piece wider than the line: the cut before the closing mark would have
# left a line of only the indent, 0.5 wide (found by CI's run of this property)
@example(([" ", "中", "，"], [0.5, 0.5, 1.0], [False, False, False], 1.0))
def test_width_is_the_content_without_trailing_spaces(
    case: tuple[list[str], list[float], list[bool], float],
) -> None:
    texts, widths, unsafe, max_width = case
    for line in break_lines(texts, widths, opportunities(texts, unsafe), max_width):
        assert _close(line.width, sum(widths[line.start : _content(texts, line)]))


@FAST
@given(paragraphs())
def test_no_line_is_wider_than_the_box_unless_one_cluster(
    case: tuple[list[str], list[float], list[bool], float],
) -> None:
    texts, widths, unsafe, max_width = case
    for line in break_lines(texts, widths, opportunities(texts, unsafe), max_width):
        if line.width > max_width + 1e-6:
            assert _content(texts, line) - line.start == 1, (line, texts[line.start : line.end])


@FAST
@given(paragraphs())
def test_lines_end_at_opportunities_and_greedily(
    case: tuple[list[str], list[float], list[bool], float],
) -> None:
    """A line ends where it must, or where the next piece does not fit.

    Ending at a NEVER spot (a forced break) happens only when the line holds no break
    opportunity at all and the text from the line start to the next opportunity is wider
    than an empty line; it ends where the very next cluster would overflow it, or earlier
    after an inner mark that keeps `INNER_KEEP` of the line, or one cluster earlier so that
    a closing mark does not open the next line.
    """
    texts, widths, unsafe, max_width = case
    allowed = opportunities(texts, unsafe)
    for line in break_lines(texts, widths, allowed, max_width):
        inner = allowed[line.start : line.end - 1]
        assert MANDATORY not in inner  # a hard break always ends its line
        if line.end == len(texts) or allowed[line.end - 1] == MANDATORY:
            continue
        if allowed[line.end - 1] == NEVER:  # forced
            assert set(inner) <= {NEVER}
            assert texts[line.end] not in HANGING
            overflow = sum(widths[line.start : line.end + 1]) > max_width - 1e-6
            at_mark = texts[line.end - 1] in INNER_MARKS and line.width >= INNER_KEEP * max_width
            closer = texts[line.end + 1 : line.end + 2]
            before_closer = sum(widths[line.start : line.end + 2]) > max_width - 1e-6 and (
                bool(closer) and classify(closer[0]) in (Brk.CL, Brk.CLW)
            )
            assert overflow or at_mark or before_closer
            continue
        nxt = next(j for j in range(line.end, len(texts)) if allowed[j] != NEVER)
        overflows = [
            sum(widths[line.start : i + 1]) > max_width - 1e-6
            for i in range(line.end, nxt + 1)
            if texts[i] not in HANGING
        ]
        assert any(overflows), "the next piece would have fitted on this line"


@FAST
@given(paragraphs())
def test_punctuation_rules_hold_except_in_forced_breaks(
    case: tuple[list[str], list[float], list[bool], float],
) -> None:
    texts, widths, unsafe, max_width = case
    allowed = opportunities(texts, unsafe)
    for line in break_lines(texts, widths, allowed, max_width):
        if line.end < len(texts) and allowed[line.end - 1] == ALLOWED:  # not hard, not forced
            assert texts[line.end] not in CLOSING_CJK + CLOSING_NARROW + "…"
            assert texts[line.end - 1] not in OPENING_CJK
            assert not unsafe[line.end] or texts[line.end - 1] in HANGING


def _line_start(texts: list[str], i: int) -> int:
    """Where the line holding cluster `i` starts (after the last hard break before it)."""
    return max((k + 1 for k in range(i) if texts[k] == "\n"), default=0)


@FAST
@given(paragraphs())
def test_opportunities_respect_the_rules(
    case: tuple[list[str], list[float], list[bool], float],
) -> None:
    texts, _, unsafe, _ = case
    allowed = opportunities(texts, unsafe)
    assert len(allowed) == len(texts)
    for i in range(len(texts) - 1):
        if texts[i] == "\n":
            assert allowed[i] == MANDATORY
        elif (
            texts[i + 1] in CLOSING_CJK + CLOSING_NARROW + "…"
            or texts[i] in OPENING_CJK + "(["
            or texts[i + 1] in HANGING
        ):
            assert allowed[i] == NEVER
        elif texts[i] in HANGING:
            # after spaces, but not after the ones that indent a line (they stay with it)
            indent = all(t in HANGING and t != "\n" for t in texts[_line_start(texts, i) : i + 1])
            assert allowed[i] == (NEVER if indent else ALLOWED)
        elif unsafe[i + 1]:
            assert allowed[i] == NEVER
        elif texts[i] in IDEOGRAPHS and texts[i + 1] in IDEOGRAPHS:
            assert allowed[i] == ALLOWED
        assert allowed[i] != MANDATORY or texts[i] == "\n"


# --- line edges, hyphenation points, lone last characters -----------------------------------


@st.composite
def edged_paragraphs(
    draw: st.DrawFn,
) -> tuple[list[str], list[float], list[int], list[Edges], float]:
    """Paragraphs with line-edge trims (up to half a cluster) and hyphenation points."""
    texts, widths, unsafe, max_width = draw(paragraphs())
    allowed = opportunities(texts, unsafe)
    hyphens = draw(st.lists(st.booleans(), min_size=len(texts), max_size=len(texts)))
    allowed = [HYPHEN if h and a == NEVER else a for a, h in zip(allowed, hyphens, strict=True)]
    shares = st.lists(st.sampled_from([0.0, 0.0, 0.5]), min_size=3, max_size=3)
    edges = [
        Edges(w * start, w * end, w * hyphen)
        for w, (start, end, hyphen) in zip(
            widths, draw(st.lists(shares, min_size=len(texts), max_size=len(texts))), strict=True
        )
    ]
    return texts, widths, allowed, edges, max_width


def _covers_in_order(lines: list[LineRange], n: int) -> None:
    ends = [0] + [line.end for line in lines]
    assert [line.start for line in lines] == ends[:-1]
    assert ends[-1] == n
    assert all(line.end > line.start for line in lines)


@FAST
@given(edged_paragraphs())
def test_edges_and_hyphens_lose_and_reorder_nothing(
    case: tuple[list[str], list[float], list[int], list[Edges], float],
) -> None:
    texts, widths, allowed, edges, max_width = case
    lines = break_lines(texts, widths, allowed, max_width, edges)
    _covers_in_order(lines, len(texts))
    _covers_in_order(avoid_lone_last(texts, widths, allowed, lines, max_width, edges), len(texts))


@FAST
@given(edged_paragraphs())
def test_edged_lines_fit_unless_forced(
    case: tuple[list[str], list[float], list[int], list[Edges], float],
) -> None:
    """A line wider than the box is one forced piece, before and after the lone-character
    adjustment (which only ever makes lines that fit)."""
    texts, widths, allowed, edges, max_width = case
    lines = break_lines(texts, widths, allowed, max_width, edges)
    moved = avoid_lone_last(texts, widths, allowed, lines, max_width, edges)
    for line in moved:
        if line.width > max_width + 1e-6:
            assert line in lines
            assert _content(texts, line) - line.start == 1


def test_lone_last_moves_at_most_a_small_piece() -> None:
    texts = list("中中中中中中中中。")
    allowed = opportunities(texts, [False] * len(texts))
    lines = break_lines(texts, [1.0] * len(texts), allowed, 4)
    assert [(r.start, r.end) for r in lines] == [(0, 4), (4, 7), (7, 9)]
    moved = avoid_lone_last(texts, [1.0] * len(texts), allowed, lines, 4)
    assert [(r.start, r.end) for r in moved] == [(0, 4), (4, 6), (6, 9)]


def test_an_emoji_never_ends_a_paragraph_alone() -> None:
    """ "…照片随手拍都出片 / 📷" at 1600x900: the emoji took the last line by itself."""
    texts = [*"中中中中中中中中", "📷"]
    allowed = opportunities(texts, [False] * len(texts))
    lines = break_lines(texts, [1.0] * len(texts), allowed, 4)
    assert [(r.start, r.end) for r in lines] == [(0, 4), (4, 8), (8, 9)]
    moved = avoid_lone_last(texts, [1.0] * len(texts), allowed, lines, 4)
    assert [(r.start, r.end) for r in moved] == [(0, 4), (4, 7), (7, 9)]


def test_a_hanging_space_never_grows_by_a_hyphen() -> None:
    """Hypothesis found it: a space carrying a hyphen edge, alone on a line, came out wider
    than the box although it draws nothing."""
    texts = ["中", "中", "中", " ", "中"]
    widths = [1.0, 1.0, 1.0, 3.0, 1.0]
    allowed = [ALLOWED, ALLOWED, HYPHEN, ALLOWED, ALLOWED]
    edges = [Edges(0.0, 0.0, 1.5 if text == " " else 0.0) for text in texts]
    lines = break_lines(texts, widths, allowed, 1.0, edges)
    assert all(line.width <= 1.0 for line in lines)


def _mark_edges(texts: list[str], widths: list[float]) -> list[Edges]:
    """Half of each full-width mark is blank: a closing mark's after it, an opening one's
    before it; a soft hyphen used as a break draws a hyphen."""
    edges = []
    for text, width in zip(texts, widths, strict=True):
        if text in CLOSING_CJK:
            edges.append(Edges(end=width / 2))
        elif text in OPENING_CJK:
            edges.append(Edges(start=width / 2))
        else:
            edges.append(Edges(hyphen=1.0 if text == "\u00ad" else 0.0))
    return edges


@FAST
@given(paragraphs())
@example(([*"中中中", "\u00ad", *"中中"], [1.0, 1.0, 1.0, 1.0, 0.25, 0.5], [False] * 6, 0.5))
def test_evened_lines_cover_the_text_and_fit_by_their_marks_blanks(
    case: tuple[list[str], list[float], list[bool], float],
) -> None:
    """Whatever a line pulls up or gives away, the lines still cover the text in order,
    end where a line may, and a line wider than the box (by more than one cluster) takes
    no more than its inner marks' blanks off to fit."""
    texts, widths, unsafe, max_width = case
    if not texts:
        return
    allowed = opportunities(texts, unsafe)
    edges = _mark_edges(texts, widths)
    lines = break_lines(texts, widths, allowed, max_width, edges)

    def looseness(line: LineRange) -> float:  # a line a tenth short is loose
        return 10 * (max_width - line.width) / max_width

    evened = even_lines(texts, widths, allowed, lines, max_width, edges, looseness)
    assert [line.start for line in evened] == [0] + [line.end for line in evened[:-1]]
    assert evened[-1].end == len(texts) and len(evened) <= len(lines)
    for line in evened:
        assert MANDATORY not in allowed[line.start : line.end - 1]
        if not line.squeeze:
            continue
        # its width never counts a hyphen drawn (the paragraph's end draws none: a soft
        # hyphen last in the text, which hypothesis found, breaks nothing)
        assert line.end == len(texts) or not edges[line.end - 1].hyphen
        content = _content(texts, line)
        room = sum(edges[i].end for i in range(line.start, content - 1))
        room += sum(edges[i].start for i in range(line.start + 1, content))
        natural = sum(widths[line.start : content]) - line.trim_start - line.trim_end
        assert 0 < line.squeeze <= room + 1e-6
        assert _close(line.width, natural - line.squeeze) and line.width <= max_width + 1e-6


def test_a_name_wider_than_the_line_keeps_its_underscores_where_another_mark_will_do() -> None:
    """`{error.response.` / `status_code}`, not `{error.response.status_` / `code}`: an
    underscore joins one name, so it breaks there only where no other mark keeps half the
    line (22 theme-modes wrapped the asyncio tutorial's f-string inside `status_code`)."""
    token = "{error.response.status_code}"
    texts = list(token)
    lines = break_lines(texts, [1.0] * len(texts), opportunities(texts, [False] * len(texts)), 24)
    assert ["".join(texts[r.start : r.end]) for r in lines] == ["{error.response.", "status_code}"]
    name = "very_long_snake_case_name_of_a_setting"  # no other mark: the underscore serves
    texts = list(name)
    lines = break_lines(texts, [1.0] * len(texts), opportunities(texts, [False] * len(texts)), 24)
    assert "".join(texts[lines[0].start : lines[0].end]).endswith("_")


def test_a_wide_call_breaks_between_its_arguments_before_inside_one() -> None:
    """`limits=httpx.Limits(max_connections=` / `20))` parted a keyword from its value, and
    `["https://example.` / `com/page/%d"` a URL (22 of 30 sets of the asyncio tutorial, the
    twenty-second session's raters): a wide token breaks after `,`, `(`, `[` or `{` first
    (`LIST_MARKS`) where one keeps half the line, then after `.` or `=`."""

    def lines_of(token: str, width: float) -> list[str]:
        texts = list(token)
        allowed = opportunities(texts, [False] * len(texts))
        return [
            "".join(texts[r.start : r.end])
            for r in break_lines(texts, [1.0] * len(texts), allowed, width)
        ]

    assert lines_of("limits=httpx.Limits(max_connections=20))", 36) == [
        "limits=httpx.Limits(",
        "max_connections=20))",
    ]
    assert (
        lines_of('asyncio.run(main(["https://example.com/page/%d"', 36)[0] == "asyncio.run(main(["
    )


def test_a_whole_url_breaks_inside_before_a_closing_mark_opens_a_line() -> None:
    """art-deco's FAQ at 440x586: "https://platform.openai.com/docs/overview ，其他…" — the
    URL (held whole, as `units.keep_whole` holds it) filled its line, the space after it
    hung, and the break fell before "，", which opened the next line. It breaks after one of
    the URL's own marks instead, and the comma stays with "overview"."""
    texts = list("https://a.com/docs/overview ，其他")
    allowed = opportunities(texts, [False] * len(texts))
    url = len("https://a.com/docs/overview")
    allowed[: url - 1] = [NEVER] * (url - 1)  # a unit held whole
    ranges = break_lines(texts, [1.0] * len(texts), allowed, url + 0.5)
    got = ["".join(texts[r.start : r.end]) for r in ranges]
    assert got == ["https://a.com/docs/", "overview ，其他"]
    assert not any(line.startswith("，") for line in got)
