"""Theme decorations + card size + page number → the items every card carries.

Decorations come from the engine's small vocabulary (`icon`, `label`, `rule`, `rect`),
placed by an anchor corner and an inward offset, so a theme file stays data. Icons are
line drawings on a 24-unit grid, scaled to the decoration's size.
"""

from __future__ import annotations

from .boxes import Fill, Group, Item, Rect, Segment, Shape
from .fonts import FontBook
from .inline import TextLine, layout_text, line_metrics
from .shape import Span, SpanStyle
from .style import Decoration, Style, Styles, parse_color

# Path ops on a 24x24 grid: M/L/Q move, line and curve; O is a circle outline, D a dot.
ICONS: dict[str, tuple[tuple[object, ...], ...]] = {
    "chevron-left": (("M", 15, 19), ("L", 8, 12), ("L", 15, 5)),
    "share": (
        ("M", 8, 9),
        ("L", 6, 9),
        ("Q", 4, 9, 4, 11),
        ("L", 4, 20),
        ("Q", 4, 22, 6, 22),
        ("L", 18, 22),
        ("Q", 20, 22, 20, 20),
        ("L", 20, 11),
        ("Q", 20, 9, 18, 9),
        ("L", 16, 9),
        ("M", 12, 2),
        ("L", 12, 15),
        ("M", 8, 6),
        ("L", 12, 2),
        ("L", 16, 6),
    ),
    "more": (("O", 12, 12, 10), ("D", 7.5, 12, 1.4), ("D", 12, 12, 1.4), ("D", 16.5, 12, 1.4)),
    "check": (("M", 5, 12.5), ("L", 10, 17.5), ("L", 19, 7)),
}


class DecorationError(ValueError):
    """A theme names an icon the engine does not have."""


def decoration_items(styles: Styles, fonts: FontBook, width: float, height: float) -> list[Item]:
    items: list[Item] = []
    for deco in styles.decorations:
        items.extend(_decoration(deco, styles, fonts, width, height))
    return items


def _origin(
    deco: Decoration, box_w: float, box_h: float, width: float, height: float
) -> tuple[float, float]:
    right = deco.anchor.endswith("right")
    bottom = deco.anchor.startswith("bottom")
    x = width - deco.x - box_w if right else deco.x
    y = height - deco.y - box_h if bottom else deco.y
    return x, y


def _decoration(
    deco: Decoration, styles: Styles, fonts: FontBook, width: float, height: float
) -> list[Item]:
    color = styles.palette.get(deco.color) or parse_color(deco.color)
    if deco.kind == "icon":
        if deco.name not in ICONS:
            raise DecorationError(f"unknown icon {deco.name!r}; known: {sorted(ICONS)}")
        x, y = _origin(deco, deco.size, deco.size, width, height)
        return [icon(deco.name, x, y, deco.size, color, deco.stroke)]
    if deco.kind == "label":
        style = SpanStyle(
            family="sans", size=deco.size, bold=deco.weight >= 600, italic=False, color=color
        )
        line = one_line(deco.text, style, fonts, x=0.0, width=width, align="left")
        if line is None:
            return []
        x, y = _origin(deco, line.width, line.height, width, height)
        return [Group(line.items, dx=x, dy=y)]
    if deco.kind == "rule":
        x, y = _origin(deco, deco.width, deco.stroke, width, height)
        return [Segment(x, y, x + deco.width, y, color, deco.stroke)]
    x, y = _origin(deco, deco.width, deco.height, width, height)
    return [Fill(Rect(x, y, deco.width, deco.height), color)]


def icon(name: str, x: float, y: float, size: float, color: int, stroke: float) -> Item:
    """A named line icon with its top-left at (x, y)."""
    k = size / 24
    ops: list[tuple[object, ...]] = []
    dots: list[tuple[object, ...]] = []
    for op in ICONS[name]:
        kind, *args = op
        scaled = [float(a) * k for a in args]  # type: ignore[arg-type]  # ICONS: numbers after the op
        if kind == "D":
            dots.append(("O", x + scaled[0], y + scaled[1], scaled[2]))
            continue
        coords = scaled[:-1] if kind == "O" else scaled
        shifted = [c + (x if i % 2 == 0 else y) for i, c in enumerate(coords)]
        ops.append((kind, *shifted, *([scaled[-1]] if kind == "O" else [])))
    line = Shape(tuple(ops), stroke=color, fill=None, stroke_width=stroke)
    return Group((line, Shape(tuple(dots), stroke=None, fill=color))) if dots else line


def page_number_items(
    style: Style,
    fonts: FontBook,
    *,
    number: int,
    total: int,
    right: float,
    bottom: float,
    width: float,
) -> list[Item]:
    """The `n/N` label, aligned inside the footer band that ends at `bottom`."""
    span_style = SpanStyle(
        family=style.family, size=style.size, bold=style.bold, italic=False, color=style.color
    )
    line = one_line(
        f"{number}/{total}", span_style, fonts, x=right - width, width=width, align=style.align
    )
    return [Group(line.items, dy=bottom - line.height)] if line else []


def one_line(
    text: str, style: SpanStyle, fonts: FontBook, *, x: float, width: float, align: str
) -> TextLine | None:
    """The first line of a short chrome text, on a 1.25 line box."""
    metrics = line_metrics(fonts, style.family, style.bold, style.size, 1.25)
    lines = layout_text([Span(text, style)], fonts, x=x, width=width, metrics=metrics, align=align)
    return lines[0] if lines else None
