"""A card's rows taller than the card → the same rows made to fit, and what that costs the
page breaker (pagebreaks.py), in one order: a table's rows set tight (all of a card's at
once: a table half tight reads uneven), then its figures drawn smaller (each giving the same
share of what it may), then its gaps shrunk, then its panels' padding, each just enough.
A card that ends on a box gives its gaps, as far as they may, to keep `FOOT_AIR` under it.
"""

from __future__ import annotations

from dataclasses import replace

from ...base.boxes import Frame, Row
from ...base.placing import EPSILON, drawn, place
from .breakrules import opens_section

SQUEEZED = 0.1  # a card whose gaps are shrunk
TIGHT = 0.1  # a card's table rows set tight (all of them, or the table reads uneven)
SET_TIGHT = "table rows set tight"  # what the quality report hears of it (`Row.note`)
SHRUNK = 0.15  # figures drawn at their floor: the badness of a card 61 % full
# A card whose last row sits in a box (a quote's panel, a code block, a table, a callout)
# keeps this much air under it, its gaps giving it where the card is full: a text line
# carries its half-leading under its glyphs, a box's edge none, so a quote box ending a
# card sat 6 px over brandA's footer rule where a paragraph's last line sat 15 (thirteenth
# look: "the closing quote box runs down onto the footer band", rated 4 in brandA, brandB
# and meadow-dawn). The virtual card's px, about half the body's em; a browser keeps the
# box's margin there, inside the card's padding. The breaks do not move for it: a post a
# card holds is not given a second for 8 px, so the gaps give at most `AIR_GIVES` of
# themselves and a card with too few keeps less air.
FOOT_AIR = 8.0
AIR_GIVES = 0.5
# A squeezed card's gap above a heading gives this share of what its other gaps give of
# themselves: shrunk alike, fairytale's and brandB's headings on the English habits' card 2
# at 500x500 sat as near the paragraph above as their own ("h2s squeezed close to the
# preceding text", twelfth look), and the card read as one block.
OPENER_GIVES = 0.5


def fitted(page: list[Row], height: float, tight: bool, squeeze: float = 0.0) -> list[Row]:
    """`page`, if taller than `height`, fitted as `price_to_fit` prices it: its table rows
    set tight (with `tight`: in the squeezed pass), then its figures drawn smaller, then
    its gaps shrunk, each just enough; with `squeeze` (the squeezed pass's bound), gaps
    give at most that share, and its panels' padding the rest, up to that share too.
    Where its gaps alone can give what it is over within that bound, they do, and its
    table rows keep their padding: set tight all at once, brandC's FAQ table gave 55 px
    for a card a few px over and left it 15 % empty with its rows crammed."""
    over = place(page).height - height
    if over <= EPSILON or len(page) < 2:
        return page
    gaps = sum(row.gap for row in page[1:])  # neither tight rows nor figures change them
    gaps_do = squeeze > 0 and over <= squeeze * gaps
    if tight and _has_tight(page) and not gaps_do:  # a table's, all together
        page = _set_tight(page)
        over = place(page).height - height
        if over <= EPSILON:
            return page
    give = sum(row.height * (1.0 - row.min_scale) for row in page)
    taken = min(over, give)
    if taken > 0:  # each figure gives the same share of what it may
        share = taken / give
        page = [_shrunk(row, share) if row.min_scale < 1.0 else row for row in page]
    left = over - taken
    if left <= EPSILON:
        return page
    pads = {f.id: f.pad_top + f.pad_bottom for row in page for f in row.frames}
    padding = sum(pads.values())
    cut = min(left, squeeze * gaps) if squeeze > 0 and padding > 0 else left
    if gaps > 0:
        page = _gaps_shrunk(page, min(cut, gaps))
        left -= cut
    if left <= EPSILON or padding <= 0 or squeeze <= 0:
        return page
    return _padded(page, max(1.0 - squeeze, 1.0 - left / padding))


def aired(page: list[Row], height: float) -> list[Row]:
    """`page` (a card `height` tall) with its gaps shrunk, each alike (`_gaps_shrunk`), to
    keep `FOOT_AIR` under the box its last row sits in, as far as `AIR_GIVES` allows."""
    if len(page) < 2 or not any(drawn(frame.decor) for frame in page[-1].frames):
        return page
    over = place(page).height - (height - FOOT_AIR)
    gaps = sum(row.gap for row in page[1:])
    return _gaps_shrunk(page, min(over, AIR_GIVES * gaps)) if over > EPSILON else page


def _gaps_shrunk(page: list[Row], cut: float) -> list[Row]:
    """`page` with `cut` px taken from its gaps (at most all of them): the gap above a
    section (`opens_section`) gives `OPENER_GIVES` of what another gives of itself, and
    only once the others have given all, the rest alike."""
    rows = page[1:]
    weights = [OPENER_GIVES if opens_section(row) else 1.0 for row in rows]
    rows, left = _given(rows, weights, cut)
    rows, _ = _given(rows, [1.0] * len(rows), left)
    return [page[0], *rows]


def _given(rows: list[Row], weights: list[float], cut: float) -> tuple[list[Row], float]:
    """`rows` with up to `cut` px taken from their gaps, each in proportion to itself and
    its weight and at most that share of itself; and what is left of `cut`."""
    give = sum(row.gap * weight for row, weight in zip(rows, weights, strict=True))
    if cut <= EPSILON or give <= 0:
        return rows, cut
    share = min(1.0, cut / give)
    given = [
        replace(row, gap=row.gap * (1.0 - share * weight)) if row.gap else row
        for row, weight in zip(rows, weights, strict=True)
    ]
    return given, cut - share * give


def _padded(page: list[Row], keep: float) -> list[Row]:
    """`page` with its frames' padding at `keep` of itself (every row of a frame alike)."""
    frames: dict[int, Frame] = {}
    for row in page:
        for f in row.frames:
            frames.setdefault(
                f.id, replace(f, pad_top=f.pad_top * keep, pad_bottom=f.pad_bottom * keep)
            )
    return [replace(row, frames=tuple(frames[f.id] for f in row.frames)) for row in page]


def tight_alike(before: list[list[Row]], after: list[list[Row]]) -> list[list[Row]]:
    """The fitted cards `after` (the cards `before` fitting), a table's rows set tight on
    every card where one card set them so: a table split over cards set 31-px rows on the
    card it had to end and 43-px rows on the next, and read as two tables (the long table
    at 500x500, 24 theme-modes; issue 41). Other tables keep their rows."""
    tables = {
        row.source[:1]
        for was, now in zip(before, after, strict=True)
        if _has_tight(was) and not _has_tight(now)
        for row in was
        if row.tight is not None and row.source
    }
    if not tables:
        return after
    return [_set_tight(page, ALIKE, tables) if _has_tight(page) else page for page in after]


ALIKE = f"{SET_TIGHT} as on the card the table had to end"


def _has_tight(page: list[Row]) -> bool:
    return any(row.tight is not None for row in page)


def _set_tight(
    page: list[Row],
    said: str = f"{SET_TIGHT} to end the card",
    tables: set[tuple[tuple[str, int], ...]] | None = None,
) -> list[Row]:
    """`page` with its rows that have a tight form (a table's) in that form, the quality
    report told so (`said`) once; with `tables`, only the rows of those tables (their
    top-level block) and a header repeated over them."""
    out, told = [], False
    header = tables is None or _continues(page, tables)  # a header repeated over them
    for row in page:
        # a row of no block is a header repeated over a table's rows
        own = (tables is None or row.source[:1] in tables) if row.source else header
        if row.tight is None or not own:
            out.append(row)
            continue
        note = row.note if told else "; ".join(filter(None, (row.note, said)))
        tight = row.tight
        out.append(
            replace(
                row,
                height=tight.height,
                items=tight.items,
                baseline=tight.baseline,
                note=note,
                tight=None,
            )
        )
        told = True
    return out


def _continues(page: list[Row], tables: set[tuple[tuple[str, int], ...]]) -> bool:
    """Whether the card's first table rows are of one of `tables` (a repeated header's)."""
    first = next((row for row in page if row.tight is not None and row.source), None)
    return first is not None and first.source[:1] in tables


def _shrunk(row: Row, share: float) -> Row:
    """`row` drawn at its share of the way to its floor, the quality report told so."""
    scale = 1.0 - (1.0 - row.min_scale) * share
    said = f"figure drawn at {scale:.0%} of its size to end the card"
    return replace(row, scale=scale, note="; ".join(filter(None, (row.note, said))))


def price_to_fit(over: float, give: float, tight: float) -> float:
    """What a card `over` its height pays to fit, in the order `fitted` fits it: its
    table rows set tight (`tight` of the `give`), all at once, at `TIGHT`; its figures
    giving up to the rest, at `SHRUNK` for all of it, in proportion; gaps shrunk for what
    is left, `SQUEEZED`."""
    price = TIGHT if tight > 0 else 0.0
    over -= tight
    figures = give - tight
    taken = min(max(over, 0.0), figures)
    price += SHRUNK * taken / figures if taken > 0 else 0.0
    return price + (SQUEEZED if over - taken > EPSILON else 0.0)
