"""A long sequence diagram cut into bands on cards repeats its participants' heads atop
each band after the first (as mermaid-js's mirrored actors close a long one at the
bottom), with their lifelines' first stretch, so a reader of any card knows whose lifeline
is whose."""

from __future__ import annotations

from inkcard import layout, themes
from inkcard.layout.base.boxes import Group
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label, Mark

NAMES = ("客户端", "网关", "服务")


def _source(messages: int) -> str:
    lines = [
        "sequenceDiagram",
        "actor A as 客户端",
        "participant G as 网关",
        "participant B as 服务",
    ]
    lines += [f"A->>G: 请求 {n}" if n % 2 else f"G-->>B: 转发 {n}" for n in range(messages)]
    return "\n".join(lines) + "\n"


def test_the_drawing_names_its_heads_and_their_lifeline_stubs(fonts) -> None:
    drawing = draw_diagram(_source(12), LabelSetter(fonts).measure)
    names = [line for i in drawing.heads if isinstance(i, Label) for line in i.text.lines]
    assert tuple(names) == NAMES
    stubs = [i for i in drawing.heads if isinstance(i, Mark) and i.dash]
    assert len(stubs) == len(NAMES)
    first_message = min(
        i.y for i in drawing.items if isinstance(i, Label) and i.text.lines[0].startswith("转发")
    )
    assert all(i.y < first_message for i in drawing.heads if isinstance(i, Label))
    for head in drawing.heads:  # the heads are the drawing's own, where it drew them
        assert head in drawing.items or head in stubs


def test_each_band_after_the_first_repeats_the_heads_above_it(fonts) -> None:
    options = layout.RenderOptions(width=440, height=586, split="autoSplit", mode="light-mode")
    post = "# 长时序\n\n```mermaid\n" + _source(40) + "```\n"
    pages = layout.layout_pages(post, themes.load("apple-notes"), fonts, options)
    bands = [
        placed.row
        for page in pages
        for placed in page.rows
        if any(isinstance(i, Group) and i.clip is not None for i in placed.row.items)
    ]
    assert len(bands) >= 3
    assert len(bands[0].items) == 1  # the first band shows the heads where they are drawn
    for row in bands[1:]:
        heads, body = row.items
        assert isinstance(heads, Group) and heads.clip is None
        assert isinstance(body, Group) and body.clip is not None
        below = body.dy + body.clip.y * body.scale  # where the band's part starts on the row
        assert below > 20  # under the heads (a head's box is over 20 px tall)
        assert abs(below + body.clip.height * body.scale - row.height) < 0.01
