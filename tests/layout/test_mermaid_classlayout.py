"""Class and ER diagrams laid out: boxes apart, labels apart, no line through a label, lines
ending on their boxes, every label in the alt text, the cards and the article SVG; UML ends
and crow's feet drawn; namespaces, notes and loops; shuffled syntax drawn or refused, never a
crash."""

from __future__ import annotations

import contextlib
import html
import itertools
import random
import time
from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.diagrams import diagram_svg
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Drawing, Label, Mark, tint
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.diagrams.uml.classes import NOTE_ROLE, whole_words
from inkcard.layout.errors import DiagramError
from tests.layout.test_mermaid_classes import CASES, FENCE, case_sources, classes


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


def test_a_namespace_is_a_panel_round_its_classes_and_no_other(setter) -> None:
    source = case_sources()[-1]
    assert "namespace" in source
    drawing = draw_diagram(source, setter.measure)
    panels = [bounds(m) for m in drawing.items if isinstance(m, Mark) and m.fill == "panel"]
    assert len(panels) == 2
    boxes = outlines(drawing)
    for x0, y0, x1, y1 in panels:
        inside = [b for b in boxes if x0 <= b[0] and b[2] <= x1 and y0 <= b[1] and b[3] <= y1]
        assert len(inside) == 2  # its two classes
        for box in boxes:
            assert box in inside or apart(box, (x0, y0, x1, y1))


def test_notes_are_drawn_with_a_dashed_line_to_their_class(setter) -> None:
    source = 'classDiagram\n  A --> B\n  note for B "B is special"\n  note "all classes"'
    assert [(n.text, n.target) for n in classes(source).notes] == [
        ("B is special", "B"),
        ("all classes", ""),
    ]
    drawing = draw_diagram(source, setter.measure)
    dashed = [m for m in drawing.items if isinstance(m, Mark) and m.dash]
    assert len(dashed) == 1 and "B is special" in drawing.text and "all classes" in drawing.text


def outlines(drawing: Drawing) -> list[tuple[float, float, float, float]]:
    """Each class or entity box (its outline: the page-filled shape stroked by `border`)
    and each note (its tinted shape)."""
    return [
        bounds(item)
        for item in drawing.items
        if isinstance(item, Mark)
        and ((item.stroke == "border" and item.fill == "page") or item.fill == tint(NOTE_ROLE))
    ]


def bounds(mark: Mark) -> tuple[float, float, float, float]:
    xs = [float(op[-2]) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
    ys = [float(op[-1]) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
    return min(xs), min(ys), max(xs), max(ys)


def label_box(label: Label) -> tuple[float, float, float, float]:
    left = label.x - label.text.width / 2 if label.align == "center" else label.x
    return left, label.y, left + label.text.width, label.y + label.text.height


def apart(a: tuple[float, ...], b: tuple[float, ...], slack: float = 0.5) -> bool:
    return (
        a[2] <= b[0] + slack or b[2] <= a[0] + slack or a[3] <= b[1] + slack or b[3] <= a[1] + slack
    )


@pytest.mark.parametrize("index", range(len(case_sources())))
def test_boxes_and_labels_never_overlap_and_lines_end_on_boxes(setter, index: int) -> None:
    source = case_sources()[index]
    drawing = draw_diagram(source, setter.measure)
    boxes = outlines(drawing)
    assert len(boxes) >= 3
    for a, b in itertools.combinations(boxes, 2):
        assert apart(a, b), (a, b)
    labels = [label_box(item) for item in drawing.items if isinstance(item, Label)]
    for a, b in itertools.combinations(labels, 2):
        assert apart(a, b), (a, b)
    lines = [
        m for m in drawing.items if isinstance(m, Mark) and m.stroke == "line" and m.fill is None
    ]
    for line in lines:
        ends = [line.ops[0][1:3], line.ops[-1][-2:]]
        for x, y in ends:  # on a box's edge, or an end mark's length before it
            assert any(
                x0 - 20 <= x <= x1 + 20 and y0 - 20 <= y <= y1 + 20 for x0, y0, x1, y1 in boxes
            ), (x, y)


def line_points(mark: Mark) -> list[tuple[float, float]]:
    """Points along a stroked path every ~1 px (its quadratic corners sampled too)."""
    out: list[tuple[float, float]] = []
    here = (0.0, 0.0)
    for op in mark.ops:
        if op[0] == "M":
            here = (float(op[1]), float(op[2]))  # type: ignore[arg-type]
        elif op[0] in ("L", "Q"):
            end = (float(op[-2]), float(op[-1]))  # type: ignore[arg-type]
            ctrl = (float(op[1]), float(op[2])) if op[0] == "Q" else None  # type: ignore[arg-type]
            steps = max(2, int(abs(end[0] - here[0]) + abs(end[1] - here[1])))
            for k in range(steps + 1):
                t = k / steps
                if ctrl is None:
                    out.append((here[0] + (end[0] - here[0]) * t, here[1] + (end[1] - here[1]) * t))
                else:
                    a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
                    out.append(
                        (
                            a * here[0] + b * ctrl[0] + c * end[0],
                            a * here[1] + b * ctrl[1] + c * end[1],
                        )
                    )
            here = end
    return out


@pytest.mark.parametrize("index", range(len(case_sources())))
def test_no_line_runs_through_a_label_but_its_own_chip(setter, index: int) -> None:
    drawing = draw_diagram(case_sources()[index], setter.measure)
    items = drawing.items
    chips = {
        id(items[i + 1])
        for i, item in enumerate(items[:-1])
        if isinstance(item, Mark) and item.fill == tint("line")
    }
    labels = [label_box(i) for i in items if isinstance(i, Label) and id(i) not in chips]
    lines = [m for m in items if isinstance(m, Mark) and m.stroke == "line" and m.fill is None]
    for line in lines:
        for x, y in line_points(line):
            for x0, y0, x1, y1 in labels:
                assert not (x0 + 0.5 < x < x1 - 0.5 and y0 + 0.5 < y < y1 - 0.5), (x, y)


@pytest.mark.parametrize("index", range(len(case_sources())))
def test_every_label_is_in_the_alt_text_and_the_article_svg(setter, index: int) -> None:
    source = case_sources()[index]
    drawing = draw_diagram(source, setter.measure)
    alt = drawing.text.replace("\n", " ")
    svg = html.unescape(diagram_svg(source))
    for item in drawing.items:
        if isinstance(item, Label):
            for line in item.text.lines:
                assert line in alt or line in alt.replace(" ", ""), line
                assert line in svg, line


def test_class_boxes_hold_three_compartments_and_ends_are_drawn(setter) -> None:
    drawing = draw_diagram(
        "classDiagram\n  class A {\n    +int x\n    +go() void\n  }\n"
        "  A <|-- B\n  A *-- C\n  A o-- D",
        setter.measure,
    )
    dividers = [
        m for m in drawing.items if isinstance(m, Mark) and m.stroke == "border" and m.fill is None
    ]
    assert len(dividers) == 2  # attributes and methods of A; B, C, D have none
    hollow = [
        m for m in drawing.items if isinstance(m, Mark) and m.stroke == "line" and m.fill == "page"
    ]
    filled = [
        m for m in drawing.items if isinstance(m, Mark) and m.stroke == "line" and m.fill == "line"
    ]
    assert len(hollow) == 2 and len(filled) == 1  # triangle + hollow diamond; the filled diamond
    assert "+go() : void" in drawing.text


def test_crows_feet_rings_and_bars_mark_each_cardinality(setter) -> None:
    def marks(line: str) -> tuple[int, int]:
        drawing = draw_diagram(f"erDiagram\n  A {line} B : x", setter.measure)
        rings = [
            m
            for m in drawing.items
            if isinstance(m, Mark) and m.fill == "page" and m.stroke == "line"
        ]
        strokes = [
            m
            for m in drawing.items
            if isinstance(m, Mark) and m.stroke == "line" and m.fill is None
        ]
        return len(rings), len(strokes)

    assert marks("||--||") == (0, 5)  # the line, two bars at each end
    assert marks("|o--o|") == (2, 3)  # the line, a bar and a ring at each end
    assert marks("}o..o{") == (2, 3)  # the line, a crow's foot and a ring at each end


def test_a_left_right_diagram_is_laid_top_down_when_upright(setter) -> None:
    source = "classDiagram\n  direction LR\n  A --> B\n  B --> C"
    across = draw_diagram(source, setter.measure)
    upright = draw_diagram(source, setter.measure, upright=True)
    assert across.across and not upright.across
    assert across.width > across.height and upright.height > upright.width


def test_a_narrow_wrap_never_breaks_a_latin_word(setter) -> None:
    narrow = whole_words(lambda t, s, b, w: setter.measure(t, s, b, min(w, 40.0)))
    name = narrow("StripeGateway", 14.0, True, 180.0)
    assert name.lines == ("StripeGateway",)
    assert name.width >= setter.measure("StripeGateway", 14.0, True, 999.0).width - 1
    cjk = narrow("这是一个很长的中文类名", 14.0, True, 180.0)
    assert len(cjk.lines) > 1  # CJK still wraps between characters
    spaced = narrow("two words here", 14.0, False, 180.0)
    assert all(" " not in line or len(line) < 14 for line in spaced.lines)


def test_hostile_lines_are_read_in_linear_time() -> None:
    started = time.process_time()
    for source in (
        "classDiagram\nA" + " " * 15_000 + "-- B",
        "classDiagram\nA " + '"' * 15_000,
        "erDiagram\nA " + "-" * 15_000,
        "erDiagram\nA {\n" + "int " + "x " * 7_000 + "\n}",
    ):
        with contextlib.suppress(DiagramError):
            parse_diagram(source)
    assert time.process_time() - started < 1.0


def test_a_line_to_its_own_box_keeps_its_label_and_cardinalities(setter) -> None:
    for source in (
        'classDiagram\n  Node "1" --> "0..1" Node : next\n  Node <|-- Leaf',
        "erDiagram\n  EMPLOYEE ||--o{ EMPLOYEE : manages",
    ):
        drawing = draw_diagram(source, setter.measure)
        shown = [" ".join(i.text.lines) for i in drawing.items if isinstance(i, Label)]
        for label in ("next", "1", "0..1", "manages"):
            assert (label in shown) == (label in source), label
        labels = [label_box(i) for i in drawing.items if isinstance(i, Label)]
        for a, b in itertools.combinations(labels, 2):
            assert apart(a, b), (a, b)


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_a_card_shows_the_diagram_never_its_syntax(fonts, case: Path) -> None:
    options = layout.RenderOptions(split="autoSplit")
    pages = layout.layout_pages(case.read_text(), themes.load("apple-notes"), fonts, options)
    text = "\n".join(page.alt_text() for page in pages)
    assert "not drawn" not in text
    for syntax in ("<|--", "*--", "||--", "}o", "classDiagram", "erDiagram", "<<"):
        assert syntax not in text
    source = FENCE.search(case.read_text()).group(1)  # type: ignore[union-attr]
    for label in draw_diagram(source, LabelSetter(fonts).measure).text.splitlines():
        assert label in text


FRAGMENTS = {
    "classDiagram": (
        *("A", "B", "C~T~", '"1"', '"0..*"', "<|--", "--|>", "*--", "o--", "-->", "..>", "..|>"),
        *("--", "..", "()--", ":", "label", "{", "}", "class", "namespace N {", "note", "for"),
        *('note for A "x"', "<<interface>>", "+int x", "+go() void", "direction", "LR", "~"),
        *("$", "*", "(", ")", "[", "]", '"', ":::x", "o", "|", ">", "<", "A --> A : self"),
    ),
    "erDiagram": (
        *("A", "B", "LINE-ITEM", "客户", '"Cust X"', "||--o{", "}|..|{", "|o--o|", "}o--||"),
        *("--", "..", ":", "places", '"two words"', "{", "}", "string", "int", "id", "PK"),
        *("FK", ",", '"c"', "[", "]", "to", "optionally", "one or more", "only one", ":::"),
        *("direction", "LR", "o", "|", "A ||--o{ A : self"),
    ),
}


def test_random_lines_are_drawn_or_refused_never_a_crash(setter) -> None:
    """Fragments of both kinds' syntax shuffled into lines: every source is drawn or
    refused with a DiagramError, upright or not."""
    rng = random.Random(42)
    for _ in range(400):
        kind = rng.choice(list(FRAGMENTS))
        lines = [kind] + [
            " ".join(rng.choice(FRAGMENTS[kind]) for _ in range(rng.randint(1, 6)))
            for _ in range(rng.randint(1, 8))
        ]
        with contextlib.suppress(DiagramError):
            draw_diagram("\n".join(lines), setter.measure, upright=rng.random() < 0.5)
