"""Table column widths as numbers, with the box font.

Table text is 14.4 px (so a character is 14.4 px wide) on 21.6 px lines, cells have 10 px
padding on every side, and the content box is 400 px wide from x = 20. Columns follow CSS
automatic layout: a table whose cells fit unwrapped is stretched in proportion to each
column's unwrapped width; otherwise each column gets its longest word and the rest goes
to the columns that want more, in proportion to how much more.
"""

from __future__ import annotations

import pytest

import layout
from layout.boxes import GlyphRun, Group, Item, PlacedRow
from layout.tables import ColumnNeeds, column_groups, distribute

CHAR = 14.4
PAD = 10.0


def table_rows(md: str, fonts: layout.FontBook, theme: layout.Theme) -> list[PlacedRow]:
    [page] = layout.layout_pages(md, theme, fonts, layout.RenderOptions())
    return list(page.rows)


def cell_lines(row: PlacedRow) -> list[tuple[float, float]]:
    """(left, right) of the inked glyphs of each text line in a row, cell by cell and top to
    bottom (glyph 2 is the box font's space, which a wrapped line leaves hanging)."""
    out = []
    for item in row.row.items:
        if not isinstance(item, Group):
            continue
        lines: dict[float, list[float]] = {}
        for run, dx, dy in placed_runs(item):
            for x, y, g in zip(run.xs, run.ys, run.glyphs, strict=True):
                if g != 2:
                    lines.setdefault(round(y + dy, 4), []).append(x + dx)
        for _, xs in sorted(lines.items()):
            out.append((round(min(xs), 4), round(max(xs) + CHAR, 4)))
    return out


def placed_runs(
    item: Item, dx: float = 0.0, dy: float = 0.0
) -> list[tuple[GlyphRun, float, float]]:
    """Glyph runs with the offsets of the groups around them (no test here scales)."""
    if isinstance(item, GlyphRun):
        return [(item, dx, dy)]
    if isinstance(item, Group):
        return [
            placed
            for child in item.items
            for placed in placed_runs(child, dx + item.dx, dy + item.dy)
        ]
    return []


def glyph_runs(item: Item) -> list[GlyphRun]:
    if isinstance(item, GlyphRun):
        return [item]
    if isinstance(item, Group):
        return [run for child in item.items for run in glyph_runs(child)]
    return []


def test_equal_cells_share_the_width_equally(box_fonts, plain_theme) -> None:
    header, body = table_rows("| a | b |\n|---|---|\n| c | d |", box_fonts, plain_theme)
    assert cell_lines(header) == cell_lines(body) == [(30.0, 44.4), (230.0, 244.4)]
    assert header.row.height == body.row.height == 21.6 + 2 * PAD
    assert (header.row.text, body.row.text) == ("a | b", "c | d")


def test_wider_cells_get_wider_columns_in_proportion(box_fonts, plain_theme) -> None:
    """Unwrapped widths 34.4 and 63.2 (text + padding) stretched to 400 px."""
    [header, _] = table_rows("| a | bbb |\n|---|---|\n| c | d |", box_fonts, plain_theme)
    first = 400 * (CHAR + 2 * PAD) / (CHAR + 3 * CHAR + 4 * PAD)
    assert first == pytest.approx(140.9836, abs=1e-4)
    second = 20 + first + PAD
    assert cell_lines(header) == [(30.0, 44.4), (round(second, 4), round(second + 3 * CHAR, 4))]


def test_a_long_cell_wraps_and_the_short_column_keeps_its_text(box_fonts, plain_theme) -> None:
    """`abc` wants 63.2 px; twenty `xxxx` want 1445.6 but need only 77.6 (one word). The
    259.2 px spare all go to the column that wants more: widths 63.2 and 336.8, so the long
    cell wraps in 316.8 px, four words (19 characters, 273.6 px) to a line, five lines."""
    md = "| abc | long |\n|---|---|\n| abc | " + " ".join(["xxxx"] * 20) + " |"
    header, body = table_rows(md, box_fonts, plain_theme)
    second = round(20 + 63.2 + PAD, 4)
    assert cell_lines(header) == [(30.0, 73.2), (second, round(second + 4 * CHAR, 4))]
    lines = cell_lines(body)
    assert lines[0] == (30.0, 73.2)
    assert lines[1:] == [(second, round(second + 19 * CHAR, 4))] * 5
    assert body.row.height == pytest.approx(5 * 21.6 + 2 * PAD)


def test_alignments_place_text_in_its_column(box_fonts, plain_theme) -> None:
    md = "| l | c | r |\n|:--|:-:|--:|\n| a | b | c |"
    _, body = table_rows(md, box_fonts, plain_theme)
    third = 400 / 3
    centre = 20 + third * 1.5
    assert cell_lines(body) == [
        (30.0, 44.4),
        (round(centre - CHAR / 2, 4), round(centre + CHAR / 2, 4)),
        (round(420 - PAD - CHAR, 4), 410.0),
    ]


def test_words_too_long_for_the_box_share_it_in_proportion(box_fonts, plain_theme) -> None:
    """Three unbreakable 15-character words need 236 px each; 400 px are split three ways,
    and each word is broken between characters inside its 113.3 px of text room."""
    word = "w" * 15
    md = f"| {word} | {word} | {word} |\n|---|---|---|\n| a | b | c |"
    _, body = table_rows(md, box_fonts, plain_theme)
    third = 400 / 3
    lefts = [20 + third * n + PAD for n in range(3)]
    assert cell_lines(body) == [(round(x, 4), round(x + CHAR, 4)) for x in lefts]
    header = table_rows(md, box_fonts, plain_theme)[0]
    room = third - 2 * PAD  # 113.3 px: 7 characters to a line, 15 = 7 + 7 + 1
    assert int(room // CHAR) == 7
    assert [right - left for left, right in cell_lines(header)] == pytest.approx(
        [7 * CHAR, 7 * CHAR, CHAR] * 3
    )
    assert header.row.height == pytest.approx(3 * 21.6 + 2 * PAD)


@pytest.mark.parametrize(
    ("glyphs", "words", "lines", "width", "expected"),
    [
        ([5, 5], [10, 10], [30, 10], 400, [300, 100]),  # fits unwrapped: stretched in proportion
        ([5, 5], [10, 10], [30, 10], 40, [30, 10]),  # exactly fits
        ([5, 5], [10, 20], [110, 20], 80, [60, 20]),  # spare 50 goes to the column wanting it
        ([5, 5], [10, 30], [60, 80], 90, [35, 55]),  # equal wants share the spare equally
        ([10, 10], [100, 300], [200, 400], 200, [10 + 180 * 90 / 380, 10 + 180 * 290 / 380]),
        ([100, 300], [200, 400], [200, 400], 200, [100, 300]),  # glyphs overflow: kept, scaled
    ],
)
def test_distribute(glyphs, words, lines, width, expected) -> None:
    widths = distribute(*([float(x) for x in v] for v in (glyphs, words, lines)), float(width))
    assert widths == pytest.approx(expected)
    if sum(glyphs) < width:
        assert sum(widths) == pytest.approx(width)


def one_character_table(columns: int) -> str:
    row = "| " + " | ".join("abcdefghijklmnopqrstuvwxyz"[:columns]) + " |\n"
    return row + "|" + "---|" * columns + "\n" + row * 2


def row_scale(row: PlacedRow) -> float:
    """A scaled row is one group around its whole content."""
    [group] = row.row.items
    assert isinstance(group, Group)
    return group.scale


@pytest.mark.parametrize("columns", [12, 13])
def test_a_table_that_reads_when_scaled_is_one_table(columns, box_fonts, plain_theme) -> None:
    """12 and 13 columns of 34.4 px (one character and padding) need scale 0.97 and 0.89
    to fit 400 px, above the 12 px floor (12 / 14.4 = 0.83): scaled as before, not split."""
    rows = table_rows(one_character_table(columns), box_fonts, plain_theme)
    assert len(rows) == 3 and [r.row.keep_with_next for r in rows] == [True, False, False]
    assert all(len(r.row.text.split(" | ")) == columns for r in rows)
    assert [row_scale(r) for r in rows] == [pytest.approx(400 / (columns * 34.4))] * 3


def test_a_table_that_would_read_below_12_px_is_split(box_fonts, plain_theme) -> None:
    """14 columns need 400 / 481.6 = 0.83 < 12 / 14.4: split. The first column (letters)
    labels the rows and starts each group; 11 columns of 34.4 px fit, then the other 3."""
    rows = table_rows(one_character_table(14), box_fonts, plain_theme)
    assert [r.row.text for r in rows] == ["a | b | c | d | e | f | g | h | i | j | k"] * 3 + [
        "a | l | m | n"
    ] * 3
    assert [r.row.gap for r in rows] == [0.0, 0.0, 0.0, 16.0, 0.0, 0.0]
    assert [r.row.keep_with_next for r in rows] == [True, False, False] * 2
    # Each group fits unwrapped: stretched to 400 px at full size, cells in the content box.
    assert cell_lines(rows[3]) == [(30.0, 44.4), (130.0, 144.4), (230.0, 244.4), (330.0, 344.4)]


N = ColumnNeeds


@pytest.mark.parametrize(
    ("needs", "labels", "expected"),
    [
        (N([50.0] * 4, [60.0] * 4, [60.0] * 4), False, [[0, 1, 2, 3]]),  # fits at scale 1
        (N([100.0] * 4, [100.0] * 4, [100.0] * 4), True, [[0, 1, 2, 3]]),  # scale 0.9
        (N([70.0] * 6, [90.0] * 6, [90.0] * 6), False, [[0, 1, 2, 3, 4, 5]]),  # scale 0.86
        # Scale 0.75: split, columns at their 90 px words; the label (a quarter) repeated.
        (N([80.0] * 6, [90.0] * 6, [90.0] * 6), False, [[0, 1, 2, 3], [4, 5]]),
        (N([80.0] * 6, [90.0] * 6, [90.0] * 6), True, [[0, 1, 2, 3], [0, 4, 5]]),
        # A label wider than a quarter of the width is not repeated.
        (N([80.0] * 6, [110.0] + [90.0] * 5, [110.0] + [90.0] * 5), True, [[0, 1, 2], [3, 4, 5]]),
        # Long text gets the comfort width (50), not its 20 px word; short text its 30 px
        # line: 50 + 10 x 30, then 12 x 30 a group.
        (
            N([10.0] * 50, [20.0] * 50, [500.0] + [30.0] * 49),
            False,
            [list(range(11)), *(list(range(n, min(n + 12, 50))) for n in range(11, 50, 12))],
        ),
        # A column too wide alone is a group of its own.
        (
            N([80.0] * 6, [90.0, 90.0, 900.0, 90.0, 90.0, 90.0], [900.0] * 6),
            False,
            [[0, 1], [2], [3, 4, 5]],
        ),
    ],
)
def test_column_groups(needs, labels, expected) -> None:
    """Content width 360 (so 432 px at the 0.83 floor), comfort width 50."""
    assert column_groups(needs, 360.0, 12 / 14.4, 50.0, labels) == expected
