"""Mermaid source → a `Drawing`, under a per-post budget: the door cards and articles use.

One post may hold many diagrams: each is bounded by the parser (`mermaid.MAX_SOURCE`,
`MAX_NODES`, `MAX_EDGES`) and by the steps its layout would take (`cost.DIAGRAM_STEPS`),
and the post as a whole by `DiagramBudget` (a count of diagrams and of steps, never of
seconds: the same post gets the same answer on every machine); a diagram past a bound falls
back to its source at once, as one that does not parse does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from ..errors import DiagramError
from .charts.pie import legend_gain
from .cost import DIAGRAM_STEPS, FORMS_STEPS, POST_STEPS, diagram_steps
from .forms import draw_record
from .marks import LABEL_SIZE, SHRUNK_LABEL, Drawing, Lines, Measure, fit_scale
from .mermaid import Flowchart
from .mermaidkinds import Diagram, parse_diagram
from .snake import Chain, best_rows, chain
from .snake import wrapped as wrapped_chain
from .statecharts.mermaidstate import StateChart
from .statecharts.statechain import state_chain
from .uml.mermaidclass import ClassDiagram
from .uml.mermaider import ErDiagram
from .uml.parts import split

Slot = tuple[float, float]  # a width and a height to fit
POST_DIAGRAMS = 40  # diagrams of one post drawn; past it they show as source
# A long chain a card cuts into bands between its rows is wrapped into the fewest rows
# that fit the card's width at this share of its size (its 14-px labels at 11 px or more):
# thirty steps on a 440-px card in rows of three at 0.88, two cards, where rows at 0.9 or
# more took fourteen rows of two, three cards. Not a round 0.8: brandC's and minimal's
# Japanese review flow fit in rows at 0.798 (11.2 px labels) and stood as a column on a
# card of its own, the post three cards where every other theme set one.
ROWS_SCALE = SHRUNK_LABEL / LABEL_SIZE
TURN_GAIN = 1.25  # a flowchart or state chart is turned when that shrinks it this much less
# A chain turned upright that stands over this share of its card's height is wrapped into
# rows instead (`_rows_over_column`) where they stand under `SHORTER_ROWS` of its height: a
# column that tall takes a card of its own, rows as wide as the card flow with the text
TALL_UPRIGHT = 0.5
SHORTER_ROWS = 0.5
NARROW_LABEL = 7.0  # em: a shrinking diagram's long labels wrap at this width instead
WRAP_GAIN = 1.08  # ... when that shrinks it this much less
ANY_LARGER = 1.0 + 1e-9  # a form that draws a diagram under the floor larger at all
# A sequence the width would shrink under this share of its size (the figures' floor, as
# `blocks.figures.FIGURE_FLOOR`) is drawn compact: columns closer, names wrapped narrower
COMPACT_BELOW = 0.7


def draw_to_fit(
    budget: DiagramBudget,
    source: str,
    measure: Measure,
    width: float,
    height: float | None,
    slide: bool = False,
) -> Drawing:
    """The diagram as written; or, where a wide one (a left-right flowchart, a two-sided mind
    map) must shrink to fit `width` (x `height`: a portrait card, a phone's column), its
    upright form (top-down; one-sided) when that keeps its labels `_worth` times larger
    (`TURN_GAIN`; less for one under the floor); and where a tall one (a top-down flowchart
    or state chart) must shrink to fit `height` more than `width` (a chain on a slide), its
    left-right form on the same terms.
    A chart made for a wide screen reads on a phone, one made for a phone reads on a slide,
    instead of shrinking to small print; nodes, edges and labels are the author's. A class
    or ER diagram that would shrink under `COMPACT_BELOW` is drawn tight (the same form:
    layers and boxes closer) where that draws it larger. Then, if it still shrinks, its long
    labels wrapped at `NARROW_LABEL` em (as mermaid-js wraps them at 200 px) when that
    keeps them `WRAP_GAIN` times larger: a narrower chart is a larger one on a card.
    A gantt's wide form is weighed on a `slide` only (`_bands_instead`)."""
    drawing = budget.draw(source, measure)
    if drawing.legend and height is not None:
        drawing = _wide_legend(budget, source, measure, drawing, (width, height))
    if fit_scale(drawing, width, height) >= 1.0:
        return drawing
    upright = False
    turns = drawing.across or _height_bound(drawing, width, height)
    if turns and not _bands_instead(drawing, slide):
        turned = _other_form(budget, source, measure, True, False)
        gain = _gain(turned, drawing, width, height) if turned else 0.0
        if turned and gain >= _worth(drawing, width, height):
            form = "a wide diagram drawn upright" if drawing.across else _LEFT_RIGHT
            form = _BESIDE if drawing.rows and drawing.tall else form  # a gantt
            note = f"{form} to fit the card: its labels {gain:.2f}x larger"
            drawing, upright = replace(turned, note=note), True
    snaked = _snaked(budget, source, measure, drawing, width, height)
    if snaked is not None:
        return snaked
    if upright and height is not None and drawing.height > TALL_UPRIGHT * height:
        rows = _rows_over_column(budget, source, measure, drawing, width)
        if rows is not None:
            return rows
    if not upright and drawing.wide_cut and fit_scale(drawing, width, height) < COMPACT_BELOW:
        tight = _other_form(budget, source, measure, True, False)
        if tight is not None and _gain(tight, drawing, width, height) > 1.0:
            note = "a large diagram drawn tight (layers and boxes closer) to fit the card"
            drawing, upright = replace(tight, note=note), True
    if fit_scale(drawing, width, height) >= 1.0:
        return drawing
    narrow = _other_form(budget, source, _narrow(measure), upright, True)
    if narrow is not None and _gain(narrow, drawing, width, height) >= WRAP_GAIN:
        wrapped = "long diagram labels wrapped to fit the card"
        drawing = replace(narrow, note="; ".join(n for n in (drawing.note, wrapped) if n))
    return _compact(budget, source, measure, drawing, width)


def _wide_legend(
    budget: DiagramBudget, source: str, measure: Measure, drawing: Drawing, slot: Slot
) -> Drawing:
    """A pie whose slot its height binds (a slide under its title) with its legend set
    larger beside it (`charts.pie.legend_gain`) where that sets its smallest label
    `TURN_GAIN` times larger: the slot's spare width goes to the legend's type."""
    wide = _other_form(budget, source, measure, True, False)
    gain = legend_gain(drawing, wide, *slot) if wide is not None else 0.0
    if wide is None or gain < TURN_GAIN:
        return drawing
    note = f"a chart's legend set larger beside it to fit the card: its labels {gain:.2f}x larger"
    return replace(wide, note=note)


def _compact(
    budget: DiagramBudget, source: str, measure: Measure, drawing: Drawing, width: float
) -> Drawing:
    """A sequence (the kind with `heads`) that `width` would shrink under `COMPACT_BELOW`:
    its labels wrapped narrow when that is enough (a card cuts a tall one into bands, so
    only its width counts), else its compact form (the upright one, for a sequence: it
    wraps its own labels) when that keeps its labels `WRAP_GAIN` times larger; else
    `drawing`."""
    if not drawing.heads or fit_scale(drawing, width, None) >= COMPACT_BELOW:
        return drawing
    narrow = _other_form(budget, source, _narrow(measure), False, True)
    if narrow is not None and fit_scale(narrow, width, None) >= COMPACT_BELOW:
        wrapped = "long diagram labels wrapped to fit the card"  # enough: not compact
        return replace(narrow, note="; ".join(n for n in (drawing.note, wrapped) if n))
    compact = _other_form(budget, source, measure, True, False)
    if compact is None or _gain(compact, drawing, width, None) < WRAP_GAIN:
        return drawing
    note = "a wide sequence drawn compact (names wrapped, columns closer) to fit the card"
    return replace(compact, note=note)


_LEFT_RIGHT = "a tall diagram drawn left to right"
_BESIDE = "a chart's sections set beside a wider plot"


def _snaked(
    budget: DiagramBudget,
    source: str,
    measure: Measure,
    drawing: Drawing,
    width: float,
    height: float | None,
) -> Drawing | None:
    """A chain (`snake.chain`: a flowchart's; `statecharts.statechain`: a state chart's)
    that its card's height does not bound (a card, not an article's column) and that left
    to right would still shrink: wrapped into the rows (`snake.best_rows`) that keep its
    labels `_worth` times larger than `drawing`'s, and at the figures' floor
    (`COMPACT_BELOW`) or over where `drawing` is top-down (as written, or turned upright):
    a card cuts that into bands at its size (a chain too long for one card; one written
    top-down and turned, `blocks.diagramcuts.banded_as_written` weighs); else None. Its rows
    are drawn as other forms of it, under the post's steps."""
    if height is None or fit_scale(drawing, width, height) >= 1.0:
        return None
    chained = _chain_and_strip(budget, source, measure)
    if chained is None:
        return None
    found, strip = chained
    banded = drawing.tall  # the upright form kept: a card cuts it into bands at its size

    def fit(w: float, h: float) -> float:
        return min(1.0, width / w, height / h)

    rows = best_rows(strip, found.steps, fit)
    draw = _row_drawer(budget, source, measure)

    # the estimate is near, not exact (rows split the steps unevenly): its neighbours drawn
    # too, the largest kept (30 steps on a slide, 456x200: 6 rows estimated, 0.47; 5: 0.51)
    tries = [rows + step for step in (0, -1, 1) if 2 <= rows + step <= found.steps // 2]
    # each count of rows with its links back kept in a row, and with one across a break
    # where that parts the rows more evenly (`snake.wrapped`); the first of equals kept
    drawn = [
        (w, n)
        for n in tries
        for across in (False, True)
        if (w := wrapped_chain(found, n, draw, across)) is not None
    ]
    if not drawn:
        return None
    wrapped, rows = max(drawn, key=lambda pair: (fit(pair[0].width, pair[0].height), -pair[1]))
    gain = _gain(wrapped, drawing, width, height)
    if gain < _worth(drawing, width, height) or (
        fit_scale(wrapped, width, height) < COMPACT_BELOW and banded
    ):
        return None
    note = f"a long chain wrapped into {rows} rows to fit the card: its labels {gain:.2f}x larger"
    return replace(wrapped, text=strip.text, note=note)


def _rows_over_column(
    budget: DiagramBudget, source: str, measure: Measure, column: Drawing, width: float
) -> Drawing | None:
    """A left-right chain turned upright into a `column` over `TALL_UPRIGHT` of its card,
    wrapped instead into rows as wide as the card at `ROWS_SCALE` or more (`chain_in_rows`)
    where they stand under `SHORTER_ROWS` of its height: the Japanese post's six-step
    review flow stood 484 px tall on a 440x586 card, alone on a card of its own between a
    title card a quarter full and a last card under half; in two rows it is 161 px and the
    post is one card. The rows are one figure (no card cuts between them)."""
    rows = chain_in_rows(budget, source, measure, width)
    if rows is None or rows.height * fit_scale(rows, width, None) > SHORTER_ROWS * column.height:
        return None
    note = rows.note.replace("at its size", "as wide as the card")
    note = f"{note}: upright it stood {column.height:.0f} px tall"
    return replace(rows, note=note, rows=False)


def chain_in_rows(
    budget: DiagramBudget, source: str, measure: Measure, width: float
) -> Drawing | None:
    """A chain (`_chain`) wrapped into the fewest rows that fit `width` at `ROWS_SCALE` of
    its size or more, read in rows (`Drawing.rows`): a card too short for it cuts it into
    bands between rows, a card each (`blocks.diagram`), where drawn to fit one card it
    would shrink; None for a diagram that is no chain, or one no count of rows fits."""
    chained = _chain_and_strip(budget, source, measure)
    if chained is None:
        return None
    found, strip = chained
    draw = _row_drawer(budget, source, measure)
    # the strip's width over the card's is near the count (rows split the steps unevenly)
    guess = max(2, math.ceil(strip.width * ROWS_SCALE / width))
    for rows in range(max(2, guess - 1), min(guess + 3, found.steps // 2) + 1):
        for across in (False, True):  # a link back kept in a row first (`snake.wrapped`)
            drawn = wrapped_chain(found, rows, draw, across)
            if drawn is not None and width >= ROWS_SCALE * drawn.width:
                note = f"a long chain wrapped into {rows} rows at its size"
                return replace(drawn, text=strip.text, note=note, rows=True)
    return None


def _chain_and_strip(
    budget: DiagramBudget, source: str, measure: Measure
) -> tuple[Chain[Flowchart | StateChart], Drawing] | None:
    """The diagram as one chain to wrap, and its left-right form (as written, or turned):
    None where it is no chain or has no such form."""
    found = _chain(parse_diagram(source), measure)
    if found is None:
        return None
    written = budget.draw(source, measure)
    strip = written if written.across else _other_form(budget, source, measure, True, False)
    return (found, strip) if strip is not None and strip.across else None


def _row_drawer(
    budget: DiagramBudget, source: str, measure: Measure
) -> Callable[[Flowchart | StateChart], Drawing | None]:
    """How a chain's row (some of its steps) is drawn: as written, its steps spent once
    (`DiagramBudget.draw_row`); None past the post's steps."""

    def draw(part: Flowchart | StateChart) -> Drawing | None:
        try:
            return budget.draw_row(source, part, measure)
        except DiagramError:
            return None

    return draw


def _chain(diagram: Diagram, measure: Measure) -> Chain[Flowchart | StateChart] | None:
    """The diagram as one chain to wrap, where it is a flowchart's or a state chart's."""
    if isinstance(diagram, Flowchart):
        return chain(diagram, measure)
    return state_chain(diagram, measure) if isinstance(diagram, StateChart) else None


def _height_bound(drawing: Drawing, width: float, height: float | None) -> bool:
    """Whether `drawing` is a tall one (`Drawing.tall`) that `height` shrinks more than
    `width` does: only then may its left-right form, wider and shorter, read larger (an
    article's column, of no height, never turns one)."""
    return drawing.tall and height is not None and height * drawing.width < width * drawing.height


def _bands_instead(drawing: Drawing, slide: bool) -> bool:
    """Whether `drawing` is a gantt (`Drawing.rows` and `tall`: its portrait form) off a
    slide: a card cuts it into bands between its rows, a card each, at its labels' size
    (`blocks.diagramcuts.banded`), and its wide form, set for a slide (`timecharts.gantt`),
    would draw a portrait card's chart smaller, whole: the 16-task Q3 roadmap on a 440x586
    card at 8.1 px on a phone where its two bands read at 9.8. On a slide a band is a strip,
    the title and one section on a slide of its own (rated 2/5)."""
    return drawing.rows and drawing.tall and not slide


def _other_form(
    budget: DiagramBudget, source: str, measure: Measure, upright: bool, narrow: bool
) -> Drawing | None:
    """Another form of a diagram already drawn; None when the post's steps do not cover it
    (the diagram then stays as written)."""
    try:
        return budget.draw(source, measure, upright, narrow)
    except DiagramError:
        return None


def _worth(drawing: Drawing, width: float, height: float | None) -> float:
    """How many times larger another form (turned, wrapped into rows) must draw a diagram
    than `drawing` for it to be kept: `TURN_GAIN`, the author's form first; where `drawing`
    falls under the figures' floor (`COMPACT_BELOW`) as it stands, any larger form reads
    better. The Japanese post's review flow on a 1600x900 slide, under its title and lead,
    was one strip at 61-64 % in eight theme-modes where its two rows drew it at 69-79 %."""
    return TURN_GAIN if fit_scale(drawing, width, height) >= COMPACT_BELOW else ANY_LARGER


def _gain(drawing: Drawing, than: Drawing, width: float, height: float | None) -> float:
    return fit_scale(drawing, width, height) / fit_scale(than, width, height)


def _narrow(measure: Measure) -> Measure:
    def narrow(text: str, size: float, bold: bool, max_width: float) -> Lines:
        return measure(text, size, bold, min(max_width, NARROW_LABEL * size))

    return narrow


def draw_in_parts(
    budget: DiagramBudget,
    source: str,
    measure: Measure,
    fits: Callable[[Drawing, int], bool],
    most: int,
) -> list[Drawing]:
    """A class or ER diagram as at most `most` parts, each a whole diagram that `fits` (the
    part's drawing, its index) a card (`uml.parts.split`), under the post's `budget`; none
    when it is another kind or cannot be so split."""
    diagram = parse_diagram(source)
    if not isinstance(diagram, ClassDiagram | ErDiagram):
        return []

    def draw(part: Diagram, index: int) -> Drawing | None:
        try:
            drawing = budget.draw_part(source, part, measure)
        except DiagramError:
            return None
        return drawing if fits(drawing, index) else None

    return split(diagram, draw, most)


class DiagramBudget:
    """One post's allowance of diagrams: each drawn in the order asked while the count of
    diagrams (`POST_DIAGRAMS`) and of layout steps (`POST_STEPS`) last, a diagram whose
    own steps pass `DIAGRAM_STEPS` never. The steps are counted from the parsed diagram
    before it is laid out (`cost.diagram_steps`), so the answer never depends on the
    machine's speed or load, and a refused diagram costs no layout. The same source asked
    again gives the same answer for nothing. A diagram counts once against the count of
    diagrams; each of its forms that `draw_to_fit` tries (upright, narrow labels) spends
    its steps, all of them together at most `FORMS_STEPS` (past it, the forms drawn stand)."""

    def __init__(self, diagrams: int = POST_DIAGRAMS, steps: int = POST_STEPS) -> None:
        self._diagrams, self._steps = diagrams, steps
        self._answers: dict[tuple[str, bool, bool], Drawing | DiagramError] = {}
        self._counted: set[str] = set()  # a diagram counts once, however many forms it tries
        self._spent: dict[str, int] = {}  # steps each diagram's forms spent
        self._rows: dict[tuple[str, Diagram], Drawing | DiagramError] = {}  # chains' rows

    def draw(
        self, source: str, measure: Measure, upright: bool = False, narrow: bool = False
    ) -> Drawing:
        """The drawing of `source` (`narrow`: `measure` wraps labels narrower; the answer
        is kept under that name)."""
        key = (source, upright, narrow)
        if key not in self._answers:
            self._answers[key] = self._draw(source, measure, upright)
        answer = self._answers[key]
        if isinstance(answer, DiagramError):
            raise answer
        return answer

    def draw_part(self, source: str, part: Diagram, measure: Measure) -> Drawing:
        """The drawing of `part`, a part of the diagram `source` already drawn (`uml.parts`),
        upright, its steps spent as another form of it; `DiagramError` past the steps."""
        answer = self._draw(source, measure, True, part)
        if isinstance(answer, DiagramError):
            raise answer
        return answer

    def draw_row(self, source: str, row: Flowchart | StateChart, measure: Measure) -> Drawing:
        """The drawing of `row`, some steps of the chain `source` (`snake`), as written,
        its steps spent once as another form of it (each card's height asks again);
        `DiagramError` past the steps."""
        key = (source, row)
        if key not in self._rows:
            self._rows[key] = self._draw(source, measure, False, row)
        answer = self._rows[key]
        if isinstance(answer, DiagramError):
            raise answer
        return answer

    def _draw(
        self, source: str, measure: Measure, upright: bool, part: Diagram | None = None
    ) -> Drawing | DiagramError:
        new = source not in self._counted
        if new and self._diagrams <= 0:
            return DiagramError("too many diagrams in one post: shown as source")
        try:
            diagram = part if part is not None else parse_diagram(source)
            steps = diagram_steps(diagram)
        except DiagramError as error:
            return error
        if steps > DIAGRAM_STEPS:
            return DiagramError(
                f"too large to lay out ({steps:,} steps, at most {DIAGRAM_STEPS:,}):"
                " simplify the diagram"
            )
        if steps > self._steps:
            return DiagramError("the post's diagrams used up their layout steps: shown as source")
        if self._spent.get(source, 0) + steps > FORMS_STEPS:
            return DiagramError("no steps left for another form of this diagram")
        self._spent[source] = self._spent.get(source, 0) + steps
        if new:
            self._counted.add(source)
            self._diagrams -= 1
        self._steps -= steps
        try:
            return draw_record(diagram, measure, upright)
        except DiagramError as error:
            return error
