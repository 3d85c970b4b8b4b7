"""A later card that holds one panel of text alone is set larger, as a statement
(`covered.plate_of`): the git post's two-line warning stood alone on a slide in all 30
theme-modes at 1600x900, 35-39 % full at the body's size in the slide's middle, and read
as a slide left empty (sixth look: "set it large and centred as an emphasis card")."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Page
from inkcard.layout.pages.quality import measure

GIT = (Path(__file__).resolve().parents[1] / "cases" / "hard" / "14-git-cheatsheet.md").read_text(
    "utf-8"
)
SLIDE = layout.RenderOptions(width=1600, height=900, split="autoSplit")


def _sizes(page: Page, kind: str) -> list[float]:
    """The sizes of the text runs on `page` of the top-level blocks of `kind`."""
    return [
        item.size
        for placed in page.rows
        if placed.row.source and placed.row.source[0][0] == kind
        for item in placed.row.items
        if isinstance(item, GlyphRun)
    ]


@pytest.mark.parametrize("theme", ["warm", "business", "notebook", "pop-art"])
def test_a_warning_alone_on_a_slide_is_set_larger(theme: str) -> None:
    """The warning's slide: a plate (`Fit.plate`), its text at least 1.3 times the body's
    on the slides around it (1.0 before), filling half the slide or more (35-39 %), every
    word of it kept."""
    pages = layout.layout_pages(GIT, themes.load(theme), layout.FontBook.load(), SLIDE)
    [warning] = [page for page in pages if _sizes(page, "Callout")]
    assert warning.fit is not None and warning.fit.plate
    body = min(size for page in pages for size in _sizes(page, "Paragraph"))
    assert min(_sizes(warning, "Callout")) >= 1.3 * body
    quality = measure(warning)
    assert quality is not None and quality.fill >= 0.5
    text = "".join(warning.alt_text().split())
    assert "reset--hard会丢掉工作区里没提交的改动" in text and "看一眼。" in text
