"""State diagrams: parsed (composites, regions, pseudo-states, notes; malformed input is a
DiagramError, never a crash), laid out (labels apart, boxes and panels disjoint or nested,
transitions end on shapes, every label in the alt text) and written as article SVG."""

from __future__ import annotations

import html
import itertools

import pytest

from inkcard import layout
from inkcard.layout.diagrams import diagram_svg
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Drawing, Label, Mark, tint
from inkcard.layout.diagrams.mermaid import MAX_EDGES, MAX_NESTING, MAX_NODES
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.diagrams.statecharts.mermaidstate import END, START, StateChart, region_of
from inkcard.layout.errors import DiagramError

ORDER = """stateDiagram-v2
  [*] --> 待支付 : 下单
  待支付 --> 已取消 : 超时
  待支付 --> 支付中 : 用户付款
  state 支付中 {
    [*] --> 校验
    校验 --> 扣款
    扣款 --> [*]
  }
  支付中 --> 结果判断
  state 结果判断 <<choice>>
  结果判断 --> 已完成 : 成功
  结果判断 --> 待支付 : 失败重试
  已完成 --> [*]
"""

PIPELINE = """stateDiagram-v2
  state "Build pipeline" as Pipeline
  [*] --> Queued
  Queued --> fork_state : runner picked
  state fork_state <<fork>>
  fork_state --> Lint
  fork_state --> UnitTests
  state join_state <<join>>
  Lint --> join_state
  UnitTests --> join_state
  join_state --> Deploy
  Deploy --> Deploy : retry
  Deploy --> [*]
  note right of Queued : waits for a free runner
  note left of Deploy
    Deploys to staging first,
    then production
  end note
  UnitTests : runs pytest
"""

LOCKS = """stateDiagram-v2
  direction LR
  [*] --> Active
  state Active {
    [*] --> NumLockOff
    NumLockOff --> NumLockOn : EvNumLockPressed
    --
    [*] --> CapsLockOff
    CapsLockOff --> CapsLockOn : EvCapsLockPressed
  }
  Active --> Done:::warn
  state Done {
    state Inner {
      [*] --> X
    }
  }
  classDef warn fill:#f00
  class Done warn
"""


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


def chart(source: str) -> StateChart:
    parsed = parse_diagram(source)
    assert isinstance(parsed, StateChart)
    return parsed


def test_states_transitions_and_one_start_and_end_per_scope() -> None:
    parsed = chart(ORDER)
    kinds = {s.id: s.kind for s in parsed.states}
    assert kinds["支付中"] == "composite" and kinds["结果判断"] == "choice"
    inner = region_of("支付中", 0)
    assert {s.id for s in parsed.states if s.scope == inner} == {
        "校验",
        "扣款",
        START + inner,
        END + inner,
    }
    assert (START, "待支付", "下单") in [(t.source, t.target, t.label) for t in parsed.transitions]
    assert sum(1 for s in parsed.states if s.kind == "end") == 2  # the diagram's, the composite's


def test_aliases_descriptions_pseudo_states_and_notes() -> None:
    parsed = chart(PIPELINE)
    states = {s.id: s for s in parsed.states}
    assert states["Pipeline"].label == "Build pipeline"
    assert states["fork_state"].kind == "fork" and states["join_state"].kind == "join"
    assert states["UnitTests"].description == ("runs pytest",)
    assert [(n.target, n.side) for n in parsed.notes] == [("Queued", "right"), ("Deploy", "left")]
    assert parsed.notes[1].label == "Deploys to staging first,\nthen production"


def test_regions_directions_and_styling_lines() -> None:
    parsed = chart(LOCKS)
    assert parsed.direction == "LR" and dict(parsed.regions)["Active"] == 2
    states = {s.id: s for s in parsed.states}
    assert states["CapsLockOff"].scope == region_of("Active", 1)
    assert states["Inner"].scope == region_of("Done", 0) and "Done:::warn" not in states
    assert chart("stateDiagram\n  a --> b").states[0].id == "a"  # the first version too
    assert [s.id for s in chart("stateDiagram-v2\n  idle\n  busy").states] == ["idle", "busy"]


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("stateDiagram-v2\n  state A {\n  a --> b", "closing"),
        ("stateDiagram-v2\n  }", "without a composite"),
        ("stateDiagram-v2\n  a --> b\n  --", "outside a composite"),
        ("stateDiagram-v2\n  note left of a\n  text", "end note"),
        ("stateDiagram-v2\n  a b c", "cannot read"),
        ("stateDiagram-v2\n  state Y {\n  a --> b\n  }\n  state Y <<fork>>", "two kinds"),
        ("stateDiagram-v2\n  state Y <<choice>>\n  state Y <<join>>", "two kinds"),
        ("stateDiagram-v2\n  a --> b --> c", "cannot read"),
        ("stateDiagram-v2\n  --> b", "both ends"),
        ("stateDiagram-v2\n  direction UP\n  a --> b", "direction"),
        ("stateDiagram-v2\n  note above a : x", "note"),
        ('stateDiagram-v2\n  state "x as a', "cannot read"),
        ("stateDiagram-v2\n  classDef x fill:#f00", "without states"),
        ("stateDiagram-v2\n" + "state A {\n" * (MAX_NESTING + 2), "nested"),
        ("stateDiagram-v2\n" + "\n".join(f"s{i} : x" for i in range(MAX_NODES + 1)), "states"),
        ("stateDiagram-v2\n" + "a --> b\n" * (MAX_EDGES + 1), "transitions"),
    ],
)
def test_malformed_or_too_big_is_a_diagram_error(source: str, reason: str) -> None:
    with pytest.raises(DiagramError, match=reason):
        parse_diagram(source)


def label_box(label: Label) -> tuple[float, float, float, float]:
    left = label.x - label.text.width / 2 if label.align == "center" else label.x
    return left, label.y, left + label.text.width, label.y + label.text.height


def bounds(mark: Mark) -> tuple[float, float, float, float]:
    xs = [float(op[-2]) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
    ys = [float(op[-1]) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
    return min(xs), min(ys), max(xs), max(ys)


def apart(a: tuple[float, ...], b: tuple[float, ...], slack: float = 0.5) -> bool:
    return (
        a[2] <= b[0] + slack or b[2] <= a[0] + slack or a[3] <= b[1] + slack or b[3] <= a[1] + slack
    )


def inside(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


@pytest.mark.parametrize("source", [ORDER, PIPELINE, LOCKS], ids=["order", "pipeline", "locks"])
@pytest.mark.parametrize("upright", [False, True])
def test_layout_keeps_labels_apart_boxes_disjoint_panels_nested(
    setter, source: str, upright: bool
) -> None:
    drawing = draw_diagram(source, setter.measure, upright)
    labels = [label_box(i) for i in drawing.items if isinstance(i, Label)]
    for a, b in itertools.combinations(labels, 2):
        assert apart(a, b), (a, b)
    marks = [i for i in drawing.items if isinstance(i, Mark)]
    boxes = [bounds(m) for m in marks if m.fill == tint("accent")]
    for a, b in itertools.combinations(boxes, 2):
        assert apart(a, b), (a, b)
    panels = [bounds(m) for m in marks if m.fill == "panel" and m.stroke == "border"]
    for a, b in itertools.combinations(panels, 2):
        assert apart(a, b) or inside(a, b) or inside(b, a), (a, b)
    for box in boxes:  # a state sits wholly in a panel or wholly outside it
        for panel in panels:
            assert apart(box, panel) or inside(box, panel)
    tips = [
        m.ops[0][1:] for m in marks if m.fill == "line" and m.stroke is None and len(m.ops) == 4
    ]
    shapes = boxes + panels + [bounds(m) for m in marks if m.fill in ("line", "page")]
    assert tips
    for x, y in tips:  # every arrowhead touches a shape
        assert any(s[0] - 1.5 <= x <= s[2] + 1.5 and s[1] - 1.5 <= y <= s[3] + 1.5 for s in shapes)


@pytest.mark.parametrize("source", [ORDER, PIPELINE, LOCKS], ids=["order", "pipeline", "locks"])
def test_every_label_is_drawn_and_in_the_alt_text(setter, source: str) -> None:
    drawing: Drawing = draw_diagram(source, setter.measure)
    drawn = " ".join(" ".join(i.text.lines) for i in drawing.items if isinstance(i, Label))
    for label in chart(source).labels():
        assert label in drawing.text
        assert all(word in drawn for word in label.split())


def test_composite_panels_hold_their_states(setter) -> None:
    drawing = draw_diagram(ORDER, setter.measure)
    panel = next(i for i in drawing.items if isinstance(i, Mark) and i.fill == "panel")
    labels = {i.text.lines[0]: label_box(i) for i in drawing.items if isinstance(i, Label)}
    assert inside(labels["校验"], bounds(panel)) and inside(labels["扣款"], bounds(panel))
    assert apart(labels["待支付"], bounds(panel))


def test_the_article_svg_holds_each_label() -> None:
    svg = diagram_svg(PIPELINE)
    for word in ("Queued", "runner picked", "Build pipeline", "Deploys to staging", "retry"):
        assert html.escape(word) in svg


def test_a_loop_and_its_label_stay_inside_the_panel(setter) -> None:
    """A state looping to itself in a composite's first layer: its loop's label rises above
    the state, and the state's box makes room for it under the panel's title."""
    source = """stateDiagram-v2
  state Worker {
    Polling --> Polling : no job
    Polling --> Running : job found
  }
  [*] --> Worker
"""
    drawing = draw_diagram(source, setter.measure)
    panel = next(bounds(i) for i in drawing.items if isinstance(i, Mark) and i.fill == "panel")
    labels = {i.text.lines[0]: label_box(i) for i in drawing.items if isinstance(i, Label)}
    assert inside(labels["no job"], panel) and apart(labels["no job"], labels["Worker"])
