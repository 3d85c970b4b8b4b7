"""A user journey drawn as mermaid-js draws it: tasks side by side, each score a face's height.

This is the form as written (`across`): a column per task under its section's heading, its
actors' dots under its card, and below them a 1-5 scale where each task's face sits at its
score's height, the faces joined into the mood's curve. A portrait card or a phone gets
the upright form of `journey` instead (`fit.draw_to_fit`), a row per task, when that keeps
the labels larger; a slide keeps this one.
"""

from __future__ import annotations

from dataclasses import replace

from ..marks import (
    LABEL_SIZE,
    PAD_X,
    SMALL_SIZE,
    Drawing,
    Label,
    Mark,
    Measure,
    Op,
    circle_ops,
    finish,
    rect_ops,
)
from .journey import (
    ACTOR_DOT,
    CARD_PAD,
    DOT_STEP,
    MAX_DOTS,
    actor_colour,
    face,
    layout_journey_rows,
    legend,
    mood_line,
    section_colour,
)
from .mermaidtime import Journey

COLUMN_WIDTH = 110.0  # px: a task's name wraps past it
COLUMN_GAP = 10.0  # px between two tasks' columns
LEVEL = 24.0  # px between two scores on the scale


def layout_journey(chart: Journey, measure: Measure, upright: bool = False) -> Drawing:
    """Tasks side by side as mermaid-js draws them, or (`upright`) a row per task."""
    if upright:
        return layout_journey_rows(chart, measure)
    texts = [measure(s.label, SMALL_SIZE, False, COLUMN_WIDTH - 2 * PAD_X) for s in chart.steps]
    width = max(60.0, *(t.width + 2 * PAD_X for t in texts))
    lefts = [i * (width + COLUMN_GAP) for i in range(len(texts))]
    right = lefts[-1] + width
    items: list[Mark | Label] = []
    y = 0.0
    if chart.title:
        title = measure(chart.title, LABEL_SIZE + 1, True, max(right, 200.0))
        items.append(Label(title, 0.0, 0.0, "text", "left"))
        y = title.height + 8
    y = legend(items, chart, measure, y, max(right, 200.0)) + 10
    y = _headings(items, chart, measure, lefts, width, y)
    card_h = max(t.height for t in texts) + 2 * CARD_PAD
    faces: list[tuple[float, float, int]] = []
    top = y + card_h + 2 * ACTOR_DOT + 20  # the scale's score 5
    for step, text, left in zip(chart.steps, texts, lefts, strict=True):
        ops = rect_ops(left, y, width, card_h, 4)
        items.append(Mark(ops, None, section_colour(step.section)))
        items.append(Label(text, left + width / 2, y + (card_h - text.height) / 2))
        items.extend(_dots(chart, step.actors, left + width / 2, y + card_h + 4 + ACTOR_DOT))
        faces.append((left + width / 2, top + (5 - step.score) * LEVEL, step.score))
    scale = _scale(measure, top, right)
    marks = [mark for x, cy, score in faces for mark in face(x, cy, score)]
    drawing = finish([*scale, *items, *mood_line(faces), *marks], "\n".join(chart.labels()))
    return replace(drawing, across=True)


def _headings(
    items: list[Mark | Label],
    chart: Journey,
    measure: Measure,
    lefts: list[float],
    width: float,
    y: float,
) -> float:
    """Each section's name over its tasks' columns; where the headings end."""
    runs: list[tuple[int, int, int]] = []  # (section, first column, last column)
    for index, step in enumerate(chart.steps):
        if runs and runs[-1][0] == step.section:
            runs[-1] = (step.section, runs[-1][1], index)
        else:
            runs.append((step.section, index, index))
    runs = [run for run in runs if run[0] >= 0]
    if not runs:
        return y
    texts = {
        run: measure(
            chart.sections[run[0]], SMALL_SIZE, True, lefts[run[2]] + width - lefts[run[1]]
        )
        for run in runs
    }
    height = max(t.height for t in texts.values()) + 8
    for (section, first, last), text in texts.items():
        left, span = lefts[first], lefts[last] + width - lefts[first]
        items.append(Mark(rect_ops(left, y, span, height, 4), None, section_colour(section)))
        items.append(Label(text, left + span / 2, y + (height - text.height) / 2))
    return y + height + 6


def _dots(chart: Journey, actors: tuple[str, ...], centre: float, y: float) -> list[Mark]:
    shown = actors[:MAX_DOTS]
    start = centre - (len(shown) - 1) * DOT_STEP / 2
    return [
        Mark(
            circle_ops(start + i * DOT_STEP, y, ACTOR_DOT),
            None,
            actor_colour(chart.actors.index(a)),
        )
        for i, a in enumerate(shown)
    ]


def _scale(measure: Measure, top: float, right: float) -> list[Mark | Label]:
    """The scores' levels, 5 at the top: dashed lines with their numbers on the left."""
    ops: list[Op] = []
    out: list[Mark | Label] = []
    for score in range(1, 6):
        y = top + (5 - score) * LEVEL
        ops += [("M", 0.0, y), ("L", right, y)]
        number = measure(str(score), SMALL_SIZE, False, 40)
        out.append(Label(number, -12.0, y - number.height / 2, "muted"))
    return [Mark(tuple(ops), "border", None, 1.0, (2.0, 3.0)), *out]
