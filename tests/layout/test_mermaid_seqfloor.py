"""A sequence diagram has a size floor on a card: its labels are never drawn under
`SEQUENCE_FLOOR` of their size (about 7 px on a 360-px phone). One the card's width would
shrink under it is drawn compact (columns closer, names and labels wrapped narrower); one
still under it is drawn as the list of its steps (`seqsteps`), and one whose list would not
fit four cards shows as its source with a note, each said in the card's quality report. One
whose width alone sets its labels under 10 px is its steps where they take no more cards. A band
of lifelines' ends alone is no card."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.blocks.diagram import SEQUENCE_FLOOR
from inkcard.layout.diagrams.bands import bands
from inkcard.layout.diagrams.fit import DiagramBudget, draw_to_fit
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import (
    SMALL_SIZE,
    Drawing,
    Label,
    Lines,
    Mark,
    circle_ops,
    mark_bounds,
    rect_ops,
)
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.pages.quality import PHONE_WIDTH, measure

CASES = Path(__file__).parents[1] / "cases" / "mermaid"
CARD = 440
FLOOR_PX = SMALL_SIZE * SEQUENCE_FLOOR * PHONE_WIDTH / CARD  # 6.9 px on the phone


def _wide(count: int, name: str = "Service") -> str:
    lines = ["sequenceDiagram", "autonumber"]
    lines += [f"participant P{i} as {name} {i}" for i in range(count)]
    lines += [f"P{i}->>P{i + 1}: call step {i} now" for i in range(count - 1)]
    lines += [f"P{i + 1}-->>P{i}: reply {i}" for i in reversed(range(count - 1))]
    return "```mermaid\n" + "\n".join(lines) + "\n```\n"


def _qualities(post: str) -> list[layout.Quality]:
    options = layout.RenderOptions(width=CARD, height=586, split="autoSplit", mode="light-mode")
    pages = layout.layout_pages(post, themes.load("apple-notes"), layout.FontBook.load(), options)
    return [q for q in (measure(page) for page in pages) if q]


def test_a_wide_sequence_keeps_its_labels_over_the_floor() -> None:
    # its steps would take a card more than its columns: drawn compact
    qualities = _qualities((CASES / "73-sequence-long.md").read_text("utf-8"))
    assert min(q.smallest_text for q in qualities) >= FLOOR_PX - 0.05  # 5.4 px before
    assert any("drawn compact" in note for q in qualities for note in q.notes)


@pytest.mark.parametrize(
    "case", ["71-sequence-frames-boxes", "94-sequence-wide-cjk", "96-sequence-wide-six"]
)
def test_a_sequence_too_wide_to_read_is_its_steps_on_as_many_cards(case: str) -> None:
    # its columns set the messages at 6.9-7.3 px on a phone, on as many cards
    qualities = _qualities((CASES / f"{case}.md").read_text("utf-8"))
    notes = [note for q in qualities for note in q.notes]
    assert any(n.startswith("a wide sequence drawn as a list of its steps") for n in notes)
    assert min(q.smallest_text for q in qualities) >= 10.5
    assert len(qualities) <= 3 if case.startswith("71") else len(qualities) <= 2


def test_a_sequence_that_reads_in_columns_keeps_them() -> None:
    qualities = _qualities((CASES / "08-sequence-api.md").read_text("utf-8"))
    assert not any("steps" in note for q in qualities for note in q.notes)


def test_one_too_wide_even_compact_is_drawn_as_its_steps_and_says_so() -> None:
    qualities = _qualities(_wide(10, "Regional Replication Coordinator"))
    notes = [note for q in qualities for note in q.notes]
    assert any(n.startswith("a wide sequence drawn as a list of its steps") for n in notes)
    assert not any("shown as source" in n for n in notes), notes
    assert min(q.smallest_text for q in qualities) >= 10.5  # the steps at the labels' size


def test_steps_too_many_for_four_cards_show_the_source_and_say_so() -> None:
    source = _wide(10, "Regional Replication Coordinator").replace("\n```", "\n", 1)
    calls = [f"P{i % 9}->>P{i % 9 + 1}: step {i} of a very long run" for i in range(90)]
    qualities = _qualities(source.rstrip("`\n") + "\n" + "\n".join(calls) + "\n```\n")
    notes = [note for q in qualities for note in q.notes]
    assert any(n.startswith("a diagram shown as source: too wide") for n in notes), notes
    assert min(q.smallest_text for q in qualities) >= FLOOR_PX


def test_compact_wraps_names_but_not_inside_one_word(fonts) -> None:
    source = _wide(7, "Recommendations and ranking").split("\n", 1)[1].rsplit("```", 1)[0]
    source = source.replace("participant P0 as Recommendations and ranking 0", "participant P0")
    source = source.replace("as Recommendations and ranking 1", "as Recommendations")
    drawing = draw_to_fit(DiagramBudget(), source, LabelSetter(fonts).measure, 392.0, 476.0)
    assert "compact" in drawing.note
    heads = [i.text.lines for i in drawing.heads if isinstance(i, Label)]
    assert ("Recommendations",) in heads  # one word: whole
    assert any(len(lines) > 1 for lines in heads)  # the long names: wrapped


def test_a_tail_without_labels_is_no_band() -> None:
    label = Label(Lines(("a",), 10.0, 20.0, 12.0), 50.0, 10.0)
    lifeline = Mark((("M", 50.0, 0.0), ("L", 50.0, 1000.0)), "border", None, 1.0, (4.0, 4.0))
    drawing = Drawing(100.0, 1000.0, (label, lifeline), "a", heads=(label,))  # a sequence's
    parts = bands(drawing, 300.0, 300.0)
    assert [part.text for part in parts] == ["a"]  # four before: three of a dashed line


def test_any_other_drawings_foot_is_drawn() -> None:
    """A state chart's end dot under its last label, with the foot of the box above it,
    was left out with a sequence's lifelines' ends: the chart lost its end."""
    first = Label(Lines(("a",), 10.0, 20.0, 12.0), 50.0, 10.0)
    last = Label(Lines(("b",), 10.0, 20.0, 12.0), 50.0, 500.0)
    box = Mark(rect_ops(30.0, 490.0, 40.0, 50.0, 6.0), None, "panel")
    dot = Mark(circle_ops(50.0, 580.0, 9.0), None, "text")
    drawing = Drawing(100.0, 600.0, (first, box, last, dot), "a\nb")
    parts = bands(drawing, 290.0, 290.0)  # two bands to the last label, a third under it
    assert parts[-1].bottom == 600.0 and any(item is dot for item in parts[-1].items)


def test_a_cut_never_parts_a_label_from_its_arrow(fonts) -> None:
    post = (CASES / "90-sequence-create-destroy.md").read_text("utf-8")
    source = post.split("```mermaid\n", 1)[1].split("```", 1)[0]
    drawing = draw_to_fit(DiagramBudget(), source, LabelSetter(fonts).measure, 392.0, None)
    lines = [
        b[1]
        for b in (mark_bounds(i.ops) for i in drawing.items if isinstance(i, Mark))
        if b[1] == b[3] and b[2] - b[0] > 20  # a message's arrow: a level line
    ]
    pairs = []
    for label in (i for i in drawing.items if isinstance(i, Label)):
        foot = label.y + label.text.height
        under = [y for y in lines if foot <= y <= foot + 6]
        if under:
            pairs.append((label.y + label.text.height / 2, min(under)))
    assert len(pairs) > 30
    for height in range(150, 420, 9):  # cuts at many places
        for part in bands(drawing, float(height), float(height)):
            for middle, arrow in pairs:
                if part.top <= middle < part.bottom:
                    assert part.top <= arrow and arrow + 4.5 <= part.bottom, (
                        height,
                        arrow,
                    )  # its head whole


@pytest.mark.parametrize("case", ["71-sequence-frames-boxes", "73-sequence-long"])
def test_compact_wraps_between_words_never_inside_one(fonts, case: str) -> None:
    post = (CASES / f"{case}.md").read_text("utf-8")
    source = post.split("```mermaid\n", 1)[1].split("```", 1)[0]
    drawing = draw_to_fit(DiagramBudget(), source, LabelSetter(fonts).measure, 392.0, None)
    assert "compact" in drawing.note
    written = {" ".join(label.split()) for label in parse_diagram(source).labels()}
    wrapped = [i.text.lines for i in drawing.items if isinstance(i, Label)]
    assert any(len(lines) > 1 for lines in wrapped)
    for lines in wrapped:
        if len(lines) > 1 and all(line.isascii() for line in lines):  # broken at spaces only
            assert " ".join(lines) in written, lines  # "Idempoten t" before


def test_a_sequence_that_fits_its_floor_in_bands_is_cut_not_shown_as_source() -> None:
    """90 fits the card's width at 93 % but not its height: cut into bands at the
    width's size, never shrunk under the floor (nor sent to source, nor listed)."""
    qualities = _qualities((CASES / "90-sequence-create-destroy.md").read_text("utf-8"))
    notes = [note for q in qualities for note in q.notes]
    assert not any("shown as source" in note or "steps" in note for note in notes), notes
    assert any("cut into 4 bands" in note for note in notes), notes
    assert min(q.smallest_text for q in qualities) >= FLOOR_PX


@pytest.mark.parametrize("case", sorted(p.stem for p in CASES.glob("*sequence*.md")))
def test_no_sequence_case_is_drawn_under_its_floor(case: str) -> None:
    qualities = _qualities((CASES / f"{case}.md").read_text("utf-8"))
    assert min(q.smallest_text for q in qualities) >= FLOOR_PX - 0.05


def test_a_compact_numbered_label_stands_over_its_disc(fonts) -> None:
    """Beside the disc on one line (its foot 3 px over the arrow, the disc 9 px over it),
    tesseract read disc and a short CJK word together as Latin ("(1 ed" for 购买)."""
    post = (CASES / "94-sequence-wide-cjk.md").read_text("utf-8")
    source = post.split("```mermaid\n", 1)[1].split("```", 1)[0]
    drawing = draw_to_fit(DiagramBudget(), source, LabelSetter(fonts).measure, 392.0, None)
    assert "compact" in drawing.note
    discs = [
        mark_bounds(i.ops)
        for i in drawing.items
        if isinstance(i, Mark) and i.fill == "accent" and len(i.ops) > 5
    ]
    labels = [i for i in drawing.items if isinstance(i, Label) and i.color == "text"]
    assert len(discs) == 12
    for left, top, right, bottom in discs:
        beside = [
            label
            for label in labels
            if label.x - label.text.width / 2 < right + 12
            and label.x + label.text.width / 2 > left - 12
            and label.y < bottom
            and label.y + label.text.height > top - 20
        ]
        for label in beside:
            assert label.y + label.text.height <= top + 0.5, label.text.lines
