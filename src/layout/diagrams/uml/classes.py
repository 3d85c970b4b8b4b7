"""Class diagrams and ER diagrams → `Drawing`s: boxes with compartments or attribute tables,
laid out in layers (boxgraph), joined by lines with UML ends or crow's feet.

A class is a box of up to three compartments as UML draws it: its name in bold under an
`«annotation»`, on the accent's tint; then its attributes; then its methods, each member
a line of its own, left-aligned. An entity is its name over a table of its attributes,
one row each (type, name, keys, comment in columns, rows striped). A relation's label sits
on a chip in the middle of its line; a cardinality beside the line at its end mark. A
note is a tinted box with a dashed line to its class, a namespace a panel round its classes.
"""

from __future__ import annotations

from dataclasses import replace

from ..flow.paint import Placed, look_ink, look_text
from ..marks import (
    LABEL_SIZE,
    MAX_LABEL_WIDTH,
    PAD_X,
    PAD_Y,
    SMALL_SIZE,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    finish,
    rect_ops,
    tint,
)
from .boxgraph import Point, Wire, beside_end, chip, lay_out, line_marks, panels
from .mermaidclass import ClassBox, ClassDiagram, Relation
from .mermaider import Entity, ErDiagram

MEMBER_WIDTH = MAX_LABEL_WIDTH * 1.25  # px: a member line wraps past it (mermaid never wraps)
_ROW_GAP = 2.0  # px between member lines
_COMPARTMENT_PAD = 6.0  # px above and below a compartment's lines
_EMPTY = 8.0  # px: an empty compartment's height
_CELL_GAP = 10.0  # px between an attribute table's columns
_BORDER = 1.0  # px: a box's outline and dividers
NOTE_ROLE = "series2"  # a note's tint: amber in the articles' palette


def whole_words(measure: Measure) -> Measure:
    """`measure`, but a Latin word broken across lines (a name wider than the width asked,
    say when `fit` wraps labels narrow) is set whole on one line: `StripeGatewa`/`y` reads
    worse than a wider box. Breaks between CJK characters or at spaces stay."""

    def whole(text: str, size: float, bold: bool, max_width: float) -> Lines:
        laid = measure(text, size, bold, max_width)
        joined: list[list[str]] = []  # each line shown: the pieces `measure` broke it into
        for line in laid.lines:
            if joined and _inside_word(joined[-1][-1], line) and "".join(joined[-1]) + line in text:
                joined[-1].append(line)
            else:
                joined.append([line])
        if len(joined) == len(laid.lines):
            return laid
        widths = [
            sum(measure(p, size, bold, max_width).width + 0.5 for p in pieces) for pieces in joined
        ]
        height = laid.height * len(joined) / len(laid.lines)
        return Lines(tuple("".join(p) for p in joined), max(widths), height, size, bold)

    return whole


def _inside_word(before: str, after: str) -> bool:
    """Whether a break between these two lines falls inside a Latin word."""
    return bool(before and after) and _latin(before[-1]) and _latin(after[0])


def _latin(char: str) -> bool:
    return char.isascii() and not char.isspace()


def layout_classes(diagram: ClassDiagram, measure: Measure, upright: bool = False) -> Drawing:
    """The class diagram laid out in layers (`upright`: a left-right one laid top-down, its
    layers and boxes closer, `boxgraph.lay_out(tight=True)`)."""
    measure = whole_words(measure)
    direction = "TB" if upright and diagram.direction in ("LR", "RL") else diagram.direction
    boxes = {box.id: _ClassLook(box, measure) for box in diagram.classes}
    wires = [
        Wire(
            r.source,
            r.target,
            measure(r.label, SMALL_SIZE, False, MAX_LABEL_WIDTH) if r.label else None,
            (_share(r.start, r), _share(r.end, r)),
        )
        for r in diagram.relations
    ]
    sizes = {key: (look.width, look.height) for key, look in boxes.items()}
    notes = {
        f"\0note{i}": measure(n.text, SMALL_SIZE, False, MAX_LABEL_WIDTH)
        for i, n in enumerate(diagram.notes)
    }
    sizes.update((key, (t.width + 2 * PAD_X, t.height + 2 * PAD_Y)) for key, t in notes.items())
    wires += [Wire(key, n.target) for key, n in zip(notes, diagram.notes, strict=True) if n.target]
    clusters = {
        member: tuple(i for i, space in enumerate(diagram.namespaces) if member in space.members)
        for member in boxes
    }
    placed, routes, chips = lay_out(sizes, wires, direction, clusters, upright)
    items: list[Mark | Label] = []
    for rel, route in zip(diagram.relations, routes, strict=False):
        items.extend(line_marks(route, rel.start, rel.end, rel.dashed))
    for route in routes[len(diagram.relations) :]:  # a note's dashed line to its class
        items.extend(line_marks(route, "", "", True))
    for key, look in boxes.items():
        items.extend(look.draw(placed[key]))
    for key, note in notes.items():
        items.extend(_note(placed[key], note))
    for spot in chips:
        if spot is not None:
            items.extend(chip(spot))
    cards = _cardinalities(diagram, routes, placed, measure)
    groups = [(space.label, space.members) for space in diagram.namespaces]
    taken = [item for item in items if isinstance(item, Label)] + cards
    items = panels(groups, placed, routes, taken, measure) + items + cards
    text = "\n".join(label for label in diagram.labels() if label)
    return replace(finish(items, text), across=direction in ("LR", "RL"), wide_cut=True)


def _cardinalities(
    diagram: ClassDiagram, routes: list[list[Point]], placed: dict[str, Placed], measure: Measure
) -> list[Mark | Label]:
    """Each relation's cardinalities, beside its end marks."""
    out: list[Mark | Label] = []
    for rel, route in zip(diagram.relations, routes, strict=False):
        for card, at_start, mark in (
            (rel.source_card, True, rel.start),
            (rel.target_card, False, rel.end),
        ):
            if card:
                card_text = measure(card, SMALL_SIZE, False, MAX_LABEL_WIDTH / 2)
                box = placed[rel.source if at_start else rel.target]
                out.append(beside_end(route, card_text, at_start, box, mark))
    return out


def _share(mark: str, rel: Relation) -> str:
    """Generalizations (solid) and realizations (dashed) of one class each meet in one
    triangle, as UML draws them; other ends keep a port of their own."""
    if mark != "triangle" or rel.source_card or rel.target_card or rel.label:
        return ""
    return "dashed triangle" if rel.dashed else "triangle"


def _note(p: Placed, text: Lines) -> list[Mark | Label]:
    """A note: its text on a tint of a warm series colour, as sticky notes are."""
    box = Mark(rect_ops(p.x - p.w / 2, p.y - p.h / 2, p.w, p.h, 3), None, tint(NOTE_ROLE))
    return [box, Label(text, p.x - p.w / 2 + PAD_X, p.y - text.height / 2, "text", "left")]


class _ClassLook:
    """One class's measured compartments and its size."""

    def __init__(self, box: ClassBox, measure: Measure) -> None:
        self.look = box.look
        self.name = look_text(measure, box.label, LABEL_SIZE, True, MAX_LABEL_WIDTH, box.look)
        self.annotation = (
            measure(f"«{box.annotation}»", SMALL_SIZE, False, MAX_LABEL_WIDTH)
            if box.annotation
            else None
        )
        members = bool(box.attributes or box.methods)
        self.compartments = (
            [
                [measure(m, SMALL_SIZE, False, MEMBER_WIDTH) for m in part]
                for part in (box.attributes, box.methods)
            ]
            if members
            else []
        )
        every = [self.name, *([self.annotation] if self.annotation else [])]
        every += [line for part in self.compartments for line in part]
        self.width = max(t.width for t in every) + 2 * PAD_X
        self.head = (
            2 * PAD_Y + self.name.height + (self.annotation.height if self.annotation else 0)
        )
        self.height = self.head + sum(_compartment_height(part) for part in self.compartments)

    def draw(self, p: Placed) -> list[Mark | Label]:
        """The box (in its author's fill, outline and ink where given: the whole box takes
        the fill, as mermaid-js draws it), its name and its compartments."""
        left, top, look = p.x - p.w / 2, p.y - p.h / 2, self.look
        stroke = look.stroke or "border"
        width = look.width if look.width is not None else _BORDER
        out: list[Mark | Label] = [
            Mark(rect_ops(left, top, p.w, p.h), stroke, look.fill or "page", width, look.dash),
        ]
        if not look.fill:
            out.append(Mark(rect_ops(left, top, p.w, self.head), None, tint("accent")))
        ink = look_ink(look)
        y = top + PAD_Y
        if self.annotation:
            out.append(Label(self.annotation, p.x, y, "muted" if ink == "text" else ink))
            y += self.annotation.height
        out.append(Label(self.name, p.x, y, ink))
        y = top + self.head
        for part in self.compartments:
            out.append(Mark((("M", left, y), ("L", left + p.w, y)), stroke, None, width))
            line_y = y + _COMPARTMENT_PAD
            for line in part:
                out.append(Label(line, left + PAD_X, line_y, ink, "left"))
                line_y += line.height + _ROW_GAP
            y += _compartment_height(part)
        return out


def _compartment_height(lines: list[Lines]) -> float:
    if not lines:
        return _EMPTY
    return 2 * _COMPARTMENT_PAD + sum(t.height for t in lines) + _ROW_GAP * (len(lines) - 1)


def layout_er(diagram: ErDiagram, measure: Measure, upright: bool = False) -> Drawing:
    """The ER diagram laid out in layers (`upright`: a left-right one laid top-down, its
    layers and boxes closer, `boxgraph.lay_out(tight=True)`)."""
    measure = whole_words(measure)
    direction = "TB" if upright and diagram.direction in ("LR", "RL") else diagram.direction
    boxes = {entity.id: _EntityLook(entity, measure) for entity in diagram.entities}
    wires = [
        Wire(
            k.source,
            k.target,
            measure(k.label, SMALL_SIZE, False, MAX_LABEL_WIDTH) if k.label else None,
        )
        for k in diagram.links
    ]
    sizes = {key: (look.width, look.height) for key, look in boxes.items()}
    placed, routes, chips = lay_out(sizes, wires, direction, tight=upright)
    items: list[Mark | Label] = []
    for link, route in zip(diagram.links, routes, strict=True):
        ends = ("-".join(link.source_end), "-".join(link.target_end))
        items.extend(line_marks(route, *ends, link.dashed))
    for key, look in boxes.items():
        items.extend(look.draw(placed[key]))
    for spot in chips:
        if spot is not None:
            items.extend(chip(spot))
    text = "\n".join(label for label in diagram.labels() if label)
    return replace(finish(items, text), across=direction in ("LR", "RL"), wide_cut=True)


class _EntityLook:
    """One entity's measured name and attribute table, and its size."""

    _COLOURS = ("muted", "text", "accent", "muted")  # type, name, keys, comment

    def __init__(self, entity: Entity, measure: Measure) -> None:
        self.look = entity.look
        self.name = measure(entity.label, LABEL_SIZE, True, MAX_LABEL_WIDTH)
        self.rows = [
            [
                measure(cell, SMALL_SIZE, column == 2, MAX_LABEL_WIDTH)
                for column, cell in enumerate((a.type, a.name, a.keys, a.comment))
            ]
            for a in entity.attributes
        ]
        widths = [max((row[c].width for row in self.rows), default=0.0) for c in range(4)]
        self.columns: list[float] = []  # each column's left, from the box's left
        x = PAD_X
        for width in widths:
            self.columns.append(x)
            x += width + _CELL_GAP if width else 0.0
        table = x - _CELL_GAP + PAD_X if self.rows else 0.0
        self.width = max(self.name.width + 2 * PAD_X, table)
        self.head = self.name.height + 2 * PAD_Y
        self.heights = [max(t.height for t in row) + 2 * _ROW_GAP + 2 for row in self.rows]
        self.height = self.head + sum(self.heights)

    def draw(self, p: Placed) -> list[Mark | Label]:
        """The box (in its author's fill, outline and ink where given: the whole box takes
        the fill, every cell the ink, so no row's text is lost on it as in mermaid-js),
        its name and its attribute rows, every other one tinted."""
        left, top, look = p.x - p.w / 2, p.y - p.h / 2, self.look
        stroke = look.stroke or "border"
        width = look.width if look.width is not None else _BORDER
        out: list[Mark | Label] = [
            Mark(rect_ops(left, top, p.w, p.h), stroke, look.fill or "page", width, look.dash)
        ]
        if not look.fill:
            out.append(Mark(rect_ops(left, top, p.w, self.head), None, tint("accent")))
        ink = look_ink(look)
        styled = ink != "text"
        out.append(Label(self.name, p.x, top + PAD_Y, ink))
        y = top + self.head
        for index, (row, height) in enumerate(zip(self.rows, self.heights, strict=True)):
            if index % 2:
                out.append(Mark(rect_ops(left, y, p.w, height), None, tint("line")))
            for column, cell in enumerate(row):
                if cell.lines and cell.lines != ("",):
                    colour = ink if styled else self._COLOURS[column]
                    out.append(
                        Label(cell, left + self.columns[column], y + _ROW_GAP + 1, colour, "left")
                    )
            y += height
        return out
