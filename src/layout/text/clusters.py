"""Shaped text's unit, `Cluster` → the same cluster trimmed, padded or letter-spaced.

A cluster is one grapheme, or several when HarfBuzz fused them into one glyph cluster (a
ligature): what shape.py makes of styled spans, linebreak.py breaks between and inline.py
positions. Its edits keep its glyphs and move its pen offsets: `trimmed` takes blank off at
a line edge, `padded` adds a run's padding, `spaced` its letter spacing; `with_edges` sets a
new width, pen offsets and edge trims at once.
"""

from __future__ import annotations

from dataclasses import replace

from ..base.fonts import Face
from ..base.records import bulk_record
from ..style.spanstyle import SpanStyle
from .formula.mathtex import Formula


@bulk_record
class Cluster:
    """An unbreakable unit of shaped text; `xs`/`ys` are glyph pen offsets from its start.
    Every character of a post becomes one: a `bulk_record`."""

    text: str
    width: float
    face: Face
    glyphs: tuple[int, ...]
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    style: SpanStyle
    unsafe_before: bool = False
    pad_left: float = 0.0
    pad_right: float = 0.0
    trim_start: float = 0.0  # blank px an opening mark loses at a line start
    trim_end: float = 0.0  # blank px a closing mark may lose at a line end
    formula: Formula | None = None  # a typeset formula: no glyphs, drawn as outlines
    tracking: float = 0.0  # the letter spacing in `width` (`_tracked` says who gets it)

    @property
    def is_space(self) -> bool:
        return self.text == " "

    @property
    def is_newline(self) -> bool:
        return self.text == "\n"


def trimmed(cluster: Cluster, left: float = 0.0, right: float = 0.0) -> Cluster:
    """The cluster without `left` px of blank before its ink and `right` px after it."""
    if not left and not right:
        return cluster
    return with_edges(
        cluster,
        width=cluster.width - left - right,
        xs=tuple(x - left for x in cluster.xs),
        trim_start=max(0.0, cluster.trim_start - left),
        trim_end=max(0.0, cluster.trim_end - right),
    )


def with_edges(
    c: Cluster, *, width: float, xs: tuple[float, ...], trim_start: float, trim_end: float
) -> Cluster:
    """`c` with a new width, pen offsets and edge trims (what `_replace` does, faster)."""
    return Cluster(
        text=c.text,
        width=width,
        face=c.face,
        glyphs=c.glyphs,
        xs=xs,
        ys=c.ys,
        style=c.style,
        unsafe_before=c.unsafe_before,
        pad_left=c.pad_left,
        pad_right=c.pad_right,
        trim_start=trim_start,
        trim_end=trim_end,
        formula=c.formula,
        tracking=c.tracking,
    )


def padded(cluster: Cluster, *, left: float = 0.0, right: float = 0.0) -> Cluster:
    return replace(
        cluster,
        width=cluster.width + left + right,
        xs=tuple(x + left for x in cluster.xs),
        pad_left=cluster.pad_left + left,
        pad_right=cluster.pad_right + right,
    )


def spaced(cluster: Cluster, spacing: float) -> Cluster:
    """The cluster `spacing` px wider after its glyphs."""
    return replace(cluster, width=cluster.width + spacing, tracking=cluster.tracking + spacing)
