"""A user journey record + a label `Measure` → its `Drawing`: a row per task, scored on a scale.

mermaid-js sets the tasks side by side with each score as a face's height: on a portrait
card that row of boxes shrinks to small print. Here each task is a row, as a list reads
on a phone: its name on a white card (its actors' dots beside it), its score a face on a
1-5 scale to the right (smiling at 4 and 5, straight at 3, frowning below), the faces
joined by a dashed line so the mood reads as a curve turned on its side. Sections are
tinted bands in series colours; the actors' legend above takes its own series colours.
"""

from __future__ import annotations

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
    Op,
    circle_ops,
    finish,
    rect_ops,
    tint,
)
from .mermaidtime import Journey, Step

SCORE_STEP = 30.0  # px between two scores on the scale
FACE = 9.0  # px: a face's radius
ACTOR_DOT = 4.0  # px: an actor's dot
DOT_STEP = 2 * ACTOR_DOT + 3  # px from one actor's dot to the next
DOTS_GAP = 6.0  # px from a task's card to its actors' dots
MAX_DOTS = 6  # actors' dots by one task; the legend names any more
ROW_GAP = 5.0  # px between task rows
BAND_PAD = 6.0  # px of a section's band round its rows
TASK_WIDTH = MAX_LABEL_WIDTH  # px: a task's name wraps past it
CARD_PAD = PAD_Y - 2  # px above and below a task's name on its card


def layout_journey_rows(chart: Journey, measure: Measure) -> Drawing:
    """A row per task, its score a face on a 1-5 scale across: the upright form."""
    texts = [measure(s.label, SMALL_SIZE + 1, False, TASK_WIDTH - 2 * PAD_X) for s in chart.steps]
    card_w = max(t.width for t in texts) + 2 * PAD_X
    dots = min(MAX_DOTS, max(len(s.actors) for s in chart.steps)) * DOT_STEP
    scale_x = card_w + DOTS_GAP + dots + 16 + FACE  # score 1
    right = scale_x + 4 * SCORE_STEP + FACE + BAND_PAD
    items: list[Mark | Label] = []
    y = 0.0
    if chart.title:
        title = measure(chart.title, LABEL_SIZE + 1, True, right)
        items.append(Label(title, 0.0, 0.0, "text", "left"))
        y = title.height + 8
    y = legend(items, chart, measure, y, right) + 6
    scale_top = y
    for score in range(1, 6):
        number = measure(str(score), SMALL_SIZE, False, 40)
        items.append(Label(number, scale_x + (score - 1) * SCORE_STEP, y, "muted"))
    y += SMALL_SIZE * 1.4 + 4
    bands: list[Mark | Label] = []
    rows: list[Mark | Label] = []
    faces: list[tuple[float, float, int]] = []
    last = -2
    band_top = y
    for step, text in zip(chart.steps, texts, strict=True):
        if step.section != last:
            if last >= 0:
                bands.append(_band(last, band_top, y - ROW_GAP + BAND_PAD, right))
                y += BAND_PAD + 4
            band_top = y
            if step.section >= 0:
                y = _section_head(rows, measure, chart.sections[step.section], y + BAND_PAD, right)
            last = step.section
        y, centre = _row(rows, chart, step, text, card_w, y)
        faces.append((scale_x + (step.score - 1) * SCORE_STEP, centre, step.score))
        y += ROW_GAP
    if last >= 0:
        bands.append(_band(last, band_top, y - ROW_GAP + BAND_PAD, right))
    grid = _grid(scale_x, scale_top + SMALL_SIZE * 1.4 + 2, y)
    mood = mood_line(faces)
    face_marks = [mark for x, cy, score in faces for mark in face(x, cy, score)]
    drawn = [*bands, *grid, *rows, *mood, *face_marks, *items]
    return finish(drawn, "\n".join(chart.labels()))


def legend(
    items: list[Mark | Label], chart: Journey, measure: Measure, y: float, right: float
) -> float:
    """The actors, each a dot in its series colour and its name, in rows as wide as the
    chart; where the legend ends."""
    x, height = 0.0, 0.0
    for index, actor in enumerate(chart.actors):
        text = measure(actor, SMALL_SIZE, False, MAX_LABEL_WIDTH)
        width = 2 * ACTOR_DOT + 6 + text.width
        if x and x + width > right:
            x, y, height = 0.0, y + height + 4, 0.0
        dot = circle_ops(x + ACTOR_DOT, y + text.height / 2, ACTOR_DOT)
        items.append(Mark(dot, None, actor_colour(index)))
        items.append(Label(text, x + 2 * ACTOR_DOT + 6, y, "text", "left"))
        x, height = x + width + 14, max(height, text.height)
    return y + height


def actor_colour(index: int) -> str:
    """An actor's series colour, by its place in the legend."""
    return f"series{index}"


def _section_head(
    items: list[Mark | Label], measure: Measure, name: str, y: float, right: float
) -> float:
    text = measure(name, SMALL_SIZE, True, right - 2 * BAND_PAD)
    items.append(Label(text, BAND_PAD, y, "text", "left"))
    return y + text.height + 4


def _band(section: int, top: float, bottom: float, right: float) -> Mark:
    """A section's tinted band round its heading and rows."""
    ops = rect_ops(-BAND_PAD, top, right + BAND_PAD, bottom - top, 6)
    return Mark(ops, None, section_colour(section))


def section_colour(section: int) -> str:
    """A section's tint: series colours from the second on (the first is the accent, the
    smiling faces' ring)."""
    return tint(f"series{(section + 1) % 8}") if section >= 0 else tint("accent")


def _row(
    items: list[Mark | Label], chart: Journey, step: Step, text: Lines, width: float, y: float
) -> tuple[float, float]:
    """A task's card, its actors' dots in a row right of it; (where it ends, its middle)."""
    height = max(text.height + 2 * CARD_PAD, 2 * ACTOR_DOT + 8)
    items.append(Mark(rect_ops(0, y, width, height, 4), None, "page"))
    items.append(Label(text, PAD_X, y + CARD_PAD, "text", "left"))
    for slot, actor in enumerate(step.actors[:MAX_DOTS]):
        cx = width + DOTS_GAP + ACTOR_DOT + slot * DOT_STEP
        dot = circle_ops(cx, y + height / 2, ACTOR_DOT)
        items.append(Mark(dot, None, actor_colour(chart.actors.index(actor))))
    return y + height, y + height / 2


def _grid(scale_x: float, top: float, bottom: float) -> list[Mark | Label]:
    ops: list[Op] = []
    for score in range(5):
        x = scale_x + score * SCORE_STEP
        ops += [("M", x, top), ("L", x, bottom)]
    return [Mark(tuple(ops), "border", None, 1.0, (2.0, 3.0))]


def mood_line(faces: list[tuple[float, float, int]]) -> list[Mark | Label]:
    """The faces (x, y, score) joined in order by a dashed line: the mood as a curve."""
    if len(faces) < 2:
        return []
    ops: list[Op] = [("M", faces[0][0], faces[0][1])]
    ops += [("L", x, y) for x, y, _ in faces[1:]]
    return [Mark(tuple(ops), "line", None, 1.5, (4.0, 3.0))]


def face(x: float, y: float, score: int) -> list[Mark]:
    """A face: smiling at 4 and 5, straight at 3, frowning at 1 and 2."""
    ring = "accent" if score >= 4 else ("muted" if score == 3 else "series1")
    eyes: list[Mark] = [Mark(circle_ops(x + dx, y - 2.5, 1.3), None, "text") for dx in (-3.2, 3.2)]
    bend = {5: 4.0, 4: 2.5, 3: 0.0, 2: -2.5, 1: -4.0}[score]
    mouth_y = y + 3.5 - bend / 2
    mouth: tuple[Op, ...] = (("M", x - 4, mouth_y), ("Q", x, mouth_y + bend, x + 4, mouth_y))
    return [
        Mark(circle_ops(x, y, FACE), ring, "page", 2.0),
        *eyes,
        Mark(mouth, "text", None, 1.4),
    ]
