"""TeX's spaces between math atoms (layout/text/formula/mathspacing), measured on typeset formulas.

A space is what a formula gains in width over the same formula with the operator in braces
(`23{\\times}31`: an ordinary atom, which TeX spaces not at all), in eighteenths of an em of
the math size: a medium space is 4, a relation's thick space 5, a thin space 3. ziamath gave
`×` 2 × 4/3, `+` 4 × 4/3, `=` 5 × 4/3, a unary minus 1 × 4/3 and a comma 6 × 4/3 (issue 43
item 3: "23×31" was tight beside MathJax's "23 × 31").
"""

from __future__ import annotations

import pytest

from inkcard import layout
from inkcard.layout.text.formula.mathtex import typeset
from inkcard.layout.text.shape import Span, SpanStyle, shape

SIZE = 20.0


def gained(latex: str, braced: str, display: bool = False) -> float:
    """How much wider `latex` is than `braced`, in eighteenths of an em."""
    whole, plain = typeset(latex, SIZE, display), typeset(braced, SIZE, display)
    assert whole is not None and plain is not None
    return (whole.width - plain.width) / SIZE * 18


@pytest.mark.parametrize(
    ("latex", "braced", "eighteenths"),
    [
        ("23\\times31", "23{\\times}31", 8),  # a binary operator: a medium space each side
        ("a+b", "a{+}b", 8),
        ("a-b", "a{-}b", 8),
        ("a\\cdot b", "a{\\cdot}b", 8),
        ("a\\div b", "a{\\div}b", 8),
        ("a=b", "a{=}b", 10),  # a relation: a thick space each side
        ("x\\le y", "x{\\le}y", 10),
        ("x\\to y", "x{\\to}y", 10),
        ("a\\approx b", "a{\\approx}b", 10),
        ("-x", "{-}x", 0),  # a unary minus: no space
        ("a=-b", "a{=}{-}b", 10),  # only the relation's
        ("(-b)", "({-}b)", 0),
        ("f(x,y)", "f(x{,}y)", 3),  # punctuation: a thin space after
        ("x_{a+b}", "x_{a{+}b}", 0),  # in a script TeX drops the spaces around + and =
        ("x^{i=1}", "x^{i{=}1}", 0),
        ("\\frac{a+b}{2}", "\\frac{a{+}b}{2}", 0),  # an inline fraction's parts are scripts
        ("a\\,b", "ab", 3),  # the explicit spaces are TeX's too
        ("a\\quad b", "ab", 18),
        ("a\\!b", "ab", -3),
        ("\\int_0^1 x", "\\int_0^1 {} x", 0),  # the large operator's thin space: in both
    ],
)
def test_an_operator_gets_texs_space(latex: str, braced: str, eighteenths: int) -> None:
    assert gained(latex, braced) == pytest.approx(eighteenths, abs=0.05)


def test_display_fractions_keep_the_spaces_of_their_parts() -> None:
    assert gained("\\frac{a+b}{2}", "\\frac{a{+}b}{2}", display=True) == pytest.approx(8, abs=0.05)


def test_a_large_operator_with_limits_is_a_thin_space_from_its_operand() -> None:
    limits = typeset("\\int_0^1", SIZE)
    operand = typeset("x", SIZE)
    whole = typeset("\\int_0^1 x", SIZE)
    assert limits is not None and operand is not None and whole is not None
    space = whole.width - limits.width - operand.width  # and x's left bearing, 0.4/18 em
    assert space / SIZE * 18 == pytest.approx(3.4, abs=0.3)  # 0.4 before


def test_matrix_columns_are_an_em_apart() -> None:
    assert gained(
        "\\begin{pmatrix}1&2\\end{pmatrix}", "\\begin{pmatrix}12\\end{pmatrix}"
    ) == pytest.approx(18, abs=0.05)  # ziamath's 0.3 × 4/3 em before


def test_a_formula_cut_for_line_breaks_keeps_every_space(fonts: layout.FontBook) -> None:
    """Cards cut an inline formula after its outer operators and typeset the pieces one by
    one; each piece ends on its operator, which still gets its space on both sides. (A
    piece's box starts at its first glyph's ink, a few hundredths of an em in; a lost
    space would be a quarter of one.)"""
    look = SpanStyle("sans", SIZE, False, False, 0xFF000000)
    latex = "a^2 + b^2 = c^2"
    clusters = shape([Span(latex, look, math="inline", fallback=look)], fonts)
    assert len([c for c in clusters if c.formula is not None]) == 3
    whole = typeset(latex, SIZE)
    assert whole is not None
    assert sum(c.width for c in clusters) == pytest.approx(whole.width, abs=0.1 * SIZE)


def test_an_operator_beside_chinese_text_keeps_its_space() -> None:
    """`\\text{平均成本} = …` is cut into text and math; the math piece starts on `=`, which
    TeX spaces from the text before it (an ordinary atom) by a thick space."""
    from inkcard.layout.text.formula.mathtex import typeset_mixed

    mixed = typeset_mixed("\\text{平均成本} = \\frac{a}{b}", SIZE)
    assert mixed is not None
    [(_, none), (_, piece)] = mixed
    alone = typeset("= \\frac{a}{b}", SIZE)  # nothing before the = : no space on its left
    assert none is None and piece is not None and alone is not None
    assert (piece.width - alone.width) / SIZE * 18 >= 5 - 0.05
