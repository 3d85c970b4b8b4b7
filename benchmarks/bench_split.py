"""One split request's stages in one warm process: the 10-card autoSplit request's parse,
layout and draw + encode medians, as JSON.

Run: `.venv/bin/python benchmarks/bench_split.py [--runs 40]`. The job is corpus posts 04, 01,
02, 03 joined (10 cards of 440x586 at 2x, apple-notes, autoSplit), the request a worker gets
when it is spread over the render workers: the service parses, one worker lays out (layout
cannot be spread: pagination needs the whole post), the cards are drawn and encoded. Each
stage is timed by itself, `--runs` times after two warm-up rounds, with the thread's CPU
time (steadier than wall time on a shared machine) and wall time; medians in milliseconds.
Compare two checkouts by running each in turn, a few rounds alternating.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from inkcard import layout, themes
from inkcard.layout.draw import load_row_packer

POSTS = Path(__file__).resolve().parents[1] / "tests" / "cases" / "posts"
CORPUS = ("04-long-article-zh.md", "01-efficiency-zh.md", "02-python-tips-mixed.md")
CORPUS += ("03-english-notes.md",)
WARM_UP_ROUNDS = 2


def timed(work: Callable[[], object]) -> tuple[float, float, object]:
    """CPU and wall milliseconds of ``work()``, and what it returned."""
    cpu, wall = time.thread_time(), time.perf_counter()
    result = work()
    return (time.thread_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000, result


def main(runs: int) -> dict[str, object]:
    markdown = "\n\n".join((POSTS / name).read_text(encoding="utf-8") for name in CORPUS)
    options = layout.RenderOptions(split="autoSplit", width=440, height=586, scale=2)
    theme = themes.builtin().get("apple-notes")
    fonts = layout.FontBook.load()
    load_row_packer()  # as a render worker does at start
    cpu: dict[str, list[float]] = {"parse": [], "layout": [], "draw_encode": []}
    wall: dict[str, list[float]] = {name: [] for name in cpu}
    cards = 0
    for run in range(WARM_UP_ROUNDS + runs):
        parse = timed(partial(layout.parse_post, markdown))
        laying = timed(partial(layout.layout_cards, parse[2], theme, fonts, options))
        laid = laying[2]
        assert isinstance(laid, layout.LaidOut)
        drawing = timed(partial(layout.draw_cards, laid.pages, laid.images, fonts, options))
        cards = len(laid.pages)
        if run < WARM_UP_ROUNDS:
            continue
        for name, (cpu_ms, wall_ms, _) in zip(cpu, (parse, laying, drawing), strict=True):
            cpu[name].append(cpu_ms)
            wall[name].append(wall_ms)
    return {
        "cards": cards,
        "runs": runs,
        "cpu_median_ms": {name: round(statistics.median(v), 2) for name, v in cpu.items()},
        "wall_median_ms": {name: round(statistics.median(v), 2) for name, v in wall.items()},
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    print(json.dumps(main(args.runs), indent=2))
