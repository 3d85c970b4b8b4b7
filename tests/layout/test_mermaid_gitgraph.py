"""Git graphs: parsed (branches, merges, cherry-picks, options; what git would refuse is a
DiagramError, never a crash), laid out (one colour per lane, one column per commit, labels
apart and off the dots, in every orientation) and written as article SVG."""

from __future__ import annotations

import html
import itertools

import pytest

from inkcard import layout
from inkcard.layout.diagrams import diagram_svg
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.gitgraphs.mermaidgit import GitGraph
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label, Mark
from inkcard.layout.diagrams.mermaid import MAX_NODES
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.errors import DiagramError

RELEASE = """gitGraph
  commit id: "初始化"
  commit id: "首页" tag: "v0.1"
  branch "功能/登录"
  checkout "功能/登录"
  commit id: "登录表单"
  checkout main
  commit id: "修复样式"
  merge "功能/登录" tag: "v1.0 正式版"
  branch 热修复
  commit id: "紧急修复" type: HIGHLIGHT
  checkout main
  merge 热修复 tag: "v1.0.1"
"""

FOUR = """gitGraph
  commit id: "init"
  branch develop order: 1
  commit id: "dev-1"
  branch feature-a order: 2
  commit id: "fa-1"
  commit id: "fa-2"
  checkout develop
  branch feature-b order: 3
  commit id: "fb-1"
  checkout develop
  merge feature-a id: "merge-a"
  switch feature-b
  commit id: "fb-2" type: REVERSE
  checkout main
  cherry-pick id: "fa-1"
  checkout develop
  merge feature-b
  checkout main
  merge develop id: "release" tag: "v2.0" type: HIGHLIGHT
  commit
"""


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


def graph(source: str) -> GitGraph:
    parsed = parse_diagram(source)
    assert isinstance(parsed, GitGraph)
    return parsed


def test_branches_commits_merges_and_cherry_picks() -> None:
    parsed = graph(FOUR)
    assert [b.name for b in parsed.branches] == ["main", "develop", "feature-a", "feature-b"]
    commits = {c.label: c for c in parsed.commits if c.label}
    assert commits["merge-a"].parents == ("dev-1", "fa-2") and commits["merge-a"].kind == "merge"
    assert commits["fb-2"].kind == "reverse" and commits["release"].kind == "highlight"
    cherry = next(c for c in parsed.commits if c.kind == "cherry")
    assert cherry.branch == "main" and cherry.parents == ("init", "fa-1")
    assert cherry.tag == "cherry-pick: fa-1" and not cherry.label
    assert parsed.commits[-1].label == "" and parsed.orientation == "LR"


def test_quoted_cjk_branch_names_tags_and_orientations() -> None:
    parsed = graph(RELEASE)
    assert [b.name for b in parsed.branches] == ["main", "功能/登录", "热修复"]
    assert [c.tag for c in parsed.commits if c.tag] == ["v0.1", "v1.0 正式版", "v1.0.1"]
    assert graph("gitGraph TB:\n  commit").orientation == "TB"
    assert graph("gitGraph BT:\n  commit").orientation == "BT"


def test_branch_order_sets_the_lanes() -> None:
    parsed = graph("gitGraph\n commit\n branch b order: 3\n commit\n branch a order: 2\n commit")
    assert [b.name for b in parsed.branches] == ["main", "a", "b"]


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("gitGraph\n  commit\n  checkout nope", "does not exist"),
        ("gitGraph\n  commit\n  merge main", "into itself"),
        ("gitGraph\n  commit\n  merge nope", "does not exist"),
        ("gitGraph\n  commit\n  branch b\n  checkout main\n  merge b", "nothing to merge"),
        ('gitGraph\n  commit id: "a"\n  commit id: "a"', "two commits"),
        ("gitGraph\n  commit type: WEIRD", "commit type"),
        ('gitGraph\n  commit\n  cherry-pick id: "zz"', "does not exist"),
        ('gitGraph\n  commit id: "a"\n  cherry-pick id: "a"', "same branch"),
        ('gitGraph\n  commit id: "a', "unclosed"),
        ('gitGraph\n  commit colour: "red"', "cannot read"),
        ("gitGraph\n  push origin", "cannot read"),
        ("gitGraph\n  branch b", "without commits"),
        ("gitGraph\n  commit\n  branch main", "exists"),
        ("gitGraph\n  commit\n  branch b order: x", "number"),
        ("gitGraph sideways:\n  commit", "orientation"),
        ("gitGraph\n" + "  commit\n" * (MAX_NODES + 1), "commits"),
    ],
)
def test_malformed_or_too_big_is_a_diagram_error(source: str, reason: str) -> None:
    with pytest.raises(DiagramError, match=reason):
        parse_diagram(source)


def label_box(label: Label) -> tuple[float, float, float, float]:
    left = label.x - label.text.width / 2 if label.align == "center" else label.x
    return left, label.y, left + label.text.width, label.y + label.text.height


def bounds(mark: Mark) -> tuple[float, float, float, float]:
    xs = [float(op[-2]) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
    ys = [float(op[-1]) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
    return min(xs), min(ys), max(xs), max(ys)


def apart(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5


@pytest.mark.parametrize("source", [RELEASE, FOUR], ids=["release", "four"])
@pytest.mark.parametrize("orientation", ["", " TB:", " BT:"])
def test_labels_apart_and_off_the_dots_in_every_orientation(
    setter, source: str, orientation: str
) -> None:
    drawing = draw_diagram(source.replace("gitGraph", "gitGraph" + orientation, 1), setter.measure)
    labels = [label_box(i) for i in drawing.items if isinstance(i, Label)]
    for a, b in itertools.combinations(labels, 2):
        assert apart(a, b), (a, b)
    dots = [
        bounds(i)
        for i in drawing.items
        if isinstance(i, Mark) and (i.fill or "").startswith("series") and i.stroke == "page"
    ]
    assert len(dots) == len(graph(source).commits) - sum(
        1 for c in graph(source).commits if c.kind == "highlight"
    )
    for dot, label in itertools.product(dots, labels):
        assert apart(dot, label), (dot, label)


def test_each_lane_has_its_own_series_colour(setter) -> None:
    drawing = draw_diagram(FOUR, setter.measure)
    lanes = [i.stroke for i in drawing.items if isinstance(i, Mark) and i.dash == (3.0, 4.0)]
    assert lanes == ["series0", "series1", "series2", "series3"]


def test_an_lr_graph_has_an_upright_form(setter) -> None:
    wide = draw_diagram(FOUR, setter.measure)
    upright = draw_diagram(FOUR, setter.measure, upright=True)
    assert wide.across and upright.width < wide.width and upright.height > wide.height


def test_every_label_is_in_the_alt_text_and_the_article_svg() -> None:
    svg = diagram_svg(RELEASE)
    for label in graph(RELEASE).labels():
        assert html.escape(label) in svg


def test_dots_are_painted_over_every_line(setter) -> None:
    """A merge's ring and a highlight's square stay whole: no later commit's line crosses them."""
    items = draw_diagram(FOUR, setter.measure).items
    lines = [
        i
        for i, m in enumerate(items)
        if isinstance(m, Mark) and m.fill is None and (m.stroke or "").startswith("series")
    ]
    dots = [
        i
        for i, m in enumerate(items)
        if isinstance(m, Mark) and (m.fill or "").startswith("series")
    ]
    assert max(lines) < min(dots)


@pytest.mark.parametrize("orientation", [" TB:", " BT:"])
def test_an_id_beside_its_dot_stands_clear_of_it(setter, orientation: str) -> None:
    """Time running down, a commit's id sits right of its dot: 5 px from it, tesseract
    read the dot and case 33's short 首页 as one word ("@ an"); 10 px apart it reads 首页."""
    source = RELEASE.replace("gitGraph", "gitGraph" + orientation, 1)
    drawing = draw_diagram(source, setter.measure)
    dots = [
        bounds(i)
        for i in drawing.items
        if isinstance(i, Mark) and (i.fill or "").startswith("series") and i.stroke == "page"
    ]
    ids = [i for i in drawing.items if isinstance(i, Label) and i.color == "muted"]
    assert {"".join(i.text.lines) for i in ids} == {
        "初始化",
        "首页",
        "登录表单",
        "修复样式",
        "紧急修复",
    }
    for label in ids:
        middle = label.y + label.text.height / 2
        dot = min(dots, key=lambda d: abs((d[1] + d[3]) / 2 - middle) + abs(d[2] - label.x))
        if abs((dot[1] + dot[3]) / 2 - middle) < 1:  # a plain dot (a highlight is a square)
            assert label.x - dot[2] >= 9.5, ("".join(label.text.lines), label.x - dot[2])
