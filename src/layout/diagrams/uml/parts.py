"""A class or ER diagram too large for a card at a legible size → parts, each a whole diagram.

Cut as a picture into strips and bands (`bands.strips`), a dense class diagram became tiles
whose lines ran off the card's edges, one of them a lone box and a chip (case 21). Split as
a model instead, each part is a diagram of its own, laid out whole: its boxes are taken in
the order a reader meets them (the first written, then along its relations, breadth
first), as many as the caller's `draw` takes (it answers None when a part no longer fits a
card at a legible size). A box of an earlier part tied to a box of this one is drawn again
by its name only, dashed (as a UML tool shows a class from another sheet), so the relation
shows where it is drawn; each relation is drawn once, in the part of the later of its
boxes, and a note with its class. A namespace, or a note on no class, ties a diagram
together: one with either is not split.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..marks import Drawing
from .mermaidclass import ClassBox, ClassDiagram
from .mermaider import Entity, ErDiagram

ELSEWHERE = (4.0, 3.0)  # the dash of a box drawn again from another part
LEAST_OWN = 2  # a last part holding fewer of its own takes one of the part before's
LEAST_BOXES = 2  # boxes a part shows, its own and again: a lone box is no card's worth
# A part whose relations join its boxes into more groups than this is scraps: case 20 split
# at the floor gave a second part of three pairs side by side (鸭子 → 会飞, 饲养员 → 食物,
# 鱼缸 → 鱼), worse than the whole a little small; 21's third part, two pairs, reads well
MOST_PIECES = 2
Record = ClassDiagram | ErDiagram


def split(
    diagram: Record, draw: Callable[[Record, int], Drawing | None], most: int
) -> list[Drawing]:
    """The diagram's parts, drawn by `draw` (the part and its index; None when it does not
    fit), at most `most`, each showing `LEAST_BOXES` at least (a last part with fewer than
    `LEAST_OWN` of its own takes the part before's last where that has more), its boxes
    joined by its relations into at most `MOST_PIECES` groups; none when it cannot be so
    split (one part: it was not too large; a namespace; a note on no class; scraps)."""
    if isinstance(diagram, ClassDiagram) and (
        diagram.namespaces or any(not note.target for note in diagram.notes)
    ):
        return []
    drawn: dict[tuple[tuple[str, ...], frozenset[str], int], tuple[Drawing | None, int]] = {}

    def part(groups: list[list[str]], index: int) -> Drawing | None:
        return shown(groups, index)[0]

    def shown(groups: list[list[str]], index: int) -> tuple[Drawing | None, int]:
        before = frozenset(box for group in groups[:index] for box in group)
        key = (tuple(groups[index]), before, index)
        if key not in drawn:
            record = _part(diagram, groups[index], set(before))
            drawn[key] = draw(record, index), len(_ids(record))
        return drawn[key]

    groups: list[list[str]] = [[]]
    for box in _reading_order(diagram):
        groups[-1].append(box)
        if part(groups, len(groups) - 1) is not None:
            continue
        groups[-1].pop()
        if not groups[-1] or len(groups) == most:
            return []
        groups.append([box])
        if part(groups, len(groups) - 1) is None:
            return []
    if len(groups) < 2:
        return []
    if len(groups[-1]) < LEAST_OWN < len(groups[-2]):
        groups[-1].insert(0, groups[-2].pop())
    out = [shown(groups, index) for index in range(len(groups))]
    if any(drawing is None or boxes < LEAST_BOXES for drawing, boxes in out):
        return []
    for index, own in enumerate(groups):
        before = {box for group in groups[:index] for box in group}
        if _pieces(_part(diagram, own, before)) > MOST_PIECES:
            return []  # scraps: read worse than the whole a little small
    return [drawing for drawing, _ in out if drawing is not None]


def _pieces(part: Record) -> int:
    """How many groups of boxes the part's relations join (1: all one drawing)."""
    near: dict[str, set[str]] = {key: set() for key in _ids(part)}
    for source, target in _ends(part):
        near[source].add(target)
        near[target].add(source)
    left, count = set(near), 0
    while left:
        count += 1
        queue = [left.pop()]
        for key in queue:
            fresh = near[key] & left
            left -= fresh
            queue.extend(fresh)
    return count


def _ends(diagram: ClassDiagram | ErDiagram) -> list[tuple[str, str]]:
    if isinstance(diagram, ClassDiagram):
        return [(relation.source, relation.target) for relation in diagram.relations]
    return [(link.source, link.target) for link in diagram.links]


def _ids(diagram: ClassDiagram | ErDiagram) -> list[str]:
    boxes = diagram.classes if isinstance(diagram, ClassDiagram) else diagram.entities
    return [box.id for box in boxes]


def _reading_order(diagram: ClassDiagram | ErDiagram) -> list[str]:
    """The boxes breadth first along their relations (either way), from the first written
    that no relation points to (the layout's top, where a reader starts); what that does
    not reach, again from the next such box, or the next written."""
    near: dict[str, list[str]] = {key: [] for key in _ids(diagram)}
    for source, target in _ends(diagram):
        near[source].append(target)
        near[target].append(source)
    targets = {target for _, target in _ends(diagram)}
    seen: dict[str, None] = {}
    for start in sorted(near, key=lambda key: key in targets):  # stable: roots first
        if start in seen:
            continue
        queue, seen[start] = [start], None
        for key in queue:
            for other in near[key]:
                if other not in seen:
                    seen[other] = None
                    queue.append(other)
    return list(seen)


def _part(diagram: Record, own: list[str], before: set[str]) -> Record:
    """The diagram of the boxes `own` and the relations each has with them or with a box
    of an earlier part (`before`), which is drawn again by its name, dashed."""
    mine = set(own)
    kept = [
        index
        for index, (a, b) in enumerate(_ends(diagram))
        if (a in mine or b in mine) and {a, b} <= mine | before
    ]
    again = {end for index in kept for end in _ends(diagram)[index]} - mine
    if isinstance(diagram, ClassDiagram):
        classes = tuple(
            box if box.id in mine else _class_elsewhere(box)
            for box in diagram.classes
            if box.id in mine | again
        )
        relations = tuple(diagram.relations[index] for index in kept)
        notes = tuple(note for note in diagram.notes if note.target in mine)
        return replace(diagram, classes=classes, relations=relations, notes=notes)
    entities = tuple(
        entity if entity.id in mine else _entity_elsewhere(entity)
        for entity in diagram.entities
        if entity.id in mine | again
    )
    return replace(diagram, entities=entities, links=tuple(diagram.links[i] for i in kept))


def _class_elsewhere(box: ClassBox) -> ClassBox:
    """A class drawn in full in an earlier part: its name only, its outline dashed."""
    return replace(box, attributes=(), methods=(), look=replace(box.look, dash=ELSEWHERE))


def _entity_elsewhere(entity: Entity) -> Entity:
    """An entity drawn in full in an earlier part: its name only, its outline dashed."""
    return replace(entity, attributes=(), look=replace(entity.look, dash=ELSEWHERE))
