"""A mind map record + a label `Measure` → its `Drawing`: a tidy tree growing from its root.

The tree grows both ways from its root (the root's branches shared between the sides by
their number of leaves), or all to the right when `one_sided` (a narrow card, a phone); each
first-level branch in a colour of its own, deeper nodes as underlined words as in XMind.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .marks import (
    LABEL_SIZE,
    MAX_LABEL_WIDTH,
    PAD_X,
    PAD_Y,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    Op,
    circle_ops,
    finish,
    rect_ops,
    tint,
)
from .mermaidkinds import Mindmap, MindNode

BRANCH_GAP, SIBLING_GAP = 28.0, 8.0  # px between mind map columns, and between siblings


@dataclass
class _Branch:
    node: MindNode
    text: Lines
    depth: int
    colour: str
    w: float
    h: float
    children: list[_Branch] = field(default_factory=list)
    span: float = 0.0  # the height of the subtree
    x: float = 0.0  # the side of the box nearest the root
    y: float = 0.0  # centre


def layout_mindmap(tree: Mindmap, measure: Measure, one_sided: bool = False) -> Drawing:
    """Branches on both sides of the root, balanced by their leaves; `one_sided`: all on
    its right, half as wide and about twice as tall (a narrow card or a phone)."""
    root = _branch(tree.root, measure, 0, "accent")
    for index, child in enumerate(tree.root.children):
        root.children.append(_branch(child, measure, 1, f"series{index}"))
    leaves = [_leaves(c.node) for c in root.children]
    half, running, split = sum(leaves) / 2, 0, len(root.children)
    if len(root.children) > 2 and not one_sided:
        for index, count in enumerate(leaves):
            running += count
            if running >= half:
                split = index + 1
                break
    items: list[Mark | Label] = []
    for side, branches in ((1, root.children[:split]), (-1, root.children[split:])):
        total = sum(b.span for b in branches) + SIBLING_GAP * max(0, len(branches) - 1)
        top = -total / 2
        for branch in branches:
            _place(branch, side * (root.w / 2 + BRANCH_GAP), top + branch.span / 2, side)
            top += branch.span + SIBLING_GAP
            _draw_branch(items, root, branch, side)
    items.append(_mind_box(root, -root.w / 2, 0.0))
    items.append(Label(root.text, 0.0, -root.text.height / 2, "on_accent"))
    drawing = finish(items, "\n".join(tree.labels()))
    return replace(drawing, across=split < len(root.children))  # a narrower one exists


def _branch(node: MindNode, measure: Measure, depth: int, colour: str) -> _Branch:
    size = LABEL_SIZE + (2 if depth == 0 else 0) - (1 if depth > 1 else 0)
    text = measure(node.label, size, depth <= 1, MAX_LABEL_WIDTH)
    boxed = depth <= 1
    w = text.width + (2 * PAD_X if boxed else 4)
    h = text.height + (2 * PAD_Y if boxed else 6)
    branch = _Branch(node, text, depth, colour, w, h)
    if depth:
        branch.children = [_branch(c, measure, depth + 1, colour) for c in node.children]
    kids = sum(c.span for c in branch.children) + SIBLING_GAP * max(0, len(branch.children) - 1)
    branch.span = max(h, kids)
    return branch


def _leaves(node: MindNode) -> int:
    return 1 if not node.children else sum(_leaves(c) for c in node.children)


def _place(branch: _Branch, x: float, y: float, side: int) -> None:
    branch.x, branch.y = x, y
    top = y - (branch.span - branch.h) / 2 if not branch.children else y - _kids_span(branch) / 2
    for child in branch.children:
        _place(child, x + side * (branch.w + BRANCH_GAP), top + child.span / 2, side)
        top += child.span + SIBLING_GAP


def _kids_span(branch: _Branch) -> float:
    return sum(c.span for c in branch.children) + SIBLING_GAP * (len(branch.children) - 1)


def _draw_branch(items: list[Mark | Label], parent: _Branch, branch: _Branch, side: int) -> None:
    near = branch.x
    left = near if side > 0 else near - branch.w
    start_x = parent.x + side * parent.w if parent.depth else side * parent.w / 2
    start_y = parent.y + (parent.h / 2 - 3 if parent.depth > 1 else 0.0)
    end_y = branch.y + (branch.h / 2 - 3 if branch.depth > 1 else 0.0)
    bend = (near - start_x) / 2
    curve: tuple[Op, ...] = (
        ("M", start_x, start_y),
        ("C", start_x + bend, start_y, near - bend, end_y, near, end_y),
    )
    width = max(1.2, 3.2 - 0.7 * branch.depth)
    items.append(Mark(curve, branch.colour, None, width))
    if branch.depth == 1:
        items.append(_mind_box(branch, left, branch.y))
        items.append(Label(branch.text, left + branch.w / 2, branch.y - branch.text.height / 2))
    else:
        line = (("M", left, end_y), ("L", left + branch.w, end_y))
        items.append(Mark(line, branch.colour, None, width))
        items.append(Label(branch.text, left + 2, branch.y - branch.h / 2 + 1, "text", "left"))
    for child in branch.children:
        _draw_branch(items, branch, child, side)


def _mind_box(branch: _Branch, left: float, y: float) -> Mark:
    top = y - branch.h / 2
    shape = branch.node.shape
    if branch.depth == 0:
        if shape == "circle":
            r = max(branch.w, branch.h) / 2
            return Mark(circle_ops(left + branch.w / 2, y, r), None, "accent")
        radius = 4.0 if shape in ("rect", "plain") else branch.h / 2
        return Mark(rect_ops(left, top, branch.w, branch.h, radius), None, "accent")
    radius = 4.0 if shape == "rect" else 10.0
    return Mark(rect_ops(left, top, branch.w, branch.h, radius), None, tint(branch.colour))
