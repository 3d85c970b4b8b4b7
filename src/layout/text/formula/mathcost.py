"""A formula's MathML → the steps ziamath will take to lay it out, counted before it runs.

One post's math is held to a count of steps, never to the seconds it took (`mathtex.MathBudget`):
the same post draws the same formulas, or shows the same ones as source, on every machine,
loaded or idle, warm cache or cold, through the API or the CLI; and a formula past the
allowance is refused at once, without a layout begun.

The count follows what ziamath 0.13 does. It builds one node per MathML element (an `<mstyle>`
it drops, its children in its place), and a row (`<mrow>`, and `<math>`, `<mtd>` and any
element it does not know, which it lays out as rows) builds each child twice: once, copied,
to measure the row's height without its stretchy operators, once for real; so a node costs 2
per row around it, which is why its time doubles with each nested group. A `<mfenced>` builds
its inner row twice again; a `<msqrt>` or `<menclose>` of several children wraps them in a
row; a table builds its cells and not its `<mtr>`s. A build costs by its kind, and each
character of its text past the first (a glyph set) `CHAR_STEPS`. One step is about 10 µs of
CPU on the machine of the calibration (benchmarks/bench_math_steps.py; docs/decisions/
engine.md, "A budget for math"), 19 µs at the worst measured.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the trees come from mathtex, which imports ElementTree with the math engine
    import xml.etree.ElementTree as ET

# A build of an element costs by its kind (an operator looks up its form, spacing and
# stretch; a cell is aligned in its row and column), its first character included
ROW_STEPS = 2  # a row's build (its children are counted on their own)
ITEM_STEPS = 4  # a build of a fraction, script, radical, over- or underscript, space
LEAF_STEPS = 6  # a build of an identifier, number or text, its first glyph set
BUILD_STEPS = {
    "mo": 12,
    "mtd": 8,
    "mtable": 10,
    "mi": LEAF_STEPS,
    "mn": LEAF_STEPS,
    "mtext": LEAF_STEPS,
    "ms": LEAF_STEPS,
}
CHAR_STEPS = 15  # each further character of an element's text, a build (\\text{…}'s glyphs)
FORMULA_STEPS = 70  # what any formula costs besides its nodes (its drawing, outlines, font)
# Reading a formula (LaTeX → MathML, parsed, these steps counted): linear in its characters
READ_STEPS = 20
READ_CHAR_STEPS = 2
# Elements ziamath builds once, children once each (its node classes other than rows)
_ONCE = frozenset(
    {"mfrac", "mn", "mi", "mtext", "ms", "mo", "mroot", "mspace", "msub", "msup", "msubsup"}
    | {"mmultiscripts", "mover", "munder", "munderover"}
)
_WRAPPING = frozenset(("msqrt", "menclose"))  # several children: wrapped in a row first


def reading_steps(characters: int) -> int:
    """The steps of reading a formula of `characters` and counting its steps, charged
    before it is read (`mathtex.MathBudget`): a post's refusals are bounded too."""
    return READ_STEPS + READ_CHAR_STEPS * characters


def formula_steps(tree: ET.Element) -> int:
    """The steps laying out `tree` (a formula's MathML, namespaced or not) will take."""
    return FORMULA_STEPS + _element_steps(tree)


def _element_steps(root: ET.Element) -> int:
    """Builds of `root` and of all below it, each weighed with its characters (iterative:
    the tree's depth is the caller's limit to keep, not Python's stack's)."""
    done: dict[int, int] = {}
    stack: list[tuple[ET.Element, list[ET.Element] | None]] = [(root, None)]
    while stack:
        element, children = stack.pop()
        if children is None:
            children = _built_children(element)
            stack.append((element, children))
            stack.extend((child, None) for child in children)
            continue
        below = sum(done.pop(id(child)) for child in children)
        text = len((element.text or "").strip())
        own = _build_steps(element) + CHAR_STEPS * max(0, text - 1)
        done[id(element)] = own + _times_built(element) * below
    return done[id(root)]


def _tag(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _build_steps(element: ET.Element) -> int:
    """What one build of `element` costs, its text's first character included."""
    tag = _tag(element)
    if tag in BUILD_STEPS:
        return BUILD_STEPS[tag]
    return ITEM_STEPS if tag in _ONCE or tag in _WRAPPING or tag == "mfenced" else ROW_STEPS


def _built_children(element: ET.Element) -> list[ET.Element]:
    """The elements ziamath builds as nodes under `element`: a table's cells, not its rows;
    an `<mstyle>`'s children in its place (ziamath takes its attributes down and drops it)."""
    table = _tag(element) == "mtable"
    pending = [cell for row in element for cell in row] if table else list(element)
    pending.reverse()
    out: list[ET.Element] = []
    while pending:
        child = pending.pop()
        if _tag(child) == "mstyle":
            pending.extend(reversed(child))
        else:
            out.append(child)
    return out


def _times_built(element: ET.Element) -> int:
    """How many builds of each child one build of `element` makes (the row around them
    counted in: a row's own build is one step more, within the margin)."""
    tag = _tag(element)
    if tag in _ONCE or tag == "mtable":
        return 1
    if tag in _WRAPPING:
        return 2 if len(element) > 1 else 1
    if tag == "mfenced":
        return 4
    return 2  # a row, or what ziamath lays out as one
