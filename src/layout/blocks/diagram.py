"""A fenced ```mermaid block + its box → `Part`: the diagram as one unbreakable figure row.

The drawing (`diagrams.forms.draw_diagram`) is set with its node labels (`LABEL_SIZE`) at the
body's size, as mermaid-js sets its 16-px labels beside 16-px text, or smaller where the
content width and the card's height hold less (larger only on a card it leaves mostly
empty, `pages/breaks/grow.py`): at its own 14 px a top-down funnel read as a column of
small print beside the text (the mixed-diagram post, 30 theme-modes). It is centred, and
painted in the theme's colours: text and muted text, the link colour for node outlines,
the code panel for node fills, and for a pie's slices and a mind map's branches series
colours made from the link and syntax colours
(`diagrams.palette`: distinct, each 3:1 from the next). The row's text (the card's alt
text) is the diagram's labels. A diagram we do not draw stays a code block, with a
one-line note under it saying why. Like a picture (`figures`), the row may be drawn
smaller to end a card, never under `FIGURE_FLOOR` of the diagram's own size in all, nor
so small that its smallest label reads under `SHRUNK_LABEL` px (`figures.label_floor`). A
sequence is never drawn under `SEQUENCE_FLOOR` at all: compact, or cut into bands, else
as the list of its steps (`seqsteps`), and past that shown as its source, said in the
quality report. A sequence whose width alone would set its labels under `LEGIBLE_LABEL`
(four to seven participants on a 440-px card) is drawn as its steps too, where they take
no more cards than its columns.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ..base.boxes import Group, Rect, Row
from ..diagrams.bands import band_span, bands, heads_at, in_strip, strips
from ..diagrams.fit import chain_in_rows, draw_in_parts, draw_to_fit
from ..diagrams.labels import LabelSetter
from ..diagrams.marks import LABEL_SIZE, SHRUNK_LABEL, Drawing, Label, fit_scale
from ..diagrams.mermaidkinds import Sequence, parse_diagram
from ..diagrams.sequences.seqsteps import layout_steps
from ..errors import DiagramError
from ..limits import DEFAULT_WIDTH
from ..parse.doc import CodeBlock, Text
from ..style.resolver import Styles
from .diagramink import painted
from .figures import (
    FIGURE_FLOOR,
    LEGIBLE_LABEL,
    figure_ceiling,
    figure_floor,
    label_floor,
    on_a_slide,
)
from .panels import code
from .parts import Ctx, Layouter, Part

# A diagram the card's height would shrink under this share of the width's scale is cut
# into bands instead, a card each, at most MAX_BANDS (a taller one is shrunk to one card):
# one that reads in rows (a sequence) soon; a graph, whose cut parts its edges, only
# where it would shrink to half.
BAND_BELOW, GRAPH_BAND_BELOW = 0.75, 0.5
MAX_BANDS = 4
STRIP_GAIN = 1.25  # a wide class or ER diagram is cut into strips for labels this much larger
SLIDE_LIKE = 0.75  # a content box less tall than this share of its width is a slide's
# A class or ER diagram this little under the floor is drawn whole (and said), not split:
# case 23 on darktech at 69.9 % (6.8 px on a phone against 6.9) was cut in two, its six
# boxes on two cards, where the whole model reads the same
PART_SLACK = 0.01
BAND_SLACK = 0.9  # of the cards' room a diagram in MAX_BANDS bands is drawn to fill
# A sequence (a drawing with `heads`) is never drawn under this share of its size (its
# 12-px labels at 8.4 px, about 7 px on a 360-px phone: the figures' floor) once it is
# compact (`fit.draw_to_fit`) and cut into bands: past it, it shows as its source
SEQUENCE_FLOOR = FIGURE_FLOOR
# A sequence drawn as its steps (`_as_steps`) may be drawn this much smaller to take a card
# fewer: 14-px labels at 12.3 px, 10 px on a 360-px phone from a 440-px card
STEPS_SHRINK = 0.88


def diagram(flow: Layouter, block: CodeBlock, ctx: Ctx, reserve: float = 0.0) -> Part:
    """The diagram scaled to the box width and the card height, less a heading chain
    above it (`reserve`) that must share its card, when that leaves it half the card. A
    diagram that would shrink to the card's height far below the width's scale is cut into
    bands at the width's scale instead, a card each (`_banded`); a class or ER diagram whose
    width would shrink it under `FIGURE_FLOOR`, into bands and strips at that floor
    (`_stripped`)."""
    setter = LabelSetter(flow.fonts, flow.styles["body"].family)
    style = flow.styles["image"]
    full = limit = flow.max_row_height
    if limit and reserve:
        limit = limit - reserve - style.margin_top if reserve < limit / 2 else limit
    try:
        drawing = draw_to_fit(flow.diagrams, block.code, setter.measure, ctx.width, limit)
    except DiagramError as error:
        return _fallback(flow, block, ctx, str(error))
    rows: list[Row] = []
    if limit and full:
        rows = _parted(flow, block, drawing, setter, ctx, (limit, full))
        rows = rows or _stripped(drawing, setter, flow.styles, ctx, limit, full)
        rows = rows or _stripped_as_written(flow, block.code, drawing, setter, ctx, limit)
        rows = rows or _chain_in_bands(flow, block.code, drawing, setter, ctx, limit)
        rows = rows or _banded_as_written(flow, block.code, drawing, setter, ctx, limit)
        rows = rows or _banded(drawing, setter, flow.styles, ctx, limit, full)
    if not rows:
        rows = [_figure(drawing, setter, flow, ctx, limit)]
    least = _least_scale(rows, 1.0)
    if drawing.heads and least < SEQUENCE_FLOOR - 1e-9:
        rows = _as_steps(flow, block.code, setter, ctx, (limit, full), least)
        if not rows:
            reason = (
                f"too wide or long for this card: its labels would be drawn at {least:.0%} of"
                f" their size, under the {SEQUENCE_FLOOR:.0%} that keeps them legible"
            )
            return _fallback(flow, block, ctx, reason, quality=True)
        least = _least_scale(rows, 1.0)
    elif drawing.heads and _too_wide(drawing, ctx.width):
        # its steps read at their own size where the columns' labels would not, on as few
        # cards: seven participants on a 440-px card set messages at 6.9 px on a phone
        steps = _as_steps(flow, block.code, setter, ctx, (limit, full), least)
        if steps and len(steps) <= len(rows):
            rows, least = steps, _least_scale(steps, 1.0)
    if least < FIGURE_FLOOR - 1e-9:  # drawn whole, smaller than its floor: said
        rows[0] = replace(rows[0], note="; ".join(filter(None, (rows[0].note, _under(least)))))
    flow.spend(rows)
    return Part(tuple(rows), style.margin_top, style.margin_bottom)


def _as_steps(
    flow: Layouter,
    source: str,
    setter: LabelSetter,
    ctx: Ctx,
    heights: tuple[float | None, float | None],
    least: float,
) -> list[Row]:
    """A sequence whose columns no card form keeps over `SEQUENCE_FLOOR` (ten participants
    on a phone: their labels at a third of their size) drawn as the list of its steps at the
    card's width (`seqsteps`), in bands where it is taller than a card; none where even the
    list would go under the floor."""
    seq = parse_diagram(source)
    if not isinstance(seq, Sequence):
        return []
    steps = layout_steps(seq, setter.measure, ctx.width)
    limit, full = heights
    rows = _banded(steps, setter, flow.styles, ctx, limit, full) if limit and full else []
    if len(rows) > 1 and limit and full:
        rows = _on_fewer_cards(flow, seq, setter, ctx, (limit, full), rows, steps.height)
    rows = rows or [_figure(steps, setter, flow, ctx, limit)]
    if _least_scale(rows, 1.0) < SEQUENCE_FLOOR:
        return []
    note = (
        f"a wide sequence drawn as a list of its steps: its {len(seq.participants)} columns"
        f" would be drawn at {least:.0%} of their size"
    )
    return [replace(rows[0], note="; ".join(filter(None, (note, rows[0].note)))), *rows[1:]]


def _on_fewer_cards(
    flow: Layouter,
    seq: Sequence,
    setter: LabelSetter,
    ctx: Ctx,
    heights: tuple[float, float],
    rows: list[Row],
    height: float,
) -> list[Row]:
    """A sequence's steps (`rows`, in bands, `height` tall in all) drawn a little smaller
    where that saves a card, at the largest of a few scales down to `STEPS_SHRINK` that
    does: balanced into three bands, a list one and a half cards long filled three cards
    half (pop-art's frame). A card's cut falls between whole steps, not where the even
    share says, so the scale that share asks may miss by a step where a smaller one does
    not (case 71: four bands at 0.95, three at 0.91)."""
    limit, full = heights
    scale = BAND_SLACK * (limit + (len(rows) - 2) * full) / height
    for each in sorted({scale, (scale + STEPS_SHRINK) / 2, STEPS_SHRINK}, reverse=True):
        if STEPS_SHRINK <= each <= scale:
            smaller = layout_steps(seq, setter.measure, ctx.width / each)
            fewer = _banded(smaller, setter, flow.styles, ctx, limit, full) or [
                _figure(smaller, setter, flow, ctx, limit)  # whole on one card
            ]
            if len(fewer) < len(rows):
                return fewer
    return rows


def _too_wide(drawing: Drawing, width: float) -> bool:
    """Whether the card's `width` alone sets a drawing's smallest label under
    `LEGIBLE_LABEL` px (`figures.label_floor`)."""
    return width / drawing.width < label_floor(_smallest_label(drawing)) - 1e-9


def _least_scale(rows: list[Row], none: float) -> float:
    """The smallest scale a drawing's rows draw it at (each row's groups); `none` for rows
    that draw none."""
    return min((g.scale for row in rows for g in row.items if isinstance(g, Group)), default=none)


def _under(scale: float) -> str:
    """The quality report's note for a diagram drawn at `scale` of its size, under the
    figures' floor (no upright form, split or band kept it over it)."""
    return (
        f"a diagram drawn at {math.floor(scale * 100)}% of its size, under the"
        f" {FIGURE_FLOOR:.0%} that"
        " keeps its labels legible: no turned, split or banded form read better"
    )


def _banded(
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


def _parted(
    flow: Layouter,
    block: CodeBlock,
    drawing: Drawing,
    setter: LabelSetter,
    ctx: Ctx,
    rooms: tuple[float, float],
) -> list[Row]:
    """A class or ER diagram that its card would shrink under `FIGURE_FLOOR` (by more than
    `PART_SLACK`) split as a model (`fit.draw_in_parts`), not shrunk past legibility nor
    cut as a picture (`_stripped`): parts, each a whole diagram of some of
    its boxes that fits a card (the first `rooms[0]` tall, the others `rooms[1]`) at
    `FIGURE_FLOOR` or over, a row each; none when it cannot be."""
    # parts of boxes no line joins are refused (`uml.parts`): case 20 at 67 % was a card
    # and one of three scraps, worse than the whole a little small
    whole = fit_scale(drawing, ctx.width, rooms[0])  # as it would be drawn: one figure
    if not drawing.wide_cut or whole >= FIGURE_FLOOR - PART_SLACK:
        return []
    cards = ctx.width * (rooms[0] + (MAX_BANDS - 1) * rooms[1])
    if drawing.width * drawing.height * FIGURE_FLOOR**2 > cards:
        return []  # more than `MAX_BANDS` cards hold at the floor: not worth the layouts

    def fits(part: Drawing, index: int) -> bool:
        return fit_scale(part, ctx.width, rooms[min(index, 1)]) >= FIGURE_FLOOR

    parts = draw_in_parts(flow.diagrams, block.code, setter.measure, fits, MAX_BANDS)
    rows = [_figure(part, setter, flow, ctx, rooms[min(i, 1)]) for i, part in enumerate(parts)]
    # the note of the form it was drawn in (turned, labels wrapped) is not the parts'
    note = f"a large diagram split into {len(parts)} parts, each whole, to keep its labels legible"
    first = replace(rows[0], text=drawing.text, note=note) if rows else None  # the whole's text
    return [first, *rows[1:]] if first else []


def _chain_in_bands(
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
    rows = _banded(in_rows, setter, flow.styles, ctx, room, full)
    return rows if _least_scale(rows, 0.0) >= STRIP_GAIN * whole else []


def _banded_as_written(
    flow: Layouter, source: str, drawing: Drawing, setter: LabelSetter, ctx: Ctx, room: float
) -> list[Row]:
    """`_banded` of a tall diagram as written where `drawing` is its left-right form
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
    rows = _banded(written, setter, flow.styles, ctx, room, flow.max_row_height or room)
    least = _least_scale(rows, 0.0)
    return rows if least >= STRIP_GAIN * whole else []


def _stripped_as_written(
    flow: Layouter, source: str, drawing: Drawing, setter: LabelSetter, ctx: Ctx, room: float
) -> list[Row]:
    """`_stripped` of the diagram as written where `drawing` is another form of it: drawn
    tight, the shop model with a note on no class left no cut in the clear of its boxes,
    where as written it had one (the budget keeps that form: no second layout). `room`:
    the first card's."""
    if not drawing.wide_cut:
        return []
    written = flow.diagrams.draw(source, setter.measure)
    if written is drawing:
        return []
    return _stripped(written, setter, flow.styles, ctx, room, flow.max_row_height or room)


def _stripped(
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


def _figure(
    drawing: Drawing, setter: LabelSetter, flow: Layouter, ctx: Ctx, limit: float | None
) -> Row:
    styles = flow.styles
    body = styles["body"].size
    scale = fit_scale(drawing, ctx.width, limit, max(1.0, body / LABEL_SIZE))
    items = tuple(item for _, item in painted(drawing, setter, styles))
    x = ctx.x + (ctx.width - drawing.width * scale) / 2
    group = Group(items, dx=x, scale=scale, labels=True)
    smallest = _smallest_label(drawing)
    return Row(
        height=drawing.height * scale,
        items=(group,),
        frames=ctx.frames,
        text=drawing.text,
        note=drawing.note,
        min_scale=figure_floor(ctx, scale, label_floor(smallest, _shrunk_label(flow, ctx))),
        max_scale=figure_ceiling(ctx, drawing.width * scale, smallest * scale, body),
        figure=True,
    )


def _shrunk_label(flow: Layouter, ctx: Ctx) -> float:
    """The least px a diagram shrunk to end a card keeps its smallest label at: a card's
    `SHRUNK_LABEL` (9 px on the phone), more on a card whose virtual width is wider than
    the default's, which a phone shows smaller (a 500x500 card: 12.2, where 11 read 7.9 px
    in 17 sets); a slide's `LEGIBLE_LABEL` (its virtual px are drawn zoomed, and at 11
    pop-art's mixed post left its title alone on a slide over the pie on the next)."""
    full = flow.max_row_height
    if full and on_a_slide(ctx.width, full):
        return LEGIBLE_LABEL
    return SHRUNK_LABEL * max(1.0, flow.card_width / DEFAULT_WIDTH)


def _smallest_label(drawing: Drawing) -> float:
    """The px of the drawing's smallest label at its own size (a chart with none: any)."""
    return min((item.text.size for item in drawing.items if isinstance(item, Label)), default=99.0)


def _fallback(
    flow: Layouter, block: CodeBlock, ctx: Ctx, reason: str, quality: bool = False
) -> Part:
    """The source as a code block, then a note in the caption style, kept whole and with
    the code (its last line alone opened a card: "are not supported"); `quality`: said in
    the card's quality report too, as a change made to fit the card."""
    part = code(flow, block, ctx)
    style = flow.styles["image"]
    lines = flow.text_lines(
        (Text(f"Mermaid diagram not drawn: {reason}"),), style, replace(ctx, color=style.color)
    )
    said = f"a diagram shown as source: {reason}" if quality else ""
    last = len(lines) - 1
    notes = [
        Row(
            height=line.height,
            items=line.items,
            frames=ctx.frames,
            text=line.text,
            note=said,
            keep_with_next=index < last,
        )
        for index, line in enumerate(lines)
    ]
    flow.spend(notes)
    rows = (*part.rows[:-1], replace(part.rows[-1], keep_with_next=True), *notes)
    return Part(rows, part.top, part.bottom)
