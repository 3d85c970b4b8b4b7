"""Flowchart fidelity: every Mermaid 11 shape (brackets and `@{ shape }`), the author's
classDef/style/linkStyle colours, arrow ends and longer links, label markup and entities;
and the layout's promises: no edge runs through a node it does not join, subgraph panels
never overlap, no edge-label chip sits on a panel's border."""

from __future__ import annotations

import itertools
import math
import random
import re
from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Group
from inkcard.layout.blocks.diagramink import colour, painted
from inkcard.layout.diagrams import diagram_svg, drawing
from inkcard.layout.diagrams.flow.nodes import SHAPE_NAMES
from inkcard.layout.diagrams.flow.paint import LIGHT_INK, clip
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label, Mark
from inkcard.layout.diagrams.mermaid import Flowchart
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.diagrams.svg import Palette
from inkcard.layout.errors import DiagramError

CASES = sorted((Path(__file__).parents[1] / "cases" / "mermaid").glob("6[0-9]-*.md"))
FENCE = re.compile(r"```mermaid\n(.*?)```", re.S)
Box = tuple[float, float, float, float]


def sources() -> list[str]:
    return [m.group(1) for case in CASES for m in FENCE.finditer(case.read_text())]


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


def chart(source: str) -> Flowchart:
    parsed = parse_diagram(source)
    assert isinstance(parsed, Flowchart)
    return parsed


def test_every_bracket_shape_is_its_own() -> None:
    parsed = chart(
        "flowchart TD\n A[a] --> B(b) --> C([c]) --> D[[d]] --> E[(e)] --> F((f))\n"
        " G(((g))) --> H>h] --> I{i} --> J{{j}} --> K[/k/] --> L[\\l\\] --> M[/m\\]\n"
        " N[\\n/]"
    )
    assert [n.shape for n in parsed.nodes] == [
        "rect", "round", "stadium", "subroutine", "cylinder", "circle", "dcircle", "odd",
        "rhombus", "hexagon", "lean-r", "lean-l", "trap-b", "trap-t",
    ]  # fmt: skip
    assert [n.label for n in parsed.nodes] == list("abcdefghijklmn")


def test_at_shapes_multi_line_fields_and_label_less_shapes() -> None:
    parsed = chart(
        'flowchart LR\n a@{ shape: cyl, label: "Orders, 2024" } --> b@{ shape: sm-circ }\n'
        "c@{\n  shape: docs\n  label: 'Batch'\n}\n d@{ shape: lean-right }\n e@{ label: x }"
    )
    found = {n.id: (n.shape, n.label) for n in parsed.nodes}
    assert found == {
        "a": ("cylinder", "Orders, 2024"),
        "b": ("sm-circ", ""),
        "c": ("docs", "Batch"),
        "d": ("lean-r", "d"),
        "e": ("rect", "x"),
    }


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("flowchart TD\n a@{ shape: blob }", "unknown flowchart shape 'blob'"),
        ("flowchart TD\n a@{ shape: rect", "unclosed '@{'"),
        ("flowchart TD\n a@{ icon: fa:user }", "icon and image nodes"),
        ("flowchart TD\n a@{ shape rect }", "expected `key: value`"),
        ("flowchart TD\n a --> b\n linkStyle x stroke:red", "linkStyle expects link numbers"),
        ("flowchart TD\n a[[b", "unclosed '[['"),
    ],
)
def test_malformed_shapes_and_styles_say_why(source: str, reason: str) -> None:
    with pytest.raises(DiagramError, match=re.escape(reason)):
        parse_diagram(source)


def test_every_shape_name_draws_with_its_label(setter) -> None:
    names = sorted(SHAPE_NAMES)
    lines = [f"  n{i}@{{ shape: {name}, label: 'L{i}' }}" for i, name in enumerate(names)]
    edges = [f"  n{i} --> n{i + 1}" for i in range(0, len(names) - 1, 2)]
    drawn = draw_diagram("flowchart TD\n" + "\n".join(lines + edges), setter.measure)
    labels = {line for item in drawn.items if isinstance(item, Label) for line in item.text.lines}
    label_less = {"sm-circ", "f-circ", "fr-circ", "fork", "hourglass", "bolt", "cross-circ"}
    for i, name in enumerate(names):
        assert (f"L{i}" in labels) == (SHAPE_NAMES[name] not in label_less), name


def test_styles_resolve_in_mermaid_order() -> None:
    parsed = chart(
        "flowchart TD\n a:::hot --> b --> c\n c --- d\n"
        "classDef default fill:#eee\n"
        "classDef hot fill:#f9f,stroke:#333,stroke-width:2px,color:#fff,stroke-dasharray: 5 5\n"
        "classDef cool fill:rgb(0, 128, 255),stroke:nonsense\n"
        "class b,c cool\n style c fill:red\n"
        "linkStyle default stroke:#999\n linkStyle 1,2 interpolate basis stroke:teal\n"
        "linkStyle 1,2 stroke-width:4px\n"
    )
    looks = {n.id: n.look for n in parsed.nodes}
    assert looks["a"].fill == "#ff99ff" and looks["a"].stroke == "#333333"
    assert (looks["a"].width, looks["a"].color, looks["a"].dash) == (2.0, "#ffffff", (5.0, 5.0))
    assert looks["b"].fill == "#0080ff" and looks["b"].stroke is None  # a bad value dropped
    assert looks["c"].fill == "#ff0000"  # its own style over its class
    assert looks["d"].fill == "#eeeeee"  # classDef default
    strokes = [(e.look.stroke, e.look.width) for e in parsed.edges]
    assert strokes == [("#999999", None), ("#008080", 4.0), ("#008080", 4.0)]


def test_link_ends_lengths_labels_and_invisible_links() -> None:
    parsed = chart(
        "flowchart LR\n a --o b\n b --x c\n c o--o d\n d x--x e\n e <--> f\n f ~~~ g\n"
        " g ---> h\n h ----> i\n i -.-> j\n j -- text ---> k\n k -->|t| l\n l e1@--> m\n"
    )
    found = [(e.marker, e.arrow, e.both, e.line, e.length, e.label) for e in parsed.edges]
    assert found == [
        ("circle", True, False, "solid", 1, ""),
        ("cross", True, False, "solid", 1, ""),
        ("circle", True, True, "solid", 1, ""),
        ("cross", True, True, "solid", 1, ""),
        ("arrow", True, True, "solid", 1, ""),
        ("arrow", False, False, "invisible", 1, ""),
        ("arrow", True, False, "solid", 2, ""),
        ("arrow", True, False, "solid", 3, ""),
        ("arrow", True, False, "dotted", 1, ""),
        ("arrow", True, False, "solid", 2, "text"),
        ("arrow", True, False, "solid", 1, "t"),
        ("arrow", True, False, "solid", 1, ""),
    ]


def test_label_markup_and_entities_are_decoded() -> None:
    parsed = chart(
        'flowchart TD\n a["`**Bold**`"] --> b["<b>x</b> &amp; y"]\n'
        ' b --> c[Legacy &lt;v1&gt;]; c --> d["say #quot;hi#quot; &#39;x&#39;"]\n'
        ' d --> e["`one *two*`"] --> f["one<br>two"]\n'
        ' f --> g["`a **markdown**\n    string`"]'
    )
    found = {n.id: (n.label, n.bold) for n in parsed.nodes}
    assert found == {
        "a": ("Bold", True),
        "b": ("x & y", False),
        "c": ("Legacy <v1>", False),
        "d": ("say \"hi\" 'x'", False),
        "e": ("one two", False),
        "f": ("one\ntwo", False),
        "g": ("a markdown\nstring", False),
    }


def test_longer_links_span_more_ranks(setter) -> None:
    def gap(link: str) -> float:
        drawn = draw_diagram(f"flowchart TD\n a {link} b", setter.measure)
        tops = sorted(item.y for item in drawn.items if isinstance(item, Label))
        return tops[-1] - tops[0]

    assert gap("-->") < gap("--->") < gap("---->")


def test_author_colours_are_roles_on_cards_and_in_articles(setter) -> None:
    source = "flowchart TD\n a[Dark] --> b[Light]\n style a fill:#102030\n style b fill:#fafafa"
    drawn = draw_diagram(source, setter.measure)
    fills = {item.fill for item in drawn.items if isinstance(item, Mark)}
    assert {"#102030", "#fafafa"} <= fills
    inks = {item.text.lines[0]: item.color for item in drawn.items if isinstance(item, Label)}
    assert inks["Dark"] == LIGHT_INK and inks["Light"] != LIGHT_INK  # legible on their fills
    styles = layout.style.resolver.resolve(themes.load("darktech"), None)
    assert colour(styles, "#102030") == 0xFF102030
    assert colour(styles, "tint:#102030") & 0xFFFFFF == 0x102030
    assert Palette("#3a7bd5").colour("#102030") == "#102030"
    svg = diagram_svg(source)
    assert 'fill="#102030"' in svg and ">Dark<" in svg and ">Light<" in svg


@pytest.mark.parametrize("index", range(len(CASES)))
def test_case_labels_are_drawn_and_in_the_alt_text(setter, index: int) -> None:
    source = sources()[index]
    drawn = draw_diagram(source, setter.measure)
    for label in chart(source).labels():
        if label:
            assert label in drawn.text
    svg = diagram_svg(source)
    labels = [item for item in drawn.items if isinstance(item, Label)]
    for item in labels:
        for line in item.text.lines:
            assert (
                line.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace('"', "&quot;")
                .replace("'", "&#x27;")
                in svg
            )
    for a, b in itertools.combinations(labels, 2):
        assert not _overlap(_label_box(a), _label_box(b)), (a.text.lines, b.text.lines)


def random_chart(seed: int) -> str:
    """A seeded tangle: 8-14 nodes in two or three subgraphs (one nested), labelled, long,
    looping and crossing edges; the layout's promises must hold on it too."""
    rng = random.Random(seed)
    count = rng.randint(8, 14)
    lines, order = (
        [rng.choice(["flowchart TD", "flowchart LR", "flowchart BT"])],
        list(range(count)),
    )
    rng.shuffle(order)
    for group in range(rng.randint(2, 3)):
        lines.append(f"subgraph G{group} [组{group}]")
        for _ in range(2):
            lines.append(f"  n{order.pop()}[节点]")
        if group == 0:
            lines += ["  subgraph H [内]", f"    n{order.pop()}", "  end"]
        lines.append("end")
    for _ in range(rng.randint(count, count * 3 // 2)):
        link = rng.choice(["-->", "-- 是 -->", "--->", "-.->"])
        lines.append(f"  n{rng.randrange(count)} {link} n{rng.randrange(count)}")
    return "\n".join(lines)


RANDOM = [random_chart(seed) for seed in range(12)]


@pytest.mark.parametrize("upright", [False, True])
@pytest.mark.parametrize("index", range(len(CASES) + len(RANDOM)))
def test_no_edge_crosses_a_node_it_does_not_join(
    setter, monkeypatch, index: int, upright: bool
) -> None:
    seen: list[tuple[list[tuple[float, float]], object, object]] = []
    placed: dict[int, object] = {}
    original = drawing.edge_marks

    def spy(edge, points, a, b, across=False):  # type: ignore[no-untyped-def]
        seen.append((list(points), a, b))
        placed[id(a)], placed[id(b)] = a, b
        return original(edge, points, a, b, across)

    monkeypatch.setattr(drawing, "edge_marks", spy)
    draw_diagram([*sources(), *RANDOM][index], setter.measure, upright)
    assert seen
    nodes = [p for p in placed.values() if p.node is not None]  # type: ignore[attr-defined]
    for points, a, b in seen:
        if a is b:
            continue
        route = [clip(a, points[1]), *points[1:-1], clip(b, points[-2])]  # type: ignore[arg-type]
        for node in nodes:
            if node is a or node is b:
                continue
            box = (node.x - node.w / 2 + 1, node.y - node.h / 2 + 1,  # type: ignore[attr-defined]
                   node.x + node.w / 2 - 1, node.y + node.h / 2 - 1)  # type: ignore[attr-defined]  # fmt: skip
            assert not _runs_through(route, box), (node.node.id, a.node.id, b.node.id)  # type: ignore[attr-defined]


@pytest.mark.parametrize("index", range(len(CASES) + len(RANDOM)))
def test_panels_are_disjoint_and_chips_never_on_their_borders(setter, index: int) -> None:
    """Panels nest or keep apart; an edge label or node is inside a panel or off it."""
    drawn = draw_diagram([*sources(), *RANDOM][index], setter.measure)
    items = drawn.items
    panels = [
        _bounds(item)
        for item, after in itertools.pairwise(items)
        if isinstance(item, Mark) and isinstance(after, Label) and after.align == "left"
    ]
    for a, b in itertools.combinations(panels, 2):
        assert not _overlap(a, b) or _inside(a, b) or _inside(b, a), (a, b)
    chips = [_bounds(item) for item in items if isinstance(item, Mark) and item.fill == "page"]
    chips += [
        _bounds(item)
        for item, after in itertools.pairwise(items)
        if isinstance(item, Mark) and isinstance(after, Label) and after.align == "center"
    ]
    for chip, panel in itertools.product(chips, panels):
        assert _inside(chip, panel) or not _overlap(chip, panel), (chip, panel)


def test_the_subgraph_case_has_two_panels(setter) -> None:
    source = next(s for s in sources() if "subgraph" in s)
    drawn = draw_diagram(source, setter.measure)
    titles = [i for i in drawn.items if isinstance(i, Label) and i.align == "left"]
    assert [t.text.lines[0] for t in titles] == ["仓储阶段", "通知阶段"]


def _runs_through(route: list[tuple[float, float]], box: Box) -> bool:
    for (ax, ay), (bx, by) in itertools.pairwise(route):
        steps = max(1, int(math.hypot(bx - ax, by - ay)))
        for k in range(steps + 1):
            x, y = ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps
            if box[0] < x < box[2] and box[1] < y < box[3]:
                return True
    return False


def _bounds(mark: Mark) -> Box:
    xs = [float(op[-2]) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
    ys = [float(op[-1]) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
    return min(xs), min(ys), max(xs), max(ys)


def _label_box(label: Label) -> Box:
    left = label.x - label.text.width / 2 if label.align == "center" else label.x
    return left, label.y, left + label.text.width, label.y + label.text.height


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(a: Box, b: Box) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def _inks(source: str, setter: LabelSetter) -> dict[str, int]:
    """Each label's ink as painted on an apple-notes card."""
    styles = layout.style.resolver.resolve(themes.load("apple-notes"), None)
    inks: dict[str, int] = {}
    for mark, item in painted(draw_diagram(source, setter.measure), setter, styles):
        if isinstance(mark, Label):
            while isinstance(item, Group):
                item = item.items[0]
            assert isinstance(item, GlyphRun)
            inks["".join(mark.text.lines)] = item.color
    return inks


def test_an_authors_ink_on_a_saturated_fill_is_kept(setter) -> None:
    """White on #2f9e44 is 3.3:1, under the 4.5 a theme's ink must reach: it was painted
    near-black (4.9:1), which tesseract missed where it read the author's white. An
    author's ink is kept down to 3:1; under it (white on yellow) another is taken."""
    source = (
        "flowchart TD\n a[客户] --> b[订单] --> c[Crash]\n"
        " style a fill:#2f9e44,color:#fff\n style b fill:#ffd43b,color:#fff\n"
        " style c fill:#ff0000,color:#ffffff"
    )
    inks = _inks(source, setter)
    assert inks["客户"] == inks["Crash"] == 0xFFFFFFFF
    assert inks["订单"] != 0xFFFFFFFF  # 1.5:1: a near-black that reads
