"""LaTeX math in cards: measured like a word, display math centred on its own row, too
wide formulas scaled to fit, and LaTeX that does not typeset shown as underlined code.

The plain theme's content box is 400 px wide with 16 px body text; with the box font one
em equals the font size, so text widths are whole numbers of 16 px.
"""

from __future__ import annotations

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Fill, GlyphRun, Item, Page, Segment, Shape
from inkcard.layout.parse.doc import Paragraph, Text
from inkcard.layout.parse.markdown import MATH, MATH_DISPLAY, parse
from inkcard.layout.style.looks import BAD_MATH_RED
from inkcard.layout.text.formula.mathbreaks import text_runs
from inkcard.layout.text.formula.mathtex import typeset, typeset_mixed

BODY = 16.0
WIDTH = 400.0


def pages(md: str, fonts: layout.FontBook, theme: layout.Theme) -> list[Page]:
    return layout.layout_pages(md, theme, fonts, layout.RenderOptions())


def flat(items: tuple[Item, ...]) -> list[Item]:
    """Items with groups and layers opened."""
    out: list[Item] = []
    pending = list(items)
    while pending:
        item = pending.pop(0)
        inner = getattr(item, "items", None)
        if isinstance(inner, tuple):
            pending[:0] = inner
        else:
            out.append(item)
    return out


def formula_shapes(page: Page) -> list[tuple[float, Shape]]:
    """(row y, shape) of every filled outline on the page that is not a decoration."""
    return [
        (placed.y, item)
        for placed in page.rows
        for item in flat(placed.row.items)
        if isinstance(item, Shape) and item.fill is not None and item.stroke is None
    ]


def x_extent(shape: Shape) -> tuple[float, float]:
    xs = [float(v) for op in shape.ops for v in op[1::2] if isinstance(v, float)]
    return min(xs), max(xs)


def test_dollars_parse_as_inline_and_display_math_but_prices_stay_text() -> None:
    doc = parse("设 $x^2$ 为\n\n$$\n\\frac{a}{b}\n$$\n\n价格 $5 和 $10")
    assert doc.blocks[0] == Paragraph((Text("设 "), Text("x^2", frozenset({MATH})), Text(" 为")))
    assert doc.blocks[1] == Paragraph((Text("\\frac{a}{b}", frozenset({MATH_DISPLAY})),))
    assert doc.blocks[2] == Paragraph((Text("价格 $5 和 $10"),))


def test_typeset_measures_a_fraction_taller_than_a_letter_and_caches_it() -> None:
    letter = typeset("x", BODY)
    fraction = typeset("\\frac{a+b}{c}", BODY)
    assert letter is not None and fraction is not None
    assert fraction.ascent > letter.ascent and fraction.descent > letter.descent
    assert fraction.ops and fraction.ops[0][0] == "M"
    assert typeset("\\frac{a+b}{c}", BODY) is fraction  # cached by (latex, size)


@pytest.mark.parametrize("latex", ["\\frac{1}{", "}{", "&&&", "\\text{中文}", "x" * 1001, " "])
def test_bad_or_undrawable_latex_does_not_typeset(latex: str) -> None:
    assert typeset(latex, BODY) is None


def test_inline_math_widens_the_line_by_the_formula_width(box_fonts, plain_theme) -> None:
    [plain] = pages("中中", box_fonts, plain_theme)
    [page] = pages("中$\\frac{a}{b}$中", box_fonts, plain_theme)
    formula = typeset("\\frac{a}{b}", BODY)
    assert formula is not None
    [before] = [i for i in flat(plain.rows[0].row.items) if isinstance(i, GlyphRun)]
    [run] = [i for i in flat(page.rows[0].row.items) if isinstance(i, GlyphRun)]
    assert run.xs[1] - run.xs[0] == pytest.approx(before.xs[1] - before.xs[0] + formula.width)
    [(_, shape)] = formula_shapes(page)
    left, right = x_extent(shape)
    assert run.xs[0] + BODY - 0.01 <= left and right <= run.xs[1] + 0.01  # between the two 中
    assert shape.fill == run.color  # the text's colour


def test_display_math_is_its_own_centred_row(box_fonts, plain_theme) -> None:
    [page] = pages("中\n\n$$\n\\sum_{i=1}^{n} i\n$$\n\n中", box_fonts, plain_theme)
    assert len(page.rows) == 3
    [(y, shape)] = formula_shapes(page)
    assert y == page.rows[1].y
    left, right = x_extent(shape)
    [run] = [i for i in flat(page.rows[0].row.items) if isinstance(i, GlyphRun)]
    column_left = run.xs[0]
    assert left - column_left > 100  # not at the start of the line
    assert (left + right) / 2 == pytest.approx(column_left + WIDTH / 2, abs=2)


def test_a_formula_wider_than_the_column_is_scaled_to_fit(box_fonts, plain_theme) -> None:
    latex = " + ".join(f"a_{{{i}}} x^{{{i}}}" for i in range(40))
    full = typeset(latex, BODY, display=True)
    assert full is not None and full.width > WIDTH * 2
    [page] = pages(f"$$\n{latex}\n$$", box_fonts, plain_theme)
    [(_, shape)] = formula_shapes(page)
    left, right = x_extent(shape)
    assert right - left <= WIDTH + 0.01
    assert right - left > WIDTH * 0.9


def test_bad_latex_shows_its_source_as_code_with_a_red_underline(box_fonts, plain_theme) -> None:
    [page] = pages("写错 $\\frac{1}{$ 了", box_fonts, plain_theme)
    assert page.rows[0].row.text == "写错 \\frac{1}{ 了"
    items = flat(page.rows[0].row.items)
    assert any(isinstance(i, Fill) for i in items)  # the inline code panel
    underlines = [i for i in items if isinstance(i, Segment) and i.color == BAD_MATH_RED]
    assert len(underlines) == 1 and underlines[0].width == 1.0
    assert not formula_shapes(page)


def test_math_cards_render_without_error_whatever_the_latex(fonts) -> None:
    theme = themes.load("apple-notes")
    hostile = "$\\frac{$ $}{$ $\\begin{matrix}$ $" + "{" * 500 + "x$ $$\\left($$ $\\text{中}$"
    cards = layout.render(hostile, theme, fonts, layout.RenderOptions())
    assert cards and all(card.startswith(b"\x89PNG") for card in cards)


# --- inline math breaks as TeX breaks it --------------------------------------------------


def test_an_inline_formula_is_cut_after_its_outer_operators() -> None:
    from inkcard.layout.text.formula.mathbreaks import pieces

    # never before a lone last operand: `(1+i)^n −` / `1` left the 1 alone on a line
    assert pieces("r = (1+i)^n - 1") == ["r =", "(1+i)^n - 1"]
    assert pieces("r = (1+i)^n - 12") == ["r =", "(1+i)^n -", "12"]
    assert pieces("a = -b") == ["a =", "-b"]  # a unary sign is no place to break
    assert pieces(r"\sum_{i=1}^n i = \frac{n(n+1)}{2}") == [
        r"\sum_{i=1}^n i =",
        r"\frac{n(n+1)}{2}",
    ]  # never inside a script or a group
    assert pieces(r"\left( a + b \right) = cd") == [r"\left( a + b \right) =", "cd"]
    assert pieces(r"\left( a + b \right) = c") == [r"\left( a + b \right) = c"]
    assert pieces("x^-1 + 22") == ["x^-1 +", "22"]
    assert pieces("f(x)") == ["f(x)"]


def test_a_paragraph_breaks_inside_an_inline_formula_rather_than_leave_a_short_line(
    fonts: layout.FontBook,
) -> None:
    """`$r = (1+i)^n - 1$` used to drop whole to the next line, leaving the line before at
    65 % (and, justified, spread half an em a character). At every offset of the sentence,
    each line but the last is now at least 80 % full, but for the line before the last
    where that one is its paragraph's last clause whole, set so in ragged text
    (`pretty.CLAUSE_SHORT`: "…- 1，/ 这个公式告诉我们复利的力量。", not "…复利 / 的力量。")."""
    from inkcard.layout.text.inline import layout_text
    from inkcard.layout.text.linebox import Metrics
    from inkcard.layout.text.shape import Span, SpanStyle

    look = SpanStyle("sans", BODY, False, False, 0xFF000000)
    for shift in range(30):
        spans = [
            Span("中" * shift + "那么总收益率是", look),
            Span("r = (1+i)^n - 1", look, math="inline", fallback=look),
            Span("，这个公式告诉我们复利的力量。", look),
        ]
        lines = layout_text(spans, fonts, x=0.0, width=WIDTH, metrics=Metrics(28.0, 20.0))
        assert len(lines) > 1
        for line in lines[:-2]:
            assert line.width >= 0.8 * WIDTH, (shift, [x.text for x in lines])
        before = lines[-2]
        clause = before.text.endswith("，") and lines[-1].text == "这个公式告诉我们复利的力量。"
        assert before.width >= 0.8 * WIDTH or clause, (shift, [x.text for x in lines])


@pytest.mark.parametrize(
    ("latex", "runs"),
    [
        ("\\text{平均成本} = \\frac{a}{b}", [("平均成本", True), (" = \\frac{a}{b}", False)]),
        ("a \\text {收益} b", [("a ", False), ("收益", True), (" b", False)]),
        ("\\frac{\\text{成本}}{b}", [("\\frac{\\text{成本}}{b}", False)]),  # inside a group
        ("\\text{a \\textbf{b}} = 1", [("\\text{a \\textbf{b}} = 1", False)]),  # not plain
        ("\\text{未闭合", [("\\text{未闭合", False)]),
        ("x = 1", [("x = 1", False)]),
    ],
)
def test_outer_text_groups_are_cut_out_of_a_formula(latex: str, runs) -> None:
    assert text_runs(latex) == runs


def test_chinese_in_an_outer_text_group_is_set_as_text_beside_the_math(
    box_fonts, plain_theme
) -> None:
    """`\\text{平均成本} = \\frac{…}{…}` was shown as its LaTeX source in red-underlined code
    (the math font has no Han): the Chinese is now the paragraph's own glyphs, on the
    formula's baseline, left of the typeset fraction."""
    [page] = pages("$$\n\\text{平均成本} = \\frac{a}{b}\n$$", box_fonts, plain_theme)
    items = flat(page.rows[0].row.items)
    assert not [i for i in items if isinstance(i, Segment) and i.color == BAD_MATH_RED]
    [run] = [i for i in items if isinstance(i, GlyphRun)]
    assert len(run.glyphs) == 4  # 平均成本, shaped as text
    [(_, shape)] = formula_shapes(page)
    assert x_extent(shape)[0] >= max(run.xs) + BODY - 0.01  # the math after the text
    assert typeset_mixed("\\text{成本} = \\frac{1}{", BODY) is None  # bad math stays source
