"""Math in articles as a reader sees it: headless Chromium at 375 px, every article theme.

Issue 43 item 3: our formulas were smaller than MathJax's and tight around × ("23×31 s").
Measured on the page, from the ink of each formula's outlines: the space an operator gets
(the gap beside `×` in `23\\times31` less the gap in `23{\\times}31`, where TeX gives `×`
none) is TeX's, in em of the math size; a unary minus gets none; the letters and digits are
MathJax's size; every formula's ink lies inside its SVG (an SVG clips what is outside);
display math is centred on the column; inline math sits on the text's baseline.
Screenshots land in ``tests/_output/article-math-<theme>.png``.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest
from playwright.sync_api import Browser

from inkcard.app.articles.convert.formulas import MATH_SCALE
from inkcard.app.schema import ARTICLE_THEMES
from tests.app.phonearticle import at_phone_width
from tests.app.test_playground import browser  # noqa: F401  # the module's browser

INLINE = (  # in the order of the SVGs
    "23\\times31",
    "23{\\times}31",
    "a=-b",
    "a{=}{-}b",
    "1",
    "x",
    "\\frac{a+b}{2}",
)
DISPLAY = (
    "\\sum_{i=1}^{n} i^2 = \\frac{n(n+1)(2n+1)}{6}",
    "A = \\begin{pmatrix} 1 & -2 \\\\ 3 & 4 \\end{pmatrix}",
    "\\int_0^1 \\frac{x^2}{\\sqrt{1+x^2}}\\,dx = \\lim_{n\\to\\infty} \\sum_{k=1}^{n} f(x_k)",
)
ARTICLE = (
    "# 公式\n\n每次请求耗时 $23\\times31$ s，对照 $23{\\times}31$；若 $a=-b$，对照 $a{=}{-}b$，"
    "数字 $1$ 和字母 $x$，分数 $\\frac{a+b}{2}$ 在行内。\n\n"
    + "".join(f"$$\n{latex}\n$$\n\n" for latex in DISPLAY)
    + "后面还有一行正文。\n"
)
# MathJax (mathjax-full 3, TeX fonts) sets its em so that its x-height, 0.442 em, is the
# body's: on a phone's body font (x-height 0.53 em) 1.2 body em. Its italic x's ink is
# 0.453 of its em high and a 1's 0.666 (measured in Chromium, docs/decisions/articles.md).
MATHJAX_EM = 0.53 / 0.442
MATHJAX_X, MATHJAX_ONE = 0.453, 0.666
MEDIUM, THICK = 4 / 18, 5 / 18

MEASURE = """() => {
  const p = document.querySelector("p svg").closest("p");
  const column = p.getBoundingClientRect();
  const ink = (svg) => {  // x-overlapping outlines merged: one box per glyph, in page px
    const boxes = [];
    for (const path of svg.querySelectorAll("path")) {
      for (const part of path.getAttribute("d").split(/(?=M)/)) {
        const piece = document.createElementNS("http://www.w3.org/2000/svg", "path");
        piece.setAttribute("d", part);
        svg.appendChild(piece);
        const r = piece.getBoundingClientRect();
        piece.remove();
        if (r.width > 0 || r.height > 0) boxes.push([r.left, r.right, r.top, r.bottom]);
      }
    }
    boxes.sort((a, b) => a[0] - b[0]);
    const glyphs = [];
    for (const b of boxes) {
      const g = glyphs[glyphs.length - 1];
      if (g && b[0] < g[1] - 0.01) {
        g[1] = Math.max(g[1], b[1]); g[2] = Math.min(g[2], b[2]); g[3] = Math.max(g[3], b[3]);
      } else glyphs.push([...b]);
    }
    return glyphs;
  };
  const baseline = (svg) => {  // an empty inline-block's bottom is on the baseline
    const mark = document.createElement("span");
    mark.style.cssText = "display:inline-block;width:0;height:0";
    svg.parentNode.insertBefore(mark, svg);
    const y = mark.getBoundingClientRect().bottom;
    mark.remove();
    return y;
  };
  return {
    body: parseFloat(getComputedStyle(p).fontSize),
    column: [column.left, column.right],
    formulas: [...document.querySelectorAll("svg")].map((svg) => {
      const r = svg.getBoundingClientRect();
      return {latex: svg.getAttribute("aria-label"), box: [r.left, r.right, r.top, r.bottom],
              ink: ink(svg), baseline: baseline(svg)};
    }),
  };
}"""


@pytest.fixture(scope="module")
def measured(browser: Browser) -> dict[str, dict[str, Any]]:  # noqa: F811  # the fixture imported above
    """Each theme's article at 375 px, its formulas measured."""
    found = {}
    for theme, page in at_phone_width(browser, ARTICLE, ARTICLE_THEMES, "article-math", height=900):
        found[theme] = page.evaluate(MEASURE)
    return found


def formulas(measured: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out = {f["latex"]: f for f in measured["formulas"]}
    assert list(out) == [*INLINE, *DISPLAY]
    return out


def gaps(formula: dict[str, Any]) -> list[float]:
    glyphs = formula["ink"]
    return [b[0] - a[1] for a, b in itertools.pairwise(glyphs)]


@pytest.mark.parametrize("theme", ARTICLE_THEMES)
def test_operators_get_texs_spaces(measured: dict[str, dict[str, Any]], theme: str) -> None:
    """× a medium space each side (it had 2/18 × 4/3 em), = a thick one, a unary minus none."""
    found = formulas(measured[theme])
    em = measured[theme]["body"] * MATH_SCALE
    times, braced = gaps(found["23\\times31"]), gaps(found["23{\\times}31"])
    assert len(times) == len(braced) == 4
    for side in (1, 2):  # 3|×, ×|3
        assert times[side] - braced[side] == pytest.approx(MEDIUM * em, abs=0.5), (theme, times)
    relation, plain = gaps(found["a=-b"]), gaps(found["a{=}{-}b"])
    assert relation[0] - plain[0] == pytest.approx(THICK * em, abs=0.5), (theme, relation)
    assert relation[1] - plain[1] == pytest.approx(THICK * em, abs=0.5), (theme, relation)
    assert relation[2] == pytest.approx(plain[2], abs=0.3), (theme, relation)  # −b: unary


@pytest.mark.parametrize("theme", ARTICLE_THEMES)
def test_letters_and_digits_are_mathjaxs_size(
    measured: dict[str, dict[str, Any]], theme: str
) -> None:
    """The mean of an x's and a 1's ink height within 5 % of MathJax's beside the same body
    (it was 7 % under), and neither more than 10 % off."""
    found = formulas(measured[theme])
    mathjax_em = measured[theme]["body"] * MATHJAX_EM

    def height(latex: str) -> float:
        [glyph] = found[latex]["ink"]
        return float(glyph[3] - glyph[2])

    x, one = height("x") / (MATHJAX_X * mathjax_em), height("1") / (MATHJAX_ONE * mathjax_em)
    assert math.sqrt(x * one) == pytest.approx(1.0, abs=0.05), (theme, x, one)
    assert 0.9 <= x <= 1.1 and 0.9 <= one <= 1.1, (theme, x, one)


@pytest.mark.parametrize("theme", ARTICLE_THEMES)
def test_no_formula_is_clipped_and_display_math_is_centred(
    measured: dict[str, dict[str, Any]], theme: str
) -> None:
    found = formulas(measured[theme])
    left, right = measured[theme]["column"]
    for latex, formula in found.items():
        x0, x1, y0, y1 = formula["box"]
        for g in formula["ink"]:  # a display sum's left edge was 0.8 px outside
            assert x0 - 0.05 <= g[0] and g[1] <= x1 + 0.05, (theme, latex, formula)
            assert y0 - 0.05 <= g[2] and g[3] <= y1 + 0.05, (theme, latex, formula)
        if latex in DISPLAY:
            assert (x0 + x1) / 2 == pytest.approx((left + right) / 2, abs=1.0), (theme, latex)


@pytest.mark.parametrize("theme", ARTICLE_THEMES)
def test_inline_math_sits_on_the_baseline(measured: dict[str, dict[str, Any]], theme: str) -> None:
    found = formulas(measured[theme])
    for latex in ("1", "x"):
        [glyph] = found[latex]["ink"]
        assert glyph[3] == pytest.approx(found[latex]["baseline"], abs=0.5), (theme, latex)
