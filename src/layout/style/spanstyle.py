"""Look knobs → `SpanStyle`, the record of how a run of inline text looks, and `Span`, a run.

Plain data, shared by the theme schema (`cjk_italic` is a theme knob), the mapping from a
role's style and inline marks to a look (looks.py), shaping and drawing. It imports no
text engine, so the schema can name it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..base.boxes import Effect, Paint

BOLD_WEIGHT = 600  # a weight from which text is set in the bold face
CjkItalic = Literal["kai", "oblique", "none"]


@dataclass(frozen=True, slots=True)
class SpanStyle:
    """How a run of inline text looks; one per combination of inline roles."""

    family: str
    size: float
    bold: bool
    italic: bool
    color: int
    background: int | None = None  # inline code panel
    radius: float = 0.0
    pad_x: float = 0.0
    strike: bool = False
    link: bool = False
    ligatures: bool = True
    cjk_italic: CjkItalic = "kai"  # how CJK text in an italic span is set (shape.py)
    letter_spacing: float = 0.0  # px added to every cluster's advance
    text_transform: str = "none"  # "uppercase" or "lowercase": the text is shaped so
    effects: tuple[Effect, ...] = ()  # drawn with the glyphs (shadow, glow)
    highlight: Paint | None = None  # behind the run (strong, em, link, del)
    highlight_height: float | str = "line"  # "line": the line box; a share: lower text part
    underline: str = "none"  # "solid", "dashed", "dotted" or "wavy"
    underline_color: Paint | None = None  # None: the text colour
    underline_width: float = 1.0
    underline_offset: float = 2.0  # below the baseline
    rise: float = 0.0  # px the glyphs sit above the baseline (inline <sup>; <sub> below)
    grows: bool = False  # inline HTML sized it: a line grows to hold it


@dataclass(frozen=True, slots=True)
class Span:
    """A run of text in one look. A math span (`math` "inline" or "display") holds LaTeX:
    one formula cluster, or its source in the `fallback` look when it does not typeset."""

    text: str
    style: SpanStyle
    math: str = ""
    fallback: SpanStyle | None = None
