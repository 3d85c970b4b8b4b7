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

from ..base.boxes import Group, Row
from ..diagrams.fit import draw_in_parts, draw_to_fit
from ..diagrams.labels import LabelSetter
from ..diagrams.marks import LABEL_SIZE, Drawing, Label, fit_scale
from ..diagrams.mermaidkinds import Sequence, parse_diagram
from ..diagrams.sequences.seqsteps import layout_steps
from ..errors import DiagramError
from ..parse.doc import CodeBlock, Text
from .diagramcuts import (
    BAND_SLACK,
    MAX_BANDS,
    SEQUENCE_FLOOR,
    banded,
    banded_as_written,
    chain_in_bands,
    least_scale,
    stripped,
    stripped_as_written,
)
from .diagramink import painted
from .figures import (
    FIGURE_FLOOR,
    figure_ceiling,
    figure_floor,
    in_a_slide,
    label_floor,
    shrunk_label,
)
from .panels import code
from .parts import Ctx, Layouter, Part

# A class or ER diagram this little under the floor is drawn whole (and said), not split:
# case 23 on darktech at 69.9 % (6.8 px on a phone against 6.9) was cut in two, its six
# boxes on two cards, where the whole model reads the same
PART_SLACK = 0.01
# A sequence drawn as its steps (`_as_steps`) may be drawn this much smaller to take a card
# fewer: 14-px labels at 12.3 px, 10 px on a 360-px phone from a 440-px card
STEPS_SHRINK = 0.88


def diagram(flow: Layouter, block: CodeBlock, ctx: Ctx, reserve: float = 0.0) -> Part:
    """The diagram scaled to the box width and the card height, less a heading chain
    above it (`reserve`) that must share its card, when that leaves it half the card. A
    diagram that would shrink to the card's height far below the width's scale is cut into
    bands at the width's scale instead, a card each (`banded`); a class or ER diagram whose
    width would shrink it under `FIGURE_FLOOR`, into bands and strips at that floor
    (`stripped`)."""
    setter = LabelSetter(flow.fonts, flow.styles["body"].family)
    style = flow.styles["image"]
    full = limit = flow.max_row_height
    if limit and reserve:
        limit = limit - reserve - style.margin_top if reserve < limit / 2 else limit
    try:
        slide = in_a_slide(flow, ctx)
        drawing = draw_to_fit(flow.diagrams, block.code, setter.measure, ctx.width, limit, slide)
    except DiagramError as error:
        return _fallback(flow, block, ctx, str(error))
    rows: list[Row] = []
    if limit and full:
        rows = _parted(flow, block, drawing, setter, ctx, (limit, full))
        rows = rows or stripped(drawing, setter, flow.styles, ctx, limit, full)
        rows = rows or stripped_as_written(flow, block.code, drawing, setter, ctx, limit)
        rows = rows or chain_in_bands(flow, block.code, drawing, setter, ctx, limit)
        rows = rows or banded_as_written(flow, block.code, drawing, setter, ctx, limit)
        rows = rows or banded(drawing, setter, flow.styles, ctx, limit, full)
    if not rows:
        rows = [_figure(drawing, setter, flow, ctx, limit)]
    least = least_scale(rows, 1.0)
    if drawing.heads and least < SEQUENCE_FLOOR - 1e-9:
        rows = _as_steps(flow, block.code, setter, ctx, (limit, full), least)
        if not rows:
            reason = (
                f"too wide or long for this card: its labels would be drawn at {least:.0%} of"
                f" their size, under the {SEQUENCE_FLOOR:.0%} that keeps them legible"
            )
            return _fallback(flow, block, ctx, reason, quality=True)
        least = least_scale(rows, 1.0)
    elif drawing.heads and _too_wide(drawing, ctx.width):
        # its steps read at their own size where the columns' labels would not, on as few
        # cards: seven participants on a 440-px card set messages at 6.9 px on a phone
        steps = _as_steps(flow, block.code, setter, ctx, (limit, full), least)
        if steps and len(steps) <= len(rows):
            rows, least = steps, least_scale(steps, 1.0)
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
    rows = banded(steps, setter, flow.styles, ctx, limit, full) if limit and full else []
    if len(rows) > 1 and limit and full:
        rows = _on_fewer_cards(flow, seq, setter, ctx, (limit, full), rows, steps.height)
    rows = rows or [_figure(steps, setter, flow, ctx, limit)]
    if least_scale(rows, 1.0) < SEQUENCE_FLOOR:
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
            fewer = banded(smaller, setter, flow.styles, ctx, limit, full) or [
                _figure(smaller, setter, flow, ctx, limit)  # whole on one card
            ]
            if len(fewer) < len(rows):
                return fewer
    return rows


def _too_wide(drawing: Drawing, width: float) -> bool:
    """Whether the card's `width` alone sets a drawing's smallest label under
    `LEGIBLE_LABEL` px (`figures.label_floor`)."""
    return width / drawing.width < label_floor(_smallest_label(drawing)) - 1e-9


def _under(scale: float) -> str:
    """The quality report's note for a diagram drawn at `scale` of its size, under the
    figures' floor (no upright form, split or band kept it over it)."""
    return (
        f"a diagram drawn at {math.floor(scale * 100)}% of its size, under the"
        f" {FIGURE_FLOOR:.0%} that"
        " keeps its labels legible: no turned, split or banded form read better"
    )


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
    cut as a picture (`stripped`): parts, each a whole diagram of some of
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
    # a drawing grown past its own size shrinks back no further than its labels allow: at
    # its own size the git graph's 12-px labels read 8.8 px on a phone from a square card
    floor = shrunk_label(flow, ctx)
    least = max(label_floor(smallest, floor), floor / smallest)
    return Row(
        height=drawing.height * scale,
        items=(group,),
        frames=ctx.frames,
        text=drawing.text,
        note=drawing.note,
        min_scale=figure_floor(ctx, scale, least),
        max_scale=figure_ceiling(ctx, drawing.width * scale, smallest * scale, body),
        figure=True,
    )


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
