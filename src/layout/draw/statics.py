"""A `Cached` item's key → its kept recording and rasters, within budgets; and the counts.

A theme's background and static decorations are recorded once per key and replayed on every
card (`STATIC_LIMIT` recordings kept). A costly layer (effects, gradients, patterns: `is_costly`)
of at most `RASTER_MAX` bytes is rasterized once per output scale and its pixels kept while
they fit the `RASTER_BYTES` budget, the least recently used going first. painter.py records,
replays and rasterizes; this module keeps, counts and judges.
"""

from __future__ import annotations

import math
import threading
from typing import Any

from ..base.boxes import Cached, Fill, Group, Item, Layer, Segment, Shape, Stroke
from ..base.lru import Lru

STATIC_LIMIT = 64  # recorded static layers kept (theme x mode x size x font book)
# Pixels of costly static layers kept, all scales together: two card layers at scale 2 (4.1
# MB each), the request's own and the one before. 16 MB (four) saved 3 of ~100 rasterizations
# over 120 mixed-theme requests, for 8 MB more of every render process's peak.
RASTER_BYTES = 10 << 20
RASTER_MAX = 8 << 20  # a bigger layer (a tall card's) is replayed, never rasterized


def layer_bytes(item: Cached, scale: float) -> int:
    """The bytes of `item`'s pixels at `scale` (RGBA)."""
    return math.ceil(item.size[0] * scale) * math.ceil(item.size[1] * scale) * 4


def raster_bytes(image: Any) -> int:
    return int(image.width() * image.height() * 4)


recordings: Lru[tuple[Any, ...], tuple[Any, bool]] = Lru(STATIC_LIMIT)  # picture, costly
rasters: Lru[tuple[Any, ...], Any] = Lru(RASTER_BYTES, weight=raster_bytes)
_lock = threading.Lock()  # guards the counts
_stats = {"recorded": 0, "replayed": 0, "rasterized": 0}


def count(event: str) -> None:
    """One more static layer `recorded`, `replayed` or `rasterized`."""
    with _lock:
        _stats[event] += 1


def static_cache_stats() -> dict[str, int]:
    """How many static layers were recorded, replayed and rasterized, how many recordings
    are kept, and how many rasters and bytes of them."""
    kept_bytes = rasters.weight()
    with _lock:
        return dict(_stats, size=len(recordings), rasters=len(rasters), raster_bytes=kept_bytes)


def clear_static_cache() -> None:
    recordings.clear()
    rasters.clear()
    with _lock:
        _stats.update(recorded=0, replayed=0, rasterized=0)


def is_costly(items: tuple[Item, ...]) -> bool:
    """Whether replaying `items` costs more than copying their pixels: effects, shaders."""
    for item in items:
        if isinstance(item, Layer) and (item.effects or item.opacity < 1.0):
            return True
        if isinstance(item, Fill | Stroke | Segment) and not isinstance(item.color, int):
            return True
        if isinstance(item, Shape) and not all(
            isinstance(p, int | None) for p in (item.fill, item.stroke)
        ):
            return True
        if isinstance(item, Group | Layer) and is_costly(item.items):
            return True
    return False
