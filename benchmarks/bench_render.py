"""Card engine benchmark: per-stage timings, whole renders and cold start, as JSON.

Run: `.venv/bin/python benchmarks/bench_render.py [--runs 15]`. Each corpus post is
measured in a fresh process (median of N warm runs after one cold render); cold start is
the wall time from spawning a process to its first PNG written, median of 5 spawns.
Targets (default card 440x586 at scale 2, a ~400-character Chinese post): layout + draw +
PNG encode under 60 ms median; process start to first PNG under 1.0 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POSTS = ROOT / "tests" / "cases" / "posts"
TARGET_POST = POSTS / "01-efficiency-zh.md"

STAGES = r"""
import json, statistics, sys, time
import layout, themes
from layout import draw, markdown, png, style
compose = sys.modules["layout.compose"]
text = open(sys.argv[1], encoding="utf-8").read()
runs, split, theme_file, uncached = int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5] == "1"
fonts = layout.FontBook.load()
theme = (style.decode_theme(open(theme_file, "rb").read()) if theme_file
         else themes.load("apple-notes"))
painter = draw.Painter(fonts.typefaces(), scale=2)
card = compose.Card(440, 586, split=split)
times = {k: [] for k in ("parse", "layout", "record", "rasterize", "encode", "total")}
for run in range(runs + 1):
    if uncached:  # every card lays out and records its static layers again
        compose.clear_static_layers(); draw.clear_static_cache()
    t0 = time.perf_counter(); doc = markdown.parse(text)
    t1 = time.perf_counter()
    pages = compose.compose(doc, style.resolve(theme, None), fonts, {}, card)
    t2 = time.perf_counter(); pictures = [painter.record(p) for p in pages]
    t3 = time.perf_counter()
    pixels = [draw.rasterize(pic, p.width, p.height, p.background, 2)
              for pic, p in zip(pictures, pages)]
    t4 = time.perf_counter(); pngs = [png.encode_rgb(px) for px in pixels]
    t5 = time.perf_counter()
    if run:  # the first run warms caches; it is the cold render
        for key, value in zip(times, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t5 - t0)):
            times[key].append(value * 1000)
print(json.dumps({"cards": len(pages), "bytes": sum(map(len, pngs)),
                  "median_ms": {k: round(statistics.median(v), 2) for k, v in times.items()},
                  "min_ms": {k: round(min(v), 2) for k, v in times.items()}}))
"""

COLD = r"""
import sys
import layout, themes
fonts = layout.FontBook.load()
[first, *_] = layout.render(open(sys.argv[1], encoding="utf-8").read(), themes.load("apple-notes"),
                            fonts, layout.RenderOptions())
open(sys.argv[2], "wb").write(first)
"""


DEMO_THEME = ROOT / "tests" / "cases" / "demo-theme.toml"  # every paint and decoration kind


def stage_timings(
    post: Path, runs: int, split: str, theme: Path | None = None, uncached: bool = False
) -> dict[str, object]:
    args = [str(post), str(runs), split, str(theme or ""), "1" if uncached else "0"]
    out = subprocess.run(
        [sys.executable, "-c", STAGES, *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout)


def cold_start(post: Path, spawns: int = 5) -> dict[str, float]:
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(spawns):
            target = Path(folder) / "first.png"
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-c", COLD, str(post), str(target)], check=True, cwd=ROOT
            )
            times.append(time.perf_counter() - start)
            assert target.stat().st_size > 0
    return {"median_s": round(statistics.median(times), 3), "min_s": round(min(times), 3)}


def _total(timings: dict[str, object]) -> dict[str, object]:
    median = timings["median_ms"]
    assert isinstance(median, dict)
    return {"cards": timings["cards"], "median_total_ms": median["total"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    posts = sorted(POSTS.glob("*.md"))
    report = {
        "card": "440x586 @2x, apple-notes light-mode",
        "target_post": TARGET_POST.name,
        "target_post_chars": len(TARGET_POST.read_text("utf-8")),
        "posts": {
            p.stem: {
                split: stage_timings(p, args.runs, split) for split in ("noSplit", "autoSplit")
            }
            for p in posts
        },
        "cold_start_to_first_png": cold_start(TARGET_POST),
        # the target post in autoSplit, with static layers (background and decorations)
        # cached as in service, and laid out and recorded for every card
        "static_layers": {
            name: {
                mode: _total(stage_timings(TARGET_POST, args.runs, "autoSplit", theme, cold))
                for mode, cold in (("cached", False), ("uncached", True))
            }
            for name, theme in (("apple-notes", None), ("demo", DEMO_THEME))
        },
    }
    target = report["posts"][TARGET_POST.stem]["noSplit"]["median_ms"]["total"]
    report["targets"] = {
        "render_median_ms<60": target < 60,
        "cold_start_s<1.0": report["cold_start_to_first_png"]["median_s"] < 1.0,
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
