"""Contrast of every glyph run on a card, measured on its pixels.

A card is drawn twice from the same layout: as it is, and bare (every glyph run taken
out, so what lies behind the text is drawn exactly: panels, gradients, decorations). Each
run's contrast is the
run's colour (composited over each pixel when translucent) against the bare pixels under
that ink (where a third drawing, of the glyphs alone in black on white, is at least half
covered), at `PERCENTILE` so that a stray antialiased edge of a neighbour does not decide.
The text drawing also shows whether the run is drawn in its colour at all (a sheet laid
over it would not be): some ink pixel must be near the colour the layout says.

Each run is named for the report by where it sits (the innermost block of its row,
`Image` for a caption, `chrome` for what lies outside the rows: page numbers, labels) and
by the palette token of its colour (`Paragraph/quote`, `CodeBlock/code_comment`). A
theme's ornament text (a decoration marked `decorative`, a heading rule's ornament row, a
bullet set as a glyph: `Group.ornament`) is not measured.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

import msgspec
import numpy as np

from inkcard import layout
from inkcard.layout.base.boxes import Cached, GlyphRun, Group, Item, Layer, Page
from inkcard.layout.draw.encode import rasterize
from inkcard.layout.draw.painter import Painter
from inkcard.layout.style.resolver import resolve
from tests.glyphruns import glyph_runs

MIN_CONTRAST = 4.5  # WCAG 2 AA for text
MIN_LARGE_CONTRAST = 3.0  # WCAG 2 AA for large text
LARGE_TEXT = 24.0  # px: text this size and more is large
PERCENTILE = 10  # of the ratios over a run's ink: 90 % of what lies under it must pass
TEXT_MATCH = 40  # max channel difference between a run's colour and its nearest ink pixel
INK = 128  # a pixel of the black-on-white glyph drawing darker than this is ink
BLACK, WHITE = 0xFF000000, 0xFFFFFFFF
ASCENT, DESCENT = 1.0, 0.35  # a run's box above and below its baseline, in em


def relative_luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG 2 relative luminance of sRGB colours (0..255 channels, the last axis)."""
    c = np.asarray(rgb, dtype=np.float64)[..., :3] / 255
    linear = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def contrast_ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    la, lb = relative_luminance(a), relative_luminance(b)
    return (np.maximum(la, lb) + 0.05) / (np.minimum(la, lb) + 0.05)


def argb_over(argb: int, under: np.ndarray, opacity: float = 1.0) -> np.ndarray:
    """An ARGB colour composited over RGB pixels."""
    alpha = ((argb >> 24) & 0xFF) / 255 * opacity
    rgb = np.array([(argb >> 16) & 0xFF, (argb >> 8) & 0xFF, argb & 0xFF], dtype=np.float64)
    return rgb * alpha + np.asarray(under, dtype=np.float64)[..., :3] * (1 - alpha)


@dataclass(frozen=True)
class Placed:
    """A glyph run where it lands on the card, with the role it is named by."""

    run: GlyphRun
    dx: float
    dy: float
    scale: float
    opacity: float
    role: str

    @property
    def size(self) -> float:
        return self.run.size * self.scale

    def box(self) -> tuple[int, int, int, int]:
        """Top, bottom, left, right pixel bounds of the run (scale 1)."""
        run, s = self.run, self.scale
        left = self.dx + s * min(run.xs)
        right = self.dx + s * (max(run.xs) + run.size)
        top = self.dy + s * (min(run.ys) - ASCENT * run.size)
        bottom = self.dy + s * (max(run.ys) + DESCENT * run.size)
        return round(top), round(bottom), round(left), round(right)


@dataclass(frozen=True)
class Found:
    role: str
    size: float
    ratio: float
    text_offset: int  # how far the nearest ink pixel is from the run's colour
    ink: int  # ink pixels measured
    behind: float  # the median relative luminance of what lies under the ink

    @property
    def needed(self) -> float:
        return MIN_LARGE_CONTRAST if self.size >= LARGE_TEXT else MIN_CONTRAST


def without_decorative(theme: layout.Theme) -> layout.Theme:
    """The theme without the text decorations it marks as ornament."""
    kept = [d for d in theme.decorations if not getattr(d, "decorative", False)]
    return msgspec.structs.replace(theme, decorations=kept)


def color_names(theme: layout.Theme, mode: str | None) -> dict[int, str]:
    """ARGB colour → the palette token that gives it (the first, in palette order)."""
    names: dict[int, str] = {}
    for token, argb in resolve(theme, mode).palette.items():
        names.setdefault(argb, token)
    return names


def placedglyph_runs(page: Page, names: dict[int, str]) -> Iterator[Placed]:
    """Every measured glyph run of the card, placed, named by its row's block and colour."""
    where: dict[int, str] = {}
    skip: set[int] = set()
    for placed in page.rows:
        row = placed.row
        block = row.source[-1][0] if row.source else "Image" if row.text[:1] == "[" else "Row"
        for run in glyph_runs(row.items):
            (skip.add(id(run)) if row.decorative else where.setdefault(id(run), block))
    for found in _walk(page.items, 0.0, 0.0, 1.0, 1.0):
        run = found.run
        if id(run) in skip or not run.glyphs:
            continue
        colour = names.get(run.color, f"#{run.color & 0xFFFFFF:06x}")
        yield replace(found, role=f"{where.get(id(run), 'chrome')}/{colour}")


def _walk(
    items: tuple[Item, ...], dx: float, dy: float, scale: float, opacity: float
) -> Iterator[Placed]:
    for item in items:
        if isinstance(item, GlyphRun):
            yield Placed(item, dx, dy, scale, opacity, "")
        elif isinstance(item, Group) and not item.ornament:  # a bullet's ★ is no text
            yield from _walk(item.items, dx + scale * item.dx, dy + scale * item.dy,
                             scale * item.scale, opacity)  # fmt: skip
        elif isinstance(item, Layer) and not item.rotate:  # a tilted ornament is not measured
            yield from _walk(item.items, dx, dy, scale, opacity * item.opacity)
        elif isinstance(item, Cached):
            yield from _walk(item.items, dx, dy, scale, opacity)


def bare(items: tuple[Item, ...]) -> tuple[Item, ...]:
    """The items without their glyph runs (a recorded layer gets a key of its own)."""
    out: list[Item] = []
    for item in items:
        if isinstance(item, GlyphRun):
            continue
        if isinstance(item, Group | Layer):
            item = msgspec.structs.replace(item, items=bare(item.items))
        elif isinstance(item, Cached):
            item = msgspec.structs.replace(item, key=(*item.key, "bare"), items=bare(item.items))
        out.append(item)
    return tuple(out)


def draw(
    page: Page, fonts: layout.FontBook, images: Mapping[str, bytes] | None = None
) -> np.ndarray:
    painter = Painter(fonts.typefaces(), scale=1, images=images)
    picture = painter.record(page)
    return rasterize(picture, page.width, page.height, page.background, 1)


def ink_page(page: Page, runs: list[Placed]) -> Page:
    """The card's measured glyphs alone, black on white: where each run puts ink."""
    items = tuple(
        Group((msgspec.structs.replace(p.run, color=BLACK),), dx=p.dx, dy=p.dy, scale=p.scale)
        for p in runs
    )
    return replace(page, background=WHITE, items=items)


def measure_page(
    page: Page,
    fonts: layout.FontBook,
    names: dict[int, str],
    images: Mapping[str, bytes] | None = None,
) -> list[Found]:
    """Every measured run of the card: its role, size and contrast as drawn (with the
    laid-out `images`, a brand kit's background among them)."""
    runs = list(placedglyph_runs(page, names))
    text = draw(page, fonts, images).astype(np.int16)
    under = draw(replace(page, items=bare(page.items)), fonts, images).astype(np.int16)
    ink_mask = draw(ink_page(page, runs), fonts)[:, :, 0] < INK
    height, width = ink_mask.shape
    out: list[Found] = []
    for placed in runs:
        top, bottom, left, right = placed.box()
        top, left = max(top, 0), max(left, 0)
        bottom, right = min(bottom, height), min(right, width)
        mask = ink_mask[top:bottom, left:right]
        if not mask.any():
            continue  # nothing drawn (a space, or the run lies off the card)
        behind = under[top:bottom, left:right][mask]
        drawn = text[top:bottom, left:right][mask]
        colour = argb_over(placed.run.color, behind, placed.opacity)
        ratio = float(np.percentile(contrast_ratio(colour, behind), PERCENTILE))
        offset = int(np.abs(drawn - colour).max(axis=1).min())
        luminance = float(np.median(relative_luminance(behind)))
        out.append(Found(placed.role, placed.size, ratio, offset, len(behind), luminance))
    return out


def worst_by_role(found: list[Found]) -> dict[str, Found]:
    """Each role's run with the least margin over what it needs; its `text_offset` is the
    role's nearest (a lone small mark of a run may never reach its full colour)."""
    worst: dict[str, Found] = {}
    for f in found:
        held = worst.get(f.role)
        if held is None:
            worst[f.role] = f
            continue
        least = f if f.ratio / f.needed < held.ratio / held.needed else held
        worst[f.role] = replace(least, text_offset=min(f.text_offset, held.text_offset))
    return worst
