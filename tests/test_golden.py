"""Golden cards: every corpus post in both apple-notes modes, autoSplit, at scale 1.

The PNGs in tests/golden/ were looked at before they were committed. A change that moves
pixels fails here; after looking at the new images, `pytest --update-golden` rewrites them.
On failure the actual image and a difference image go to tests/_output/.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import skia

import layout
from tests.conftest import corpus_posts

GOLDEN = Path(__file__).parent / "golden"
OUTPUT = Path(__file__).parent / "_output"
EPSILON = 0.002  # mean absolute difference, 0..1: anti-aliasing noise, not a moved line


def pixels(png: bytes) -> np.ndarray:
    image = skia.Image.MakeFromEncoded(skia.Data.MakeWithCopy(png))
    return image.toarray(colorType=skia.kRGBA_8888_ColorType)[:, :, :3].astype(np.int16)


def mean_difference(a: np.ndarray, b: np.ndarray) -> float:
    if a.shape != b.shape:
        return 1.0
    return float(np.abs(a - b).mean() / 255)


@pytest.mark.parametrize("post", corpus_posts(), ids=lambda p: p.stem)
@pytest.mark.parametrize("mode", ["light-mode", "dark-mode"])
def test_golden_cards(fonts, apple_notes, request, post: Path, mode: str) -> None:
    options = layout.RenderOptions(split="autoSplit", mode=mode, scale=1)
    cards = layout.render(post.read_text("utf-8"), apple_notes, fonts, options)
    stem = f"{post.stem}__apple-notes-{mode}"
    if request.config.getoption("--update-golden"):
        for old in GOLDEN.glob(f"{stem}__p*.png"):
            old.unlink()
        for n, png in enumerate(cards, start=1):
            (GOLDEN / f"{stem}__p{n}.png").write_bytes(png)
    expected = sorted(GOLDEN.glob(f"{stem}__p*.png"))
    assert len(cards) == len(expected), f"{stem}: {len(cards)} cards, golden has {len(expected)}"
    for n, png in enumerate(cards, start=1):
        golden = GOLDEN / f"{stem}__p{n}.png"
        diff = mean_difference(pixels(png), pixels(golden.read_bytes()))
        if diff > EPSILON:
            OUTPUT.mkdir(exist_ok=True)
            (OUTPUT / golden.name).write_bytes(png)
        assert diff <= EPSILON, f"{golden.name} differs by {diff:.4f}; see {OUTPUT / golden.name}"
