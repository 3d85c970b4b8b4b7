"""A class or ER diagram that even a card of its own would shrink under the figures' floor
is split as a model: parts, each a whole diagram on its card (case 21, the shop model, was
cut as a picture into tiles whose lines ran off the card's edges, one tile just Address and
its "ships to"). Every box is drawn in full once; a box tied to a later part is drawn again
there by its name only, dashed; each relation once; no part is a lone box."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.blocks.figures import FIGURE_FLOOR
from inkcard.layout.diagrams.fit import DiagramBudget, draw_in_parts
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import SMALL_SIZE, Drawing, Label, Mark, fit_scale
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.diagrams.uml.mermaidclass import ClassDiagram
from inkcard.layout.diagrams.uml.parts import ELSEWHERE, Record, split
from inkcard.layout.pages.quality import PHONE_WIDTH, measure

CASES = Path(__file__).resolve().parents[1] / "cases" / "mermaid"
OPTIONS = layout.RenderOptions(width=440, height=586, split="autoSplit", mode="light-mode")
FLOOR_PX = SMALL_SIZE * FIGURE_FLOOR * PHONE_WIDTH / 440 - 0.1


def _source(case: str) -> str:
    found = re.search(r"```mermaid\n(.*?)```", (CASES / case).read_text("utf-8"), re.S)
    assert found
    return found.group(1)


def _parts(fonts: layout.FontBook, case: str, width: float = 392.0) -> list[Drawing]:
    def fits(part: Drawing, index: int) -> bool:
        return fit_scale(part, width, 400.0 if index == 0 else 470.0) >= FIGURE_FLOOR

    return draw_in_parts(DiagramBudget(), _source(case), LabelSetter(fonts).measure, fits, 4)


@pytest.mark.parametrize("theme", ["apple-notes", "darktech"])
def test_the_shop_model_is_split_into_whole_parts_that_read(fonts, theme: str) -> None:
    post = (CASES / "21-class-shop.md").read_text("utf-8")
    pages = layout.layout_pages(post, themes.load(theme), fonts, OPTIONS)
    qualities = [q for q in (measure(page) for page in pages) if q]
    notes = [n for q in qualities for n in q.notes]
    assert any(n.startswith("a large diagram split into") for n in notes), notes
    assert not any("cut into" in n for n in notes), notes  # no strips, no bands
    assert min(q.smallest_text for q in qualities) >= FLOOR_PX  # 6.9 px; 5.2 drawn whole


def test_each_box_in_full_once_each_relation_once(fonts) -> None:
    parts = _parts(fonts, "21-class-shop.md")
    assert 2 <= len(parts) <= 4
    shown = [line for part in parts for line in _labels(part)]
    for member in ("+placeOrder(Cart cart) : Order", "+total() : Money", "+String sku"):
        assert shown.count(member) == 1, member
    for relation in ("places", "ships to", "pays with"):
        assert shown.count(relation) == 1, relation
    assert "Customer" in _labels(parts[0])  # it reads from the top of the model


def test_a_box_drawn_again_is_its_name_dashed_and_no_part_is_a_lone_box(fonts) -> None:
    parts = _parts(fonts, "21-class-shop.md", 360.0)  # three parts: its last was two boxes
    assert len(parts) == 3
    for part in parts[1:]:
        dashed = [m for m in part.items if isinstance(m, Mark) and m.dash == ELSEWHERE and m.fill]
        assert dashed  # the box of an earlier part a relation here ties to
    for part in parts:
        names = [i for i in part.items if isinstance(i, Label) and i.text.bold]
        assert len(names) >= 2, _labels(part)


def test_a_diagram_with_a_note_on_no_class_is_not_split() -> None:
    """A note on no class ties a diagram together (no part is its own): not split, where
    the same diagram without it is, with a card that takes four classes."""
    source = _source("21-class-shop.md")
    noted = parse_diagram(source + '  note "Prices in cents"\n')
    blank = Drawing(1.0, 1.0, (), "")

    def four(part: Record, index: int) -> Drawing | None:
        assert isinstance(part, ClassDiagram)
        return blank if len(part.classes) <= 4 else None

    assert len(split(parse_diagram(source), four, 4)) == 4  # type: ignore[arg-type]
    assert split(noted, four, 4) == []  # type: ignore[arg-type]


def test_a_note_goes_with_its_class(fonts) -> None:
    source = _source("21-class-shop.md") + '  note for Product "Prices in cents"\n'
    measure_label = LabelSetter(fonts).measure

    def fits(part: Drawing, index: int) -> bool:
        return fit_scale(part, 392.0, 400.0 if index == 0 else 470.0) >= FIGURE_FLOOR

    parts = draw_in_parts(DiagramBudget(), source, measure_label, fits, 4)
    holding = [part for part in parts if "Prices in cents" in _labels(part)]
    assert len(parts) >= 2 and len(holding) == 1 and "+String sku" in _labels(holding[0])


def _labels(drawing: Drawing) -> list[str]:
    return [" ".join(i.text.lines) for i in drawing.items if isinstance(i, Label)]
