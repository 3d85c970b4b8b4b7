"""List tiles (`list_item` role): a top-level bullet list drawn as tiles, side by side
where `columns` asks and each column reads, stacked one per line where it would not;
numbered and task lists keep their markers; glassmorphism draws the brief's two-column
grid of glass tiles."""

from __future__ import annotations

from inkcard import layout, themes
from inkcard.layout.base.boxes import Fill, Group, Item, Page, Row, Stroke

TILE = "#ffe0e0"
THEME = (
    'name = "t"\n[roles.card]\npadding = [30, 30, 30, 30]\n'
    '[roles.list_item]\nbackground = "{tile}"\nborder_color = "#cc8888"\nborder_width = 1\n'
    "padding = [8, 10, 8, 10]\nmargin_top = 10\ncolumns = {columns}\n"
)
SHORT = "- 第一项\n- 第二项\n- 第三项\n- 第四项\n"


def _theme(columns: int = 2, tile: str = TILE) -> layout.Theme:
    return layout.decode_theme(THEME.format(columns=columns, tile=tile))


def _pages(
    fonts: layout.FontBook, theme: layout.Theme, post: str, width: int = 440, height: int = 586
) -> list[Page]:
    options = layout.RenderOptions(width=width, height=height, split="autoSplit", scale=1)
    return layout.layout_pages(post, theme, fonts, options)


def _list_rows(pages: list[Page]) -> list[Row]:
    return [
        p.row for page in pages for p in page.rows if any(s[0] == "ListBlock" for s in p.row.source)
    ]


def _tile_fills(items: tuple[Item, ...], color: int) -> list[Fill]:
    out: list[Fill] = []
    for item in items:
        if isinstance(item, Fill) and item.color == color:
            out.append(item)
        elif isinstance(item, Group):
            out.extend(_tile_fills(item.items, color))
    return out


def _tile_color() -> int:
    return 0xFF000000 | int(TILE[1:], 16)


def test_short_items_sit_two_to_a_line_on_tiles_as_tall_as_each_other(fonts) -> None:
    rows = _list_rows(_pages(fonts, _theme(), SHORT))
    assert [r.text for r in rows] == ["第一项\n第二项", "第三项\n第四项"]
    for row in rows:
        tiles = _tile_fills(row.items, _tile_color())
        assert len(tiles) == 2
        assert {t.rect.height for t in tiles} == {row.height}
        left, right = sorted(tiles, key=lambda t: t.rect.x)
        assert right.rect.x - left.rect.right == 10  # the tile gap
    assert rows[1].gap == 10


def test_the_tiles_of_a_line_are_as_tall_as_its_tallest_item(fonts) -> None:
    post = "- 短\n- 这一项的文字比较长，在瓷砖里折成两行。\n"
    [row] = _list_rows(_pages(fonts, _theme(), post))
    heights = {t.rect.height for t in _tile_fills(row.items, _tile_color())}
    assert heights == {row.height}
    assert row.height > 45  # both lines of the long item


def test_an_item_over_two_lines_in_its_column_stacks_the_tiles(fonts) -> None:
    """glassmorphism's reading notes set two tiles of three lines each side by side at
    440x586, 不 / 亏 parted across a line (ninth look, rated 3: "use a single column"):
    a tile is read at a glance, and an item that runs over `MAX_TILE_LINES` lines in its
    column stacks the grid, each item on the list's whole width."""
    long = "所以人们会为了“不亏”而拿着亏损的股票不卖，越跌越不舍得卖"
    rows = _list_rows(_pages(fonts, _theme(), f"- 短\n- {long}\n"))
    assert len({r.frames[-1].id for r in rows if r.frames}) == 2  # a tile per item
    assert not any(len(_tile_fills(r.items, _tile_color())) == 2 for r in rows)
    assert max(len(r.text.strip()) for r in rows) > 20  # the long item on the whole width


def test_tiles_carry_no_bullet(fonts) -> None:
    """A plain theme draws a bullet disc per item; with tiles, the tile is the marker."""
    plain = _list_rows(_pages(fonts, layout.decode_theme('name = "t"'), SHORT))
    tiled = _list_rows(_pages(fonts, _theme(), SHORT))
    assert all(isinstance(r.items[0], Fill) and r.items[0].rect.width == 6 for r in plain)
    assert not any(isinstance(i, Fill) and i.rect.width == 6 for r in tiled for i in r.items)


def test_a_narrow_column_stacks_the_tiles_one_per_line(fonts) -> None:
    """At 200 px wide a column would be under 7 em: one tile per item, each a container."""
    rows = _list_rows(_pages(fonts, _theme(), SHORT, width=200, height=400))
    assert [r.text for r in rows] == ["第一项", "第二项", "第三项", "第四项"]
    frames = [r.frames[-1] for r in rows]
    assert len({f.id for f in frames}) == 4
    assert all(f.decor.fill == _tile_color() and f.decor.border_width == 1 for f in frames)
    assert [r.gap for r in rows] == [0, 10, 10, 10]


def test_inline_code_wider_than_a_column_stacks_the_tiles(fonts) -> None:
    """`await asyncio.sleep()` broke inside a glassmorphism tile (`await asyncio.` /
    `sleep()`); stacked, the list's whole width holds it. Short code keeps the grid."""
    post = "- `time.sleep()` 要换成 `await asyncio.sleep()`\n- 没有限制并发\n"
    rows = _list_rows(_pages(fonts, _theme(), post))
    assert all(r.frames for r in rows)  # each row in its stacked tile (a grid line has none)
    assert len({r.frames[-1].id for r in rows}) == 2  # a tile per item, one under the other
    assert "await asyncio.sleep()" in [r.text.strip() for r in rows]
    short = _list_rows(_pages(fonts, _theme(), "- `sleep()` 要换成 `await`\n- 没有限制并发\n"))
    assert len(short) == 1 and len(_tile_fills(short[0].items, _tile_color())) == 2


def test_an_item_taller_than_a_card_stacks_and_continues_on_the_next(fonts) -> None:
    long = "很长的一项，" * 160
    pages = _pages(fonts, _theme(), f"- 短\n- {long}\n")
    rows = _list_rows(pages)
    assert len(pages) > 1
    assert rows[0].text == "短"
    assert len({r.frames[-1].id for r in rows}) == 2  # two stacked tiles, the long one split


def test_one_column_stacks_tiles_of_every_width(fonts) -> None:
    rows = _list_rows(_pages(fonts, _theme(columns=1), SHORT))
    assert len(rows) == 4


def test_numbered_and_task_lists_keep_their_markers(fonts) -> None:
    for post in ("1. 一\n2. 二\n", "- [ ] 一\n- [x] 二\n"):
        rows = _list_rows(_pages(fonts, _theme(), post))
        assert len(rows) == 2
        assert not any(f.decor.role == "list_item" for r in rows for f in r.frames)
        assert not _tile_fills(tuple(i for r in rows for i in r.items), _tile_color())


def test_nested_lists_inside_a_tile_keep_bullets(fonts) -> None:
    rows = _list_rows(_pages(fonts, _theme(), "- 外层\n  - 内层一\n  - 内层二\n- 第二项\n"))
    [line] = rows
    assert "内层一" in line.text and "第二项" in line.text
    strokes = [i for g in line.items if isinstance(g, Group) for i in g.items]
    assert any(isinstance(i, Stroke) for i in strokes)  # the second level's ring


def test_glassmorphism_draws_its_brief_two_column_glass_tiles(fonts) -> None:
    rows = _list_rows(_pages(fonts, themes.load("glassmorphism"), SHORT))
    assert len(rows) == 2


def test_a_list_split_between_cards_keeps_two_tiles_on_each_side(fonts) -> None:
    """Wherever the list falls on a card, no card holds a lone tile of it (a lone line of
    two tiles is two items, as a list split keeps on each side)."""
    after = "\n\n".join(f"后文 {n}，再写一段正文。" for n in range(6))
    splits = 0
    for count in range(6, 24):
        filler = "\n\n".join(f"第 {n} 段占位文字。" for n in range(count))
        for tail in ("", "- 第五项\n"):
            pages = _pages(fonts, _theme(), f"{filler}\n\n{SHORT}{tail}\n{after}")
            tiles = [sum(r.text.count("\n") + 1 for r in _list_rows([page])) for page in pages]
            assert all(n != 1 for n in tiles), (count, tail, tiles)
            splits += sum(n > 0 for n in tiles) > 1
    assert splits  # the grid does split somewhere


def test_a_short_grid_splits_between_lines_rather_than_leave_a_card_half_empty(fonts) -> None:
    """Six tiles (three lines) after half a card of text, more text after them: the first
    two lines end that card and the third opens the next, rather than the whole grid
    moving on and leaving the first card 55 % full."""
    grid = "".join(f"- 第{n}项，写得稍长一点的条目\n" for n in "一二三四五六")
    filler = "\n\n".join(f"第 {n} 段占位文字，写得长一些，好占满一行。" for n in range(7))
    after = "\n\n".join(["后文，再写一段正文，也写得长一些。"] * 6)
    pages = _pages(fonts, _theme(), f"{filler}\n\n{grid}\n{after}")
    on_cards = [len(_list_rows([page])) for page in pages]
    assert on_cards == [2, 1], on_cards
    lines = _list_rows(pages)
    assert [r.keep_with_next for r in lines[:-1]] == [False, False]


def test_a_last_line_of_one_tile_keeps_with_the_line_above(fonts) -> None:
    rows = _list_rows(_pages(fonts, _theme(), SHORT + "- 第五项\n"))
    assert [r.keep_with_next for r in rows[:-1]] == [False, True]


def test_a_last_tile_alone_on_its_line_spans_the_line(fonts) -> None:
    """Three items in two columns: the third tile spans both columns, as a bento grid's
    last one does (at a column's width it left half its line empty: glassmorphism's
    three-item lists, seventh look, four sets at every size)."""
    rows = _list_rows(_pages(fonts, _theme(), "- 第一项\n- 第二项\n- 第三项\n"))
    assert [r.text for r in rows] == ["第一项\n第二项", "第三项"]
    pair = sorted(_tile_fills(rows[0].items, _tile_color()), key=lambda t: t.rect.x)
    [alone] = _tile_fills(rows[1].items, _tile_color())
    assert alone.rect.x == pair[0].rect.x
    assert alone.rect.right == pair[1].rect.right
