"""Class and ER diagrams read as mermaid-js reads them (members, annotations, generics, every
relation end, cardinalities, notes, namespaces; entities, attribute tables, crow's-foot ends),
and refused with a one-line note where they would change meaning. Their layout is tested in
test_mermaid_classlayout.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from inkcard.layout.diagrams.mermaid import MAX_EDGES, MAX_NODES, statements
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.diagrams.uml.mermaidclass import ClassDiagram, Namespace, parse_class_diagram
from inkcard.layout.diagrams.uml.mermaider import ErDiagram, parse_er_diagram
from inkcard.layout.errors import DiagramError

CASES = sorted((Path(__file__).parents[1] / "cases" / "mermaid").glob("2[0-9]-*.md"))
FENCE = re.compile(r"```mermaid\n(.*?)```", re.S)
KINDS = ("classDiagram", "erDiagram")


def case_sources() -> list[str]:
    found = [m.group(1) for case in CASES for m in FENCE.finditer(case.read_text())]
    return [s for s in found if s.split()[0] in KINDS]


def classes(source: str) -> ClassDiagram:
    return parse_class_diagram(statements(source))


def entities(source: str) -> ErDiagram:
    return parse_er_diagram(statements(source))


# Parsing: class diagrams


def test_members_come_from_blocks_and_colon_lines_with_annotations_and_generics() -> None:
    diagram = classes(
        """classDiagram
  class Animal~T~ {
    <<abstract>>
    +String name
    -List~List~int~~ ids
    +eat(food) bool
    +count()$ int
    +speak()*
  }
  Animal : +int age
  Animal : ~List~int~ ages
  Animal : +isMammal() bool
  <<interface>> Swimmer
  class Bird["A bird"]:::pretty
"""
    )
    animal, swimmer, bird = diagram.classes
    assert (animal.id, animal.label, animal.annotation) == ("Animal", "Animal<T>", "abstract")
    assert animal.attributes == (
        "+String name",
        "-List<List<int>> ids",
        "+int age",
        "~List<int> ages",
    )
    assert animal.methods == (
        "+eat(food) : bool",
        "+count() : int",
        "+speak()",
        "+isMammal() : bool",
    )
    assert (swimmer.annotation, bird.label) == ("interface", "A bird")


@pytest.mark.parametrize(
    ("line", "start", "end", "dashed"),
    [
        ("A <|-- B", "triangle", "", False),
        ("A --|> B", "", "triangle", False),
        ("A *-- B", "diamond", "", False),
        ("A --* B", "", "diamond", False),
        ("A o-- B", "hollow", "", False),
        ("A --o B", "", "hollow", False),
        ("A --> B", "", "arrow", False),
        ("A <-- B", "arrow", "", False),
        ("A ..> B", "", "arrow", True),
        ("A ..|> B", "", "triangle", True),
        ("A <|.. B", "triangle", "", True),
        ("A -- B", "", "", False),
        ("A .. B", "", "", True),
        ("A ()-- B", "lollipop", "", False),
        ("A <|--|> B", "triangle", "triangle", False),
        ("A*--*B", "diamond", "diamond", False),
    ],
)
def test_every_relation_end_both_ways(line: str, start: str, end: str, dashed: bool) -> None:
    (relation,) = classes(f"classDiagram\n{line}").relations
    assert (relation.source, relation.target) == ("A", "B")
    assert (relation.start, relation.end, relation.dashed) == (start, end, dashed)


def test_cardinalities_labels_names_ending_in_o_and_direction() -> None:
    diagram = classes(
        """classDiagram
  direction LR
  Customer "1" --> "0..*" Ticket : buys
  Zoo-->Hippo
  Zoo o-- Hippo
"""
    )
    buys, plain, aggregation = diagram.relations
    assert diagram.direction == "LR"
    assert (buys.source_card, buys.target_card, buys.label) == ("1", "0..*", "buys")
    assert (plain.source, plain.start, plain.end) == ("Zoo", "", "arrow")
    assert (aggregation.source, aggregation.start) == ("Zoo", "hollow")


def test_namespaces_keep_their_classes_and_styling_lines_are_skipped() -> None:
    diagram = classes(
        """classDiagram
  namespace Shapes {
    class Square
    class Circle {
      +radius
    }
  }
  classDef hot fill:#f00
  style Square fill:#f9f
  cssClass "Square" hot
  click Square href "https://example.com"
  note for Square "a note"
  Square <|-- Circle
"""
    )
    assert [c.id for c in diagram.classes] == ["Square", "Circle"]
    assert diagram.classes[1].attributes == ("+radius",)
    assert [(n.text, n.target) for n in diagram.notes] == [("a note", "Square")]
    assert diagram.namespaces == (Namespace("Shapes", ("Square", "Circle")),)


@pytest.mark.parametrize(
    "source",
    [
        "classDiagram\n",
        "classDiagram\nclass A {\n+x",
        "classDiagram\n}",
        "classDiagram\nthis is not a statement",
        "classDiagram\nA{x} --> B",
        'classDiagram\nA "1 --> B',
        'classDiagram\nA "1" B --> C',
        "classDiagram\ndirection XY",
        "classDiagram\nnote for A unquoted",
        'classDiagram\nnote for Nobody "x"',
        "classDiagram\nnamespace N\nclass A",
        "classDiagram\n" + "namespace N {\n" * 20 + "}\n" * 20,
        "classDiagram\n" + "\n".join(f"class C{i}" for i in range(MAX_NODES + 1)),
        "classDiagram\n" + "\n".join("A --> B" for _ in range(MAX_EDGES + 1)),
        "classDiagram\n" + "\n".join(f"A : +m{i}" for i in range(MAX_EDGES + 1)),
    ],
    ids=[
        "empty",
        "unclosed",
        "stray-brace",
        "unknown",
        "bad-name",
        "quote",
        "card-apart",
        "direction",
        "note-unquoted",
        "note-unknown",
        "namespace-brace",
        "nesting",
        "classes",
        "relations",
        "members",
    ],
)
def test_a_class_diagram_we_cannot_read_is_refused_in_one_line(source: str) -> None:
    with pytest.raises(DiagramError) as caught:
        parse_diagram(source)
    assert "\n" not in str(caught.value)


# Parsing: ER diagrams


def test_entities_attributes_keys_comments_and_aliases() -> None:
    diagram = entities(
        """erDiagram
  CUSTOMER["Customer account"] {
    string name
    int id PK, FK "the number"
    string email UK
  }
  p[Person] { string name }
  LONELY
"""
    )
    customer, person, lonely = diagram.entities
    assert customer.label == "Customer account"
    assert [(a.type, a.name, a.keys, a.comment) for a in customer.attributes] == [
        ("string", "name", "", ""),
        ("int", "id", "PK, FK", "the number"),
        ("string", "email", "UK", ""),
    ]
    assert (person.id, person.label, person.attributes[0].name) == ("p", "Person", "name")
    assert (lonely.id, lonely.attributes) == ("LONELY", ())


@pytest.mark.parametrize(
    ("line", "source_end", "target_end", "dashed"),
    [
        ("A ||--o{ B : places", ("one", "one"), ("zero", "many"), False),
        ("A |o..o| B : x", ("zero", "one"), ("zero", "one"), True),
        ("A }o--|{ B : x", ("zero", "many"), ("one", "many"), False),
        ('A }|..|| B : "two words"', ("one", "many"), ("one", "one"), True),
    ],
)
def test_every_cardinality_both_ends(
    line: str, source_end: tuple[str, str], target_end: tuple[str, str], dashed: bool
) -> None:
    (link,) = entities(f"erDiagram\n{line}").links
    assert (link.source, link.target, link.source_end, link.target_end) == (
        "A",
        "B",
        source_end,
        target_end,
    )
    assert link.dashed == dashed and link.label in ("places", "x", "two words")


def test_cardinalities_in_words() -> None:
    one, two = entities(
        "erDiagram\n  A one or more to zero or one B : has\n"
        "  C only one optionally to many(0) D : may"
    ).links
    assert (one.source, one.target, one.source_end, one.target_end) == (
        "A",
        "B",
        ("one", "many"),
        ("zero", "one"),
    )
    assert (one.dashed, one.label) == (False, "has")
    assert (two.source_end, two.target_end, two.dashed) == (("one", "one"), ("zero", "many"), True)


def test_style_suffixes_are_dropped() -> None:
    diagram = entities("erDiagram\n  A:::hot ||--o{ B:::cold : has\n  C:::x {\n    int id\n  }")
    assert [e.id for e in diagram.entities] == ["A", "B", "C"]
    assert diagram.links[0].label == "has"


def test_names_with_dashes_and_cjk_read_whole() -> None:
    (link,) = entities("erDiagram\n  LINE-ITEM ||--o{ 订单 : 属于").links
    assert (link.source, link.target, link.label) == ("LINE-ITEM", "订单", "属于")


@pytest.mark.parametrize(
    "source",
    [
        "erDiagram\n",
        "erDiagram\nA {\nint id",
        "erDiagram\nA {\nint id XX\n}",
        "erDiagram\nA {\nint\n}",
        'erDiagram\nA {\nint id "open\n}',
        "erDiagram\nA ||--o{ : x",
        "erDiagram\nA |x--o{ B : x",
        "erDiagram\nA lots to few B : x",
        "erDiagram\nto to",
        "erDiagram\nA[open {",
        "erDiagram\n:::",
        "erDiagram\ndirection XY",
        "erDiagram\n" + "\n".join(f"E{i}" for i in range(MAX_NODES + 1)),
        "erDiagram\n" + "\n".join("A ||--|| B : x" for _ in range(MAX_EDGES + 1)),
        "erDiagram\nA {\n" + "int x\n" * (MAX_EDGES + 1) + "}",
    ],
)
def test_an_er_diagram_we_cannot_read_is_refused_in_one_line(source: str) -> None:
    with pytest.raises(DiagramError) as caught:
        parse_diagram(source)
    assert "\n" not in str(caught.value)
