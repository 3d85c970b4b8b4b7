"""ER diagrams honour their author's styling as flowcharts, class and state diagrams do:
`classDef`, `class A,B name`, `style A …` and `:::name` (after an entity's name or alias,
in a block's head and in a relationship), read by the one `StyleSheet`; a styled entity is
drawn in its author's fill, outline and ink, every cell in that ink, on cards and in the
article SVG."""

from __future__ import annotations

import pytest

from inkcard import layout
from inkcard.layout.diagrams import diagram_svg
from inkcard.layout.diagrams.flow.style import PLAIN
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label, Mark
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.errors import DiagramError

SHOP = """erDiagram
  CUSTOMER["客户"] {
    string id PK
    string name "姓名"
  }
  ORDER["订单"]:::hot {
    int id PK
    string customer_id FK
  }
  PRODUCT:::cool ||--o{ LINE_ITEM : "被购买"
  CUSTOMER ||--o{ ORDER : "下单"
  ORDER ||--|{ LINE_ITEM : "包含"
  LINE_ITEM one or more to only one SKU:::cool,hot : "对应"
  classDef hot fill:#d9480f,stroke:#862e0b,color:#ffffff
  classDef cool fill:#e7f5ff,stroke:#1c7ed6,stroke-width:2px
  style CUSTOMER fill:#2f9e44,stroke:#1b5e20,color:#fff
  class LINE_ITEM cool
"""


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


def _looks(source: str) -> dict:
    return {entity.id: entity.look for entity in parse_diagram(source).entities}


def test_entities_take_classdef_class_style_and_triple_colon() -> None:
    looks = _looks(SHOP)
    assert (looks["ORDER"].fill, looks["ORDER"].color) == ("#d9480f", "#ffffff")
    assert (looks["PRODUCT"].fill, looks["PRODUCT"].width) == ("#e7f5ff", 2.0)
    assert looks["LINE_ITEM"].stroke == "#1c7ed6"  # `class LINE_ITEM cool`
    assert (looks["CUSTOMER"].fill, looks["CUSTOMER"].stroke) == ("#2f9e44", "#1b5e20")
    assert looks["SKU"].fill == "#d9480f"  # `:::cool,hot`: the later class wins


def test_a_styled_name_keeps_its_relationships_labels_and_alias() -> None:
    diagram = parse_diagram(SHOP)
    assert [e.id for e in diagram.entities] == [
        "CUSTOMER",
        "ORDER",
        "PRODUCT",
        "LINE_ITEM",
        "SKU",
    ]
    assert {e.id: e.label for e in diagram.entities}["ORDER"] == "订单"
    assert [(k.source, k.target, k.label) for k in diagram.links] == [
        ("PRODUCT", "LINE_ITEM", "被购买"),
        ("CUSTOMER", "ORDER", "下单"),
        ("ORDER", "LINE_ITEM", "包含"),
        ("LINE_ITEM", "SKU", "对应"),
    ]
    assert [a.name for a in diagram.entities[1].attributes] == ["id", "customer_id"]


def test_an_unstyled_entity_keeps_the_theme() -> None:
    assert set(_looks("erDiagram\n  A ||--o{ B : has\n  classDef x fill:#f00").values()) == {PLAIN}


def _drawn(setter: LabelSetter) -> tuple[set[str], dict[str, str]]:
    drawing = draw_diagram(SHOP, setter.measure)
    fills = {i.fill for i in drawing.items if isinstance(i, Mark) and i.fill}
    inks = {line: i.color for i in drawing.items if isinstance(i, Label) for line in i.text.lines}
    return fills, inks


def test_the_author_colours_are_drawn_on_cards_and_in_the_svg(setter) -> None:
    fills, _ = _drawn(setter)
    wanted = {"#d9480f", "#e7f5ff", "#2f9e44"}
    assert wanted <= fills
    svg = diagram_svg(SHOP)
    assert all(colour in svg for colour in wanted)
    assert all(label in svg for label in ("客户", "订单", "姓名", "下单", "customer_id"))


def test_every_cell_of_a_styled_entity_takes_its_ink(setter) -> None:
    _, inks = _drawn(setter)
    assert inks["订单"] == inks["customer_id"] == inks["FK"] == "#ffffff"
    assert inks["姓名"] == "#ffffff"  # `style CUSTOMER … color:#fff`
    assert inks["LINE_ITEM"] == "#1c1f23"  # no `color`: the ink that reads on pale blue


@pytest.mark.parametrize(
    "source",
    ["erDiagram\n  A:::", "erDiagram\n  :::x ||--o{ B : has", 'erDiagram\n  A["x"]:::y {\n'],
)
def test_a_broken_styled_line_is_refused_in_one_line(source: str) -> None:
    with pytest.raises(DiagramError) as caught:
        parse_diagram(source)
    assert "\n" not in str(caught.value)
