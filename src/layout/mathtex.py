"""LaTeX math → a `Formula`: vector outlines in STIX Two Math, measured for layout.

ziamath (pure Python: latex2mathml, then its own MathML layout with the font's MATH table)
typesets; we take its drawing as SVG paths and rectangles (fraction bars, radicals) and
turn them into the absolute path ops `boxes.Shape` draws, so math is painted like any
other vector shape, in whatever colour the text around it has. Layout measures (width,
ascent, descent), draw only draws.

LaTeX that does not parse, is too long, or uses a character the math font cannot draw
(Chinese inside `\\text{}` would be tofu) gives None: the caller shows the source as
inline code instead. A request never fails on math.
"""

from __future__ import annotations

import threading
import warnings
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .fonts import DEFAULT_FONTS_DIR
from .svgpath import Op, PathError, parse_svg_path, transform

MATH_FONT = DEFAULT_FONTS_DIR / "STIXTwoMath-Regular.ttf"
MAX_LATEX = 1000  # characters of one formula; longer source is shown as code
_MAX_OPS = 50_000  # path ops of one formula (a few hundred glyphs)

# ziamath keeps its fonts in a module-level dict and is not documented as thread-safe.
_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _latex_class() -> Any:
    """ziamath's Latex, imported on the first formula: it costs a tenth of a second at
    start, and most cards have no math."""
    with warnings.catch_warnings():  # ziamath 0.13 finds its own font with a deprecated call
        warnings.simplefilter("ignore", DeprecationWarning)
        from ziamath.config import config
        from ziamath.zmath import Latex
    config.svg2 = False  # plain absolute <path>/<rect>, no <symbol>/<use> to resolve
    return Latex


@dataclass(frozen=True, slots=True)
class Formula:
    """A typeset formula: outlines with the pen at x 0 and the baseline at y 0 (y down),
    `width` px wide, reaching `ascent` px above the baseline and `descent` below."""

    latex: str
    width: float
    ascent: float
    descent: float
    ops: tuple[Op, ...]

    def scaled(self, factor: float) -> Formula:
        """The same formula `factor` times the size (a formula too wide for its column)."""
        return Formula(
            self.latex,
            self.width * factor,
            self.ascent * factor,
            self.descent * factor,
            transform(self.ops, 0.0, 0.0, factor),
        )

    def placed(self, x: float, baseline: float) -> tuple[Op, ...]:
        """The outlines with the formula's pen at `x` on the line's `baseline`."""
        return transform(self.ops, x, baseline, 1.0)


@lru_cache(maxsize=512)
def typeset(latex: str, size: float, display: bool = False) -> Formula | None:
    """The formula at text size `size` px (`display`: display style, big operators with
    limits above and below); None when it cannot be typeset cleanly."""
    source = latex.strip()
    if not source or len(source) > MAX_LATEX:
        return None
    with _LOCK:
        try:
            math = _latex_class()(source, size=size, font=str(MATH_FONT), inline=not display)
            if not all(math.font.glyphindex(c) for c in _drawn_text(source)):
                return None
            svg = ET.Element("svg")
            math.node.draw(0, 0, svg)
            box = math.node.bbox
        except Exception:  # whatever the LaTeX parser raises, the source is bad LaTeX to us
            return None
    ops = _outlines(svg, -box.xmin)
    if ops is None or box.xmax <= box.xmin:
        return None
    return Formula(source, box.xmax - box.xmin, max(0.0, box.ymax), max(0.0, -box.ymin), ops)


def _drawn_text(source: str) -> str:
    """The characters of the source the font must draw: everything but ASCII (commands,
    braces and ASCII symbols are the parser's business)."""
    return "".join(c for c in source if ord(c) > 0x7F and not c.isspace())


def _outlines(svg: ET.Element, shift: float) -> tuple[Op, ...] | None:
    """Path ops of ziamath's drawing, moved right by `shift`; None for anything we do
    not draw (the formula then shows as source)."""
    ops: list[Op] = []
    for element in svg.iter():
        if element is svg or element.tag == "g":
            continue
        if element.tag == "path":
            try:
                ops.extend(parse_svg_path(element.attrib.get("d", "")))
            except PathError:
                return None
        elif element.tag == "rect":
            ops.extend(_rect(element))
        else:
            return None
        if len(ops) > _MAX_OPS:
            return None
    return transform(tuple(ops), shift, 0.0, 1.0)


def _rect(element: ET.Element) -> list[Op]:
    x, y = float(element.attrib.get("x", 0)), float(element.attrib.get("y", 0))
    w, h = float(element.attrib.get("width", 0)), float(element.attrib.get("height", 0))
    return [("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",)]
