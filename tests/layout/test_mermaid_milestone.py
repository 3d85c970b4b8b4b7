"""A gantt milestone's diamond is smaller than its name's letters, and a letter-space off
it: as tall as a bar and 5 px away, tesseract read it as a letter and lost the name."""

from __future__ import annotations

from pathlib import Path

from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label, Mark, mark_bounds

CASES = Path(__file__).parents[1] / "cases" / "mermaid"


def test_a_milestone_is_smaller_than_its_names_letters(fonts) -> None:
    post = (CASES / "97-gantt-milestones-cjk.md").read_text("utf-8")
    drawing = draw_diagram(
        post.split("```mermaid\n")[1].split("```")[0], LabelSetter(fonts).measure
    )
    diamonds = [
        mark_bounds(i.ops)
        for i in drawing.items
        if isinstance(i, Mark) and i.fill and len(i.ops) == 5 and i.ops[-1] == ("Z",)
    ]
    assert len(diamonds) == 4
    names = [i for i in drawing.items if isinstance(i, Label)]
    for left, top, right, bottom in diamonds:
        middle = (top + bottom) / 2
        [name] = [n for n in names if n.y <= middle <= n.y + n.text.height]
        line = name.text.height / len(name.text.lines)
        assert bottom - top < line  # a bar-tall diamond (23 px) stood over 17-px lines
        start = name.x if name.align == "left" else name.x - name.text.width / 2
        room = start - right if start >= right else left - (start + name.text.width)
        assert room >= 8.0  # 5 before
