"""A state chart that is one chain (`[*]` → A → … → `[*]`) wrapped into rows as a
flowchart's chain is (`diagrams.statecharts.statechain`, `diagrams.snake`), and a chain
too long to wrap at the figures' floor on a slide wrapped to the slide's shape all the
same (`snake.best_rows`), where one strip left it at an eighth of its size."""

from __future__ import annotations

import itertools

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Row
from inkcard.layout.diagrams.fit import DiagramBudget, draw_to_fit
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Drawing, Label, Mark, fit_scale, mark_bounds

SLIDE = layout.RenderOptions(split="autoSplit", width=1600, height=900, scale=1)
CARD = layout.RenderOptions(split="autoSplit", width=440, height=586, scale=1)
AFTER = "每一层大约流失 60%，所以提升第一层的点击率最划算。"


def _steps(n: int) -> tuple[str, ...]:
    return tuple(f"第{i + 1}步写笔记" if i % 2 else f"Step{i + 1}" for i in range(n))


def _states(steps: tuple[str, ...], direction: str = "", label: str = "") -> str:
    """`stateDiagram-v2`: `[*]`, the steps in a line, `[*]`; `label` on every link."""
    ids = ["[*]", *(f"s{i}" for i in range(len(steps))), "[*]"]
    head = [f"  direction {direction}"] if direction else []
    named = [f'  state "{step}" as s{i}' for i, step in enumerate(steps)]
    colon = f" : {label}" if label else ""
    links = [f"  {a} --> {b}{colon}" for a, b in itertools.pairwise(ids)]
    return "\n".join(["stateDiagram-v2", *head, *named, *links]) + "\n"


def _flow(steps: tuple[str, ...]) -> str:
    pairs = itertools.pairwise(enumerate(steps))
    lines = [f"  n{i}[{a}] --> n{j}[{b}]" for (i, a), (j, b) in pairs]
    return "flowchart LR\n" + "\n".join(lines) + "\n"


def _pages(source: str, options: layout.RenderOptions) -> list[layout.Page]:
    post = f"## 状态\n\n```mermaid\n{source}```\n\n{AFTER}\n"
    return layout.layout_pages(post, themes.load("apple-notes"), layout.FontBook.load(), options)


def _rows(pages: list[layout.Page], label: str) -> list[tuple[int, Row]]:
    return [(n, p.row) for n, page in enumerate(pages) for p in page.rows if label in p.row.text]


def _fit(fonts: layout.FontBook, source: str, width: float, height: float) -> Drawing:
    return draw_to_fit(DiagramBudget(), source, LabelSetter(fonts).measure, width, height)


@pytest.mark.parametrize("direction", ["", "LR"])
def test_a_long_state_chain_on_a_card_is_wrapped_into_rows(fonts, direction: str) -> None:
    """Fifteen states in a line on a 440x586 card: written top-down they were cut into
    three bands, a card each (left to right: turned upright, then banded); wrapped, they
    read at 0.9 or more on one card, with the paragraph after them."""
    steps = _steps(15)
    pages = _pages(_states(steps, direction), CARD)
    [(at, row)] = _rows(pages, steps[-1])
    [(after, _)] = _rows(pages, AFTER[:8])
    assert "wrapped into" in row.note and row.items[0].scale >= 0.9, row.note
    assert after == at == 0
    assert set(steps) <= set(row.text.splitlines())  # the alt text keeps every state


def test_a_long_state_chain_takes_the_cards_shape(fonts) -> None:
    """The drawing itself, in a 392x500 card's content: one strip (1,900 px by 60)
    shrank to a fifth, upright bands ran five times the card's height; rows are about as
    tall as the card is, drawn at 0.9 or more."""
    drawing = _fit(fonts, _states(_steps(15)), 392, 500)
    assert "wrapped into" in drawing.note
    assert fit_scale(drawing, 392, 500) >= 0.9
    assert 0.7 <= drawing.height / drawing.width <= 2.0


def test_a_state_chain_on_a_slide_is_wrapped(fonts) -> None:
    """Fifteen states left to right on a 1600x900 slide: one strip at 31 %; wrapped, at
    0.8 or more."""
    steps = _steps(15)
    [(_, row)] = _rows(_pages(_states(steps, "LR"), SLIDE), steps[-1])
    assert "wrapped into" in row.note and row.items[0].scale >= 0.8, row.note


def test_wrapped_states_read_in_order_and_every_transition_arrives(fonts) -> None:
    steps = _steps(12)
    drawing = _fit(fonts, _states(steps), 392, 500)
    assert "wrapped into" in drawing.note
    labels = [item for item in drawing.items if isinstance(item, Label)]
    tops = sorted({round(label.y) for label in labels})
    assert len(tops) >= 3  # rows
    read = sorted(labels, key=lambda label: (round(label.y), label.x))
    assert ["".join(label.text.lines) for label in read] == list(steps)
    lines = [item for item in drawing.items if isinstance(item, Mark) and item.fill is None]
    assert len(lines) == len(steps) + 1  # every transition once, [*] to [*], returns too
    assert max(line.ops[-1][-1] for line in lines) <= drawing.height


def test_a_state_chain_with_an_event_on_every_transition_is_wrapped(fonts) -> None:
    """Every transition labelled (an order's life: 付款成功, 商家确认, ...): no row break
    fell on an unlabelled link, so the chain stayed one column down two cards at its
    size, its last band (the end state's foot and the end dot) dropped. Wrapped on one
    card now, each event once, the end dot never alone on its row."""
    steps = _steps(9)
    pages = _pages(_states(steps, label="确认"), CARD)
    [(at, row)] = _rows(pages, steps[-1])
    assert "wrapped into" in row.note and row.items[0].scale >= 0.9, row.note
    assert at == 0 and len(pages) == 1
    drawing = _fit(fonts, _states(steps, label="确认"), 392, 426)
    labels = [item for item in drawing.items if isinstance(item, Label)]
    assert sum(label.text.lines == ("确认",) for label in labels) == len(steps) + 1
    last = next(label for label in labels if label.text.lines == (steps[-1],))
    lowest = max(mark_bounds(m.ops)[3] for m in drawing.items if isinstance(m, Mark))
    assert lowest < last.y + last.text.height + 20  # the end dot beside it, not under


def test_a_chain_with_a_state_that_loops_on_itself_is_wrapped_with_its_loop(fonts) -> None:
    """A retry on a state (`Install --> Install: retry`) made the chart no chain: twelve
    states drawn down one card at 0.6 as a column. Wrapped, each loop drawn on its state
    once, its label inside the drawing (the rows' labels count in its width)."""
    steps = _steps(10)
    source = _states(steps) + "  s3 --> s3 : retry\n  s8 --> s8 : retry\n"
    drawing = _fit(fonts, source, 392, 426)
    assert "wrapped into" in drawing.note, drawing.note
    assert fit_scale(drawing, 392, 426) >= 0.9
    labels = [item for item in drawing.items if isinstance(item, Label)]
    retries = [label for label in labels if label.text.lines == ("retry",)]
    assert len(retries) == 2
    assert all(label.x + label.text.width <= drawing.width for label in labels)


def test_a_branching_state_chart_and_a_composite_are_never_wrapped(fonts) -> None:
    steps = _steps(12)
    branched = _states(steps) + "  s2 --> s7\n"
    grouped = _states(steps).replace('  state "Step1" as s0\n', "  state s0 {\n    a --> b\n  }\n")
    for source in (branched, grouped):
        assert "wrapped" not in _fit(fonts, source, 392, 500).note


def test_a_thirty_step_chain_on_a_slide_fills_the_slide(fonts) -> None:
    """Thirty steps left to right on a 1600x900 slide (456x200 of content under a
    heading): under half their size in any rows, they were left one strip at 10 %; now
    wrapped into the rows that read largest in the slide's shape (5: 0.51; the estimate,
    6: 0.47), at 0.5 or more, the content's width or height filled."""
    steps = tuple(f"第 {i + 1} 步 写笔记" if i % 2 else f"Step {i + 1}: draft" for i in range(30))
    drawing = _fit(fonts, _flow(steps), 456, 200)
    scale = fit_scale(drawing, 456, 200)
    assert "wrapped into" in drawing.note and scale >= 0.5
    assert max(drawing.width * scale / 456, drawing.height * scale / 200) >= 0.97
