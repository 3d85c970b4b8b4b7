"""Input an attacker would send to the engine: deep nesting, huge tables, invisible
characters. Each renders (no exception, no lost text) with the geometry checked."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import pytest

from inkcard import layout
from inkcard.layout.base.boxes import GlyphRun, Group, Item, Page, Row
from inkcard.layout.parse.doc import Block, ListBlock, Paragraph, Quote
from inkcard.layout.parse.markdown import MAX_DEPTH, parse

PNG = b"\x89PNG\r\n\x1a\n"
BOX_SPACE = 2  # the box font's glyphs: .notdef, box, space


def runs(items: tuple[Item, ...]) -> Iterator[GlyphRun]:
    for item in items:
        if isinstance(item, GlyphRun):
            yield item
        elif isinstance(item, Group):
            yield from runs(item.items)


def page_text(pages: list[Page]) -> str:
    return "\n".join(placed.row.text for page in pages for placed in page.rows)


def render(md: str, fonts: layout.FontBook, theme: layout.Theme) -> list[Page]:
    options = layout.RenderOptions(split="autoSplit", scale=1)
    [png, *_] = layout.render(md, theme, fonts, options)
    assert png.startswith(PNG)
    return layout.layout_pages(md, theme, fonts, options)


# Deep nesting ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "md",
    [
        "*" * 500 + "x" + "*" * 500,
        "_" * 500 + "x" + "_" * 500,
        "**_" * 400 + "x" + "_**" * 400,
        "a " + "~~" * 600 + "x" + "~~" * 600,
        "[" * 3000 + "x" + "]" * 3000,
        "[x](" * 2000,
        "![" * 2000 + "x",
    ],
)
def test_inline_nesting_thousands_deep_renders(md, fonts, apple_notes) -> None:
    pages = render(md, fonts, apple_notes)
    assert "x" in page_text(pages)


def test_the_500_deep_emphasis_is_one_strong_x(fonts, apple_notes) -> None:
    [paragraph] = parse("*" * 500 + "x" + "*" * 500).blocks
    assert isinstance(paragraph, Paragraph)
    assert [(t.text, t.marks) for t in paragraph.inlines if t.text] == [
        ("x", frozenset({"strong"}))
    ]


def deepest(blocks: tuple[Block, ...], levels: int = 0) -> tuple[int, Paragraph | None]:
    """The most deeply nested paragraph and how many containers wrap it."""
    best: tuple[int, Paragraph | None] = (-1, None)
    for block in blocks:
        if isinstance(block, Paragraph):
            found = (levels, block)
        elif isinstance(block, Quote):
            found = deepest(block.blocks, levels + 1)
        elif isinstance(block, ListBlock):
            found = max(
                (deepest(item.blocks, levels + 1) for item in block.items), key=lambda f: f[0]
            )
        else:
            continue
        best = max(best, found, key=lambda f: f[0])
    return best


def test_quotes_past_the_limit_are_their_text(fonts, apple_notes) -> None:
    md = ">" * 5000 + " deep\n\nafter"
    doc = parse(md)
    levels, paragraph = deepest(doc.blocks)
    assert levels == MAX_DEPTH == 32
    assert paragraph.inlines[0].text == ">" * (5000 - MAX_DEPTH) + " deep"
    assert doc.blocks[1] == Paragraph((layout.parse.doc.Text("after"),))
    text = page_text(render(md, fonts, apple_notes))
    assert "deep" in text and text.endswith("after")


@pytest.mark.parametrize(
    "md",
    [
        "- " * 3000 + "x",
        "1. " * 3000 + "x",
        "".join("  " * i + f"- item {i}\n" for i in range(200)),
        "".join("> " * i + "- " * i + f"x{i}\n" for i in range(60)),
    ],
)
def test_nested_lists_past_the_limit_keep_their_text(md, fonts, apple_notes) -> None:
    levels, paragraph = deepest(parse(md).blocks)
    assert MAX_DEPTH // 2 <= levels <= MAX_DEPTH  # a list and its item: two levels
    pages = render(md, fonts, apple_notes)
    last = md.split()[-1]
    assert last in page_text(pages)
    assert paragraph is not None and paragraph.inlines


def test_deep_containers_keep_half_the_width_for_text(box_fonts, plain_theme) -> None:
    # Plain theme: 400 px content, quotes indent 20 + 20; text never gets less than 200.
    [page] = layout.layout_pages(
        ">" * 40 + " " + "中" * 30, plain_theme, box_fonts, layout.RenderOptions()
    )
    lefts = [min(r.xs) for p in page.rows for r in runs(p.row.items)]
    widths = [
        max(x + r.size for x in r.xs) - min(r.xs) for p in page.rows for r in runs(p.row.items)
    ]
    assert min(lefts) >= 20 and max(widths) <= 200


# Wide tables ----------------------------------------------------------------------------


def glyph_cells(row: Row) -> tuple[float, list[list[tuple[float, float, float, float]]]]:
    """The row's scale and, per cell, each glyph's box (x0, x1, y0, y1) in row space; with
    the box font every glyph is a 1-em square (0.8 em above the baseline)."""
    items, dx, scale = row.items, 0.0, 1.0
    if len(items) == 1 and isinstance(items[0], Group) and items[0].scale != 1.0:
        items, dx, scale = items[0].items, items[0].dx, items[0].scale
    cells = []
    for cell in items:
        if not isinstance(cell, Group):
            continue  # header fill and row line
        boxes = []
        for line in cell.items:
            assert isinstance(line, Group)
            for run in runs(line.items):
                for glyph, x, y in zip(run.glyphs, run.xs, run.ys, strict=True):
                    if glyph == BOX_SPACE:
                        continue  # spaces hang past a line's end and draw nothing
                    top = line.dy + y - 0.8 * run.size
                    boxes.append(
                        (
                            dx + scale * x,
                            dx + scale * (x + run.size),
                            scale * top,
                            scale * (top + run.size),
                        )
                    )
        cells.append(boxes)
    return scale, cells


def check_table(page: Page) -> list[tuple[float, list[str]]]:
    """Every glyph inside the card's content box and inside its row, cells in order with
    no glyph of one cell reaching into the next, rows one under another; returns each
    row's scale and cell texts."""
    found = []
    bottom = 0.0
    for placed in page.rows:
        assert placed.y >= bottom - 1e-6
        bottom = placed.y + placed.row.height
        scale, cells = glyph_cells(placed.row)
        texts = placed.row.text.split(" | ")
        assert len(cells) == len(texts)
        found.append((scale, texts))
        for boxes in cells:
            for x0, x1, y0, y1 in boxes:
                assert 20 - 1e-6 <= x0 < x1 <= 420 + 1e-6
                assert 0 <= y0 < y1 <= placed.row.height + 1e-6
        spans = [(min(b[0] for b in c), max(b[1] for b in c)) for c in cells if c]
        for (_, right), (left, _) in pairwise(spans):
            assert right <= left + 1e-6
    return found


def column_groups(page: Page) -> list[list[list[str]]]:
    """The page's table rows as cell texts, one list per column group (each starts with
    its header row, the only row kept with the next)."""
    groups: list[list[list[str]]] = []
    for placed, (_, texts) in zip(page.rows, check_table(page), strict=True):
        if placed.row.keep_with_next:
            groups.append([])
        groups[-1].append(texts)
    return groups


def table(columns: int, header: str, cell: str, rows: int = 2) -> str:
    """A table of `columns`; `cell` is formatted with the column number and the body row's
    letter (a, b, …)."""
    return (
        "| "
        + " | ".join(header.format(i) for i in range(columns))
        + " |\n"
        + "|"
        + "---|" * columns
        + "\n"
        + "".join(
            "| " + " | ".join(cell.format(i, "abcdefgh"[r]) for i in range(columns)) + " |\n"
            for r in range(rows)
        )
    )


def test_a_200_column_table_is_split_into_column_groups(box_fonts, plain_theme) -> None:
    """All 200 columns at their widest character would need scale 400 / 6880 = 0.06, below
    the 12 px floor (0.83 of 14.4 px), so the table is split. Every cell is four
    characters, 77.6 px with padding; the first column names the rows, so it starts
    every group: 5 columns of 77.6 fit 400 px, the label and 4 more. The 199 columns
    after the label make 49 groups of 4 and one of 3."""
    md = table(200, "h{:03}", "{1}{0:03}", rows=3)
    [page] = layout.layout_pages(md, plain_theme, box_fonts, layout.RenderOptions())
    groups = column_groups(page)
    assert [len(g[0]) for g in groups] == [5] * 49 + [4]
    assert all(scale == 1.0 for scale, _ in check_table(page))
    seen = []
    for header, *body in groups:
        assert header[0] == "h000" and len(set(header)) == len(header)
        columns = [int(text[1:]) for text in header[1:]]
        # Row order kept, each row's cells under their own headers.
        assert body == [[f"{r}{c:03}" for c in [0, *columns]] for r in "abc"]
        seen.extend(columns)
    assert seen == list(range(1, 200))  # every column once, in order
    headers = [p.row for p in page.rows if p.row.keep_with_next]
    assert [row.gap for row in headers] == [0.0] + [16.0] * 49  # the table's top margin


def test_a_wide_table_of_figures_repeats_no_column(box_fonts, plain_theme) -> None:
    """A first column of numbers is data, not row labels: 5 columns a group, 40 groups."""
    md = table(200, "h{:03}", "{0:04}")
    [page] = layout.layout_pages(md, plain_theme, box_fonts, layout.RenderOptions())
    groups = column_groups(page)
    assert [g[0] for g in groups] == [
        [f"h{c:03}" for c in range(n, n + 5)] for n in range(0, 200, 5)
    ]


def test_a_column_too_wide_alone_gets_a_group_with_its_word_broken(box_fonts, plain_theme) -> None:
    """Column 5's 40-character word (596 px) cannot fit 400 px: it is a group of its own,
    broken between characters at full size, as in a one-column table."""
    cells = ["1"] * 40
    cells[5] = "w" * 40
    md = "|" + "|".join(f"c{i}" for i in range(40)) + "|\n|" + "---|" * 40 + "\n|"
    md += "|".join(cells) + "|"
    [page] = layout.layout_pages(md, plain_theme, box_fonts, layout.RenderOptions())
    groups = column_groups(page)
    assert [g[0] for g in groups[:3]] == [
        ["c0", "c1", "c2", "c3", "c4"],  # 48.8 px each (two characters and padding)
        ["c5"],
        [f"c{i}" for i in range(6, 13)],  # 4 x 48.8 + 3 x 63.2 (c10 on) = 384.8 px
    ]
    [_, [word]] = groups[1]
    assert word.replace(" ", "") == "w" * 40 and word.count(" ") == 1  # 26 + 14 characters
    assert all(scale == 1.0 for scale, _ in check_table(page))


def test_the_issue_table_is_cards_of_column_groups(fonts, apple_notes) -> None:
    """The 200-column table repro, as sent: 200 columns, one body row, autoSplit."""
    md = (
        "|"
        + "|".join(f"h{i}" for i in range(200))
        + "|\n|"
        + "---|" * 200
        + "\n|"
        + "|".join(f"c{i}" for i in range(200))
        + "|"
    )
    options = layout.RenderOptions(split="autoSplit", scale=1)
    pngs = layout.render(md, apple_notes, fonts, options)
    assert len(pngs) > 1 and all(png.startswith(PNG) for png in pngs)
    pages = layout.layout_pages(md, apple_notes, fonts, options)
    rows = [placed.row for page in pages for placed in page.rows]
    headers = [row.text.split(" | ") for row in rows if row.keep_with_next]
    bodies = [row.text.split(" | ") for row in rows if not row.keep_with_next]
    assert len(headers) == len(bodies) > 1
    assert all(h[0] == "h0" and b[0] == "c0" for h, b in zip(headers, bodies, strict=True))
    assert [h for head in headers for h in head[1:]] == [f"h{i}" for i in range(1, 200)]
    assert [c for body in bodies for c in body[1:]] == [f"c{i}" for i in range(1, 200)]
    assert not any(isinstance(i, Group) and i.scale != 1.0 for row in rows for i in row.items)


def test_a_table_of_long_words_keeps_them_whole_in_column_groups(box_fonts, plain_theme) -> None:
    """11 columns of 22-character words (336.8 px with padding) would need scale 0.11; they
    used to be broken a character or two a line to fit 400 px at full size. Now no two fit
    side by side, so each column is a group of its own, its words whole on one line, and
    the first column (wider than a quarter of the card) is not repeated."""
    md = table(11, "Header{}", "averyveryverylongword{}")
    [page] = layout.layout_pages(md, plain_theme, box_fonts, layout.RenderOptions())
    assert [scale for scale, _ in check_table(page)] == [1.0] * 33
    groups = column_groups(page)
    assert groups == [
        [[f"Header{i}"], [f"averyveryverylongword{i}"], [f"averyveryverylongword{i}"]]
        for i in range(11)
    ]


# Invisible characters -------------------------------------------------------------------

INVISIBLE = (
    "\x00\x01\x07\x08\x0e\x1b\x1f\x7f\x80\x85\x9f\ufdd0\ufffe\uffff\U0001fffe\U0010ffff\ufff9\ud800"
)


@pytest.mark.parametrize(
    "template",
    [
        "a{0}b",
        "# a{0}b",
        "```\na{0}b\n```",
        "| a{0}b |\n|--|\n| c |",
        "> - a{0}b",
        "![a{0}b](missing.png)",
        "`a{0}b`",
    ],
)
def test_control_characters_draw_no_missing_glyph(template, fonts, apple_notes) -> None:
    md = template.format(INVISIBLE + "\t\x0b\x0c\u2028")
    pages = render(md, fonts, apple_notes)
    glyphs = [g for page in pages for r in runs(page.items) for g in r.glyphs]
    assert glyphs and 0 not in glyphs
    text = page_text(pages)
    assert "a" in text and "b" in text
    assert not set(text) & set(INVISIBLE + "\ufffd")
