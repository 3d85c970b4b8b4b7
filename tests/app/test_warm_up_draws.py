"""The worker's warm-up draws its card twice (``WARM_UP_CARD_DRAWS``): the second draw, the
first at a later card's cost, is what spares the first request the remaining first-use costs
(docs/benchmarks.md, "first request")."""

from __future__ import annotations

from inkcard import layout, themes
from inkcard.app.render.messages import WorkerConfig
from inkcard.app.render.worker import WARM_UP_CARD_DRAWS, warm_up
from inkcard.layout.draw.statics import clear_static_cache, static_cache_stats


def test_the_warm_up_card_is_drawn_twice_its_static_layer_replayed() -> None:
    fonts = layout.FontBook.load(str(layout.DEFAULT_FONTS_DIR))
    theme = themes.load("apple-notes")
    config = WorkerConfig(fonts_dir=str(layout.DEFAULT_FONTS_DIR), warm_up_theme=theme)
    clear_static_cache()
    assert warm_up(fonts, config) == ("card", "math")
    stats = static_cache_stats()
    assert WARM_UP_CARD_DRAWS == 2
    assert stats["recorded"] == 1  # the background, once
    assert stats["replayed"] + stats["rasterized"] >= 1  # and drawn again from the cache
