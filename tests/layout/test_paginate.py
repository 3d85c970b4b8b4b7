"""Paginator: y positions per page as plain lists (WeasyPrint style), then properties.

Rows are built by hand; `text` names each row so a page reads as a list of names.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inkcard.layout.base.boxes import Fill, Frame, FrameDecor, Row, Segment, Stroke
from inkcard.layout.base.placing import cut, fits, frame_items, place
from inkcard.layout.pages.breaks.pagebreaks import paginate

EPS = 1e-6


def row(
    height: float,
    text: str = "",
    *,
    gap: float = 0.0,
    keep: bool = False,
    frames: tuple[Frame, ...] = (),
) -> Row:
    return Row(height, (), gap=gap, frames=frames, keep_with_next=keep, text=text)


def frame(id: int, pad_top: float = 0.0, pad_bottom: float = 0.0, **decor: object) -> Frame:
    return Frame(id, pad_top, pad_bottom, FrameDecor(x=10.0, width=80.0, **decor))


def ys(rows: Sequence[Row]) -> list[float]:
    return [p.y for p in place(rows).rows]


def names(pages: list[list[Row]]) -> list[list[str]]:
    return [[r.text for r in page] for page in pages]


def page_ys(pages: list[list[Row]]) -> list[list[float]]:
    return [ys(page) for page in pages]


# --- place ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "expected_ys", "expected_height"),
    [
        ([], [], 0.0),
        ([row(10)], [0], 10),
        ([row(10, gap=7)], [0], 10),  # the gap above the first row is dropped
        ([row(10), row(20, gap=5), row(10, gap=3)], [0, 15, 38], 48),
    ],
)
def test_place_stacks_rows(
    rows: list[Row], expected_ys: list[float], expected_height: float
) -> None:
    placement = place(rows)
    assert [p.y for p in placement.rows] == expected_ys
    assert placement.height == expected_height
    assert [p.scale for p in placement.rows] == [1.0] * len(rows)


def test_place_opens_and_closes_frames_with_their_padding() -> None:
    quote = frame(1, 4, 6)
    inner = frame(2, 2, 3)
    rows = [
        row(10, "a"),
        row(10, "b", gap=5, frames=(quote,)),
        row(10, "c", gap=1, frames=(quote, inner)),
        row(10, "d", gap=2),
    ]
    placement = place(rows)
    # a at 0; gap 5, quote opens (+4): b at 19; gap 1 inside quote, inner opens (+2):
    # c at 32; inner (+3) and quote (+6) close, gap 2: d at 53
    assert [p.y for p in placement.rows] == [0, 19, 32, 53]
    assert placement.height == 63
    assert [(f.id, top, bottom) for f, top, bottom in placement.frames] == [
        (1, 15, 51),
        (2, 30, 45),
    ]


def test_place_frame_at_the_top_opens_at_zero() -> None:
    quote = frame(1, 8, 8)
    placement = place([row(10, gap=20, frames=(quote,)), row(10, gap=4, frames=(quote,))])
    assert [p.y for p in placement.rows] == [8, 22]
    assert [(top, bottom) for _, top, bottom in placement.frames] == [(0, 40)]


@pytest.mark.parametrize(
    ("height", "pads", "limit", "expected_y", "expected_scale"),
    [
        (300, (0, 0), 100, 0, 1 / 3),
        (300, (10, 10), 100, 10, 80 / 300),
        (50, (10, 10), 100, 10, 1.0),  # fits: untouched
        (300, (60, 60), 100, 60, 1.0),  # no room at all inside the padding: left alone
    ],
)
def test_place_scales_a_lone_oversize_row_to_the_limit(
    height: float, pads: tuple[float, float], limit: float, expected_y: float, expected_scale: float
) -> None:
    frames = (frame(1, *pads),) if any(pads) else ()
    placement = place([row(height, frames=frames)], limit=limit)
    (placed,) = placement.rows
    assert placed.y == expected_y
    assert placed.scale == pytest.approx(expected_scale)
    if expected_scale < 1:
        assert placement.height == pytest.approx(limit)


def test_place_never_scales_when_there_are_several_rows() -> None:
    placement = place([row(300), row(10)], limit=100)
    assert [p.scale for p in placement.rows] == [1.0, 1.0]
    assert placement.height == 310


# --- paginate ------------------------------------------------------------------------------


def test_pages_fill_greedily_and_drop_the_gap_at_the_top() -> None:
    rows = [row(30, str(i), gap=10) for i in range(5)]
    pages = paginate(rows, 100)
    assert names(pages) == [["0", "1"], ["2", "3"], ["4"]]
    assert page_ys(pages) == [[0, 40], [0, 40], [0]]


def test_a_row_exactly_filling_the_page_fits() -> None:
    pages = paginate([row(50, "a"), row(50, "b"), row(60, "c")], 100)
    assert names(pages) == [["a", "b"], ["c"]]


def test_keep_with_next_carries_the_heading_over() -> None:
    rows = [row(40, "a"), row(40, "b"), row(15, "H", gap=5, keep=True), row(40, "c", gap=5)]
    pages = paginate(rows, 100)
    assert names(pages) == [["a", "b"], ["H", "c"]]
    assert page_ys(pages) == [[0, 40], [0, 20]]


def test_a_keep_chain_moves_as_a_whole() -> None:
    rows = [row(30, "a"), row(20, "H1", keep=True), row(20, "H2", keep=True), row(40, "b")]
    assert names(paginate(rows, 100)) == [["a"], ["H1", "H2", "b"]]


def test_a_keep_chain_longer_than_a_page_is_broken_where_the_page_ends() -> None:
    rows = [row(30, f"k{i}", keep=True) for i in range(5)] + [row(30, "x")]
    pages = paginate(rows, 100)
    assert names(pages) == [["k0", "k1", "k2"], ["k3", "k4", "x"]]
    assert page_ys(pages) == [[0, 30, 60], [0, 30, 60]]


def test_a_keep_chain_that_cannot_join_the_next_row_stands_alone() -> None:
    # H must leave page 1 (it keeps with c), but H and c together overflow too.
    rows = [row(60, "a"), row(10, "H", keep=True), row(95, "c")]
    assert names(paginate(rows, 100)) == [["a"], ["H"], ["c"]]


def test_an_oversize_row_gets_a_page_of_its_own() -> None:
    rows = [row(50, "a"), row(300, "big", gap=10), row(50, "c", gap=10)]
    pages = paginate(rows, 100)
    assert names(pages) == [["a"], ["big"], ["c"]]
    (placed,) = place(pages[1], limit=100).rows
    assert (placed.y, placed.scale) == (0, pytest.approx(1 / 3))


def test_oversize_row_after_a_keep_chain() -> None:
    rows = [row(50, "a"), row(10, "H", keep=True), row(300, "big"), row(10, "c")]
    assert names(paginate(rows, 100)) == [["a"], ["H"], ["big"], ["c"]]


def test_frame_padding_reopens_on_every_page() -> None:
    code = frame(1, 8, 8, fill=0xFFEEEEEE)
    rows = [row(30, str(i), gap=4 if i else 12, frames=(code,)) for i in range(4)]
    pages = paginate(rows, 100)
    # 8 + 30 + 4 + 30 + 8 = 80 fits; a third row would need 114
    assert names(pages) == [["0", "1"], ["2", "3"]]
    assert page_ys(pages) == [[8, 42], [8, 42]]
    assert [[(top, bottom) for _, top, bottom in place(p).frames] for p in pages] == [
        [(0, 80)],
        [(0, 80)],
    ]


def test_rows_after_a_frame_pay_for_its_bottom_padding() -> None:
    quote = frame(1, 10, 10)
    rows = [row(30, "q1", frames=(quote,)), row(30, "q2", frames=(quote,)), row(15, "p")]
    # 10 + 30 + 30 + 10 + 15 = 95
    assert names(paginate(rows, 95)) == [["q1", "q2", "p"]]
    assert len(paginate(rows, 94)) == 2


def test_paginate_nothing() -> None:
    assert paginate([], 100) == []


# --- cut -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("heights", "limit", "expected"),
    [
        ([30, 30, 30, 30], 100, 3),
        ([30, 30, 30, 30], 90, 3),
        ([30, 30, 30, 30], 89.9, 2),
        ([30], 100, 1),
        ([], 100, 0),
        ([300, 10], 100, 0),  # an oversize first row is cut away (compose decides what then)
    ],
)
def test_cut_keeps_the_longest_start_that_fits(
    heights: list[float], limit: float, expected: int
) -> None:
    rows = [row(h, str(i)) for i, h in enumerate(heights)]
    assert cut(rows, limit) == rows[:expected]


def test_cut_counts_gaps_and_frame_padding() -> None:
    quote = frame(1, 5, 5)
    rows = [row(20, "a"), row(20, "b", gap=10, frames=(quote,)), row(20, "c", frames=(quote,))]
    assert names([cut(rows, 59.9)]) == [["a"]]
    assert names([cut(rows, 60)]) == [["a", "b"]]
    assert names([cut(rows, 80)]) == [["a", "b", "c"]]


# --- frame_items ---------------------------------------------------------------------------


def test_frame_items_paint_panels_borders_and_bars_outermost_first() -> None:
    outer = frame(1, 4, 4, fill=0xFF111111, radius=6.0, border_color=0xFF222222, border_width=1.0)
    bar = Frame(2, 2, 2, FrameDecor(x=14.0, width=70.0, bar_width=3.0, bar_color=0xFF333333))
    rows = [row(10, frames=(outer,)), row(10, frames=(outer, bar))]
    items = frame_items(place(rows), dx=5.0, dy=100.0)
    assert [type(i) for i in items] == [Fill, Stroke, Segment]
    fill, stroke, segment = items
    assert isinstance(fill, Fill) and isinstance(stroke, Stroke)
    assert isinstance(segment, Segment)
    assert (fill.rect.x, fill.rect.y, fill.rect.width, fill.rect.height) == (15, 100, 80, 32)
    assert fill.radius == 6.0 and stroke.rect == fill.rect and stroke.width == 1.0
    # the bar runs down the inner frame (y 14..28 on the page), centred on its width
    assert (segment.x1, segment.y1, segment.x2, segment.y2) == (20.5, 114, 20.5, 128)
    assert segment.width == 3.0


def test_a_frame_without_decor_paints_nothing() -> None:
    assert frame_items(place([row(10, frames=(frame(1, 2, 2),))]), 0, 0) == []


def test_frame_items_follow_each_page() -> None:
    code = frame(1, 8, 8, fill=0xFFEEEEEE)
    rows = [row(30, frames=(code,)) for _ in range(3)]
    pages = paginate(rows, 100)
    spans = [
        [(i.rect.y, i.rect.bottom) for i in frame_items(place(p), 0, 50) if isinstance(i, Fill)]
        for p in pages
    ]
    assert spans == [[(50, 126)], [(50, 96)]]


# --- properties ----------------------------------------------------------------------------

FAST = settings(max_examples=200, deadline=None)
heights = st.floats(min_value=0.5, max_value=150.0, allow_nan=False)
gaps = st.one_of(st.just(0.0), st.floats(min_value=0.0, max_value=25.0, allow_nan=False))
pads = st.floats(min_value=0.0, max_value=10.0, allow_nan=False)
specs = st.tuples(heights, gaps, st.booleans(), st.integers(0, 3), st.booleans())


@st.composite
def documents(draw: st.DrawFn) -> list[Row]:
    """Rows in nested frames: each row names its depth (0 to 3) and whether it opens a
    fresh frame there (a sibling container), so frames stay contiguous and well nested."""
    stack: list[Frame] = []
    rows: list[Row] = []
    for n, (height, gap, keep, depth, fresh) in enumerate(draw(st.lists(specs, max_size=40))):
        del stack[depth - 1 if fresh and depth else depth :]
        while len(stack) < depth:
            decor = FrameDecor(0.0, 10.0, fill=1)
            stack.append(Frame(len(rows) * 4 + len(stack), draw(pads), draw(pads), decor))
        rows.append(row(height, f"r{n}", gap=gap, keep=keep, frames=tuple(stack)))
    return rows


page_heights = st.floats(min_value=80.0, max_value=400.0, allow_nan=False)
kinds = st.sampled_from(["as drawn", "soft", "header", "body"])


@st.composite
def rich_documents(draw: st.DrawFn) -> list[Row]:
    """`documents` with rows that discourage a break (`keep_soft`) and tables: a header
    row (kept with the next) and the body rows after it, which name it as their header."""
    rows = draw(documents())
    header: Row | None = None
    out: list[Row] = []
    for r in rows:
        kind = draw(kinds)
        if kind == "soft" and not r.keep_with_next:
            r = replace(r, keep_soft=True)
        elif kind == "header":
            r = header = replace(r, keep_with_next=True)
        elif (
            kind == "body" and header is not None and out and (out[-1].header or out[-1] is header)
        ):
            r = replace(r, header=header)
        out.append(r)
    return out


def originals(pages: list[list[Row]]) -> list[Row]:
    """The pages' rows less the repeated table headers, each checked to sit first on its
    card right above a body row of its table. Rows are known by their text (`documents`
    names each): a card may shrink a row's gap, which makes it a new row (`squeeze.aired`)."""
    seen: set[str] = set()
    rows = []
    for page in pages:
        for index, r in enumerate(page):
            if r.text in seen:
                assert index == 0 and len(page) > 1 and page[1].header is r
                continue
            seen.add(r.text)
            rows.append(r)
    return rows


@FAST
@given(rich_documents(), page_heights)
def test_every_row_lands_once_in_order_on_a_non_empty_page(rows: list[Row], height: float) -> None:
    pages = paginate(rows, height)
    assert all(pages)
    assert [r.text for r in originals(pages)] == [r.text for r in rows]


@FAST
@given(rich_documents(), page_heights)
def test_no_page_is_taller_than_the_card(rows: list[Row], height: float) -> None:
    for page in paginate(rows, height):
        if len(page) > 1:
            assert place(page).height <= height + EPS
        placement = place(page, limit=height)
        assert placement.height <= height + EPS  # a lone oversize row is scaled down
        assert all(0 < p.scale <= 1 for p in placement.rows)


def broken_keeps(pages: list[list[Row]]) -> float:
    """The rules a set of cards breaks, as the page breaker counts them: a card ending
    after a row that keeps with the next, at half when every row on it keeps (a chain
    too long to go anywhere)."""
    return sum(
        0.5 if all(r.keep_with_next for r in page) else 1.0
        for page in pages[:-1]
        if page[-1].keep_with_next
    )


def every_pagination(rows: list[Row], height: float) -> Iterator[list[list[Row]]]:
    """Every way to cut `rows` into cards that fit (or hold one oversize row)."""
    for cuts in itertools.product((False, True), repeat=max(0, len(rows) - 1)):
        pages: list[list[Row]] = [[rows[0]]]
        for r, cut_before in zip(rows[1:], cuts, strict=True):
            if cut_before:
                pages.append([r])
            else:
                pages[-1].append(r)
        if all(len(p) == 1 or fits(p, height) for p in pages):
            yield pages


@FAST
@given(documents().filter(lambda rows: 0 < len(rows) <= 9), page_heights)
def test_the_breaks_break_the_fewest_rules_then_make_the_fewest_cards(
    rows: list[Row], height: float
) -> None:
    """Checked against every possible set of breaks of a short post."""
    best = min((broken_keeps(p), len(p)) for p in every_pagination(rows, height))
    pages = paginate(rows, height)
    assert (broken_keeps(pages), len(pages)) == best


@FAST
@given(documents())
def test_placed_rows_never_overlap(rows: list[Row]) -> None:
    placement = place(rows)
    bottoms = 0.0
    for placed in placement.rows:
        assert placed.y >= bottoms - EPS
        bottoms = placed.y + placed.row.height * placed.scale
    assert placement.height >= bottoms - EPS
    for _, top, bottom in placement.frames:
        assert 0 <= top <= bottom <= placement.height + EPS


@FAST
@given(documents(), st.floats(min_value=0.0, max_value=400.0, allow_nan=False))
def test_cut_is_the_longest_start_that_fits(rows: list[Row], height: float) -> None:
    kept = cut(rows, height)
    longest = max(k for k in range(len(rows) + 1) if k == 0 or fits(rows[:k], height))
    assert kept == rows[:longest]
