"""Render memory as documented (docs/decisions/engine.md, "Memory per output pixel"): the
largest card the pixel budgets allow in each format stays under its documented peak, and a
render process is held to ``INKCARD_RENDER_MEMORY_MB`` of address space, so a render past it
costs one 500 and a fresh process, not the machine.

Peaks are measured in a fresh process each (``VmHWM`` after a warm-up card, less the resident
set then), and asserted as bounds far from the normal case.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from inkcard import layout, themes
from tests.app.apphelpers import stored_files, wait_until_ok
from tests.layout.test_image_budget import data_uri, png_1bit

BIG_CARD = {"markdown": "# A big card\n\nsome text", "width": 1600, "height": 4000, "scale": 4}
MIB = 1 << 20

PEAK = """
import json, sys
from pathlib import Path
from inkcard import layout, themes
from inkcard.layout.draw import load_row_packer

def kb(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])

fmt, scale = sys.argv[1], int(sys.argv[2])
fonts = layout.FontBook.load(str(layout.DEFAULT_FONTS_DIR))
load_row_packer()
theme = themes.builtin().get("typewriter")  # a card-sized grain layer: the costliest to draw
text = "# Memory\\n\\n" + "\\n\\n".join(f"Line {i} of the card, 墨卡 **bold**." for i in range(60))
def options(width, height, scale):
    return layout.RenderOptions(
        width=width, height=height, scale=scale, split="hrSplit", overflow_hidden=True,
        format=fmt, quality=100, max_pixels=layout.MAX_CARD_PIXELS,
    )
layout.render(text, theme, fonts, options(440, 586, 2))
before = kb("VmRSS")
Path("/proc/self/clear_refs").write_text("5")  # VmHWM starts again from here
files = layout.render(text, theme, fonts, options(1600, 4000, scale))
print(json.dumps({"files": len(files), "peak_mb": (kb("VmHWM") - before) / 1024}))
"""


def largest_scale(fmt: str) -> int:
    """The largest integer scale a 1600 x 4000 card of ``fmt`` may be drawn at."""
    limit = layout.MAX_CARD_PIXELS_BY_FORMAT.get(fmt, layout.MAX_CARD_PIXELS)
    return max(s for s in range(1, 5) if 1600 * 4000 * s * s <= limit)


@pytest.mark.parametrize("fmt", layout.FORMATS)
def test_the_largest_card_of_each_format_peaks_under_its_documented_bound(fmt: str) -> None:
    """Documented: at most ~8 bytes per output pixel for PNG and JPEG (0.8 GB for the largest
    card), WebP's smaller budget keeping it near that, PDF vector. It was 1.5 GB (JPEG) and
    2.4-2.9 GB (WebP) before the copies were cut and WebP's budget lowered."""
    scale = largest_scale(fmt)
    done = subprocess.run(
        [sys.executable, "-c", PEAK, fmt, str(scale)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    result = json.loads(done.stdout)
    assert result["files"] == 1
    assert result["peak_mb"] < 1000, (fmt, scale, result)


@pytest.fixture
def serve(serve: Callable[..., tuple[str, Any]]) -> Callable[..., tuple[str, Any]]:
    return lambda **settings: serve(generate_cost=1, **settings)


def test_a_render_over_the_memory_limit_fails_cleanly_and_its_worker_is_replaced(
    serve: Callable[..., tuple[str, Any]], tmp_path: Path
) -> None:
    """600 MiB holds a warm worker (~390 MB mapped) but not the 410 MB of pixels of a
    1600 x 4000 card at scale 4: that request answers 500 ``render_failed`` and charges
    nothing, its process is replaced, and the next card renders."""
    base, app = serve(render_processes=1, render_memory_mb=600)
    pool = app.state.services.cards.pool
    credits = app.state.services.credits
    key, _ = credits.create_key("big", 5)
    [first_pid] = pool.pids()
    with httpx.Client(timeout=60, headers={"x-api-key": key}) as http:
        response = http.post(f"{base}/api/generate", json=BIG_CARD)
        assert response.status_code == 500, response.text
        body = response.json()
        assert body["error"] == "render_failed"
        assert "memory" in body["message"]
        assert credits.authenticate(key).balance == 5  # nothing charged
        assert stored_files(tmp_path / "files") == []
        assert pool.killed == 1
        wait_until_ok(f"{base}/readyz", 60)  # a fresh worker took its place and is warm
        assert len(pool.pids()) == 1 and pool.pids() != [first_pid]
        response = http.post(f"{base}/api/generate", json={"markdown": "# after it"})
        assert response.status_code == 200, response.text
        assert credits.authenticate(key).balance == 4


def test_the_default_limit_leaves_the_largest_card_alone(
    serve: Callable[..., tuple[str, Any]],
) -> None:
    base, app = serve(render_processes=1)
    assert app.state.services.cards.pool.config.memory_limit == 2048 * MIB
    key, _ = app.state.services.credits.create_key("big", 5)
    with httpx.Client(timeout=120, headers={"x-api-key": key}) as http:
        response = http.post(f"{base}/api/generate", json=BIG_CARD)
        assert response.status_code == 200, response.text
    assert app.state.services.cards.pool.killed == 0


def test_a_webp_card_over_its_pixel_budget_is_refused_before_layout(fonts: layout.FontBook) -> None:
    """WebP's encoder needs 2-3 times the memory per pixel: 1600 x 4000 at scale 3 (57.6 Mpx,
    which PNG and JPEG may have) is over its 25.6 Mpx and refused before anything is laid out
    (it was drawn, and peaked near 3 GB at scale 4)."""
    options = layout.RenderOptions(width=1600, height=4000, scale=3, format="webp")
    with pytest.raises(layout.CardTooLarge) as error:
        layout.render_cards("# big", themes.builtin().get("apple-notes"), fonts, options)
    assert error.value.limit == 1600 * 4000 * 2 * 2
    smaller = layout.RenderOptions(width=1600, height=4000, scale=1, format="webp")
    assert len(layout.render("# fits", themes.builtin().get("apple-notes"), fonts, smaller)) == 1


def test_the_largest_card_leaves_less_room_for_images(fonts: layout.FontBook) -> None:
    """A card and its decoded images share one drawing budget: a 36 Mpx image (allowed on
    an ordinary card) beside the largest card would take the request past 1 GB, so it is
    refused before it is decoded or the card drawn."""
    post = f"# photo\n\n![]({data_uri(png_1bit(6000, 6000))})"
    theme = themes.builtin().get("typewriter")
    largest = layout.RenderOptions(
        width=1600, height=4000, scale=4, split="autoSplit", max_image_pixels=50_000_000
    )
    with pytest.raises(layout.ImagesTooLarge) as error:
        layout.render_cards(post, theme, fonts, largest)
    assert error.value.limit == layout.image_pixels_beside(1600 * 4000 * 16) < 36_000_000
    ordinary = layout.RenderOptions(width=440, height=586, scale=2, max_image_pixels=50_000_000)
    assert layout.render_cards(post, theme, fonts, ordinary).files
