"""LaTeX math in articles: inline SVG outlines, typeset by the card engine.

The WeChat editor has no MathJax and strips `<defs>`, `<use>`, ids and classes, but keeps
an inline `<svg>` of plain paths (docs/decisions/engine.md, "Math"). Our formulas are exactly
that: one `<path>` of absolute outlines in `currentColor`, sized in px, lowered by the
formula's depth so its baseline sits on the text's. Display math is centred on its own
line and scaled down to the editor's 677 px column.

The parser renders math as `<code class="language-math-inline|display">` (which the
sanitiser keeps); `take_math` swaps each for an empty placeholder span before the theme
is inlined, and `place_math` fills the placeholders last, after every pass that strips
attributes, so nothing touches the SVG. LaTeX that does not typeset stays as code with a
thin red underline, as on cards.

The service typesets an article's formulas (`html.math_of`) in a render worker, where a
formula that runs long can be stopped, and hands them in as `Typeset`; without them (tests,
benchmarks) they are typeset here, under the same per-post `MathBudget`.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from lxml import etree
from lxml import html as lxml_html

from inkcard.layout.text import Formula, MathBudget

BODY_SIZE = 16.0  # px: the article themes' body text
# MathJax sets its em so that its x-height (0.442 em) is the body's: on a phone's body fonts
# (x-height 0.52–0.54 em) that is 1.2 body em. At 1.2 our STIX Two formulas' letters and
# digits are MathJax's size, on average (docs/decisions/articles.md, "Math like MathJax's");
# at 1.1 they were 7–17 % smaller.
MATH_SCALE = 1.2
MATH_SIZE = BODY_SIZE * MATH_SCALE
COLUMN = 677.0  # px: WeChat's article column
INLINE, DISPLAY = "language-math-inline", "language-math-display"
# The parser's math tokens and whether each is display math.
MATH_TOKENS = {"math_inline": False, "math_inline_double": True, "math_block": True}
Typeset = Mapping[tuple[str, bool], "Formula | None"]  # (LaTeX, display) → formula
BAD_MATH_STYLE = (
    "font-family:Menlo,Consolas,monospace;font-size:90%;background:rgba(27,31,35,.05);"
    "padding:2px 4px;border-radius:4px;border-bottom:1px solid #e5484d"
)


def render_math(latex: str, display: bool) -> str:
    """The parser's HTML for a formula: a code element the later passes recognise."""
    kind = DISPLAY if display else INLINE
    code = f'<code class="{kind}">{html.escape(latex)}</code>'
    return f"<p>{code}</p>\n" if display else code


@dataclass(frozen=True, slots=True)
class Pending:
    placeholder: lxml_html.HtmlElement
    latex: str
    display: bool


def math_size(body_size: float | None) -> float:
    """The formulas' size for a body of `body_size` px (None: the themes' own)."""
    return (body_size or BODY_SIZE) * MATH_SCALE


def typeset_here(size: float = MATH_SIZE) -> Callable[[str, bool], Formula | None]:
    """Typesetting in this process, under one post's budget."""
    budget = MathBudget()
    return lambda latex, display: budget.typeset(latex, size, display)


def take_math(root: lxml_html.HtmlElement) -> list[Pending]:
    """Every math code element, replaced by a bare span that `place_math` fills."""
    pending = []
    for code in root.xpath("//code[@class]"):
        kind = code.get("class")
        if kind not in (INLINE, DISPLAY) or code.getparent() is None:
            continue
        span = lxml_html.Element("span")
        span.tail = code.tail
        code.getparent().replace(code, span)
        pending.append(Pending(span, code.text_content(), kind == DISPLAY))
    return pending


def place_math(pending: list[Pending], typeset: Callable[[str, bool], Formula | None]) -> None:
    """Each placeholder becomes the formula's SVG, or its source as underlined code."""
    for item in pending:
        span = item.placeholder
        span.attrib.clear()
        formula = typeset(item.latex, item.display)
        if formula is None:
            span.set("style", BAD_MATH_STYLE)
            span.text = item.latex
            continue
        if formula.width > COLUMN:
            formula = formula.scaled(COLUMN / formula.width)
        if item.display:
            span.set("style", "display:block;text-align:center;margin:1em 0")
        span.append(_svg(formula))


def _svg(formula: Formula) -> etree._Element:
    left, top, right, bottom = _box(formula)
    width, height = right - left, bottom - top
    svg = lxml_html.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": f"{width:.2f}",
            "height": f"{height:.2f}",
            "viewBox": f"{left:.2f} {top:.2f} {width:.2f} {height:.2f}",
            "style": f"vertical-align:{-bottom:.2f}px;display:inline-block",
            "role": "img",
            "aria-label": formula.latex,
        },
    )
    etree.SubElement(svg, "path", {"d": _path_data(formula), "fill": "currentColor"})
    return svg


def _box(formula: Formula) -> tuple[float, float, float, float]:
    """The formula's box (left, top, right, bottom; y down, baseline 0) grown to hold all of its
    ink: ziamath's box can fall short of a glyph's overhang (a display `\\sum`'s left edge by
    0.05 em), and an SVG clips what lies outside its viewBox. Curves lie within their control
    points, so those bound the ink."""
    left, top, right, bottom = 0.0, -formula.ascent, formula.width, formula.descent
    for kind, *values in formula.ops:
        numbers = [float(v) for v in values]  # type: ignore[arg-type]  # ops hold numbers
        if kind == "A":  # radii, rotation, flags, end: the arc stays within a radius of its end
            rx, ry, x, y = abs(numbers[0]), abs(numbers[1]), numbers[5], numbers[6]
            numbers = [x - rx, y - ry, x + rx, y + ry]
        xs, ys = numbers[0::2], numbers[1::2]
        if xs:
            left, right = min(left, *xs), max(right, *xs)
            top, bottom = min(top, *ys), max(bottom, *ys)
    return left, top, right, bottom


def _path_data(formula: Formula) -> str:
    parts = []
    for kind, *values in formula.ops:
        parts.append(" ".join([str(kind), *(f"{float(v):.2f}" for v in values)]))  # type: ignore[arg-type]  # ops hold numbers
    return " ".join(parts)
