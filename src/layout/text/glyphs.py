"""One face's graphemes → `Cluster`s: HarfBuzz's glyphs grouped into the units a line may not
break inside, their advances and offsets in px (font units become px here and nowhere
else); and the hyphen drawn after a word a line breaks inside.

A grapheme starts a new cluster only where a glyph cluster starts, so a ligature stays one
unit; HarfBuzz's unsafe-to-break flag rides on the cluster (`unsafe_before`).
"""

from __future__ import annotations

from functools import lru_cache

import uharfbuzz as hb

from ..base.fonts import Face, shape_cached
from ..style.spanstyle import SpanStyle
from .clusters import Cluster, spaced

UNSAFE_TO_BREAK = int(hb.GlyphFlags.UNSAFE_TO_BREAK)


def glyph_clusters(
    face: Face,
    graphemes: list[str],
    style: SpanStyle,
    language: str | None,
    extra: tuple[str, ...] = (),
) -> list[Cluster]:
    """The clusters of `graphemes` shaped in `face` (with the OpenType features `extra`)."""
    text = "".join(graphemes)
    gids, clusters, advances, offsets_x, offsets_y, flags = shape_cached(
        face, text, style.ligatures, language, extra
    )
    scale = style.size / face.upem
    if len(gids) == len(text) == len(graphemes) and clusters == tuple(range(len(text))):
        shaped = (gids, advances, offsets_x, offsets_y, flags)
        return _one_glyph_each(face, text, style, scale, shaped)
    starts = set(clusters)
    out: list[Cluster] = []
    glyph_count = len(gids)
    glyph_index = 0
    offset = 0
    pending = ""
    pending_start = 0
    for grapheme in [*graphemes, ""]:
        # A grapheme starts a new unit only where a glyph cluster starts (not inside a ligature).
        if grapheme and pending and offset not in starts:
            pending += grapheme
            offset += len(grapheme)
            continue
        if pending:
            end = glyph_index
            while end < glyph_count and clusters[end] < offset:
                end += 1
            unsafe = (
                pending_start > 0
                and glyph_index < glyph_count
                and bool(flags[glyph_index] & UNSAFE_TO_BREAK)
            )
            if end == glyph_index + 1:  # the usual unit: one glyph, `_cluster`'s sums inline
                out.append(
                    Cluster(
                        pending,
                        0.0 + advances[glyph_index] * scale,
                        face,
                        (gids[glyph_index],),
                        (0.0 + offsets_x[glyph_index] * scale,),
                        (-offsets_y[glyph_index] * scale,),
                        style,
                        unsafe,
                    )
                )
            else:
                out.append(
                    _cluster(
                        face,
                        style,
                        pending,
                        scale,
                        gids,
                        advances,
                        offsets_x,
                        offsets_y,
                        glyph_index,
                        end,
                        unsafe=unsafe,
                    )
                )
            glyph_index = end
        pending, pending_start = grapheme, offset
        offset += len(grapheme)
    return out


def _one_glyph_each(
    face: Face,
    text: str,
    style: SpanStyle,
    scale: float,
    shaped: tuple[tuple[int, ...], ...],
) -> list[Cluster]:
    """The clusters of a segment whose every character is one glyph (most text): the
    sums `_cluster` makes, for a whole segment at once."""
    gids, advances, offsets_x, offsets_y, flags = shaped
    return [
        Cluster(
            char,
            0.0 + advance * scale,
            face,
            (gid,),
            (0.0 + dx * scale,),
            (-dy * scale,),
            style,
            index > 0 and bool(flag & UNSAFE_TO_BREAK),
        )
        for index, (char, gid, advance, dx, dy, flag) in enumerate(
            zip(text, gids, advances, offsets_x, offsets_y, flags, strict=True)
        )
    ]


def _cluster(
    face: Face,
    style: SpanStyle,
    text: str,
    scale: float,
    gids: tuple[int, ...],
    advances: tuple[int, ...],
    offsets_x: tuple[int, ...],
    offsets_y: tuple[int, ...],
    start: int,
    end: int,
    *,
    unsafe: bool,
) -> Cluster:
    xs: list[float] = []
    ys: list[float] = []
    pen = 0.0
    for i in range(start, end):
        xs.append(pen + offsets_x[i] * scale)
        ys.append(-offsets_y[i] * scale)
        pen += advances[i] * scale
    return Cluster(
        text=text,
        width=pen,
        face=face,
        glyphs=gids[start:end],
        xs=tuple(xs),
        ys=tuple(ys),
        style=style,
        unsafe_before=unsafe,
    )


def hyphen_after(cluster: Cluster) -> Cluster:
    """The hyphen drawn after `cluster` when a line breaks inside its word (a soft
    hyphen or a hyphenation point), in the cluster's face and style."""
    hyphen = _hyphen(cluster.face, cluster.style)
    return spaced(hyphen, cluster.tracking) if cluster.tracking else hyphen


@lru_cache(maxsize=256)
def _hyphen(face: Face, style: SpanStyle) -> Cluster:
    gids, _, advances, offsets_x, offsets_y, _ = shape_cached(face, "-", True, None)
    return _cluster(
        face,
        style,
        "-",
        style.size / face.upem,
        gids,
        advances,
        offsets_x,
        offsets_y,
        0,
        len(gids),
        unsafe=False,
    )
