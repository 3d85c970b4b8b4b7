"""mdxMode and the inline HTML subset: what the parsers make of text, hostile text
included, and the components' layout in numbers (box font, plain theme: a 400 px content
box at x 20, body 16 px on 28 px lines, one em = the font size)."""

from __future__ import annotations

import numpy as np
import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Group, Item, Page
from inkcard.layout.parse.doc import Callout, Cited, Columns, Paragraph, Step, Steps, Text
from inkcard.layout.parse.markdown import parse
from inkcard.layout.parse.mdx import MdxError, parse_mdx
from tests import pngcodec


def inlines(md: str, mdx: bool = False) -> list[tuple[str, set[str]]]:
    doc = parse_mdx(md) if mdx else parse(md)
    [block] = doc.blocks
    assert isinstance(block, Paragraph)
    return [(t.text, set(t.marks)) for t in block.inlines]


# Inline HTML subset ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("md", "expected"),
    [
        ("<u>a</u>", [("a", {"u"})]),
        ("<mark>a</mark>", [("a", {"mark"})]),
        ("<sup>a</sup><sub>b</sub>", [("a", {"sup"}), ("b", {"sub"})]),
        ("<kbd>K</kbd>", [("K", {"inline_code"})]),
        ("a<br>b<br/>c", [("a", set()), ("\n", set()), ("b", set()), ("\n", set()), ("c", set())]),
        ('<font color="red">a</font>', [("a", {f"color:{0xFFFF0000}"})]),
        ('<font size="7">a</font>', [("a", {"size:3"})]),
        ('<font size="20">a</font>', [("a", {"size:3"})]),  # larger counts as 7
        ('<font size="+1">a</font>', [("a", {"size:1.125"})]),
        ('<font face="monospace">a</font>', [("a", {"face:mono"})]),
        ('<span style="font-size:1000px">a</span>', [("a", {"size:3"})]),  # clamped
        ('<span style="font-size:2px">a</span>', [("a", {"size:0.5"})]),
        ('<span style="font-weight:bold">a</span>', [("a", {"weight:700"})]),
        ('<span style="background:#ff0">a</span>', [("a", {f"bg:{0xFFFFFF00}"})]),
        # inner values replace outer ones; the outer comes back after the inner closes
        (
            '<font color="red"><font color="blue">a</font>b</font>',
            [("a", {f"color:{0xFF0000FF}"}), ("b", {f"color:{0xFFFF0000}"})],
        ),
        # HTML and Markdown marks interleave
        ("<u>a **b</u> c**", [("a ", {"u"}), ("b", {"u", "strong"}), (" c", {"strong"})]),
    ],
)
def test_inline_html_subset(md: str, expected: list[tuple[str, set[str]]]) -> None:
    assert inlines(md) == expected


@pytest.mark.parametrize(
    "md",
    [
        "<script>alert(1)</script>",
        "<u a</u>",
        "</u> a",
        "<Badge>a</Badge>",  # a component only in mdxMode
        "\\<u>a</u>",  # escaped
    ],
)
def test_anything_else_is_literal_text(md: str) -> None:
    assert "".join(text for text, _ in inlines(md)) == md.replace("\\<", "<")
    assert all(not marks for _, marks in inlines(md))


@pytest.mark.parametrize(
    "md",
    [
        "<div>a</div>",
        '<span style="position:fixed">a</span>',
        '<span style="color:url(x)">a</span>',
        '<span style="background:url(javascript:x)">a</span>',
        '<span onclick="x">a</span>',
        '<font color="notacolour">a</font>',
        '<font size="big">a</font>',
        "<img src=x onerror=alert(1)>a",
    ],
)
def test_allowed_tags_keep_their_text_and_lose_what_a_card_cannot_draw(md: str) -> None:
    assert inlines(md) == [("a", set())]


@pytest.mark.parametrize(
    ("style", "argb"),
    [
        ("color: hsl(120 50% 40%)", 0xFF339933),
        ("color: rgb(255 0 0)", 0xFFFF0000),
        ("color: rebeccapurple", 0xFF663399),
        ("color: rgb(0 0 255 / 50%)", 0x800000FF),
        ("color: #0a0; position: fixed", 0xFF00AA00),
    ],
)
def test_inline_colours_in_css_color_4_draw(style: str, argb: int) -> None:
    assert inlines(f'x<span style="{style}">y</span>') == [("x", set()), ("y", {f"color:{argb}"})]


def test_unclosed_tags_end_with_their_paragraph() -> None:
    [first, second] = parse("<u>a\n\nb").blocks
    assert isinstance(first, Paragraph) and isinstance(second, Paragraph)
    assert first.inlines == (Text("a", frozenset({"u"})),)
    assert second.inlines == (Text("b"),)


def test_ten_thousand_nested_tags_cost_their_length() -> None:
    md = "<u>" * 10000 + "deep" + "</u>" * 10000 + " after"
    assert inlines(md) == [("deep", {"u"}), (" after", set())]
    bomb = "<span>" * 10000 + "<font color=red>" * 10000 + "x"
    assert inlines(bomb)[-1] == ("x", {f"color:{0xFFFF0000}"})


# mdxMode components --------------------------------------------------------------------


def test_components_parse_into_their_blocks() -> None:
    md = (
        "<Columns>\n<Left>\n**a**\n</Left>\n<Center>b</Center>\n<Right>\nc\n</Right>\n</Columns>\n"
        '\n<Callout type="warning" title={"Careful"}>\nx\n</Callout>\n'
        '\n<Quote author="Lu Xun">hope</Quote>\n'
        '\n<Steps>\n<Step title="One">first</Step>\n<Step>\nsecond\n</Step>\n</Steps>\n'
        "\nA <Badge>new</Badge> thing"
    )
    columns, callout, cited, steps, badge = parse_mdx(md).blocks
    assert isinstance(columns, Columns) and len(columns.columns) == 3
    assert columns.columns[1] == (Paragraph((Text("b"),)),)
    assert callout == Callout("warning", "Careful", (Paragraph((Text("x"),)),))
    assert cited == Cited("Lu Xun", (Paragraph((Text("hope"),)),))
    assert steps == Steps(
        (Step("One", (Paragraph((Text("first"),)),)), Step("", (Paragraph((Text("second"),)),)))
    )
    assert isinstance(badge, Paragraph)
    assert badge.inlines[1] == Text("new", frozenset({"badge"}))


def test_attribute_literals_and_nested_components() -> None:
    md = "<Callout type={'tip'} title={3}>\n<Columns>\n<Left>a</Left>\n</Columns>\n</Callout>"
    [callout] = parse_mdx(md).blocks
    assert isinstance(callout, Callout) and callout.title == "3" and callout.kind == "tip"
    assert isinstance(callout.blocks[0], Columns)


def test_fenced_code_and_inline_code_are_code() -> None:
    md = "```js\nimport x from 'y'\n{1 + 1} <Foo/>\n```\n\n`{a}` and \\{b}"
    code, text = parse_mdx(md).blocks
    assert "import x" in getattr(code, "code", "")
    assert isinstance(text, Paragraph)
    assert "".join(t.text for t in text.inlines) == "{a} and {b}"


@pytest.mark.parametrize(
    ("md", "line", "construct"),
    [
        ("ok\n\nimport x from 'y'", 3, "`import`"),
        ("export const a = 1", 1, "`export`"),
        ("text {alert(1)}", 1, "{alert(1)}"),
        ("a\nb {", 2, "expression"),
        ('<Callout title={fetch("x")}>\n</Callout>', 1, 'fetch("x")'),
        ("<Callout type={a.b}>\n</Callout>", 1, "{a.b}"),
        ('<span style={{color: "red"}}>x</span>', 1, "{{color"),
        ("<Foo>", 1, "unknown component <Foo>"),
        ("x\n<Script src=x />", 2, "<Script>"),
        ("</Left>", 1, "</Left>"),
        ("<Left>\nx\n</Left>", 1, "inside <Columns>"),
        ("<Columns>\n<Left>\nx\n</Columns>", 4, "</Columns>"),
        ("<Columns>\n<Left>\nx\n</Left>", 1, "<Columns> is never closed"),
        ("<Columns>\ntext\n</Columns>", 2, "text inside <Columns>"),
        ("<Steps>\n<Callout>x</Callout>\n</Steps>", 2, "Step"),
        ('<Callout type="evil">\nx\n</Callout>', 1, "info, tip, warning, danger"),
        ('<Callout color="red">\nx\n</Callout>', 1, "no attribute `color`"),
        ("<Callout title='x\n</Callout>", 1, "not closed"),
        ("<Callout title=x>\n</Callout>", 1, "quotes"),
        ("<Callout\n</Callout>", 1, "not closed by >"),
        ("<Quote>\n" * 10000, 9, "nest more than 8"),
        ("<Columns>\n" + "<Left>a</Left>\n" * 4 + "</Columns>", 5, "at most three"),
    ],
)
def test_refused_mdx_names_the_line_and_construct(md: str, line: int, construct: str) -> None:
    with pytest.raises(MdxError) as error:
        parse_mdx(md)
    assert error.value.line == line
    assert str(error.value).startswith(f"line {line}: ")
    assert construct in str(error.value)


@pytest.mark.parametrize(
    "md",
    [
        "<Columns><Left>" * 5000,
        "</Columns>" * 5000,
        "<Callout title='" + "x" * 100000,
        "{" * 10000,
        "<Steps>\n" + "<Step>\n" * 5000,
    ],
)
def test_malformed_nesting_is_refused_not_hung(md: str) -> None:
    with pytest.raises(MdxError):
        parse_mdx(md)


def test_bare_angle_brackets_are_text_in_mdx_mode() -> None:
    assert inlines("<" * 20000 + " a < b <3", mdx=True) == [("<" * 20000 + " a < b <3", set())]


def test_mdx_off_shows_every_tag_as_text(box_fonts, plain_theme) -> None:
    md = '<Callout type="tip">\n{alert(1)} <Badge>x</Badge>\n</Callout>'
    [page] = layout.layout_pages(md, plain_theme, box_fonts, layout.RenderOptions())
    text = "".join(p.row.text for p in page.rows)
    assert text == md.replace("\n", "")


# Layout in numbers ---------------------------------------------------------------------


def lay(md: str, fonts: layout.FontBook, theme: layout.Theme, **options: object) -> list[Page]:
    return layout.layout_pages(md, theme, fonts, layout.RenderOptions(mdx=True, **options))


def runs(
    items: tuple[Item, ...], dy: float = 0.0, dx: float = 0.0
) -> list[tuple[float, float, int]]:
    """(first x, baseline y, glyph count) of every glyph run, groups applied."""
    out: list[tuple[float, float, int]] = []
    for item in items:
        if isinstance(item, Group):
            out.extend(runs(item.items, dy + item.dy, dx + item.dx))
        elif isinstance(item, GlyphRun):
            x, y = item.xs[0] + dx, item.ys[0] + dy
            out.append((round(x, 2), round(y, 2), len(item.glyphs)))
    return out


def test_two_columns_share_the_width_and_take_the_tallest_height(box_fonts, plain_theme) -> None:
    md = "<Columns>\n<Left>\n" + "中" * 30 + "\n</Left>\n<Right>\n右\n</Right>\n</Columns>"
    [page] = lay(md, box_fonts, plain_theme)
    [placed] = page.rows
    # (400 - 16 gap) / 2 = 192 px a column: 12 CJK characters a line, 3 lines of 28 px
    assert placed.row.height == 84
    found = runs(placed.row.items)
    left = [r for r in found if r[0] == 20]
    right = [r for r in found if r[0] == 20 + 192 + 16]
    assert [n for _, _, n in left] == [12, 12, 6]
    assert [y for _, y, _ in left] == [y for _, y, _ in left[:1]] + [
        left[0][1] + 28,
        left[0][1] + 56,
    ]
    assert [(n, y) for _, y, n in right] == [(1, left[0][1])]
    assert placed.row.text == "中" * 12 + "\n" + "中" * 12 + "\n" + "中" * 6 + "\n右"


def test_three_columns(box_fonts, plain_theme) -> None:
    md = "<Columns>\n<Left>a</Left>\n<Center>b</Center>\n<Right>c</Right>\n</Columns>"
    [page] = lay(md, box_fonts, plain_theme)
    width = (400 - 2 * 16) / 3
    xs = [x for x, _, _ in runs(page.rows[0].row.items)]
    assert xs == pytest.approx([20, 20 + width + 16, 20 + 2 * (width + 16)], abs=0.01)


def test_columns_taller_than_a_card_stack_in_auto_split(box_fonts, plain_theme) -> None:
    left = "\n\n".join(f"L{i}" for i in range(30))
    right = "\n\n".join(f"R{i}" for i in range(30))
    md = f"<Columns>\n<Left>\n{left}\n</Left>\n<Right>\n{right}\n</Right>\n</Columns>"
    pages = lay(md, box_fonts, plain_theme, split="autoSplit")
    texts = [p.row.text for page in pages for p in page.rows]
    assert texts == [f"L{i}" for i in range(30)] + [f"R{i}" for i in range(30)]
    assert all(x == 20 for page in pages for p in page.rows for x, _, _ in runs(p.row.items))
    # the same block that fits a card stays side by side
    [page] = lay(md, box_fonts, plain_theme)
    assert len(page.rows) == 1


def test_steps_indent_their_content_past_the_number_badges(box_fonts, plain_theme) -> None:
    md = '<Steps>\n<Step title="A">x</Step>\n<Step title="B">y</Step>\n</Steps>'
    [page] = lay(md, box_fonts, plain_theme)
    texts = [p.row.text for p in page.rows]
    assert texts == ["A", "x", "B", "y"]
    xs = {x for p in page.rows for x, _, n in runs(p.row.items) if n == 1}
    assert min(xs) > 20  # the digits sit inside the badge, right of the content's edge
    content = [runs(p.row.items)[-1][0] for p in page.rows]
    assert len(set(content)) == 1 and content[0] > 20 + 16


# Pixels --------------------------------------------------------------------------------


def draw(md: str, theme: str, fonts: layout.FontBook, mdx: bool = True) -> np.ndarray:
    options = layout.RenderOptions(mdx=mdx, scale=1, width=300, height=200)
    [png] = layout.render(md, themes.load(theme), fonts, options)
    return pngcodec.decode(png)[:, :, :3].astype(int)


def count(image: np.ndarray, argb: int, tolerance: int = 6) -> int:
    rgb = np.array([(argb >> 16) & 255, (argb >> 8) & 255, argb & 255])
    return int((np.abs(image - rgb).max(axis=2) <= tolerance).sum())


# alertcolors.LIGHT: tip's colour and caution's, which danger shares
@pytest.mark.parametrize(("kind", "color"), [("tip", 0xFF116329), ("danger", 0xFFA40E26)])
def test_callout_draws_its_bar_and_tinted_panel(fonts, kind: str, color: int) -> None:
    image = draw(f'<Callout type="{kind}">\nBody\n</Callout>', "minimal", fonts)
    assert count(image, color) >= 4 * 40  # the 4 px bar down the panel
    assert count(draw("Body", "minimal", fonts), color) == 0


def test_badge_is_a_pill_in_the_theme_badge_paint(fonts) -> None:
    """The pill is the theme's accent (apple-notes: a solid one; a theme without an `accent`
    token, like darktech, gets its list badges' paint)."""
    styles = layout.style.resolver.resolve(themes.load("apple-notes"), "light-mode")
    paint = styles.palette.get("accent", styles["list"].number_background)
    assert isinstance(paint, int)
    on = count(draw("A <Badge>NEW</Badge> b", "apple-notes", fonts), paint)
    off = count(draw("A <Badge>NEW</Badge> b", "apple-notes", fonts, mdx=False), paint)
    assert on > off + 250


def test_steps_draw_one_number_badge_a_step(fonts) -> None:
    # the prose keeps both posts past half the card: neither is composed larger (short.py)
    prose = "\n\n" + "一段足够长的文字，" * 60
    md = "<Steps>\n<Step>a</Step>\n<Step>b</Step>\n<Step>c</Step>\n</Steps>" + prose
    one = md.replace("<Step>b</Step>\n<Step>c</Step>\n", "")
    styles = layout.style.resolver.resolve(themes.load("apple-notes"), "light-mode")
    paint = styles["list"].number_background or styles["list"].marker_color
    assert isinstance(paint, int)
    three, single, none = (
        count(draw(post, "apple-notes", fonts), paint) for post in (md, one, prose.strip())
    )
    three, single = three - none, single - none  # the theme's own accent (its bar) aside
    assert single > 100 and three == pytest.approx(3 * single, rel=0.25)


def test_columns_each_shorter_than_a_card_stay_side_by_side(fonts) -> None:
    """Each column is held to a card's height on its own: two columns each two thirds of
    a card tall were stacked (minimal at 440x586), their heights summed against one card."""
    theme = themes.load("minimal")
    overflow = next(
        n for n in range(4, 60) if len(lay(_lines("L", n), fonts, theme, split="autoSplit")) > 1
    )
    left, right = _lines("L", overflow * 2 // 3), _lines("R", overflow * 2 // 3)
    assert len(lay(f"{left}\n\n{right}", fonts, theme, split="autoSplit")) > 1
    md = f"<Columns>\n<Left>\n{left}\n</Left>\n<Right>\n{right}\n</Right>\n</Columns>"
    [page] = lay(md, fonts, theme, split="autoSplit")
    assert len(page.rows) == 1


def _lines(mark: str, count: int) -> str:
    return "\n\n".join(f"{mark}{i}" for i in range(count))
