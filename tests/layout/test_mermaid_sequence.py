"""Sequence diagrams as mermaid-js reads them: autonumber, activations, every arrow, notes,
every block, create/destroy, box groups, actors and aliases; laid out with no label over
another or over a frame's border, arrows ending at activation bars, conditions legible on
their chips in every theme; malformed input refused with a one-line reason."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.blocks.diagramink import LEGIBLE, _legible, colour
from inkcard.layout.diagrams import diagram_svg
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import SMALL_SIZE, Drawing, Label, Mark
from inkcard.layout.diagrams.mermaid import MAX_EDGES, MAX_NODES
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.diagrams.sequences.seqcolumns import BAR
from inkcard.layout.diagrams.sequences.sequenceparse import Lifeline, Message, Section, Sequence
from inkcard.layout.errors import DiagramError
from inkcard.layout.style.resolver import contrast, resolve

CASES = Path(__file__).parents[1] / "cases" / "mermaid"
FENCE = re.compile(r"```mermaid\n(.*?)```", re.S)
OURS = ["70-sequence-autonumber-cjk", "71-sequence-frames-boxes", "73-sequence-long"]


def case(stem: str) -> str:
    match = FENCE.search((CASES / f"{stem}.md").read_text("utf-8"))
    assert match
    return match.group(1)


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


def parse(source: str) -> Sequence:
    seq = parse_diagram("sequenceDiagram\n" + source)
    assert isinstance(seq, Sequence)
    return seq


def messages(seq: Sequence) -> list[Message]:
    return [e for e in seq.events if isinstance(e, Message)]


# Parsing


def test_every_arrow_is_read_with_its_line_and_heads() -> None:
    arrows = ["->", "-->", "->>", "-->>", "-x", "--x", "-)", "--)", "<<->>", "<<-->>"]
    seq = parse("".join(f"A{arrow}B: m{i}\n" for i, arrow in enumerate(arrows)))
    got = [(m.arrow, m.dashed, m.both) for m in messages(seq)]
    assert got == [
        ("open", False, False),
        ("open", True, False),
        ("filled", False, False),
        ("filled", True, False),
        ("cross", False, False),
        ("cross", True, False),
        ("async", False, False),
        ("async", True, False),
        ("filled", False, True),
        ("filled", True, True),
    ]
    assert [(m.source, m.target) for m in messages(seq)] == [("A", "B")] * len(arrows)


def test_autonumber_numbers_messages_from_its_start_by_its_step_until_off() -> None:
    seq = parse(
        "A->>B: x\nautonumber\nA->>B: a\nB->>A: b\nautonumber 10 5\nA->>B: c\n"
        "A->>B: d\nautonumber off\nA->>B: e\n"
    )
    assert [m.number for m in messages(seq)] == [None, 1, 2, 10, 15, None]


def test_activations_by_mark_and_by_statement() -> None:
    seq = parse("A->>+B: go\nB-->>-A: back\nactivate A\ndeactivate A\nA->>+ B: spaced\n")
    first, back, spaced = messages(seq)
    assert (first.activate, first.deactivate, first.target) == (True, False, "B")
    assert (back.activate, back.deactivate, back.target) == (False, True, "A")
    assert spaced.activate and spaced.target == "B"
    kinds = [(e.who, e.kind) for e in seq.events if isinstance(e, Lifeline)]
    assert kinds == [("A", "activate"), ("A", "deactivate")]


def test_create_destroy_boxes_actors_and_aliases() -> None:
    seq = parse(
        "box Aqua 前端\n  actor U as 用户\n  participant W as 网页\nend\n"
        "box rgb(1, 2, 3)\n  participant S\nend\n"
        "U->>W: 打开\ncreate participant T as 临时\nW->>T: 建\ndestroy T\nT-xW: 完\n"
    )
    people = {p.id: p for p in seq.participants}
    assert seq.boxes == ("前端", "")
    assert (people["U"].label, people["U"].actor, people["U"].box) == ("用户", True, 0)
    assert people["S"].box == 1 and people["T"].box == -1
    assert people["T"].created and people["T"].label == "临时"
    assert Lifeline("T", "destroy") in seq.events
    assert seq.labels()[:4] == ["前端", "用户", "网页", "S"]


def test_every_block_kind_opens_divides_and_closes() -> None:
    source = (
        "loop l\nA->>B: x\nend\nalt a\nA->>B: x\nelse e\nA->>B: y\nend\nopt o\nA->>B: x\nend\n"
        "par p\nA->>B: x\nand q\nA->>B: y\nend\ncritical c\nA->>B: x\noption d\nA->>B: y\nend\n"
        "break b\nA->>B: x\nend\nrect rgb(0, 0, 255)\nA->>B: x\nend\n"
    )
    sections = [e for e in parse(source).events if isinstance(e, Section)]
    opened = [s.keyword for s in sections if s.kind == "open"]
    assert opened == ["loop", "alt", "opt", "par", "critical", "break", "rect"]
    assert [s.keyword for s in sections if s.kind == "divider"] == ["else", "and", "option"]
    assert sum(s.kind == "close" for s in sections) == 7


@pytest.mark.parametrize(
    "source",
    [
        "create A->>B: x",
        "box A\nbox B\nend\nend",
        "loop x\nbox B\nend\nend",
        "box Title\nparticipant A",
        "autonumber one",
        "A->>B: x\nend",
        "what is this",
        "\n".join(f"participant P{i}" for i in range(MAX_NODES + 1)),
        "\n".join("A->>B: x" for _ in range(MAX_EDGES + 1)),
    ],
    ids=[
        "create",
        "box-in-box",
        "box-in-block",
        "open-box",
        "autonumber",
        "end",
        "junk",
        "participants",
        "messages",
    ],
)
def test_malformed_sequences_are_refused_with_a_one_line_note(source: str) -> None:
    with pytest.raises(DiagramError) as caught:
        parse_diagram("sequenceDiagram\n" + source)
    assert "\n" not in str(caught.value)


# Layout


def label_box(label: Label) -> tuple[float, float, float, float]:
    width = label.text.width
    left = label.x - width / 2 if label.align == "center" else label.x
    return left, label.y, left + width, label.y + label.text.height


def overlap(a: tuple[float, ...], b: tuple[float, ...], by: float = 0.5) -> bool:
    return a[0] + by < b[2] and b[0] + by < a[2] and a[1] + by < b[3] and b[1] + by < a[3]


def labels(drawing: Drawing) -> list[Label]:
    return [item for item in drawing.items if isinstance(item, Label)]


def frames(drawing: Drawing) -> list[tuple[float, float, float, float]]:
    """The outlines of loop/alt/... frames (stroked in the accent, not filled)."""
    out = []
    for item in drawing.items:
        if isinstance(item, Mark) and item.stroke == "accent" and item.fill is None:
            points = [op for op in item.ops if len(op) >= 3]
            if len(points) >= 4:
                xs = [float(op[-2]) for op in points]  # type: ignore[arg-type]
                ys = [float(op[-1]) for op in points]  # type: ignore[arg-type]
                out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


@pytest.mark.parametrize("stem", OURS)
def test_no_label_overlaps_another_or_a_frame_border(setter, stem: str) -> None:
    drawing = draw_diagram(case(stem), setter.measure)
    boxes = [label_box(label) for label in labels(drawing)]
    for a, b in itertools.combinations(boxes, 2):
        assert not overlap(a, b), (a, b)
    for left, top, right, bottom in frames(drawing):
        for box in boxes:
            inside = left < box[0] and box[2] < right and top < box[1] and box[3] < bottom
            outside = not overlap(box, (left, top, right, bottom), 0.0)
            crosses_side = box[0] < left < box[2] or box[0] < right < box[2]
            assert inside or outside or not crosses_side, (box, (left, top, right, bottom))


@pytest.mark.parametrize("stem", OURS)
def test_every_label_is_drawn_and_in_the_svg(setter, stem: str) -> None:
    source = case(stem)
    drawing = draw_diagram(source, setter.measure)
    seq = parse_diagram(source)
    drawn = " ".join(line for label in labels(drawing) for line in label.text.lines)
    svg = diagram_svg(source)
    for text in seq.labels():
        assert text in drawing.text
        assert text.split()[0] in drawn
        assert text.split()[0] in svg


def test_a_self_message_label_stays_inside_its_frame(setter) -> None:
    source = (
        "sequenceDiagram\nparticipant A\nparticipant B\nloop tick\n"
        "B->>B: a rather long label for a self message\nend\n"
    )
    drawing = draw_diagram(source, setter.measure)
    ((left, top, right, bottom),) = frames(drawing)
    label = next(lab for lab in labels(drawing) if lab.text.lines[0].startswith("a rather"))
    box = label_box(label)
    assert left < box[0] and box[2] < right and top < box[1] and box[3] < bottom


def test_arrows_end_at_activation_bars_and_numbers_ride_their_starts(setter) -> None:
    drawing = draw_diagram(
        "sequenceDiagram\nautonumber\nA->>+B: go\nB-->>-A: back\n", setter.measure
    )
    bars = [i for i in drawing.items if isinstance(i, Mark) and i.fill == "border"]
    assert len(bars) == 1
    bar_xs = [float(op[-2]) for op in bars[0].ops if len(op) >= 3]  # type: ignore[arg-type]
    assert max(bar_xs) - min(bar_xs) == pytest.approx(BAR, abs=0.01)
    numbers = [lab for lab in labels(drawing) if lab.color == "on_accent"]
    assert [lab.text.lines[0] for lab in numbers] == ["1", "2"]
    assert numbers[1].x == pytest.approx(min(bar_xs), abs=0.01)  # B's reply leaves its bar


def test_a_created_participant_heads_its_row_and_a_destroyed_one_ends_in_a_cross(setter) -> None:
    source = (
        "sequenceDiagram\nA->>B: one\ncreate participant C\nB->>C: make\n"
        "destroy C\nC-xB: gone\nA->>B: after\n"
    )
    drawing = draw_diagram(source, setter.measure)
    heads = {lab.text.lines[0]: lab for lab in labels(drawing) if lab.text.lines[0] in "ABC"}
    assert heads["A"].y == heads["B"].y < heads["C"].y
    crosses = [i for i in drawing.items if isinstance(i, Mark) and i.stroke == "text"]
    assert len(crosses) == 1
    after = next(lab for lab in labels(drawing) if lab.text.lines[0] == "after")
    cross_y = max(float(op[-1]) for op in crosses[0].ops)  # type: ignore[arg-type]
    assert cross_y < after.y  # the lifeline ended before the next message


def test_conditions_are_full_size_muted_on_chips_legible_in_every_theme(setter) -> None:
    drawing = draw_diagram(case("71-sequence-frames-boxes"), setter.measure)
    conditions = [
        lab for lab in labels(drawing) if lab.text.lines[0] in ("Stock is short", "Wallet payment")
    ]
    assert len(conditions) == 2
    assert all(lab.color == "muted" and lab.text.size == SMALL_SIZE for lab in conditions)
    for name in themes.names():
        for mode in themes.modes(name) or [None]:
            styles = resolve(themes.load(name), mode)
            chip = colour(styles, "panel")
            if chip >> 24 != 0xFF:  # a see-through panel (brandC): what is under it is unknown
                continue
            ink = _legible(colour(styles, "muted"), chip, styles)
            assert contrast(ink, chip) >= LEGIBLE, (name, mode)


def test_a_title_is_read_and_drawn_above_the_heads(setter) -> None:
    source = "sequenceDiagram\ntitle 一次下单\nA->>B: x\n"
    seq = parse_diagram(source)
    assert isinstance(seq, Sequence) and seq.labels()[0] == "一次下单"
    drawing = draw_diagram(source, setter.measure)
    title = next(lab for lab in labels(drawing) if lab.text.lines[0] == "一次下单")
    head = next(lab for lab in labels(drawing) if lab.text.lines[0] == "A")
    assert title.y + title.text.height < head.y


def test_article_conditions_read_on_their_chips() -> None:
    """Articles have no theme to check against: the fixed palette's muted ink is 4.5:1 on
    the panel a condition's chip is filled with."""
    from inkcard.layout.diagrams.svg import PALETTE

    def argb(hex_colour: str) -> int:
        return 0xFF000000 | int(hex_colour[1:], 16)

    assert contrast(argb(PALETTE["muted"]), argb(PALETTE["panel"])) >= LEGIBLE
