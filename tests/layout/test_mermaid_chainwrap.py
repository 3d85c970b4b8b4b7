"""A long chain wrapped into rows where one strip would shrink it (`diagrams.snake`,
`diagrams.fit.draw_to_fit`): rows read left to right, one under the other, each link
between two rows a return from the row's last step to the next row's first."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Row
from inkcard.layout.diagrams.fit import DiagramBudget, draw_to_fit
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Drawing, Label, Mark, mark_bounds
from inkcard.layout.diagrams.snake import _breaks, order

SLIDE = layout.RenderOptions(split="autoSplit", width=1600, height=900, scale=1)
CARD = layout.RenderOptions(split="autoSplit", width=440, height=586, scale=1)
AFTER = "每一层大约流失 60%，所以提升第一层的点击率最划算。"


def _steps(n: int) -> tuple[str, ...]:
    return tuple(f"第 {i + 1} 步 写笔记" if i % 2 else f"Step {i + 1}: draft" for i in range(n))


def _flow(direction: str, steps: tuple[str, ...], link: str = "-->") -> str:
    lines = [
        f"  n{i}[{a}] {link} n{i + 1}[{b}]" for i, (a, b) in enumerate(itertools.pairwise(steps))
    ]
    return f"flowchart {direction}\n" + "\n".join(lines) + "\n"


def _post(source: str) -> str:
    return f"## 转化路径\n\n```mermaid\n{source}```\n\n{AFTER}\n"


def _rows(pages: list[layout.Page], label: str) -> list[tuple[int, Row]]:
    return [(n, p.row) for n, page in enumerate(pages) for p in page.rows if label in p.row.text]


@pytest.mark.parametrize("n", [8, 12])
@pytest.mark.parametrize("direction", ["LR", "TD"])
def test_a_long_chain_on_a_slide_is_wrapped_into_rows_at_its_size(
    fonts, n: int, direction: str
) -> None:
    """Eight and twelve steps: one strip drew them at 47 % and 31 % of their size on a
    1600x900 slide (ten top-down steps were cut into bands, a slide each); wrapped into
    rows they read at 0.9 or more on one slide, with the paragraph after them."""
    steps = _steps(n)
    pages = layout.layout_pages(
        _post(_flow(direction, steps)), themes.load("apple-notes"), fonts, SLIDE
    )
    [(at, row)] = _rows(pages, steps[-1])
    [(after, _)] = _rows(pages, AFTER[:8])
    assert row.items[0].scale >= 0.9 and "wrapped into" in row.note, row.note
    assert after == at
    assert set(steps) <= set(row.text.splitlines())  # the alt text keeps every step


def test_a_long_chain_on_a_portrait_card_is_wrapped_not_banded(fonts) -> None:
    """Sixteen steps on a 440x586 card: upright they were cut into three bands, a card
    each; wrapped, they read at 0.9 or more on one card."""
    steps = _steps(16)
    pages = layout.layout_pages(_post(_flow("LR", steps)), themes.load("warm"), fonts, CARD)
    [(_, row)] = _rows(pages, steps[0])
    assert row.items[0].scale >= 0.9 and "wrapped into" in row.note, row.note


def _wrapped(fonts: layout.FontBook, source: str, height: float | None = 250) -> Drawing:
    return draw_to_fit(DiagramBudget(), source, LabelSetter(fonts).measure, 456, height)


def _read(drawing: Drawing) -> list[str]:
    """The labels in reading order: row by row (by the top of their line), left to right."""
    labels = [item for item in drawing.items if isinstance(item, Label)]
    rows = sorted({round(label.y) for label in labels})
    assert len(rows) >= 2
    return ["".join(label.text.lines) for label in sorted(labels, key=lambda a: (round(a.y), a.x))]


@pytest.mark.parametrize("link", ["-->", "-.->", "==>"])
def test_wrapped_rows_read_in_the_chains_order_and_every_link_arrives(fonts, link: str) -> None:
    steps = _steps(12)
    drawing = _wrapped(fonts, _flow("LR", steps, link))
    assert "wrapped into" in drawing.note
    assert _read(drawing) == list(steps)
    heads = [item for item in drawing.items if isinstance(item, Mark) and item.stroke is None]
    lines = [item for item in drawing.items if isinstance(item, Mark) and item.fill is None]
    assert len(lines) == len(steps) - 1  # every link drawn once, returns included
    assert len(heads) - len(steps) == len(steps) - 1  # node shapes and one head a link
    right = max(mark_bounds(m.ops)[2] for m in lines)
    assert right <= drawing.width  # a return stays inside the drawing


def test_a_branching_chart_and_an_article_are_never_wrapped(fonts) -> None:
    steps = _steps(10)
    branched = _flow("LR", steps) + "  n2 --> n7\n"
    assert "wrapped" not in _wrapped(fonts, branched).note
    assert "wrapped" not in _wrapped(fonts, _flow("LR", steps), None).note


def test_a_chain_wrapped_on_one_slide_beats_bands_no_larger(fonts) -> None:
    """Sixteen top-down steps on a slide: cut into four bands they read at 65 % on five
    slides; wrapped into rows, at 64 % on one: bands are kept only where they read
    `STRIP_GAIN` times larger."""
    steps = _steps(16)
    pages = layout.layout_pages(_post(_flow("TD", steps)), themes.load("apple-notes"), fonts, SLIDE)
    [(_, row)] = _rows(pages, steps[0])
    assert "wrapped into" in row.note and row.items[0].scale >= 0.6, row.note
    assert len(pages) == 1


def test_a_chain_too_long_for_one_card_is_cut_into_bands_between_its_rows(fonts) -> None:
    """Thirty steps on a portrait card would wrap at 66 % on one card, under the figures'
    floor; the upright form cut into bands took four cards of one narrow column at 0.7.
    Wrapped into rows as wide as the card (three steps at 0.88) and cut between rows, they
    take two cards, each band starting on a row."""
    steps = _steps(30)
    pages = layout.layout_pages(_post(_flow("LR", steps)), themes.load("warm"), fonts, CARD)
    rows = [row for page in pages for p in page.rows if (row := p.row).source[0][0] == "CodeBlock"]
    assert len(rows) == 2 and all(row.items[-1].scale >= 0.85 for row in rows)
    assert "wrapped into 10 rows" in rows[0].note
    first_of_band = [row.text.splitlines()[0] for row in rows]
    assert first_of_band == [steps[0], steps[15]]  # five rows of three on each


def test_a_row_break_moves_off_a_labelled_link_where_rows_keep_two_steps() -> None:
    """A label on a link between rows sits on the return: where a neighbouring link has
    none the break moves there, but never so far that a row keeps one step (a state
    chain's end dot was left alone on a row)."""
    spans = [(0, 3), (3, 6), (6, 9)]
    labelled = (0.0, 0.0, 22.0, 0.0, 0.0, 22.0, 0.0, 0.0)  # links 2 and 5: the breaks'
    assert _breaks(spans, labelled, ()) == [(0, 2), (2, 5), (5, 9)]
    every = (22.0,) * 8
    assert _breaks(spans, every, ()) == spans  # no free neighbour: the breaks stay
    pairs = [(0, 2), (2, 4), (4, 6), (6, 8)]
    alternate = tuple(22.0 if i % 2 else 0.0 for i in range(7))  # each break on a label
    assert _breaks(pairs, alternate, ()) == pairs  # moving one would leave a row of one step


def test_a_label_on_a_row_break_sits_on_the_return_between_the_rows(fonts) -> None:
    """A chain whose every link is labelled was never wrapped (an event on every state
    transition): drawn down one card and a half at its size. Its breaks' labels sit
    midway along the returns, between the rows, each drawn once."""
    steps = _steps(8)
    links = [
        f"  n{i}[{a}] -->|检查 {i}| n{i + 1}[{b}]"
        for i, (a, b) in enumerate(itertools.pairwise(steps))
    ]
    drawing = _wrapped(fonts, "flowchart LR\n" + "\n".join(links) + "\n", 420)
    assert "wrapped into" in drawing.note
    labels = [item for item in drawing.items if isinstance(item, Label)]
    chips = {"".join(i.text.lines): i for i in labels if "".join(i.text.lines).startswith("检查")}
    assert sorted(chips) == sorted(f"检查 {i}" for i in range(7))
    rows = sorted({round(i.y) for i in labels if "".join(i.text.lines) in steps})
    between = [c for c in chips.values() if not any(abs(c.y - r) < 12 for r in rows)]
    assert len(between) == len(rows) - 1  # one on each return
    for chip in between:
        assert any(r < chip.y for r in rows) and any(r > chip.y for r in rows)


def test_a_flowchart_chain_with_a_node_that_loops_on_itself_is_wrapped(fonts) -> None:
    steps = _steps(8)
    source = _flow("LR", steps) + "  n2 -->|retry| n2\n"
    drawing = _wrapped(fonts, source, 420)
    assert "wrapped into" in drawing.note, drawing.note
    labels = [item for item in drawing.items if isinstance(item, Label)]
    assert sum(label.text.lines == ("retry",) for label in labels) == 1


def test_a_return_leaves_its_step_not_the_steps_loop_label(fonts) -> None:
    """The return from a row's last step started at the chip of its loop's label, right
    of the step (the largest mark at the row's end). Every step loops here, so every
    row's last step has a chip."""
    names = ["Queued", "Install", "Lint", "Test", "Build", "Sign", "Upload", "Done"]
    chain = " --> ".join(f"n{i}[{name}]" for i, name in enumerate(names))
    loops = "".join(f"  n{i} -->|again| n{i}\n" for i in range(len(names)))
    drawing = _wrapped(fonts, f"flowchart LR\n  {chain}\n{loops}", 420)
    assert "wrapped into" in drawing.note
    chips = [mark_bounds(m.ops) for m in drawing.items if isinstance(m, Mark) and m.fill == "page"]
    assert len(chips) == len(names)
    lines = [m for m in drawing.items if isinstance(m, Mark) and m.fill is None]
    for left, top, right, bottom in chips:
        for line in lines:
            x, y = line.ops[0][1], line.ops[0][2]
            assert not (left - 2 <= x <= right + 2 and top - 2 <= y <= bottom + 2)


REVIEW = """flowchart LR
  A[写需求] --> B[评审需求]
  B --> C[拆任务]
  C --> D[编码]
  D --> E{代码评审}
  E -- 打回 --> D
  E -- 通过 --> F[测试]
  F --> G[预发布]
  G --> H[灰度]
  H --> I[全量上线]
  I --> J[复盘]
"""


def test_a_link_back_keeps_its_ends_in_one_row_and_off_the_row_s_end() -> None:
    """A break inside a link back (steps 2 to 3) moves to the nearest break outside it,
    also off the step it leaves (the return to the next row leaves a row's last step, where
    the row's chart runs the link back); None where no break is free."""
    plain = (0.0,) * 5
    assert _breaks([(0, 3), (3, 6)], plain, ((2, 3),)) == [(0, 2), (2, 6)]
    assert _breaks([(0, 3), (3, 6)], plain, ((0, 1),)) == [(0, 3), (3, 6)]
    assert _breaks([(0, 2), (2, 4)], plain[:3], ((1, 2),)) is None


def test_a_chain_may_link_back_but_not_branch_or_skip_on() -> None:
    ids = ["a", "b", "c", "d", "e"]
    along = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")]
    assert order(ids, [*along, ("d", "c")], returns=True) == ([0, 1, 2, 3, 4], [0, 1, 2, 3], [4])
    assert order(ids, [*along, ("d", "c")]) == ([], [], [])  # a state chain: no links back
    assert order(ids, [*along, ("b", "d")], returns=True) == ([], [], [])  # skips on
    assert order(ids, [*along, ("e", "a")], returns=True) == ([], [], [])  # no first step


def test_a_chain_with_a_review_loop_is_wrapped_into_even_rows(fonts) -> None:
    """Ten steps with a review's link back (代码评审 打回 编码) stood upright on a portrait
    card, labels at half their size, and shrank to one strip on a slide: no chain, to the
    wrapping. Kept in one row, the loop left rows of 3, 4, 2 and 2; across the break
    between its two steps (the link beside the return) the rows are 4, 4 and 3, larger."""
    drawing = _wrapped(fonts, REVIEW, 520)
    assert "wrapped into 3 rows" in drawing.note, drawing.note
    labels = {"".join(item.text.lines): item for item in drawing.items if isinstance(item, Label)}
    assert labels["编码"].y == pytest.approx(labels["写需求"].y, abs=2)  # row one ends on it
    assert labels["代码评审"].y == pytest.approx(labels["预发布"].y, abs=2)  # row two opens on it
    assert labels["编码"].y < labels["打回"].y < labels["代码评审"].y  # back between the rows
    lines = [item for item in drawing.items if isinstance(item, Mark) and item.fill is None]
    assert len(lines) == 10  # nine links along the chain, and the link back


JAPANESE = Path(__file__).resolve().parents[1] / "cases" / "hard" / "06-japanese-diagram.md"


def _mermaid(post: str) -> str:
    start = post.index("```mermaid\n") + len("```mermaid\n")
    return post[start : post.index("```", start)]


def test_a_link_back_of_neighbours_may_cross_a_row_break() -> None:
    """With `across`, the even break between a link back's two neighbouring ends stands
    (the link runs beside the return); a row still never ends on its source."""
    plain = (0.0,) * 5
    assert _breaks([(0, 3), (3, 6)], plain, ((2, 3),), across=True) == [(0, 3), (3, 6)]
    assert _breaks([(0, 4), (4, 6)], plain, ((2, 3),), across=True) == [(0, 3), (3, 6)]
    assert _breaks([(0, 3), (3, 6)], plain, ((1, 3),), across=True) is None  # not neighbours


def test_a_tall_upright_chain_is_wrapped_into_rows_beside_the_text(fonts) -> None:
    """The Japanese post's six-step review flow (LR) turned upright stood 484 px tall on a
    440x586 card, alone on a card between a title card a quarter full and a last card
    under half, in 27 of 30 theme-modes. In two rows of three, its link back 修正 running
    beside the return between them, it is under half that tall and the post is one card."""
    pages = layout.layout_pages(
        JAPANESE.read_text("utf-8"), themes.load("apple-notes"), fonts, CARD
    )
    assert len(pages) == 1
    [(_, row)] = _rows(pages, "課題を作る")
    assert "wrapped into 2 rows" in row.note, row.note
    source = _mermaid(JAPANESE.read_text("utf-8"))
    drawing = draw_to_fit(DiagramBudget(), source, LabelSetter(fonts).measure, 400, 500)
    labels = {"".join(item.text.lines): item.y for item in drawing.items if isinstance(item, Label)}
    first, second = labels["課題を作る"], labels["レビュー"]
    assert labels["実装する"] == pytest.approx(first, abs=2)  # row one: 課題 ブランチ 実装
    assert labels["リリース"] == pytest.approx(second, abs=2)  # row two: レビュー マージ リリース
    assert first < labels["修正"] < second  # the fix runs back between the rows
    assert drawing.height < 0.5 * 484


@pytest.mark.parametrize("theme", ["brandC", "minimal"])
def test_rows_may_shrink_a_chain_to_the_label_floor_not_a_round_share(fonts, theme) -> None:
    """brandC's and minimal's measure fits the review flow's rows at 0.798 of its size
    (11.2-px labels): under a round 0.8 they were refused and the column took a card of its
    own (three cards, the first 35 % full). The floor is the labels' 11 px (`SHRUNK_LABEL`)."""
    pages = layout.layout_pages(JAPANESE.read_text("utf-8"), themes.load(theme), fonts, CARD)
    [(_, row)] = _rows(pages, "課題を作る")
    assert "wrapped into 2 rows" in row.note, row.note
    assert len(pages) <= 2
