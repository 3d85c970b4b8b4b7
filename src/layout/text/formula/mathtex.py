"""LaTeX math → a `Formula`: vector outlines in STIX Two Math, measured for layout.

ziamath (pure Python: latex2mathml, then its own MathML layout with the font's MATH table)
typesets; we take its drawing as SVG paths and rectangles (fraction bars, radicals) and
turn them into the absolute path ops `boxes.Shape` draws, so math is painted like any
other vector shape, in whatever colour the text around it has. Layout measures (width,
ascent, descent), draw only draws.

LaTeX that does not parse, is too long or too deeply nested, or uses a character the math
font cannot draw gives None: the caller shows the source as inline code instead. A request
never fails on math. Chinese in an outer `\\text{}` (`\\text{平均成本} = \\frac{…}{…}`, as
posts write it; the math font has no Han and ziamath would draw tofu) is cut out
(`typeset_mixed`): the caller shapes it as text, in the paragraph's own face, between the
typeset math pieces.

ziamath's layout time doubles with each level of nested groups (`x^{x^{…}}`, `\\frac{\\frac{…}}`,
`\\left(\\left(…`) and grows with the formula's MathML nodes and characters, so all are measured
before it runs (`formula_cost`, in steps counted by `mathcost`, never in seconds), and one
post's math as a whole is held to a `MathBudget` of steps (docs/decisions/engine.md, "A budget
for math").
"""

from __future__ import annotations

import copy
import filecmp
import re
import threading
import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ...base.fonts import DEFAULT_FONTS_DIR
from ...base.svgpath import Op, PathError, parse_svg_path, transform
from .mathbreaks import piece_sources, text_runs
from .mathcost import formula_steps, reading_steps
from .mathspacing import tex_spacing

if TYPE_CHECKING:  # ElementTree loads with the math engine, on a post's first formula
    import xml.etree.ElementTree as ET

MATH_FONT = DEFAULT_FONTS_DIR / "STIXTwoMath-Regular.ttf"
# A display formula is set this many times its paragraph's size, as KaTeX sets math (1.21
# em): at text size a slide's fraction of sums read as a footnote (the fund post at
# 1600x900, 30 theme-modes); inline math stays at text size, its lines even
DISPLAY_SCALE = 1.21
MAX_LATEX = 1000  # characters of one formula; longer source is shown as code
MAX_GROUP_DEPTH = 6  # nested {…}, \\left…\\right and \\begin…\\end: ~0.1 s at worst at 6
MAX_NODES = 500  # MathML elements of one formula: ziamath takes ~0.5 ms each, up to ~0.3 s
MAX_TREE_DEPTH = 40  # MathML nesting, whatever made it
MAX_STEPS = 20_000  # `mathcost` steps of one formula: ~0.36 s at the worst rate measured
# One post: at most this many distinct formulas, source characters and steps of typesetting
# (counted before each formula is typeset, never timed: the same post gets the same answer on
# every machine); the formulas past any of them are shown as source (no real post nears them).
POST_FORMULAS = 500
POST_LATEX = 30_000
POST_STEPS = 60_000  # ~1.1-1.4 s of CPU at the worst rate measured, ~0.7 s at real formulas
_MAX_OPS = 50_000  # path ops of one formula (a few hundred glyphs)

# ziamath keeps its fonts in a module-level dict and is not documented as thread-safe.
_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _ziamath() -> tuple[Any, Any]:
    """ziamath's MathML renderer (`Math`) and its LaTeX → MathML converter, imported on the
    first formula: it costs a tenth of a second at start, and most cards have no math."""
    with warnings.catch_warnings():  # ziamath 0.13 finds its own font with a deprecated call
        warnings.simplefilter("ignore", DeprecationWarning)
        from ziamath.config import config
        from ziamath.tex import tex2mml
        from ziamath.zmath import Math
    config.svg2 = False  # plain absolute <path>/<rect>, no <symbol>/<use> to resolve
    return Math, tex2mml


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


class MathBudget:
    """One post's allowance of math (`POST_FORMULAS`, `POST_LATEX`, `POST_STEPS`): the
    formulas it typesets, in the order asked, while each fits what is left; the others give
    None at once, before any layout. The same formula asked again gives the same answer and
    costs nothing more. Every charge is counted before typesetting, never timed: the answers
    are the same on any machine, however loaded, and whatever a cache already holds."""

    def __init__(
        self, formulas: int = POST_FORMULAS, latex: int = POST_LATEX, steps: int = POST_STEPS
    ):
        self._formulas, self._latex, self._steps = formulas, latex, steps
        self._answers: dict[tuple[str, float, bool], Formula | None] = {}
        self._breaks: dict[str, bool] = {}  # whether an inline formula's pieces fitted

    def typesets(self, latex: str, size: float, display: bool = False) -> bool:
        """Whether `latex` typesets, whole or as `typeset_mixed` pieces, while the budget
        lasts (each math piece charged as a formula); an inline formula typeset whole is
        also set as the pieces a line may break between, and their steps are charged too."""
        if self.typeset(latex, size, display) is not None:
            return display or self._breaks_fit(latex.strip())
        runs = text_runs(latex.strip())
        return len(runs) > 1 and all(
            self.typeset(source, size, display) is not None
            for (_, text), source in zip(runs, math_sources(runs), strict=True)
            if not text
        )

    def _breaks_fit(self, source: str) -> bool:
        """Whether the steps of an inline formula's pieces (`mathbreaks.piece_sources`, each
        typeset by the shaping stage) fit what is left: charged once, as formulas are (read
        only if their reading fits). Uncounted, a formula of many pieces cost twice its count."""
        if source not in self._breaks:
            sources = piece_sources(source)
            reading = sum(reading_steps(len(piece)) for piece in sources)
            fits = len(sources) == 1 or reading <= self._steps
            if len(sources) > 1 and fits:
                self._steps -= reading
                steps = sum(formula_cost(piece) for piece in sources)
                fits = steps <= self._steps
                self._steps -= steps if fits else 0
            self._breaks[source] = fits
        return self._breaks[source]

    def typeset(self, latex: str, size: float, display: bool = False) -> Formula | None:
        """`typeset(latex, size, display)` if it fits what is left of the budget, else None.
        A formula asked is charged as it is read (one of the formulas, its characters, the
        steps of reading and counting it), then, if it typesets, the steps of its layout."""
        key = (latex.strip(), size, display)
        if key in self._answers:
            return self._answers[key]
        answer = None
        reading = reading_steps(len(key[0]))
        if self._formulas > 0 and self._latex >= len(key[0]) and self._steps >= reading:
            self._formulas -= 1
            self._latex -= len(key[0])
            self._steps -= reading
            steps = formula_cost(key[0], display)
            if 0 < steps <= min(MAX_STEPS, self._steps):  # else refused before any layout
                answer = typeset(*key)
                self._steps -= steps
        self._answers[key] = answer
        return answer


@lru_cache(maxsize=512)
def formula_cost(latex: str, display: bool = False) -> int:
    """The steps typesetting `latex` takes (`mathcost.formula_steps` of its MathML); 0 for a
    formula refused before ziamath would see it (too long, too deeply nested, too many
    MathML elements, bad LaTeX). Counted, never timed: deterministic on every machine."""
    source = latex.strip()
    if not source or len(source) > MAX_LATEX or group_depth(source) > MAX_GROUP_DEPTH:
        return 0
    try:
        tree = _element_tree().fromstring(_mathml_text(source, display))
    except Exception:  # whatever the LaTeX parser raises, the source is bad LaTeX to us
        return 0
    return 0 if _too_complex(tree) else formula_steps(tree)


def _share_bundled_font(size: float) -> None:
    """ziamath parses the STIX Two Math it bundles when it is imported (about 7 MB of Python
    objects), and would parse ours, the same file, a second time on the first formula. This
    registers ours as a shallow copy of that parse, with the base size ziamath's own
    ``MathFont(font, size)`` would give it (the first formula's); a different file is left to
    ziamath to load. Call under ``_LOCK``."""
    from ziamath import zmath

    ours = str(MATH_FONT)
    bundled = zmath.loadedfonts["default"]
    if ours in zmath.loadedfonts or bundled.fname is None:
        return
    if not filecmp.cmp(bundled.fname, MATH_FONT, shallow=False):
        return
    font = copy.copy(bundled)
    font.basesize = size
    font.alt_fonts = type(bundled.alt_fonts)()
    zmath.loadedfonts[ours] = font


@lru_cache(maxsize=512)
def typeset(latex: str, size: float, display: bool = False) -> Formula | None:
    """The formula at text size `size` px (`display`: display style, big operators with
    limits above and below); None when it cannot be typeset cleanly or is too complex."""
    source = latex.strip()
    if not 0 < formula_cost(source, display) <= MAX_STEPS:  # refused before ziamath runs
        return None
    with _LOCK:
        try:
            tree = _element_tree().fromstring(_mathml_text(source, display))
            math_class, _ = _ziamath()
            _share_bundled_font(size)
            math = math_class(tex_spacing(tree), size=size, font=str(MATH_FONT))
            if not all(math.font.glyphindex(c) for c in _drawn_text(source)):
                return None
            svg = _element_tree().Element("svg")
            math.node.draw(0, 0, svg)
            box = math.node.bbox
        except Exception:  # whatever the LaTeX parser raises, the source is bad LaTeX to us
            return None
    ops = _outlines(svg, -box.xmin)
    if ops is None or box.xmax <= box.xmin:
        return None
    return Formula(source, box.xmax - box.xmin, max(0.0, box.ymax), max(0.0, -box.ymin), ops)


@lru_cache(maxsize=512)  # asked twice per formula while shaping: whether, then how
def typeset_mixed(
    latex: str, size: float, display: bool = False
) -> tuple[tuple[str, Formula | None], ...] | None:
    """`latex` as its outer plain-text groups (`mathbreaks.text_runs`) and its math pieces
    typeset: (text, None) for a piece the caller shapes as text, (source, formula) for one
    of math; None when it has no such group or a math piece does not typeset."""
    runs = text_runs(latex.strip())
    if len(runs) < 2:
        return None
    out: list[tuple[str, Formula | None]] = []
    for (piece, text), source in zip(runs, math_sources(runs), strict=True):
        formula = None if text else typeset(source, size, display)
        if not text and formula is None:
            return None
        out.append((piece, formula))
    return tuple(out)


def math_sources(runs: list[tuple[str, bool]]) -> list[str]:
    """What each math piece of `text_runs` is typeset as: with `{}` (an ordinary atom, as
    TeX sees the `\\text{}` there) on the side a text piece touches, so an operator at the
    piece's edge keeps TeX's space (`\\text{成本} = x`: the `=` a thick space either side)."""
    out = []
    for i, (piece, text) in enumerate(runs):
        before = "{}" if i > 0 and runs[i - 1][1] else ""
        after = "{}" if i + 1 < len(runs) and runs[i + 1][1] else ""
        out.append(piece if text else f"{before}{piece}{after}")
    return out


# A group opens and closes; any other escaped character (`\\{`, `\\leftarrow`) is skipped.
_GROUP_TOKEN = re.compile(
    r"\\(?:left|right)(?![A-Za-z])|\\(?:begin|end)\s*\{[^{}]*\}|\\.|[{}]", re.S
)


def group_depth(source: str) -> int:
    """How deeply the source's groups nest: `{…}`, `\\left…\\right`, `\\begin…\\end`."""
    depth = deepest = 0
    for match in _GROUP_TOKEN.finditer(source):
        token = match.group()
        if token == "{" or token.startswith(("\\left", "\\begin")):
            depth += 1
            deepest = max(deepest, depth)
        elif token == "}" or token.startswith(("\\right", "\\end")):
            depth = max(0, depth - 1)
    return deepest


@lru_cache(maxsize=512)  # parsed to be counted, then again to be typeset
def _mathml_text(source: str, display: bool) -> str:
    """The formula as ziamath's MathML (its LaTeX parser: linear and fast), as text: each
    caller makes its own tree of it (ziamath writes on the tree it lays out)."""
    _, tex2mml = _ziamath()
    text: str = tex2mml(source, inline=not display)
    return text


def _element_tree() -> Any:
    """`xml.etree.ElementTree`, imported with the math engine (which imports it anyway),
    not with the text engine: a card without a formula never needs it."""
    import xml.etree.ElementTree

    return xml.etree.ElementTree


def _too_complex(tree: ET.Element) -> bool:
    """More MathML elements, or deeper nesting, than ziamath lays out in a blink."""
    nodes = 0
    stack = [(tree, 1)]
    while stack:
        element, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES or depth > MAX_TREE_DEPTH:
            return True
        stack.extend((child, depth + 1) for child in element)
    return False


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
