"""Page number + card size → the `n/N` label every card of a split post carries.

Also the one-line text helper that labels and stamps (decorate.py) use.
"""

from __future__ import annotations

from ...base.boxes import Group, Item
from ...base.fonts import FontBook
from ...style.looks import text_look
from ...style.schema import Style
from ...style.spanstyle import Span, SpanStyle
from ...text.inline import layout_text
from ...text.linebox import TextLine, line_metrics

CHROME_LINE = 1.25  # a line of page chrome (the page number, a label): its box, in its size


def chrome_look(style: Style, color: int | None = None, *, transform: bool = True) -> SpanStyle:
    """The look of a line of page chrome set in `style` (a page number, the AI label, a
    brand kit's marks): its face, size, weight, tracking and effects, in `color` (its own
    by default), cased as it says unless `transform` is off (a byline keeps its case)."""
    return text_look(
        style.family,
        style.size,
        style.color if color is None else color,
        weight=style.weight,
        letter_spacing=style.letter_spacing,
        text_transform=style.text_transform if transform else "none",
        effects=style.text_effects,
    )


def page_number_items(
    style: Style,
    fonts: FontBook,
    *,
    number: int,
    total: int,
    right: float,
    bottom: float,
    top: float,
    width: float,
) -> list[Item]:
    """The page label (`style.format`, `n/N` by default), aligned inside the footer band
    that ends at `bottom`, or from `top` down when the theme puts it at the top."""
    line = one_line(
        style.format.format(n=number, total=total),
        chrome_look(style),
        fonts,
        x=right - width,
        width=width,
        align=style.align,
    )
    if line is None:
        return []
    return [Group(line.items, dy=top if style.position == "top" else bottom - line.height)]


def one_line(
    text: str, style: SpanStyle, fonts: FontBook, *, x: float, width: float, align: str
) -> TextLine | None:
    """The first line of a short chrome text, on a `CHROME_LINE` line box."""
    metrics = line_metrics(fonts, style.family, style.bold, style.size, CHROME_LINE)
    lines = layout_text([Span(text, style)], fonts, x=x, width=width, metrics=metrics, align=align)
    return lines[0] if lines else None
