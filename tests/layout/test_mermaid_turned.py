"""A flowchart or state chart turned where its own direction would shrink it
(`diagrams.fit.draw_to_fit`): a top-down chain on a landscape slide is laid left to right at
its size, a left-right chain on a portrait card top-down; a chain too long for one slide
either way is still cut into bands at its size (`blocks.diagram._banded_as_written`)
unless it is one chain (then it is wrapped into rows: test_mermaid_chainwrap)."""

from __future__ import annotations

import itertools

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Row
from inkcard.layout.blocks.figures import FIGURE_FLOOR
from inkcard.layout.diagrams.fit import DiagramBudget, draw_to_fit
from inkcard.layout.diagrams.labels import LabelSetter

SLIDE = layout.RenderOptions(split="autoSplit", width=1600, height=900, scale=1)
CARD = layout.RenderOptions(split="autoSplit", width=440, height=586, scale=1)
STEPS = ("看到笔记", "点进主页", "关注", "私信咨询", "下单")  # tests/cases/hard/09's chain
AFTER = "每一层大约流失 60%，所以提升第一层的点击率最划算。"


def _flow(direction: str, steps: tuple[str, ...] = STEPS) -> str:
    links = "\n".join(f"  n{i}[{a}] --> n{i + 1}[{b}]" for i, (a, b) in enumerate(_pairs(steps)))
    return f"flowchart {direction}\n{links}\n"


def _pairs(steps: tuple[str, ...]) -> list[tuple[str, str]]:
    return list(itertools.pairwise(steps))


def _state(steps: tuple[str, ...] = STEPS) -> str:
    links = "\n".join(f"  {a} --> {b}" for a, b in _pairs(steps))
    return f"stateDiagram-v2\n  [*] --> {steps[0]}\n{links}\n  {steps[-1]} --> [*]\n"


def _post(source: str) -> str:
    return f"## 转化路径\n\n```mermaid\n{source}```\n\n{AFTER}\n"


def _diagram_rows(pages: list[layout.Page], label: str) -> list[tuple[int, Row]]:
    return [(n, p.row) for n, page in enumerate(pages) for p in page.rows if label in p.row.text]


@pytest.mark.parametrize("source", [_flow("TD"), _flow("BT"), _state()], ids=["TD", "BT", "state"])
def test_a_tall_chain_on_a_slide_is_drawn_left_to_right_at_its_size(fonts, source: str) -> None:
    """Top-down, the five steps took 51 % of their size on a 1600x900 slide (labels ~17 px
    where the body is ~33) and pushed the paragraph after them to the next slide; left to
    right they are as wide as the slide at their size, the paragraph under them."""
    pages = layout.layout_pages(_post(source), themes.load("apple-notes"), fonts, SLIDE)
    [(at, row)] = _diagram_rows(pages, STEPS[-1])
    [(after, _)] = _diagram_rows(pages, AFTER[:8])
    assert row.items[0].scale >= 0.9, row.note
    assert "left to right" in row.note
    assert row.height < 80  # one row of boxes (top-down: 169 of the slide's 290 px)
    assert after == at  # kept with the paragraph after it


def test_a_top_down_chain_that_fits_a_card_stays_as_written(fonts) -> None:
    pages = layout.layout_pages(_post(_flow("TD")), themes.load("apple-notes"), fonts, CARD)
    [(_, row)] = _diagram_rows(pages, STEPS[-1])
    assert row.items[0].scale >= 1.0 and row.note == ""  # not shrunk, not turned


def test_a_left_right_chain_on_a_card_is_drawn_top_down(fonts) -> None:
    """The mirror case: written left to right, the chain would shrink to fit a 440-px card;
    top-down it keeps its size."""
    steps = ("Write the draft", "Review it", "Fix the notes", "Publish", "Ship it")
    pages = layout.layout_pages(_post(_flow("LR", steps)), themes.load("warm"), fonts, CARD)
    [(_, row)] = _diagram_rows(pages, "Ship it")
    assert row.items[0].scale >= 0.9 and "upright" in row.note


def test_a_graph_too_long_for_a_slide_either_way_is_cut_into_bands_at_its_size(fonts) -> None:
    """Ten steps and a link skipping them: left to right they would be one strip at about
    half size; top-down, cut into bands, a slide each, they keep their size. (A chain
    alone is wrapped into rows: test_mermaid_chainwrap.)"""
    steps = tuple(f"第 {i} 步" for i in range(10))
    source = _flow("TD", steps) + "  n0 --> n9\n"
    pages = layout.layout_pages(_post(source), themes.load("apple-notes"), fonts, SLIDE)
    rows = [row for _, row in _diagram_rows(pages, "步")]
    assert len(rows) > 1 and all(row.items[-1].scale >= FIGURE_FLOOR for row in rows)
    drawn = {line for row in rows for line in row.text.splitlines()}
    assert set(steps) <= drawn


def test_an_article_never_turns_a_top_down_chart(fonts) -> None:
    """A column of no height never makes a top-down chart wider."""
    setter = LabelSetter(fonts)
    drawing = draw_to_fit(DiagramBudget(), _flow("TD"), setter.measure, 343, None)
    assert drawing.tall and drawing.height > drawing.width
