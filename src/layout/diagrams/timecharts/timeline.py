"""A timeline record + a label `Measure` → its `Drawing`: periods on a line, their events as cards.

As written it runs left to right, as mermaid-js draws it: a column per period, its name
over the line, a dot on it, its events stacked below. That is `across`: a portrait card
gets the upright form (`fit.draw_to_fit`), the line running down the left, each period's
name beside its dot and its events to the right, which keeps a long history at full
size. A section colours its periods' dots, cards and stretch of the line (series roles);
without sections each period takes a colour of its own, as in mermaid-js.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..marks import (
    LABEL_SIZE,
    MAX_LABEL_WIDTH,
    PAD_X,
    PAD_Y,
    SMALL_SIZE,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    arrowhead,
    circle_ops,
    finish,
    rect_ops,
    tint,
)
from .mermaidtime import Period, Timeline

DOT = 6.0  # px: a period's dot on the line
CARD_GAP = 4.0  # px between a period's event cards
COLUMN_GAP = 10.0  # px between periods (across), or between period rows (upright)
PERIOD_WIDTH = 110.0  # px: an upright period's name wraps past it
LINE = 3.0  # px: the time line
CARD_PAD = PAD_Y - 2  # px above and below an event's text
SPACE = 0.3  # em: a space between words of a title, at most


@dataclass(frozen=True, slots=True)
class _Measured:
    period: Period
    colour: str
    name: Lines
    events: tuple[Lines, ...]


def layout_timeline(chart: Timeline, measure: Measure, upright: bool = False) -> Drawing:
    """Left to right as mermaid-js draws it, or (`upright`) down the left of a narrow card."""
    name_width = PERIOD_WIDTH if upright else MAX_LABEL_WIDTH * 0.8
    measured = [
        _Measured(
            p,
            _colour(chart, p, i),
            measure(p.label, LABEL_SIZE, True, name_width),
            tuple(measure(e, SMALL_SIZE, False, MAX_LABEL_WIDTH * 0.8) for e in p.events),
        )
        for i, p in enumerate(chart.periods)
    ]
    items: list[Mark | Label] = []
    top = 0.0
    if chart.title:
        room = 2 * MAX_LABEL_WIDTH
        if not upright:  # as wide as the columns
            room = max(room, sum(_column_width(m) + COLUMN_GAP for m in measured))
        title = _title(measure, chart.title, room)
        items.append(Label(title, 0.0, 0.0, "text", "left"))
        top = title.height + 12
    keep: list[tuple[float, float]] = []  # each period with its cards, kept on one card
    body = _upright(measured, chart, top, keep) if upright else _across(measured, chart, top)
    drawing = finish(items + body, "\n".join(chart.labels()), keep=keep)
    return replace(drawing, across=not upright and len(chart.periods) > 1)


def _title(measure: Measure, text: str, room: float) -> Lines:
    """The title wrapped at `room`; whole on one line when the pieces a narrowing measure
    (`fit.draw_to_fit`) cut it into fit `room` side by side: the labels of a shrinking
    timeline wrap, its title need not."""
    size = LABEL_SIZE + 1
    title = measure(text, size, True, room)
    if len(title.lines) == 1:
        return title
    spaced = " ".join(title.lines) in text
    gap = size * SPACE if spaced else 0.0
    width = sum(measure(line, size, True, room).width for line in title.lines)
    width += gap * (len(title.lines) - 1) + 2.0  # slack: setting it must not wrap it
    if width > room:
        return title
    joined = (" " if spaced else "").join(title.lines)
    return Lines((joined,), width, title.height / len(title.lines), size, True)


def _column_width(m: _Measured) -> float:
    return max([m.name.width, *(e.width for e in m.events)]) + 2 * PAD_X


def _colour(chart: Timeline, period: Period, index: int) -> str:
    if not chart.sections:  # one colour: eight series colours cycling read as noise
        return "accent"
    return f"series{period.section}" if period.section >= 0 else "accent"


def _cards(
    out: list[Mark | Label],
    events: tuple[Lines, ...],
    colour: str,
    x: float,
    y: float,
    width: float,
) -> float:
    """Event cards from (`x`, `y`), each `width` wide, stacked; where the last one ends."""
    for text in events:
        height = text.height + 2 * CARD_PAD
        out.append(Mark(rect_ops(x, y, width, height, 4), None, tint(colour)))
        out.append(Label(text, x + width / 2, y + CARD_PAD))
        y += height + CARD_GAP
    return y - CARD_GAP


def _across(measured: list[_Measured], chart: Timeline, top: float) -> list[Mark | Label]:
    """A column per period: name, dot on the line, cards below; sections named above."""
    widths = [_column_width(m) for m in measured]
    head = max(m.name.height for m in measured)
    section_h = SMALL_SIZE * 1.4 + 10 if chart.sections else 0.0
    line_y = top + section_h + head + 8 + DOT
    out: list[Mark | Label] = []
    x, lefts = 0.0, []
    for m, width in zip(measured, widths, strict=True):
        lefts.append(x)
        centre = x + width / 2
        out.append(Label(m.name, centre, line_y - DOT - 6 - m.name.height))
        out.append(
            Mark(
                ((("M", centre, line_y + DOT), ("L", centre, line_y + DOT + 10))),
                m.colour,
                None,
                1.5,
            )
        )
        _cards(out, m.events, m.colour, x, line_y + DOT + 10, width)
        x += width + COLUMN_GAP
    end = x - COLUMN_GAP + 16
    line = [Mark((("M", -8.0, line_y), ("L", end - 6, line_y)), "line", None, LINE)]
    line.append(arrowhead((end + 2, line_y), (end - 10, line_y), 12.0))
    dots = [  # last: a dot's ring is no label's ground
        Mark(circle_ops(left + width / 2, line_y, DOT), "page", m.colour, 2.0)
        for m, left, width in zip(measured, lefts, widths, strict=True)
    ]
    for index, name in enumerate(chart.sections):
        columns = [i for i, m in enumerate(measured) if m.period.section == index]
        if not columns:
            continue
        left, right = lefts[columns[0]], lefts[columns[-1]] + widths[columns[-1]]
        text = Lines((name,), right - left, SMALL_SIZE * 1.35, SMALL_SIZE, True)
        out.append(Label(text, left, top, "text", "left"))
        out.append(
            Mark(
                rect_ops(left, top + SMALL_SIZE * 1.4 + 2, right - left, 4, 2),
                None,
                f"series{index}",
            )
        )
    return line + out + dots


def _upright(
    measured: list[_Measured], chart: Timeline, top: float, keep: list[tuple[float, float]]
) -> list[Mark | Label]:
    """The line down the left: a row per period, its name by its dot, its cards right;
    each period's span added to `keep`."""
    name_w = max(m.name.width for m in measured)
    card_x = DOT * 2 + 10 + name_w + 12
    card_w = max([*(e.width for m in measured for e in m.events), 60.0]) + 2 * PAD_X
    out: list[Mark | Label] = []
    line: list[Mark | Label] = []
    dots: list[Mark | Label] = []
    y, last_section = top, -1
    stretch_top = top
    for m in measured:
        section = m.period.section
        if section != last_section and section >= 0:
            if last_section >= 0:
                line.append(_stretch(f"series{last_section}", stretch_top, y))
            name = chart.sections[section]
            text = Lines((name,), card_x + card_w - 24, SMALL_SIZE * 1.35, SMALL_SIZE, True)
            out.append(
                Mark(
                    rect_ops(DOT * 2 + 4, y, card_x + card_w - DOT * 2 - 4, text.height + 6, 3),
                    None,
                    tint(f"series{section}"),
                )
            )
            out.append(Label(text, DOT * 2 + 10, y + 3, "text", "left"))
            stretch_top, y = y, y + text.height + 6 + 8
            last_section = section
        first = m.events[0].height + 2 * CARD_PAD if m.events else m.name.height
        name_y = y + max(0.0, (first - m.name.height) / 2)  # level with its first card
        centre = name_y + m.name.height / 2
        dots.append(Mark(circle_ops(DOT, centre, DOT), "page", m.colour, 2.0))
        out.append(Label(m.name, DOT * 2 + 10, name_y, "text", "left"))
        end = _cards(out, m.events, m.colour, card_x, y, card_w) if m.events else y
        keep.append((y, max(end, name_y + m.name.height)))
        y = max(end, name_y + m.name.height) + COLUMN_GAP
    if last_section >= 0:
        line.append(_stretch(f"series{last_section}", stretch_top, y - COLUMN_GAP))
    base = Mark((("M", DOT, top), ("L", DOT, y - COLUMN_GAP + 4)), "line", None, LINE)
    return [base, *line, *out, *dots]


def _stretch(colour: str, top: float, bottom: float) -> Mark:
    """A section's stretch of the upright line, in its colour."""
    return Mark((("M", DOT, top), ("L", DOT, bottom)), colour, None, LINE + 1)
