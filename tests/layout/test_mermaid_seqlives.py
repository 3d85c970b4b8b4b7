"""A long sequence diagram cut into bands repeats atop each band the heads of just the
participants alive there: one a message creates (`create participant`) from the band
after its creation on, and not before; one `destroy`ed no more once its lifeline ended."""

from __future__ import annotations

from inkcard import layout, themes
from inkcard.layout.base.boxes import Group
from inkcard.layout.diagrams.bands import band_span, heads_at
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Drawing, Label, Mark

ROUNDS = 14


def _source(actor: bool = False) -> str:
    lines = ["sequenceDiagram", "participant A as 客户端", "participant B as 旧服务"]
    lines += [f"A->>B: 请求 {n}" for n in range(ROUNDS)]
    lines += [f"create {'actor' if actor else 'participant'} C as 新服务", "A->>C: 启动"]
    lines += [f"A->>C: 迁移 {n}" for n in range(ROUNDS)]
    lines += ["destroy B", "A-xB: 下线"]
    lines += [f"C-->>A: 结果 {n}" for n in range(ROUNDS)]
    return "\n".join(lines) + "\n"


def _names(items: tuple[Mark | Label, ...]) -> list[str]:
    return [line for item in items if isinstance(item, Label) for line in item.text.lines]


def _first(drawing: Drawing, text: str) -> float:
    return min(i.y for i in drawing.items if isinstance(i, Label) and text in i.text.lines)


def test_a_band_names_the_participants_alive_at_its_top(fonts) -> None:
    drawing = draw_diagram(_source(), LabelSetter(fonts).measure)
    before, after_create, after_destroy = (
        _first(drawing, "请求 5"),
        _first(drawing, "迁移 5"),
        _first(drawing, "结果 5"),
    )
    assert _names(heads_at(drawing, before)) == ["客户端", "旧服务"]
    assert _names(heads_at(drawing, after_create)) == ["客户端", "旧服务", "新服务"]
    assert _names(heads_at(drawing, after_destroy)) == ["客户端", "新服务"]


def test_a_created_head_is_repeated_where_the_top_heads_are(fonts) -> None:
    drawing = draw_diagram(_source(actor=True), LabelSetter(fonts).measure)
    heads = heads_at(drawing, drawing.height - 1)
    names = [i for i in heads if isinstance(i, Label)]
    assert {round(i.y, 3) for i in names} == {round(names[0].y, 3)}  # one row
    assert max(band_span(i)[1] for i in heads) <= _first(drawing, "请求 0")
    figures = [i for i in heads if isinstance(i, Mark) and i.fill is None and not i.dash]
    assert figures  # the created actor's stick figure comes with its head


def _band_heads(post: str, fonts: object) -> list[int]:
    options = layout.RenderOptions(width=440, height=586, split="autoSplit", mode="light-mode")
    pages = layout.layout_pages(post, themes.load("apple-notes"), fonts, options)
    counts = []
    for page in pages:
        for placed in page.rows:
            groups = [i for i in placed.row.items if isinstance(i, Group)]
            if len(groups) == 2 and groups[1].clip is not None:
                counts.append(len(groups[0].items))
    return counts


def test_on_cards_the_repeated_heads_follow_creation_and_destruction(fonts) -> None:
    counts = _band_heads("# 迁移\n\n```mermaid\n" + _source() + "```\n", fonts)
    assert len(counts) >= 2
    assert len(set(counts)) > 1, counts  # not the same heads atop every band
