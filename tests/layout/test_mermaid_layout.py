"""Mermaid diagrams laid out and on cards: boxes fit their labels and never overlap, edges
end at boxes, the card's text is the labels (never Mermaid syntax), hostile diagrams are
bounded and fall back to their source with a note."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from grandalf.layouts import SugiyamaLayout

from inkcard import layout, themes
from inkcard.layout.blocks.figures import FIGURE_FLOOR
from inkcard.layout.diagrams import diagram_svg
from inkcard.layout.diagrams.fit import DiagramBudget, draw_to_fit
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Drawing, Label, Mark, fit_scale, tint
from inkcard.layout.errors import DiagramError
from tests.cpu import counted
from tests.glyphruns import glyph_runs

CASES = sorted((Path(__file__).parents[1] / "cases" / "mermaid").glob("*.md"))
FENCE = re.compile(r"```mermaid\n(.*?)```", re.S)


def sources() -> list[str]:
    return [m.group(1) for case in CASES for m in FENCE.finditer(case.read_text())]


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


def bounds(mark: Mark) -> tuple[float, float, float, float]:
    xs = [float(op[-2]) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
    ys = [float(op[-1]) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
    return min(xs), min(ys), max(xs), max(ys)


def nodes(drawing: Drawing) -> list[tuple[tuple[float, float, float, float], Label]]:
    """Each node box (a shape filled with the accent's tint) with the label drawn after it."""
    items = drawing.items
    return [
        (bounds(item), items[i + 1])  # type: ignore[misc]
        for i, item in enumerate(items)
        if isinstance(item, Mark)
        and item.fill == tint("accent")
        and isinstance(items[i + 1], Label)
    ]


def test_the_ten_cases_hold_ten_drawable_diagrams(setter) -> None:
    drawn = [draw_diagram(source, setter.measure) for source in sources()[:10]]
    assert len(drawn) == 10 and all(d.width > 50 and d.height > 50 for d in drawn)


@pytest.mark.parametrize("index", range(4))  # the flowcharts
def test_flowchart_boxes_fit_their_labels_never_overlap_and_edges_end_at_boxes(
    setter, index: int
) -> None:
    drawing = draw_diagram(sources()[index], setter.measure)
    boxes = nodes(drawing)
    assert len(boxes) >= 5
    for (left, top, right, bottom), label in boxes:
        assert label.text.width <= right - left and label.text.height <= bottom - top
        assert left <= label.x <= right and top <= label.y <= bottom
    for i, (a, _) in enumerate(boxes):
        for b, _ in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    heads = [m for m in drawing.items if isinstance(m, Mark) and m.fill == "line"]
    assert heads
    for head in heads:  # its tip touches a node box
        _, x, y = head.ops[0]
        assert any(
            x0 - 1.5 <= x <= x1 + 1.5 and y0 - 1.5 <= y <= y1 + 1.5 for (x0, y0, x1, y1), _ in boxes
        )


def test_cjk_labels_wrap_and_their_box_grows(setter) -> None:
    long = "这是一个很长很长的中文标签需要换行才能放进方框里面去"
    drawing = draw_diagram(f"graph TD\nA[{long}] --> B[短]", setter.measure)
    (box_a, label_a), (box_b, _) = nodes(drawing)
    assert len(label_a.text.lines) >= 2 and "".join(label_a.text.lines) == long
    assert box_a[3] - box_a[1] > box_b[3] - box_b[1]


def test_lr_puts_layers_left_to_right_and_bt_bottom_up(setter) -> None:
    lr = nodes(draw_diagram("graph LR\nA --> B --> C", setter.measure))
    assert [round(box[0]) for box, _ in lr] == sorted(round(box[0]) for box, _ in lr)
    bt = nodes(draw_diagram("graph BT\nA --> B --> C", setter.measure))
    assert bt[0][0][1] > bt[1][0][1] > bt[2][0][1]


def test_cycles_and_self_loops_are_laid_out(setter) -> None:
    drawing = draw_diagram("graph TD\nA --> B --> C --> A\nB --> B", setter.measure)
    assert len(nodes(drawing)) == 3


def card_pages(md: str, fonts: layout.FontBook, theme: str = "apple-notes") -> list[layout.Page]:
    options = layout.RenderOptions(split="autoSplit")
    return layout.layout_pages(md, themes.load(theme), fonts, options)


@pytest.mark.parametrize("case", CASES[:9], ids=lambda p: p.stem)
def test_card_text_is_the_labels_never_mermaid_syntax(fonts, case: Path) -> None:
    pages = card_pages(case.read_text(), fonts)
    text = "\n".join(page.alt_text() for page in pages)
    assert "-->" not in text and "[" not in text and "mermaid" not in text.lower()
    drawing = draw_diagram(FENCE.search(case.read_text()).group(1), LabelSetter(fonts).measure)
    for label in drawing.text.splitlines():
        assert label in text
    glyphs = sum(len(run.glyphs) for page in pages for run in glyph_runs(page.items))
    assert glyphs >= len(re.sub(r"\s", "", drawing.text))  # every label is drawn


@pytest.mark.parametrize("theme", ["apple-notes", "darktech", "warm"])
@pytest.mark.parametrize("split", ["autoSplit", "hrSplit", "noSplit"])
def test_a_big_diagram_is_one_row_or_bands_a_card_each(fonts, theme: str, split: str) -> None:
    """A 31-step graph (a chain with one link skipping most of it), far taller than a
    card: one row where the card grows with it (hrSplit, noSplit); on fixed cards
    (autoSplit) bands a card each rather than a row shrunk to a quarter, every step in
    one band. (A chain alone is wrapped into rows instead: test_mermaid_chainwrap.)"""
    chain = "graph TD\n" + "\n".join(
        f"n{i}[第 {i} 步] --> n{i + 1}[第 {i + 1} 步]" for i in range(30)
    )
    options = layout.RenderOptions(split=split)
    pages = layout.layout_pages(
        chain_post(chain + "\nn0 --> n30"), themes.load(theme), fonts, options
    )
    rows = [p.row for page in pages for p in page.rows if "步" in p.row.text]
    steps = [line for row in rows for line in row.text.splitlines()]
    assert sorted(steps) == sorted(f"第 {i} 步" for i in range(31))
    assert len(rows) == 1 if split != "autoSplit" else 1 < len(rows) <= len(pages)


@pytest.mark.parametrize("theme", ["apple-notes", "darktech", "warm"])
def test_a_long_chain_on_a_card_is_one_row_wrapped(fonts, theme: str) -> None:
    """The 31 steps alone, a chain: wrapped into rows on one card at the figures' floor
    or over, not cut into four bands."""
    chain = "graph TD\n" + "\n".join(
        f"n{i}[第 {i} 步] --> n{i + 1}[第 {i + 1} 步]" for i in range(30)
    )
    pages = layout.layout_pages(
        chain_post(chain), themes.load(theme), fonts, layout.RenderOptions(split="autoSplit")
    )
    [row] = [p.row for page in pages for p in page.rows if "步" in p.row.text]
    assert "wrapped into" in row.note and row.items[0].scale >= FIGURE_FLOOR


def chain_post(source: str) -> str:
    return f"# A long chain\n\n```mermaid\n{source}\n```\n\nAfter it.\n"


@pytest.mark.parametrize(
    "source",
    [
        "requirementDiagram\n  A - satisfies -> B",
        "graph TD\n  A[unclosed --> B",
        "graph TD\n" + "\n".join(f"n{i} --> n{i + 1}" for i in range(300)),
        "graph TD\n" + "A --> B\n" * 500,
        "graph TD\n"
        + "\n".join(f"n{i} --> n{i + 1}" for i in range(199))
        + "\n"
        + "\n".join(f"n0 --> n{i}" for i in range(2, 199)),
    ],
    ids=["unsupported", "syntax", "nodes", "edges", "long-edges"],
)
def test_a_refused_diagram_is_its_source_with_a_note(fonts, source: str, monkeypatch) -> None:
    """Refused before grandalf orders a layer (its sweeps are the cost that grows with the
    long edges' dummy vertices): counted, none, so bounded on any machine."""
    sweeps = counted(monkeypatch, SugiyamaLayout, "ordering_step")
    pages = card_pages(f"```mermaid\n{source}\n```\n", fonts)
    assert sweeps.count == 0
    text = "\n".join(page.alt_text() for page in pages)
    assert "Mermaid diagram not drawn:" in text
    assert source.splitlines()[1].strip() in text  # the source, as code


def test_a_post_of_many_diagrams_is_held_to_its_budget(setter) -> None:
    budget = DiagramBudget(diagrams=3)
    for i in range(3):
        budget.draw(f"graph TD\nA{i} --> B", setter.measure)
    with pytest.raises(DiagramError, match="too many diagrams"):
        budget.draw("graph TD\nZ --> Y", setter.measure)
    budget.draw("graph TD\nA0 --> B", setter.measure)  # asked again: the same drawing


def test_a_diagram_counts_once_against_the_budget_whatever_forms_it_tries(setter) -> None:
    """A wide chart on a card is drawn as written, upright and with narrow labels: one
    diagram of the post's allowance, not three."""
    budget = DiagramBudget(diagrams=2)
    for source in ("graph LR\nA --> B", "graph LR\nC --> D"):
        for upright, narrow in ((False, False), (True, False), (True, True)):
            budget.draw(source, setter.measure, upright, narrow)
    with pytest.raises(DiagramError, match="too many diagrams"):
        budget.draw("graph LR\nE --> F", setter.measure)


PIPELINE = """flowchart LR
  subgraph CI [持续集成的每一步]
    lint[Lint] --> test[Unit tests]
    test --> build([Build image])
  end
  build --> stage{Staging OK?}
  stage -- yes --> prod[Production]
  stage -. no .-> fix[Fix & retry]
"""


def test_everything_drawn_lies_inside_the_drawing(setter) -> None:
    """A subgraph's panel and title reach past its nodes: the bounds hold them too, so a
    card row never draws over the heading above it."""
    for source in [PIPELINE, *sources()]:
        try:
            drawing = draw_diagram(source, setter.measure)
        except DiagramError:
            continue  # the fallback case: shown as source
        for item in drawing.items:
            if isinstance(item, Mark):
                x0, y0, x1, y1 = bounds(item)
                assert x0 >= -0.5 and x1 <= drawing.width + 0.5, source[:30]
                assert y0 >= -0.5 and y1 <= drawing.height + 0.5, source[:30]


def test_a_subgraph_title_is_set_on_one_line_as_wide_as_its_panel(setter) -> None:
    drawing = draw_diagram(PIPELINE, setter.measure)
    [title] = [i for i in drawing.items if isinstance(i, Label) and "持续" in i.text.lines[0]]
    assert title.text.lines == ("持续集成的每一步",) and title.text.width > 60


def _diagram_scale(page: layout.Page) -> float:
    [row] = [p.row for p in page.rows if "Unit tests" in p.row.text]
    return row.items[0].scale


def test_a_left_right_flowchart_is_laid_top_down_where_that_keeps_it_readable(fonts) -> None:
    """On a portrait card the pipeline, written left to right, would shrink to about half
    size; laid top-down its labels stay near full size. On a slide (520 x 290 virtual px)
    it stays as written: top-down it would need more than the card's height."""
    post = f"```mermaid\n{PIPELINE}```\n"
    portrait = _diagram_scale(card_pages(post, fonts)[0])
    options = layout.RenderOptions(split="autoSplit", width=1600, height=900, scale=1)
    [slide] = layout.layout_pages(post, themes.load("apple-notes"), fonts, options)
    assert portrait >= 0.8
    row = next(p.row for p in slide.rows if "Unit tests" in p.row.text)
    assert row.items[0].scale >= 0.6 and row.height < 120  # one wide band: still left-right
    assert "upright" not in row.note  # (at 69 % its note says it is under the floor)


def test_an_article_diagram_is_fitted_to_a_phone_column() -> None:
    svg = diagram_svg(PIPELINE)
    width, height = (float(v) for v in re.findall(r'(?:width|height)="([\d.]+)"', svg)[:2])
    assert height > width  # laid top-down: at 343 px its labels would be half size otherwise


def test_labels_sit_on_tinted_shapes_without_an_outline(setter) -> None:
    """A hard outline round a label reads as line art to OCR, which then skips the words
    (tesseract found 61 of the ten cases' 99 labels with outlines, 90 without): node,
    branch, participant and note shapes have no stroke."""
    counted = 0
    for source in sources():
        try:
            drawing = draw_diagram(source, setter.measure)
        except DiagramError:
            continue
        items = drawing.items
        centred = [
            m for m, t in itertools.pairwise(items) if isinstance(t, Label) and t.align == "center"
        ]
        shapes = [m for m in centred if isinstance(m, Mark) and m.fill and m.fill != "page"]
        counted += len(shapes)
        for shape in shapes:  # (an edge label's "page" knock-out is not a shape)
            # an author's own outline (a flowchart's classDef stroke, `#rrggbb`) is theirs
            assert shape.stroke is None or shape.stroke.startswith("#"), source[:30]
    assert counted >= 40  # the cases' nodes, branches, participants and notes


STUDY = FENCE.search((CASES[4]).read_text()).group(1)  # 05-mindmap-study


def test_a_mind_map_puts_its_branches_on_one_side_where_that_keeps_it_readable(fonts) -> None:
    """Two-sided, the plan shrinks to small print on a 440 px card; one-sided it is half as
    wide and keeps its labels near full size. On a slide it keeps both sides."""
    post = f"```mermaid\n{STUDY}```\n"
    [card] = card_pages(post, fonts)
    [row] = [p.row for p in card.rows if "选赛道" in p.row.text]
    assert row.items[0].scale >= 0.85  # two-sided it was 0.69
    options = layout.RenderOptions(split="autoSplit", width=1600, height=900, scale=1)
    [slide] = layout.layout_pages(post, themes.load("apple-notes"), fonts, options)
    wide = next(p.row for p in slide.rows if "选赛道" in p.row.text)
    assert wide.height < row.height  # both sides: shorter


def test_an_edge_label_is_a_chip_over_its_edge_as_large_as_node_labels(setter) -> None:
    """Edge labels sit on a chip tinted with the line's colour, set at the node labels' size
    in bold: a one-character 是 or 否 in 12 px muted type was the label OCR missed most."""
    drawing = draw_diagram(FENCE.search(CASES[2].read_text()).group(1), setter.measure)
    items = list(drawing.items)
    [yes] = [i for i in items if isinstance(i, Label) and i.text.lines == ("是",)]
    chip = items[items.index(yes) - 1]
    assert isinstance(chip, Mark) and chip.fill == tint("line") and chip.stroke is None
    node = next(i for i in items if isinstance(i, Label) and i.text.lines == ("下单",))
    assert yes.text.size == node.text.size and yes.text.bold and yes.color == "text"


WIDE_LABELS = """flowchart TB
  a[开头的一步] --> b[左边这一步的说明也相当长]
  a --> c[右边这一步的说明同样很长]
  a --> d[中间第三个分支的说明]
"""


def test_a_shrinking_diagram_wraps_its_long_labels_where_that_keeps_them_larger(
    setter,
) -> None:
    """Three long labels side by side shrink to small print on a card; wrapped at about
    seven characters the chart is narrower, so its type stays larger. A chart that fits
    keeps its labels on one line."""
    budget = DiagramBudget()
    as_written = draw_diagram(WIDE_LABELS, setter.measure)
    fitted = draw_to_fit(budget, WIDE_LABELS, setter.measure, 360, 480)
    assert fit_scale(fitted, 360, 480) >= 1.08 * fit_scale(as_written, 360, 480)
    assert max(len(i.text.lines) for i in fitted.items if isinstance(i, Label)) >= 2
    roomy = draw_to_fit(budget, WIDE_LABELS, setter.measure, 2000, None)
    assert all(len(i.text.lines) == 1 for i in roomy.items if isinstance(i, Label))


def test_an_else_branch_is_named_without_mermaid_brackets(setter) -> None:
    drawing = draw_diagram(FENCE.search(CASES[6].read_text()).group(1), setter.measure)
    labels = [line for i in drawing.items if isinstance(i, Label) for line in i.text.lines]
    assert "超时" in labels and not any("[" in line for line in labels)


AROUND = """flowchart TB
  top[开始] --> a1[甲一]
  top --> x[外面的步骤]
  top --> b1[乙一]
  subgraph S [一组]
    a1 --> a2[甲二]
    b1 --> b2[乙二]
  end
  x --> a2
  x --> b2
"""


def test_a_node_outside_a_subgraph_is_laid_out_beside_its_panel_not_in_it(setter) -> None:
    """Crossing reduction alone puts the outside step between 甲一 and 乙一, inside the
    group's panel; each layer keeps a subgraph's members together."""
    drawing = draw_diagram(AROUND, setter.measure)
    [panel] = [i for i in drawing.items if isinstance(i, Mark) and i.fill == "panel"]
    left, top, right, bottom = bounds(panel)
    labels = {i.text.lines[0]: i for i in drawing.items if isinstance(i, Label)}
    outside = labels["外面的步骤"]
    assert not (left < outside.x < right and top < outside.y < bottom)
    members = [labels[name].x for name in ("甲一", "乙一")]
    assert not min(members) < outside.x < max(members)


def test_a_loop_frame_spans_only_the_participants_its_messages_reach(setter) -> None:
    """The login's polling loop runs between 服务器 and 网页: its frame stays clear of
    用户's and 手机 App's lifelines, as mermaid-js draws it."""
    drawing = draw_diagram(FENCE.search(CASES[6].read_text()).group(1), setter.measure)
    heads = {i.text.lines[0]: i.x for i in drawing.items if isinstance(i, Label)}
    frames = [i for i in drawing.items if isinstance(i, Mark) and i.stroke == "accent"]
    frames = [f for f in frames if bounds(f)[3] - bounds(f)[1] > 40]  # not dividers, figure
    assert len(frames) == 2
    for frame in frames:
        left, _, right, _ = bounds(frame)
        assert heads["手机 App"] < left < heads["服务器"] and right > heads["网页"]


def test_a_chains_start_stays_in_line_when_a_loop_returns_to_it(setter) -> None:
    """A loop back to a flowchart's first node (case 66: 主编审核 -->|退回| 写稿) set that
    node half-way between the next node and the loop's way up, 64 px right of 自查, its
    first arrow slanting; its two ports on one side then bent even the straight arrow.
    Now the start sits over the node it leads to, and its arrow runs straight down."""
    source = "flowchart TD\n  A[写稿] --> B[自查]\n  B --> C{主编审核}\n"
    source += "  C -->|通过| D[排版]\n  C -->|退回| A\n"
    drawing = draw_diagram(source, setter.measure)
    boxes = {label.text.lines[0]: box for box, label in nodes(drawing)}
    start, after = boxes["写稿"], boxes["自查"]
    middle = (start[0] + start[2]) / 2
    assert middle == pytest.approx((after[0] + after[2]) / 2)
    down = [
        item
        for item in drawing.items
        if isinstance(item, Mark)
        and item.fill is None
        and bounds(item)[1] == pytest.approx(start[3], abs=1)
        and bounds(item)[3] <= after[1] + 1
    ]
    assert down and all(bounds(item)[0] == pytest.approx(middle, abs=0.5) for item in down)
    assert all(bounds(item)[2] == pytest.approx(middle, abs=0.5) for item in down)


def test_a_loop_back_from_a_decision_leaves_by_its_side_tip(setter) -> None:
    """The loop back (主编审核 -->|退回| 写稿) left the diamond's bottom tip beside the
    branch going down (通过), ran under the diamond and rose beside it. It leaves by the
    side tip now, straight across at the diamond's middle, as mermaid-js draws it."""
    source = "flowchart TD\n  A[写稿] --> B[自查]\n  B --> C{主编审核}\n"
    source += "  C -->|通过| D[排版]\n  C -->|退回| A\n"
    drawing = draw_diagram(source, setter.measure)
    boxes = {label.text.lines[0]: box for box, label in nodes(drawing)}
    _, top, right, bottom = boxes["主编审核"]
    middle = (top + bottom) / 2
    starts = [
        item.ops[0][1:]
        for item in drawing.items
        if isinstance(item, Mark) and item.fill is None and item.ops[0][0] == "M"
    ]
    assert any(
        x == pytest.approx(right, abs=1.5) and y == pytest.approx(middle, abs=0.5)
        for x, y in starts  # type: ignore[misc]
    ), starts
    below = [(x, y) for x, y in starts if y == pytest.approx(bottom, abs=1.5)]  # type: ignore[misc]
    assert len(below) == 1  # the tip at the bottom is the "通过" branch's alone


def test_a_loops_room_is_above_its_node_not_under_it_too(setter) -> None:
    """A node with a loop (自查 -->|改错字| 自查) was laid out with the loop's room above
    and under it alike, so the arrow out of it ran 27 px longer than the others. Top-down,
    the room is above it alone: the arrow out is as long as an arrow between plain nodes."""
    source = "flowchart TD\n  A[写稿] --> B[自查]\n  B -->|改错字| B\n  B --> C[主编审核]\n"
    source += "  C --> D[排版]\n"
    drawing = draw_diagram(source, setter.measure)
    boxes = {label.text.lines[0]: box for box, label in nodes(drawing)}
    above = boxes["自查"][1] - boxes["写稿"][3]
    under = boxes["主编审核"][1] - boxes["自查"][3]
    plain = boxes["排版"][1] - boxes["主编审核"][3]
    assert under == pytest.approx(plain, abs=0.5)
    assert above > under + 10  # the loop rises into the room above


def test_a_bottom_up_loops_room_is_above_its_node_only(setter) -> None:
    """Bottom-up the loop is drawn above its node too: its room was laid out on both
    sides, so the arrow into the node from below ran longer than the others."""
    source = "flowchart BT\n  A[底层] --> B[中间层]\n  B -->|自检| B\n  B --> C[顶层]\n"
    source += "  C --> D[屋顶]\n"
    boxes = {label.text.lines[0]: box for box, label in nodes(draw_diagram(source, setter.measure))}
    under = boxes["底层"][1] - boxes["中间层"][3]
    above = boxes["中间层"][1] - boxes["顶层"][3]
    plain = boxes["顶层"][1] - boxes["屋顶"][3]
    assert under == pytest.approx(plain, abs=0.5)
    assert above > under + 10


@pytest.mark.parametrize("direction", ["LR", "RL"])
def test_a_loop_laid_across_stands_on_its_nodes_top(setter, direction: str) -> None:
    """Left to right, a loop drawn on its node's right side came back in where the line
    out leaves ("Upload ◂——— Done" read as an arrow from Done): it stands on the node's
    top, its chip beside it, both above the line out."""
    source = f"flowchart {direction}\n  A[提交代码] --> B[构建镜像]\n  B -->|失败重试| B\n"
    source += "  B --> C[部署]\n"
    drawing = draw_diagram(source, setter.measure)
    boxes = {label.text.lines[0]: box for box, label in nodes(drawing)}
    left, top, right, _ = boxes["构建镜像"]
    lines = [bounds(m) for m in drawing.items if isinstance(m, Mark) and m.fill is None]
    loops = [b for b in lines if b[3] <= top + 0.5 and b[0] >= left - 0.5]
    assert loops and all(b[2] <= right + 0.5 for b in loops)
    chip = next(i for i in drawing.items if isinstance(i, Label) and i.text.lines[0] == "失败重试")
    assert chip.y + chip.text.height <= top
