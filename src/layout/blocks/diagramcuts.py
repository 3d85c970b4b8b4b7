"""A diagram too large for one card at a legible size + its box → rows cut from its
drawing, a card each: bands across a tall one (a sequence repeats its participants atop
each later band), strips down a wide class or ER diagram, a long chain wrapped into rows
first. Each cut says so in the quality report's note on its first row; none is made
where its labels would not come out larger than the whole shrunk to one card
(`STRIP_GAIN`), or where it would take more than `MAX_BANDS` cards. `diagram.py` chooses
among these and the whole.
"""

from __future__ import annotations

from dataclasses import replace

from ..base.boxes import Group, Rect, Row
from ..diagrams.bands import band_span, bands, heads_at, in_strip, strips
from ..diagrams.fit import chain_in_rows
from ..diagrams.labels import LabelSetter
from ..diagrams.marks import Drawing, Label, fit_scale
from ..style.resolver import Styles
from .diagramink import painted
from .figures import FIGURE_FLOOR
from .parts import Ctx, Layouter

# A diagram the card's height would shrink under this share of the width's scale is cut
# into bands instead, a card each, at most MAX_BANDS (a taller one is shrunk to one card):
# one that reads in rows (a sequence) soon; a graph, whose cut parts its edges, only
# where it would shrink to half.
BAND_BELOW, GRAPH_BAND_BELOW = 0.75, 0.5
MAX_BANDS = 4
STRIP_GAIN = 1.25  # a wide class or ER diagram is cut into strips for labels this much larger
SLIDE_LIKE = 0.75  # a content box less tall than this share of its width is a slide's
BAND_SLACK = 0.9  # of the cards' room a diagram in MAX_BANDS bands is drawn to fill
# A sequence (a drawing with `heads`) is never drawn under this share of its size (its
# 12-px labels at 8.4 px, about 7 px on a 360-px phone: the figures' floor) once it is
# compact (`fit.draw_to_fit`) and cut into bands: past it, it shows as its source
SEQUENCE_FLOOR = FIGURE_FLOOR


def least_scale(rows: list[Row], none: float) -> float:
    """The smallest scale a drawing's rows draw it at (each row's groups); `none` for rows
    that draw none."""
    return min((g.scale for row in rows for g in row.items if isinstance(g, Group)), default=none)


def banded(
    drawing: Drawing, setter: LabelSetter, styles: Styles, ctx: Ctx, first: float, rest: float
) -> list[Row]:
    """The drawing in bands at the width's scale, a row each (its first `first` tall, the
    others `rest`), when shrinking it to the card's height would leave its labels under
    `BAND_BELOW` of the width's size (`GRAPH_BAND_BELOW` for a graph), or a sequence's
    under `SEQUENCE_FLOOR` where its width's size is over it; at most
    `MAX_BANDS`, drawn smaller to fit them where it must, else none (it is shrunk to one)."""
    width_scale = min(1.0, ctx.width / drawing.width)
    below = BAND_BELOW if drawing.rows else GRAPH_BAND_BELOW
    whole = fit_scale(drawing, ctx.width, first)
    floor = SEQUENCE_FLOOR if drawing.heads else 0.0  # a sequence in bands over its floor
    if whole >= below * width_scale and (whole >= floor or width_scale < floor):
        return []
    top, below_heads = _heads_span(drawing)
    heads = below_heads - top  # the room the heads repeated atop a later band take
    parts = bands(drawing, first / width_scale, rest / width_scale - heads)
    if len(parts) > MAX_BANDS:  # smaller, to fill the cards it may take (cuts cost room)
        room = BAND_SLACK * (first + (MAX_BANDS - 1) * rest)
        width_scale = room / (drawing.height + (MAX_BANDS - 1) * heads)
        parts = bands(drawing, first / width_scale, rest / width_scale - heads)
        if len(parts) > MAX_BANDS:
            return []
    items = painted(drawing, setter, styles)
    x = ctx.x + (ctx.width - drawing.width * width_scale) / 2
    repeated = painted(replace(drawing, items=drawing.heads), setter, styles)
    note = f"a tall diagram cut into {len(parts)} bands, a card each, to keep its labels legible"
    rows = []
    for index, part in enumerate(parts):
        inside = {id(item) for item in part.items}
        shown = tuple(item for source, item in items if id(source) in inside)
        clip = Rect(0.0, part.top, drawing.width, part.bottom - part.top)
        lift = heads if index else 0.0
        group = Group(
            shown,
            dx=x,
            dy=(lift - part.top) * width_scale,
            scale=width_scale,
            clip=clip,
            labels=True,
        )
        alive = {id(head) for head in heads_at(drawing, part.top)}
        named = tuple(item for source, item in repeated if id(source) in alive)
        atop = Group(named, dx=x, dy=-top * width_scale, scale=width_scale, labels=True)
        over = (atop,) if lift else ()
        rows.append(
            Row(
                height=(part.bottom - part.top + lift) * width_scale,
                items=(*over, group),
                frames=ctx.frames,
                text=part.text,
                note="" if index else "; ".join(filter(None, (drawing.note, note))),
            )
        )
    return rows


def chain_in_bands(
    flow: Layouter, source: str, drawing: Drawing, setter: LabelSetter, ctx: Ctx, room: float
) -> list[Row]:
    """A long chain that one card would shrink under `BAND_BELOW` (`drawing`: its form
    drawn to fit one card, wrapped, upright or as written) wrapped instead into rows as
    wide as the card at its size (`fit.chain_in_rows`) and cut between rows into bands, a
    card each, where they read `STRIP_GAIN` times larger: thirty steps on a 440x586 card
    were an upright column at 0.7 down four cards. Not on a slide (a content box under
    `SLIDE_LIKE` of its width tall): a deck shows a process whole, sixteen steps in four
    rows at 0.64 on one slide rather than two rows each on two. `room`: the first card's."""
    whole, full = fit_scale(drawing, ctx.width, room), flow.max_row_height or room
    if whole >= BAND_BELOW or full < SLIDE_LIKE * ctx.width:
        return []
    in_rows = chain_in_rows(flow.diagrams, source, setter.measure, ctx.width)
    if in_rows is None:
        return []
    rows = banded(in_rows, setter, flow.styles, ctx, room, full)
    return rows if least_scale(rows, 0.0) >= STRIP_GAIN * whole else []


def banded_as_written(
    flow: Layouter, source: str, drawing: Drawing, setter: LabelSetter, ctx: Ctx, room: float
) -> list[Row]:
    """`banded` of a tall diagram as written where `drawing` is its left-right form
    (`fit.draw_to_fit`) shrunk under `FIGURE_FLOOR`: a long chain on a slide reads at its
    width's size in bands, a card each, rather than as one strip of small print (ten
    steps on a 1600x900 slide: turned, 54 %; in bands, 100 %); none where the written form
    is not cut either, or where its bands would not read `STRIP_GAIN` times larger (sixteen
    steps wrapped into rows on one slide, 64 %, against four bands at 65 %). `room`: the
    first card's."""
    written = flow.diagrams.draw(source, setter.measure)
    whole = fit_scale(drawing, ctx.width, room)
    if not written.tall or drawing.tall or whole >= FIGURE_FLOOR:
        return []
    rows = banded(written, setter, flow.styles, ctx, room, flow.max_row_height or room)
    least = least_scale(rows, 0.0)
    return rows if least >= STRIP_GAIN * whole else []


def stripped_as_written(
    flow: Layouter, source: str, drawing: Drawing, setter: LabelSetter, ctx: Ctx, room: float
) -> list[Row]:
    """`stripped` of the diagram as written where `drawing` is another form of it: drawn
    tight, the shop model with a note on no class left no cut in the clear of its boxes,
    where as written it had one (the budget keeps that form: no second layout). `room`:
    the first card's."""
    if not drawing.wide_cut:
        return []
    written = flow.diagrams.draw(source, setter.measure)
    if written is drawing:
        return []
    return stripped(written, setter, flow.styles, ctx, room, flow.max_row_height or room)


def stripped(
    drawing: Drawing, setter: LabelSetter, styles: Styles, ctx: Ctx, first: float, rest: float
) -> list[Row]:
    """A graph of boxes that may be cut across (`Drawing.wide_cut`: class and ER diagrams) that
    the card's width would shrink under `FIGURE_FLOOR`, the floor a figure's labels are
    kept at, drawn at that floor and cut into bands, each band into strips as wide as the
    card: a card each, row by row, less those with no label; none when that takes more than
    `MAX_BANDS` cards, when its labels would not come out `STRIP_GAIN` times larger, or
    when a cut would go through a box (it is then shrunk to one as before)."""
    # the whole's scale, its height's too: drawn tight, the shop model with a note on no
    # class was narrow enough (698 px) but 792 tall, and shrank to 49 %
    if not drawing.wide_cut or STRIP_GAIN * fit_scale(drawing, ctx.width, first) >= FIGURE_FLOOR:
        return []
    scale = FIGURE_FLOOR
    spans = strips(drawing, ctx.width / scale)
    if not spans:
        return []
    tiles = []
    for part in bands(drawing, first / scale, rest / scale):
        for span in spans:
            shown = [item for item in part.items if in_strip(item, span)]
            if any(isinstance(item, Label) for item in shown):
                tiles.append((span, part, shown))
    if len(tiles) > MAX_BANDS:
        return []
    items = painted(drawing, setter, styles)
    note = f"a wide diagram cut into {len(tiles)} parts, a card each, to keep its labels legible"
    rows = []
    for index, ((left, right), part, shown) in enumerate(tiles):
        inside = {id(item) for item in shown}
        x = ctx.x + (ctx.width - (right - left) * scale) / 2 - left * scale
        clip = Rect(left, part.top, right - left, part.bottom - part.top)
        drawn = tuple(item for source, item in items if id(source) in inside)
        group = Group(drawn, dx=x, dy=-part.top * scale, scale=scale, clip=clip, labels=True)
        text = "\n".join(_whole(i.text.lines) for i in shown if isinstance(i, Label))
        text = text if index else drawing.text  # the first card's: the whole figure's
        rows.append(
            Row(
                height=(part.bottom - part.top) * scale,
                items=(group,),
                frames=ctx.frames,
                text=text,
                note="" if index else "; ".join(filter(None, (drawing.note, note))),
            )
        )
    return rows


def _whole(lines: tuple[str, ...]) -> str:
    """A wrapped label's lines as the one text it was: a space where it broke between
    words, none where it broke between CJK characters."""
    out = lines[0] if lines else ""
    for line in lines[1:]:
        space = out[-1:].isascii() and line[:1].isascii() and out[-1:] not in "-/"
        out += (" " if space else "") + line
    return out


def _heads_span(drawing: Drawing) -> tuple[float, float]:
    """The top and bottom of what a band after the first repeats atop it (a sequence's
    participants and their lifelines' first stretch); (0, 0) when nothing is."""
    if not drawing.heads:
        return 0.0, 0.0
    spans = [band_span(item) for item in drawing.heads]
    return min(a for a, _ in spans), max(b for _, b in spans)
