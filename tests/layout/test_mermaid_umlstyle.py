"""Class and state diagrams honour their author's styling as flowcharts do: `classDef`,
`class` (a state diagram's `class a, b name` too), `style`, `cssClass` and `:::`, read by
the one `StyleSheet`; the styled shape is drawn in the author's fill, outline and ink, its
label in the author's `font-weight` and `font-style` (Mermaid's own example: an italic
Moving, a bold italic Crash), on cards and in the article SVG."""

from __future__ import annotations

import pytest

from inkcard import layout
from inkcard.layout.base.boxes import GlyphRun
from inkcard.layout.diagrams import diagram_svg
from inkcard.layout.diagrams.flow.style import PLAIN, Look, parse_look
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label, Mark
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from tests.glyphruns import glyph_runs

STATES = """stateDiagram-v2
    classDef movement font-style:italic;
    classDef badBadEvent fill:#f00,color:white,font-weight:bold,stroke-width:2,stroke:yellow
    [*] --> Still:::notMoving
    Still --> Moving : go
    Moving --> Crash
    Crash --> [*]
    state Repair:::movement {
      [*] --> Fix
    }
    Crash --> Repair
    class Moving, Crash movement
    class Crash badBadEvent
    classDef notMoving fill:white
    style Still stroke:#0a0
    style Repair fill:#e7f5ff
"""

CLASSES = """classDiagram
  class Animal:::warm {
    +int age
    +eat()
  }
  class Duck["Wild duck"]:::cool <<interface>>
  Animal <|-- Duck
  Animal <|-- Fish
  classDef warm fill:#fff3bf,stroke:#f08c00
  classDef cool stroke:#1971c2;
  style Fish fill:#2b8a3e,stroke:#1b5e20,stroke-width:3px,color:#ffffff
  cssClass "Duck,Fish" cool
"""


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


def test_states_take_classdef_class_style_and_triple_colon() -> None:
    looks = {state.id: state.look for state in parse_diagram(STATES).states}
    assert looks["Still"].fill == "#ffffff" and looks["Still"].stroke == "#00aa00"
    crash = looks["Crash"]  # `movement` then `badBadEvent`: the later class wins
    assert (crash.fill, crash.stroke, crash.width, crash.color) == (
        "#ff0000",
        "#ffff00",
        2.0,
        "#ffffff",
    )
    assert looks["Repair"].fill == "#e7f5ff"
    assert looks["Fix"] == PLAIN and looks["Moving"] == Look(italic=True)
    assert (crash.bold, crash.italic) == (True, True)


def test_a_transition_label_after_a_styled_state_is_still_its_label() -> None:
    chart = parse_diagram("stateDiagram-v2\n  A:::x --> B:::y : go on\n  classDef y fill:#f00")
    assert [(t.source, t.target, t.label) for t in chart.transitions] == [("A", "B", "go on")]
    assert {s.id: s.look.fill for s in chart.states}["B"] == "#ff0000"


def test_classes_take_classdef_style_css_class_and_triple_colon() -> None:
    boxes = {box.id: box for box in parse_diagram(CLASSES).classes}
    assert boxes["Animal"].look.fill == "#fff3bf" and boxes["Animal"].look.stroke == "#f08c00"
    assert boxes["Duck"].annotation == "interface" and boxes["Duck"].label == "Wild duck"
    assert boxes["Duck"].look.stroke == "#1971c2"
    fish = boxes["Fish"].look
    assert (fish.fill, fish.width, fish.color) == ("#2b8a3e", 3.0, "#ffffff")


def _fills(source: str, setter: LabelSetter) -> set[str]:
    drawing = draw_diagram(source, setter.measure)
    return {i.fill for i in drawing.items if isinstance(i, Mark) and i.fill}


def _inks(source: str, setter: LabelSetter) -> dict[str, str]:
    drawing = draw_diagram(source, setter.measure)
    return {line: i.color for i in drawing.items if isinstance(i, Label) for line in i.text.lines}


@pytest.mark.parametrize("source", [STATES, CLASSES])
def test_the_author_colours_are_drawn_on_cards_and_in_the_svg(source, setter) -> None:
    fills = _fills(source, setter)
    wanted = {"#ff0000", "#e7f5ff"} if source is STATES else {"#fff3bf", "#2b8a3e"}
    assert wanted <= fills
    svg = diagram_svg(source)
    assert all(colour in svg for colour in wanted)


def test_a_label_on_an_author_fill_takes_their_ink(setter) -> None:
    assert _inks(STATES, setter)["Crash"] == "#ffffff"
    assert _inks(STATES, setter)["Moving"] == "text"
    assert _inks(CLASSES, setter)["Fish"] == "#ffffff"
    assert _inks(CLASSES, setter)["+int age"] == "#1c1f23"  # dark ink reads on pale yellow


@pytest.mark.parametrize(
    ("declarations", "bold", "italic"),
    [
        ("font-weight:bold", True, None),
        ("font-weight: 700", True, None),
        ("font-weight:bolder", True, None),
        ("font-weight:500", False, None),
        ("font-weight:normal,font-style:oblique 10deg", False, True),
        ("font-style:normal", None, False),
        ("font-weight:heavy,font-style:sideways", None, None),  # no browser takes these
        ("font-weight:9999", None, None),
    ],
)
def test_font_weight_and_style_are_read_as_css_reads_them(declarations, bold, italic) -> None:
    look = parse_look(declarations)
    assert (look.bold, look.italic) == (bold, italic)


def _labels(source: str, setter: LabelSetter) -> dict[str, Label]:
    drawing = draw_diagram(source, setter.measure)
    return {i.text.lines[0]: i for i in drawing.items if isinstance(i, Label) and i.text.lines}


def _runs(label: Label, setter: LabelSetter) -> list[GlyphRun]:
    return list(glyph_runs(tuple(setter.items(label, 0xFF000000))))


def test_a_state_label_is_drawn_in_its_classes_weight_and_slant(setter) -> None:
    labels = _labels(STATES, setter)
    crash, moving, fix = (_runs(labels[name], setter) for name in ("Crash", "Moving", "Fix"))
    assert all("Bold" in run.face and run.skew != 0 for run in crash)
    assert all("Bold" not in run.face and run.skew != 0 for run in moving)
    assert all("Bold" not in run.face and run.skew == 0 for run in fix)
    # measured bold: the box holds the bold word on one line
    assert labels["Crash"].text.bold and labels["Crash"].text.lines == ("Crash",)


def test_a_flowchart_and_a_class_take_font_weight_and_style(setter) -> None:
    flow = (
        "flowchart TD\n  A[写作草稿]:::loud --> B[Plain]\n"
        "  classDef loud font-weight:bold,font-style:italic"
    )
    labels = _labels(flow, setter)
    assert (labels["写作草稿"].text.bold, labels["写作草稿"].text.italic) == (True, True)
    assert not labels["Plain"].text.bold and not labels["Plain"].text.italic
    # a CJK label slants as the browser slants it (not set upright in Kai)
    assert all(run.skew != 0 for run in _runs(labels["写作草稿"], setter))
    quiet = "classDiagram\n  class Quiet\n  style Quiet font-weight:normal"
    assert not _labels(quiet, setter)["Quiet"].text.bold  # a class name is bold unless set


def test_the_article_svg_carries_the_slant_and_weight() -> None:
    svg = diagram_svg(STATES)
    crash = next(line for line in svg.split("<text") if ">Crash<" in line)
    assert 'font-weight="bold"' in crash and 'font-style="italic"' in crash
    still = next(line for line in svg.split("<text") if ">Still<" in line)
    assert "font-style" not in still
