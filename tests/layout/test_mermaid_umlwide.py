"""A class or ER diagram too wide for a card at a legible size (the shop model: its labels
at 5.2 px on a 360-px phone) is split into whole parts (test_mermaid_umlparts), or, where
it cannot be (a note on no class ties it together), drawn at the figures' floor
(`FIGURE_FLOOR` of its size) and cut into bands and strips, a card each, each cut in the
clear of every box; one whose cut would go through a box, or whose labels would hardly
grow, stays whole."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.blocks.figures import FIGURE_FLOOR
from inkcard.layout.diagrams.bands import strips
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import SMALL_SIZE, Label
from inkcard.layout.pages.quality import PHONE_WIDTH, measure

CASES = Path(__file__).resolve().parents[1] / "cases" / "mermaid"
OPTIONS = layout.RenderOptions(width=440, height=586, split="autoSplit", mode="light-mode")


NOTE = '  note "Prices in cents"\n'  # a note on no class: the model is not split


def _pages(fonts, case: str, extra: str = ""):
    post = (CASES / case).read_text("utf-8").replace("\n```\n", f"\n{extra}```\n")
    return layout.layout_pages(post, themes.load("apple-notes"), fonts, OPTIONS)


@pytest.mark.parametrize(
    ("case", "extra", "note"),
    [
        ("21-class-shop.md", NOTE, "a wide diagram cut into"),
        ("21-class-shop.md", "", "a large diagram split into"),
        ("25-er-warehouse.md", "", "a large diagram split into"),
    ],
)
def test_a_wide_one_is_cut_and_reads_at_the_floor(fonts, case, extra, note) -> None:
    pages = _pages(fonts, case, extra)
    qualities = [measure(page) for page in pages]
    assert any(note in n for q in qualities for n in q.notes)
    floor = SMALL_SIZE * FIGURE_FLOOR * PHONE_WIDTH / 440 - 0.1
    assert min(q.smallest_text for q in qualities) >= floor, [q.smallest_text for q in qualities]


def test_every_class_shows_on_some_card(fonts) -> None:
    source = re.search(r"```mermaid\n(.*?)```", (CASES / "21-class-shop.md").read_text(), re.S)
    assert source
    shown = "\n".join(p.row.text for page in _pages(fonts, "21-class-shop.md") for p in page.rows)
    for name in re.findall(r"^  class (\w+)", source.group(1), re.M):
        assert name in shown, name


def test_a_cut_never_goes_through_a_box_or_a_label(fonts) -> None:
    source = (CASES / "24-er-saas.md").read_text().split("```mermaid\n")[1].split("```")[0]
    drawing = draw_diagram(source, LabelSetter(fonts).measure)
    spans = strips(drawing, 392 / FIGURE_FLOOR)
    for left, _ in spans[1:]:
        for item in drawing.items:
            if isinstance(item, Label):
                x0 = item.x - item.text.width / 2 if item.align == "center" else item.x
                assert not x0 < left < x0 + item.text.width


def test_a_narrow_one_stays_whole(fonts) -> None:
    pages = _pages(fonts, "20-class-animals.md")
    assert len(pages) == 1
    assert not any("cut into" in n for n in measure(pages[0]).notes)
