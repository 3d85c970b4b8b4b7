"""What each theme costs per card: every built-in theme and mode renders the same post.

Run: `.venv/bin/python benchmarks/bench_themes.py [--runs 9] [--post FILE]`. One process,
fonts loaded once; each theme-mode renders the post (autoSplit, 440x586 at scale 2) once cold
(lays out and draws its static layers), then `--runs` times warm. Prints one JSON line per
theme-mode: cards, PNG bytes, median and fastest ms per card by stage (layout, record,
rasterize, encode) and the ratio of its fastest warm total per card to apple-notes light's
(the fastest run is the least disturbed by other processes on a shared machine). Target (issue 10):
the most decorated theme within 1.5x of apple-notes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import layout
import themes
from layout import draw, png

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_POST = ROOT / "tests" / "cases" / "posts" / "01-efficiency-zh.md"
STAGES = ("layout", "record", "rasterize", "encode")


def per_card_ms(text: str, theme: str, mode: str | None, fonts: layout.FontBook, runs: int) -> dict:
    options = layout.RenderOptions(split="autoSplit", mode=mode, scale=2)
    painter = draw.Painter(fonts.typefaces(), scale=2)
    samples: dict[str, list[float]] = {stage: [] for stage in (*STAGES, "total")}
    size = cards = 0
    for run in range(runs + 1):
        t0 = time.perf_counter()
        pages = layout.layout_pages(text, themes.load(theme), fonts, options)
        t1 = time.perf_counter()
        pictures = [painter.record(page) for page in pages]
        t2 = time.perf_counter()
        pixels = [
            draw.rasterize(pic, page.width, page.height, page.background, 2)
            for pic, page in zip(pictures, pages, strict=True)
        ]
        t3 = time.perf_counter()
        encoded = [png.encode_rgb(p) for p in pixels]
        t4 = time.perf_counter()
        if run:  # the first run is the cold one: static layers are drawn then
            cards, size = len(pages), sum(map(len, encoded))
            for stage, seconds in zip(
                (*STAGES, "total"), (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0), strict=True
            ):
                samples[stage].append(seconds * 1000 / len(pages))
    medians = {stage: round(statistics.median(v), 2) for stage, v in samples.items()}
    # The fastest run is the cost with the least interference from other processes.
    fastest = {stage: round(min(v), 2) for stage, v in samples.items()}
    return {"cards": cards, "bytes": size, "ms_per_card": medians, "min_ms_per_card": fastest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--post", type=Path, default=DEFAULT_POST)
    args = parser.parse_args()
    text = args.post.read_text(encoding="utf-8")
    fonts = layout.FontBook.load()
    baseline = per_card_ms(text, "apple-notes", None, fonts, args.runs)["min_ms_per_card"]["total"]
    for name in themes.names():
        for mode in themes.modes(name) or [None]:
            result = per_card_ms(text, name, mode, fonts, args.runs)
            ratio = round(result["min_ms_per_card"]["total"] / baseline, 2)
            print(json.dumps({"theme": name, "mode": mode, **result, "vs_apple_notes": ratio}))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
