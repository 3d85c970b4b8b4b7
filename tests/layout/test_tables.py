"""Table column widths as numbers, with the box font.

Table text is 14.4 px (so a character is 14.4 px wide) on 21.6 px lines, cells have 10 px
padding on every side, and the content box is 400 px wide from x = 20. Columns follow CSS
automatic layout: a table whose cells fit unwrapped is stretched in proportion to each
column's unwrapped width; otherwise each column gets its longest word and the rest goes
to the columns that want more, in proportion to how much more. Words stay whole: a table
whose words do not fit is scaled down to 12 px text, then split into column groups.
"""

from __future__ import annotations

import pytest

from inkcard import layout
from inkcard.layout.base.boxes import GlyphRun, Group, Item, PlacedRow
from inkcard.layout.blocks.tables.rows import TIGHT_SIDES
from inkcard.layout.blocks.tables.widths import (
    ONE_LINE_SCALE,
    ColumnNeeds,
    column_groups,
    distribute,
)

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


def test_words_that_fit_when_scaled_stay_whole(box_fonts, plain_theme) -> None:
    """Two unbreakable 15-character words need 236 px each, 472 px in all: the table is laid
    out at its words and scaled by 400 / 472 = 0.85 (text 12.2 px, above the 12 px floor),
    each word whole on one line. Words used to be broken down to fit 400 px at full size."""
    word = "w" * 15
    md = f"| {word} | {word} |\n|---|---|\n| a | b |"
    header, body = table_rows(md, box_fonts, plain_theme)
    assert row_scale(header) == row_scale(body) == pytest.approx(400 / 472)
    assert header.row.text == f"{word} | {word}"  # one line a cell (lines join with spaces)
    assert header.row.height == pytest.approx((21.6 + 2 * PAD) * 400 / 472)


def test_words_too_long_for_the_box_at_12_px_get_column_groups(box_fonts, plain_theme) -> None:
    """Three 15-character words need 708 px, scale 0.56, below the 12 px floor: the table is
    split into three groups of one column (two of 236 px do not fit 400), each at full
    size with its word whole on one line; words used to be broken 7 + 7 + 1 characters."""
    word = "w" * 15
    md = f"| {word} | {word} | {word} |\n|---|---|---|\n| a | b | c |"
    rows = table_rows(md, box_fonts, plain_theme)
    assert [r.row.text for r in rows] == [word, "a", word, "b", word, "c"]
    assert [r.row.keep_with_next for r in rows] == [True, False] * 3
    assert cell_lines(rows[2]) == [(30.0, round(30 + 15 * CHAR, 4))]  # not scaled
    assert rows[2].row.height == pytest.approx(21.6 + 2 * PAD)


def test_a_short_run_is_not_split_by_a_narrow_line(box_fonts, plain_theme) -> None:
    """A cell "c 10月" next to a column of four 5-character words: words 63.2 and 92 px, spare
    244.8 px shared by wants 43.2 and 259.2, so the first column is 98.2 px, 78.2 px of
    text. "c 10" (57.6 px) would fit a line and leave "月" alone; the run "10月" is one word
    in a table, so it moves to the next line whole."""
    md = "| a | b |\n|---|---|\n| c 10月 | " + " ".join(["xxxxx"] * 4) + " |"
    _, body = table_rows(md, box_fonts, plain_theme)
    first = body.row.text.split(" | ")[0]
    assert first.split() == ["c", "10月"]


def test_a_long_chinese_run_keeps_four_characters_a_line(box_fonts, plain_theme) -> None:
    """Six columns of ten Chinese characters: a run longer than four characters may break
    between any two, but a column keeps four a line (57.6 + 20 px). Six of 77.6 px need
    scale 400 / 465.6 = 0.86, so the table is scaled, lines of 4 + 4 + 2 characters,
    rather than squeezed to three characters a line at full size."""
    run = "一二三四五六七八九十"
    md = "|" + "|".join(f"h{i}" for i in range(6)) + "|\n|" + "---|" * 6 + "\n|"
    md += "|".join([run] * 6) + "|"
    _, body = table_rows(md, box_fonts, plain_theme)
    assert row_scale(body) == pytest.approx(400 / 465.6)
    assert [cell.split() for cell in body.row.text.split(" | ")] == [
        ["一二三四", "五六七八", "九十"]
    ] * 6


def test_a_monthly_table_keeps_its_months_and_figures_whole(fonts, apple_notes) -> None:
    """The card that drew "1/0/月" down its cells: 13 columns of "10月" and two-digit
    figures. Their words do not fit the card at 12 px text, so the table is split into
    column groups with the row labels repeated; no cell breaks a month or a number, and
    no group is scaled below 12 px."""
    months = [f"{m}月" for m in range(1, 13)]
    incomes = [str(10 + i) for i in range(12)]
    costs = [str(5 + i) for i in range(12)]
    md = "| 指标 | " + " | ".join(months) + " |\n|" + "---|" * 13 + "\n"
    md += "| 收入 | " + " | ".join(incomes) + " |\n| 支出 | " + " | ".join(costs) + " |\n"
    rows = table_rows(md, fonts, apple_notes)
    cells = [r.row.text.split(" | ") for r in rows]
    assert all(" " not in cell for row in cells for cell in row)  # one line a cell
    heads, income, cost = cells[0::3], cells[1::3], cells[2::3]
    assert len(heads) > 1 and all(h[0] == "指标" for h in heads)
    assert [m for h in heads for m in h[1:]] == months
    assert [c for row in income for c in row[1:]] == incomes
    assert [c for row in cost for c in row[1:]] == costs
    scales = [row_scale(r) if len(r.row.items) == 1 else 1.0 for r in rows]
    assert min(scales) >= 12 / 14.4


def test_inline_code_with_spaces_is_measured_whole(fonts) -> None:
    """A code span up to `SHORT_CODE` clusters never breaks, spaces and all; its column's
    narrowest width measured it without its spaces, and at 440 px the columns that fitted
    the measure broke "for line i n f", "with open(p) a s f" between letters."""
    code = ["for line in f", "with open(p) as f", "yield block", "return total"]
    md = "| a | b | c | d |\n|---|---|---|---|\n| " + " | ".join(f"`{c}`" for c in code) + " |\n"
    theme = layout.decode_theme('name = "t"\n')
    for width in (300, 360, 440, 520):
        options = layout.RenderOptions(width=width, height=width * 4 // 3, split="autoSplit")
        pages = layout.layout_pages(md, theme, fonts, options)
        cells = [c for p in pages for r in p.rows for c in r.row.text.split(" | ")]
        assert [c for c in cells if c not in "abcd"] == code, width


def test_a_command_in_a_cell_stays_whole_and_its_chinese_neighbour_wraps(fonts) -> None:
    """A cheat sheet's command (26 characters, over the prose's `SHORT_CODE`) broke
    "git checkout HEAD~1" / "-- 文件名" beside 整个提交都不要了 left on one line, in 15
    theme-modes at 440x586; up to `CELL_CODE` characters a cell's code is one piece, and
    the Chinese beside it wraps."""
    from inkcard import themes

    md = (
        "| 场景 | 命令 |\n|---|---|\n| 还没提交 | `git restore 文件名` |\n"
        "| 已经提交 | `git checkout HEAD~1 -- 文件名` |\n"
        "| 整个提交都不要了 | `git revert 提交号` |\n"
    )
    options = layout.RenderOptions(width=440, height=586, split="autoSplit")
    for name in ("minimal", "coil-notebook", "brandC", "apple-notes"):
        (page,) = layout.layout_pages(md, themes.load(name), fonts, options)
        cells = [cell for p in page.rows for cell in p.row.text.split(" | ")]
        assert "git checkout HEAD~1 -- 文件名" in cells, (name, cells)


@pytest.mark.parametrize(
    ("glyphs", "words", "lines", "width", "expected"),
    [
        ([5, 5], [10, 10], [30, 10], 400, [300, 100]),  # fits unwrapped: stretched in proportion
        ([5, 5], [10, 10], [30, 10], 40, [30, 10]),  # exactly fits
        ([5, 5], [10, 20], [110, 20], 80, [60, 20]),  # spare 50 goes to the column wanting it
        ([5, 5], [10, 30], [60, 80], 90, [35, 55]),  # equal wants share the spare equally
        # A short column (a price) whose text fits an even share keeps it unwrapped, then
        # the next shortest; the longest wraps (it took 85.8 of its 86 and wrapped before).
        ([5, 5, 5], [72, 80, 72], [142, 86, 170], 370, [142, 86, 142]),
        # 6 px over 392 (within 5 %): every cell on one line, the table scaled 0.985
        ([5, 5, 5], [72, 80, 72], [142, 86, 170], 392, [142, 86, 170]),
        # ... never so that the others lose their words (300 left for a 300 word): shared.
        ([5, 5, 5], [10, 10, 300], [60, 60, 400], 400, [30, 30, 340]),
        # Words fit at scale 350 / 400 = 0.875: kept whole, the table scaled.
        ([10, 10], [100, 300], [200, 400], 350, [100, 300]),
        # Scale 0.5 is too small: the widest word breaks, the other stays whole.
        ([10, 10], [100, 300], [200, 400], 200, [100, 100]),
        ([10, 10, 10], [50, 60, 500], [50, 60, 500], 300, [50, 60, 190]),
        # Breaking the widest is not enough: the next widest breaks too, the two share
        # 250 px in proportion to their wants (390 and 490 beyond their 10 px).
        (
            [10, 10, 10],
            [50, 400, 500],
            [50, 400, 500],
            300,
            [50, 10 + 230 * 390 / 880, 10 + 230 * 490 / 880],
        ),
        ([100, 300], [200, 400], [200, 400], 200, [100, 300]),  # glyphs overflow: kept, scaled
    ],
)
def test_distribute(glyphs, words, lines, width, expected) -> None:
    needs = ColumnNeeds(*([float(x) for x in v] for v in (glyphs, words, lines)))
    widths = distribute(needs, float(width), 12 / 14.4)
    assert widths == pytest.approx(expected)
    if sum(lines) * ONE_LINE_SCALE <= width < sum(lines):
        assert widths == lines  # every cell on one line, the table scaled a little
    elif sum(words) < width or (sum(glyphs) < width and sum(words) * 12 / 14.4 > width):
        assert sum(widths) == pytest.approx(width)


def one_character_table(columns: int) -> str:
    row = "| " + " | ".join("abcdefghijklmnopqrstuvwxyz"[:columns]) + " |\n"
    return row + "|" + "---|" * columns + "\n" + row * 2


def row_scale(row: PlacedRow) -> float:
    """A scaled row is one group around its whole content."""
    [group] = row.row.items
    assert isinstance(group, Group)
    return group.scale


@pytest.mark.parametrize("columns", [12, 13, 14])
def test_a_table_a_little_too_wide_tightens_its_cells_sides(
    columns, box_fonts, plain_theme
) -> None:
    """12 to 14 columns of 34.4 px (one character and 20 px of side padding) are 413 to
    482 px for 400: with their sides at `TIGHT_SIDES` (12 px) they are 26.4 px, 317 to
    370 px, and stand at full size, stretched to the width, one table (scaled 0.97–0.89
    before, and 14 split into two groups)."""
    rows = table_rows(one_character_table(columns), box_fonts, plain_theme)
    assert len(rows) == 3 and [r.row.keep_with_next for r in rows] == [True, False, False]
    assert all(len(r.row.text.split(" | ")) == columns for r in rows)
    lines = cell_lines(rows[1])
    assert len(lines) == columns  # one line a cell, every glyph at full size
    assert all(right - left == pytest.approx(CHAR) for left, right in lines)
    assert lines[0][0] >= 20 + PAD * TIGHT_SIDES - 0.01 and lines[-1][1] <= 420.01


def test_a_table_that_would_read_below_12_px_is_split(box_fonts, plain_theme) -> None:
    """17 columns need 400 / 584.8 = 0.68 < 12 / 14.4 even with their sides tightened
    (448.8 px, 0.89, under `ONE_LINE_SCALE`): split. The first column (letters) labels
    the rows and starts each group; 11 columns of 34.4 px fit, then the other 7."""
    rows = table_rows(one_character_table(17), box_fonts, plain_theme)
    letters = "abcdefghijklmnopq"
    assert [r.row.text for r in rows] == [" | ".join(letters[:11])] * 3 + [
        " | ".join("a" + letters[11:])
    ] * 3
    assert [r.row.gap for r in rows] == [0.0, 0.0, 0.0, 16.0, 0.0, 0.0]
    assert [r.row.keep_with_next for r in rows] == [True, False, False] * 2


N = ColumnNeeds


@pytest.mark.parametrize(
    ("needs", "labels", "expected"),
    [
        (N([50.0] * 4, [60.0] * 4, [60.0] * 4), False, [[0, 1, 2, 3]]),  # fits at scale 1
        (N([100.0] * 4, [100.0] * 4, [100.0] * 4), True, [[0, 1, 2, 3]]),  # scale 0.9
        # Words need scale 0.67: split, though the widest characters would fit at 0.86.
        (N([70.0] * 6, [90.0] * 6, [90.0] * 6), False, [[0, 1, 2, 3], [4, 5]]),
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
