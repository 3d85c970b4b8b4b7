"""Mermaid source → diagram records, and the source we refuse with a one-line note."""

import pytest

from inkcard.layout.diagrams.mermaid import MAX_EDGES, MAX_NODES, MAX_SOURCE, Flowchart
from inkcard.layout.diagrams.mermaidkinds import Mindmap, Pie, Sequence, parse_diagram
from inkcard.layout.errors import DiagramError


def test_flowchart_shapes_links_chains_and_subgraphs() -> None:
    chart = parse_diagram(
        "graph LR\n"
        "A[开始] --> B{是否登录?}\n"
        "B -- 是 --> C([首页])\n"
        "B -->|否| D((登录))\n"
        "C & D -.-> E(完成) ==> F\n"
        "subgraph S1 [阶段]\n  E --- G\nend\n"
        "classDef hot fill:#f00\n"
    )
    assert isinstance(chart, Flowchart) and chart.direction == "LR"
    shapes = {n.id: (n.label, n.shape) for n in chart.nodes}
    assert shapes == {
        "A": ("开始", "rect"),
        "B": ("是否登录?", "rhombus"),
        "C": ("首页", "stadium"),
        "D": ("登录", "circle"),
        "E": ("完成", "round"),
        "F": ("F", "rect"),
        "G": ("G", "rect"),
    }
    edges = [(e.source, e.target, e.label, e.line, e.arrow) for e in chart.edges]
    assert edges == [
        ("A", "B", "", "solid", True),
        ("B", "C", "是", "solid", True),
        ("B", "D", "否", "solid", True),
        ("C", "E", "", "dotted", True),
        ("D", "E", "", "dotted", True),
        ("E", "F", "", "thick", True),
        ("E", "G", "", "solid", False),
    ]
    assert [(s.id, s.label, s.members) for s in chart.subgraphs] == [("S1", "阶段", ("E", "G"))]


def test_directions_and_quoted_labels() -> None:
    chart = parse_diagram('flowchart TD\n  a["x [y] <br> z"] -. maybe .-> b; b == sure ==> c')
    assert isinstance(chart, Flowchart) and chart.direction == "TB"
    assert chart.nodes[0].label == "x [y]\nz"
    assert [(e.label, e.line) for e in chart.edges] == [("maybe", "dotted"), ("sure", "thick")]


def test_mindmap_tree_and_root_shape() -> None:
    source = "mindmap\n  root((学习计划))\n    第一周\n      选题\n    第二周\n      [拍照]"
    tree = parse_diagram(source)
    assert isinstance(tree, Mindmap)
    assert (tree.root.label, tree.root.shape) == ("学习计划", "circle")
    assert [c.label for c in tree.root.children] == ["第一周", "第二周"]
    assert tree.root.children[1].children[0].shape == "rect"


def test_sequence_participants_messages_notes_blocks() -> None:
    seq = parse_diagram(
        "sequenceDiagram\nparticipant U as 用户\nactor S\nU->>S: 请求\nS-->>U: 回应\n"
        "loop 每天\n  U->S: ping\nend\nNote over U,S: 完成\nNote right of S: 好"
    )
    assert isinstance(seq, Sequence)
    assert [(p.id, p.label, p.actor) for p in seq.participants] == [
        ("U", "用户", False),
        ("S", "S", True),
    ]
    assert seq.labels() == ["用户", "S", "请求", "回应", "每天", "ping", "完成", "好"]


def test_pie() -> None:
    pie = parse_diagram('pie showData title 时间\n"读书" : 40\n"运动": 20.5')
    assert pie == Pie("时间", (("读书", 40.0), ("运动", 20.5)), show_data=True)


@pytest.mark.parametrize(
    "source",
    [
        "",
        "requirementDiagram\nA - satisfies -> B",
        "graph XX\nA-->B",
        "graph TD\nA -->",
        "graph TD\nA[open",
        "graph TD\nsubgraph x\nA",
        "graph TD\nend",
        "sequenceDiagram\nloop x\nA->>B: y",
        "sequenceDiagram\nwhat is this",
        'pie\n"a" : -1',
        "pie\n",
        "mindmap\nA\nB",
        "x" * (MAX_SOURCE + 1),
        "graph TD\n" + "\n".join(f"n{i} --> n{i + 1}" for i in range(MAX_NODES + 1)),
        "graph TD\n" + "\n".join("a --> b" for _ in range(MAX_EDGES + 1)),
        "graph TD\n" + "subgraph s\n" * 50 + "a\n" + "end\n" * 50,
    ],
)
def test_refused_source_raises_a_one_line_note(source: str) -> None:
    with pytest.raises(DiagramError) as caught:
        parse_diagram(source)
    assert "\n" not in str(caught.value) and str(caught.value)
