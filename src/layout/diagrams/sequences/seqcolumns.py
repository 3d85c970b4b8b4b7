"""Where a sequence diagram's columns go, as written or compact, and how wide its labels wrap.

Neighbouring participants stand apart by their boxes and a gap, widened where a message's
label, a note or a self-message needs the room. A compact sequence (one a card would
otherwise shrink under the legible floor: `fit.draw_to_fit`) takes a smaller gap, wraps its
participants' names (never inside one Latin word) and its labels narrower, and moves a
numbered label off its disc rather than centring it clear of it; then a label or note
across several columns wraps at the room those columns give.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..marks import LABEL_SIZE, MAX_LABEL_WIDTH, PAD_X, SMALL_SIZE, Lines, Measure
from .sequenceparse import Message, Note, Sequence

COLUMN_GAP = 36.0  # px between neighbouring heads as written
DISC = 9.0  # px: the radius of an autonumber disc (a pill for a longer number)
LOOP_W, BAR = 30.0, 10.0  # px: a self-message's loop, an activation bar's width
# px a frame reaches past the outermost columns it holds: room for an autonumber disc and
# the frame's line, and no more (60 made a six-column diagram 775 px wide, its labels 6 px
# on a card)
FRAME_MARGIN = 30.0
# compact: columns this close, names wrapped at this many em, labels at this many em and
# this much narrower than their arrow (24 px as written)
COMPACT_GAP, COMPACT_HEAD, COMPACT_LABEL, COMPACT_ROOM = 8.0, 6.0, 5.5, 10.0
COMPACT_FRAME = 22.0  # px a compact frame reaches past its columns (a disc's room)
COMPACT_PAD = 7.0  # px each side of a compact participant's name in its box


@dataclass(frozen=True, slots=True)
class Spacing:
    """The room a sequence's layout leaves, as written or compact: the gap between heads,
    a name's padding, the width labels wrap at, what a label leaves of its arrow and a
    number's disc of it, how far a numbered label moves off its disc (and up, clear of its
    top: beside it on one line, tesseract read disc and word as Latin), a frame's reach."""

    compact: bool
    gap: float
    pad: float
    label: float
    room: float
    disc_room: float
    shift: float
    frame: float
    lift: float = 0.0


def spacing(compact: bool) -> Spacing:
    """The spacing as written (mermaid-js's: a label centred clear of its disc) or compact."""
    if not compact:
        return Spacing(
            False, COLUMN_GAP, PAD_X, MAX_LABEL_WIDTH, 24.0, 2 * DISC + 4, 0.0, FRAME_MARGIN
        )
    disc = DISC + 2  # the disc's half inside the arrow, the label moved off it
    label = COMPACT_LABEL * SMALL_SIZE
    lift = DISC - 2  # the label's foot 3 px over the arrow, the disc's top DISC over it
    return Spacing(
        True, COMPACT_GAP, COMPACT_PAD, label, COMPACT_ROOM, disc, disc / 2, COMPACT_FRAME, lift
    )


def head_width(name: str, compact: bool, measure: Measure) -> float:
    """The width a participant's name wraps at: `COMPACT_HEAD` em in a compact sequence
    (never inside a Latin word: "Recommendations" stays whole), else 0.7 of a label's."""
    if not compact:
        return MAX_LABEL_WIDTH * 0.7
    return whole_words(name, LABEL_SIZE, COMPACT_HEAD * LABEL_SIZE, measure)


def whole_words(text: str, size: float, most: float, measure: Measure) -> float:
    """`most`, or the width of `text`'s widest Latin word when wider (up to a label's
    widest): a compact label wraps between words, never inside one ("Idempoten / t")."""
    words = [word for word in text.split() if word.isascii() and len(word) > 1]
    widest = max((measure(w, size, False, 4 * MAX_LABEL_WIDTH).width for w in words), default=0)
    return min(max(most, widest + 1.0), MAX_LABEL_WIDTH)


def columns(
    seq: Sequence, widths: list[float], texts: dict[int, Lines], space: Spacing
) -> list[float]:
    """Column centres: neighbours apart by their boxes and a gap, then widened where a
    message's label, a note or a self-message needs more room (shortest spans first)."""
    index = {p.id: i for i, p in enumerate(seq.participants)}
    count = len(widths)
    gaps = [(widths[i] + widths[i + 1]) / 2 + space.gap for i in range(count - 1)]
    needs: list[tuple[int, int, float]] = []
    uncreated = {i for i, p in enumerate(seq.participants) if p.created}
    for event in seq.events:
        text = texts[id(event)]
        if isinstance(event, Message):
            a, b = sorted((index[event.source], index[event.target]))
            needed = text.width + space.room + (space.disc_room if event.number is not None else 0)
            for end in {a, b} & uncreated:  # its head beside the label
                needed += widths[end] / 2
                uncreated.discard(end)
            if a == b:
                b, needed = a + 1, needed + LOOP_W + BAR
            needs.append((a, b, needed))
        elif isinstance(event, Note) and len(event.over) == 1:
            c = index[event.over[0]]
            half = text.width / 2 + PAD_X + 16
            if event.side == "right":
                needs.append((c, c + 1, 2 * half + 14))
            elif event.side == "left":
                needs.append((c - 1, c, 2 * half + 14))
            else:
                needs += [(c - 1, c, half), (c, c + 1, half)]
    for a, b, needed in sorted(needs, key=lambda n: n[1] - n[0]):
        if a < 0 or b >= count:
            continue
        have = sum(gaps[a:b])
        if have < needed:
            gaps[b - 1] += needed - have
    xs = [0.0]
    for gap in gaps:
        xs.append(xs[-1] + gap)
    return xs


def rewrap(
    seq: Sequence,
    xs: list[float],
    widths: list[float],
    texts: dict[int, Lines],
    space: Spacing,
    measure: Measure,
) -> None:
    """Compact: a note over columns, or a message's label across more than one gap, wraps
    at the room its columns give (at most `MAX_LABEL_WIDTH`), not at `space.label`."""
    index = {p.id: i for i, p in enumerate(seq.participants)}
    for event in seq.events:
        if isinstance(event, Note) and len(event.over) > 1:
            ends = [xs[index[w]] for w in event.over]
            room = abs(ends[-1] - ends[0]) + 40 - 2 * PAD_X
        elif isinstance(event, Message):
            a, b = index[event.source], index[event.target]
            if abs(a - b) < 2:
                continue
            room = abs(xs[b] - xs[a]) - space.room
            room -= space.disc_room if event.number is not None else 0.0
            room -= sum(widths[c] / 2 for c in (a, b) if seq.participants[c].created)
        else:
            continue
        if room > space.label:
            texts[id(event)] = measure(event.label, SMALL_SIZE, False, min(room, MAX_LABEL_WIDTH))
