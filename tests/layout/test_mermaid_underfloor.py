"""A diagram drawn whole under the figures' floor (`FIGURE_FLOOR` of its size: 12-px
labels under 8.4 px on the card) is said in the card's quality report, as a split or a
source fallback is: the reader of the report learns why its smallest text is small."""

from __future__ import annotations

from inkcard import layout, themes
from inkcard.layout.pages.quality import measure

OPTIONS = layout.RenderOptions(width=440, height=586, split="autoSplit", mode="light-mode")
UNDER = "a diagram drawn at "


def _notes(fonts: layout.FontBook, post: str, theme: str = "apple-notes") -> list[str]:
    pages = layout.layout_pages(post, themes.load(theme), fonts, OPTIONS)
    return [note for page in pages if (q := measure(page)) for note in q.notes]


def test_a_wide_flowchart_drawn_under_the_floor_says_so(fonts) -> None:
    """Twelve siblings side by side: no upright form, no bands; one figure at ~30 %."""
    rows = "\n".join(f"  A --> B{i}[Step number {i} of the plan]" for i in range(12))
    post = f"# Wide\n\n```mermaid\nflowchart TB\n{rows}\n```\n"
    said = [note for note in _notes(fonts, post) if UNDER in note]
    assert len(said) == 1, _notes(fonts, post)
    assert "under the 70%" in said[0]


def test_a_diagram_at_its_size_says_nothing(fonts) -> None:
    post = "# Small\n\n```mermaid\nflowchart TB\n  A --> B\n```\n"
    assert not [note for note in _notes(fonts, post) if UNDER in note]
