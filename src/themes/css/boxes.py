"""Box properties (background, margin, padding, border*, box-shadow, height) → box knobs.

Each reader takes a declaration's value tokens and the role it is on, and returns the knobs
it sets (`{"margin_top": 8.0, "margin_bottom": 8.0}`), or raises `Unsupported`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .gradients import gradient, highlighter, is_gradient
from .values import Tokens, Unsupported, color, is_word, length, one, split_commas

Reader = Callable[[Tokens, str], dict[str, Any]]

SIDES = ("top", "right", "bottom", "left")  # the order of CSS box shorthands and our padding
MAX_BLUR = 200.0
DEFAULT_SHADOW = "rgba(0,0,0,.1)"  # a box-shadow without a colour
_BORDER_STYLES = {"solid", "dashed", "dotted", "double", "groove", "ridge", "inset", "outset"}
HEADINGS = tuple(f"h{n}" for n in range(1, 7))
HIGHLIGHTED = ("strong", "em", "link", "del")  # runs with a highlighter background
CELLS = ("cell", "th")  # the table's cells: `td` and `th` (one grid for both)


@dataclass(frozen=True, slots=True)
class CellSides:
    """Which sides of a table cell (top, right, bottom, left) a border draws (True), takes
    away (False) or leaves as it was (None); laid over the sides set before it, and made
    the table's `grid` at the end (`grid`)."""

    sides: tuple[bool | None, bool | None, bool | None, bool | None]

    def over(self, before: CellSides | None) -> CellSides:
        if before is None:
            return self
        pairs = zip(self.sides, before.sides, strict=True)
        top, right, bottom, left = (new if new is not None else old for new, old in pairs)
        return CellSides((top, right, bottom, left))

    def grid(self) -> str:
        """The table grid that draws these sides: every cell boxed when a side of it is
        drawn; rules under the rows when only the top or bottom is (or, as in the base
        model, neither is named); else none."""
        top, right, bottom, left = self.sides
        if right or left:
            return "full"
        return "rows" if top or bottom or (top is None and bottom is None) else "none"


@dataclass(frozen=True, slots=True)
class PaddingSide:
    """One side of the padding, laid over the role's padding at the end."""

    index: int
    value: float


def background(values: Tokens, role: str) -> dict[str, Any]:
    """One colour or one gradient (a gradient over a colour wins, as it covers it)."""
    if len(split_commas(values)) > 1:
        raise Unsupported("has several layers; use one")
    gradients = [t for t in values if is_gradient(t)]
    colours = [t for t in values if all(t is not g for g in gradients)]
    if len(gradients) > 1 or len(colours) > 1:
        raise Unsupported("has more than one colour or gradient (images are not drawn)")
    paints = [color(t) for t in colours] + [gradient(g) for g in gradients]
    if not paints:
        raise Unsupported("is empty")
    paint = paints[-1]  # a gradient covers the colour under it
    marker = highlighter(paint) if role in HIGHLIGHTED else None
    if marker is not None:  # linear-gradient(transparent 60%, X 60%): a marker stroke
        return {"background": marker[0], "background_height": marker[1]}
    return {"background": paint}


def _box(values: Tokens) -> list[float]:
    """1 to 4 lengths as [top, right, bottom, left], as margin and padding spell them."""
    if not 1 <= len(values) <= 4:
        raise Unsupported("takes 1 to 4 lengths")
    sides = [length(v) for v in values]
    top = sides[0]
    right = sides[1] if len(sides) > 1 else top
    bottom = sides[2] if len(sides) > 2 else top
    left = sides[3] if len(sides) > 3 else right
    return [top, right, bottom, left]


def margin(values: Tokens, role: str) -> dict[str, Any]:
    """The space above and below a block; around the card, its inset on the page."""
    sides = _box(values)
    if role == "card":
        if len(set(sides)) != 1:
            raise Unsupported("on the card takes one length for every side (its inset)")
        return {"inset": sides[0]}
    return {"margin_top": sides[0], "margin_bottom": sides[2]}


def margin_side(side: str) -> Reader:
    """The reader of `margin-<side>` (only top and bottom have knobs)."""

    def margin(values: Tokens, role: str) -> dict[str, Any]:
        return {f"margin_{side}": length(one(values))}

    return margin


def padding(values: Tokens, role: str) -> dict[str, Any]:
    if role == "list":
        raise Unsupported("on a list: use padding-left (the indent)")
    return {"padding": _box(values)}


def padding_side(side: str) -> Reader:
    """The reader of `padding-<side>`; a list's left padding is its indent."""
    index = SIDES.index(side)

    def padding(values: Tokens, role: str) -> dict[str, Any]:
        value = length(one(values))
        if role == "list" and side == "left":
            return {"indent": value}
        return {"padding": PaddingSide(index, value)}

    return padding


def _border_parts(values: Tokens) -> tuple[float | None, str | None]:
    """(width, colour) of a border shorthand; `none` is a zero width."""
    width: float | None = None
    paint: str | None = None
    for token in values:
        if is_word(token, "none", "hidden"):
            width = 0.0
        elif is_word(token, *_BORDER_STYLES):
            continue
        elif token.type in ("dimension", "number"):
            width = length(token)
        else:
            paint = color(token)
    return width, paint


def _border_knobs(values: Tokens, width_knob: str, paint_knob: str) -> dict[str, Any]:
    """A border shorthand's width and paint as the two knobs named, where given."""
    width, paint = _border_parts(values)
    return {knob: v for knob, v in ((width_knob, width), (paint_knob, paint)) if v is not None}


def _border_knob(role: str, part: str) -> str:
    """The knob a border's `width` or `color` sets: a quote's border is its bar."""
    return f"bar_{part}" if role == "quote" else f"border_{part}"


def _cell_border(values: Tokens, *sides: int) -> dict[str, Any]:
    """A cell's border on some sides: the table's rule width and colour, and which sides
    of every cell it draws (a width of 0 or `none` takes them away)."""
    knobs = _border_knobs(values, "border_width", "border_color")
    drawn = knobs.get("border_width", 1.0) > 0
    chosen = [drawn if index in sides else None for index in range(4)]
    return {**knobs, "grid": CellSides((chosen[0], chosen[1], chosen[2], chosen[3]))}


def border(values: Tokens, role: str) -> dict[str, Any]:
    if role in CELLS:
        return _cell_border(values, 0, 1, 2, 3)
    knobs = _border_knobs(values, "border_width", "border_color")
    if role == "quote":
        raise Unsupported("on a quote: only border-left (its bar) is drawn")
    if role == "hr":
        knobs.update(_rule_dash(values, knobs.get("border_width", 1.0)))
    return knobs


def _rule_dash(values: Tokens, width: float) -> dict[str, Any]:
    """A rule's `dashed` or `dotted` style as its `dash` knob, in the proportions a
    browser draws them: dashes three widths long with two-width gaps, dots round, a dot
    apart."""
    if any(is_word(token, "dashed") for token in values):
        return {"dash": [3 * width, 2 * width]}
    if any(is_word(token, "dotted") for token in values):
        return {"dash": [0.0, 2 * width]}
    return {}


def _heading_bar(values: Tokens, side: str) -> dict[str, Any]:
    """A heading's border on one side: its bar on that side."""
    knobs = _border_knobs(values, "bar_width", "bar_color")
    return {**knobs, "bar_side": side} if knobs.get("bar_width", 1.0) > 0 else knobs


def border_left(values: Tokens, role: str) -> dict[str, Any]:
    if role in CELLS:
        return _cell_border(values, SIDES.index("left"))
    if role in HEADINGS:
        return _heading_bar(values, "left")
    if role != "quote":
        raise Unsupported("is drawn only on blockquote, headings (their bar) and td, th")
    return _border_knobs(values, _border_knob(role, "width"), _border_knob(role, "color"))


def border_right(values: Tokens, role: str) -> dict[str, Any]:
    if role not in CELLS:
        raise Unsupported("is drawn only on td and th")
    return _cell_border(values, SIDES.index("right"))


def _rule_border(side: str, unsupported: str) -> Reader:
    """The reader of `border-<side>` (top or bottom): a heading's bar on that side, or an
    hr's line; elsewhere `unsupported`."""

    def border_side(values: Tokens, role: str) -> dict[str, Any]:
        if role in CELLS:
            return _cell_border(values, SIDES.index(side))
        if role in HEADINGS:
            return _heading_bar(values, side)
        if role != "hr":
            raise Unsupported(unsupported)
        return border(values, role)

    return border_side


border_top = _rule_border("top", "is drawn only on hr and headings")
border_bottom = _rule_border("bottom", "is drawn only on hr and headings (an underline bar)")


def border_image(values: Tokens, role: str) -> dict[str, Any]:
    """`border-image: linear-gradient(…) 1` on hr: the line's paint."""
    gradients = [t for t in values if is_gradient(t)]
    if role != "hr" or len(gradients) != 1:
        raise Unsupported("is drawn only as one gradient on hr")
    return {"border_color": gradient(gradients[0])}


def border_color(values: Tokens, role: str) -> dict[str, Any]:
    return {_border_knob(role, "color"): color(one(values))}


def border_width(values: Tokens, role: str) -> dict[str, Any]:
    return {_border_knob(role, "width"): length(one(values))}


def border_radius(values: Tokens, role: str) -> dict[str, Any]:
    radii = {length(v, percent_of=None) for v in values if v.type != "literal"}
    if len(radii) != 1:
        raise Unsupported("has several radii; only one for all corners is drawn")
    return {"radius": radii.pop()}


def box_shadow(values: Tokens, role: str) -> dict[str, Any]:
    if len(values) == 1 and is_word(values[0], "none"):
        return {"effects": []}
    return {"effects": [_shadow(part) for part in split_commas(values)]}


def _shadow(tokens: Tokens) -> dict[str, Any]:
    """One outer shadow: x, y, an optional blur and a colour."""
    lengths: list[float] = []
    shade = DEFAULT_SHADOW
    for token in tokens:
        if is_word(token, "inset"):
            raise Unsupported("is inset; only outer shadows are drawn")
        if token.type in ("dimension", "number"):
            lengths.append(length(token))
        else:
            shade = color(token)
    if len(lengths) not in (2, 3):
        raise Unsupported("needs x, y and an optional blur (a spread is not drawn)")
    shadow: dict[str, Any] = {"kind": "shadow", "dx": lengths[0], "dy": lengths[1], "color": shade}
    shadow["blur"] = min(MAX_BLUR, max(0.0, lengths[2])) if len(lengths) == 3 else 0.0
    return shadow


def height(values: Tokens, role: str) -> dict[str, Any]:
    if role != "hr":
        raise Unsupported("sets a height only on hr (its thickness)")
    return {"border_width": length(one(values))}
