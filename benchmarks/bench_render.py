"""Card engine benchmark: per-stage timings for every corpus post x theme, whole renders and
cold start, as JSON.

Run: `.venv/bin/python benchmarks/bench_render.py [--runs 9] [--spawns 15] [--themes all]
[--split autoSplit]`. With `--split autoSplit` the per-post timings lay out fixed 440x586
cards and choose their breaks (the page breaker's cost shows there); per card: divide by
`cards`.
Each corpus post is measured in a fresh process: every theme (its default mode) renders the
post at the default size and scale (440x586 @2x, noSplit, so the card grows to fit) once
cold, then `--runs` times warm; the median per stage is printed. Cold start is the wall
time from spawning `inkcard render` to its exit with the first PNG written, median of
`--spawns` processes, with the CPU seconds the process used (the CPU figure moves far less
than wall time on a shared machine). Targets (the default card, the ~400-character
Chinese post in apple-notes): Markdown -> PNG bytes <= 15 ms median warm; `inkcard render`
process to first PNG <= 0.35 s median.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
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
from inkcard import layout, themes
from inkcard.layout.draw import encode
from inkcard.layout.draw import painter as draw
from inkcard.layout.parse import markdown
from inkcard.layout.draw import png
from inkcard.layout.draw import statics
from inkcard.layout.style import resolver
from inkcard.layout.style import theme as style
compose = sys.modules["inkcard.layout.pages.compose"]
cardface = sys.modules["inkcard.layout.pages.cardface"]
text = open(sys.argv[1], encoding="utf-8").read()
runs, split, theme_file, uncached = int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5] == "1"
names = sys.argv[6].split(",")
fonts = layout.FontBook.load()
painter = draw.Painter(fonts.typefaces(), scale=2)
card = compose.Card(440, 586, split=split)
report = {}
for name in names:
    theme = (style.decode_theme(open(theme_file, "rb").read()) if theme_file
             else themes.load(name))
    times = {k: [] for k in ("parse", "layout", "record", "rasterize", "encode", "total")}
    for run in range(runs + 1):
        if uncached:  # every card lays out and records its static layers again
            cardface.clear_static_layers(); statics.clear_static_cache()
        t0 = time.perf_counter(); doc = markdown.parse(text)
        t1 = time.perf_counter()
        pages = compose.compose(doc, resolver.resolve(theme, None), fonts, {}, card)
        t2 = time.perf_counter(); pictures = [painter.record(p) for p in pages]
        t3 = time.perf_counter()
        pixels = [encode.rasterize(pic, p.width, p.height, p.background, 2)
                  for pic, p in zip(pictures, pages)]
        t4 = time.perf_counter(); pngs = [png.encode_rgb(px) for px in pixels]
        t5 = time.perf_counter()
        if run:  # the first run warms caches; it is the cold render
            for key, value in zip(times, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t5 - t0)):
                times[key].append(value * 1000)
    report[name] = {"cards": len(pages), "px": [len(pixels[0][0]), len(pixels[0])],
                    "bytes": sum(map(len, pngs)),
                    "median_ms": {k: round(statistics.median(v), 2) for k, v in times.items()},
                    "min_ms": {k: round(min(v), 2) for k, v in times.items()}}
print(json.dumps(report))
"""


DEMO_THEME = ROOT / "tests" / "cases" / "demo-theme.toml"  # every paint and decoration kind


def stage_timings(
    post: Path,
    runs: int,
    split: str,
    theme: Path | None = None,
    uncached: bool = False,
    names: tuple[str, ...] = ("apple-notes",),
) -> dict[str, dict[str, object]]:
    """Stage timings of `post` in each theme of `names` (or the theme file `theme`)."""
    args = [
        str(post),
        str(runs),
        split,
        str(theme or ""),
        "1" if uncached else "0",
        ",".join(names),
    ]
    out = subprocess.run(
        [sys.executable, "-c", STAGES, *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout)


def cold_start(post: Path, spawns: int) -> dict[str, float]:
    """`inkcard render POST` from spawn to exit, the PNG checked; wall and CPU seconds."""
    inkcard = shutil.which("inkcard", path=str(Path(sys.executable).parent)) or "inkcard"
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as folder:
        for spawn in range(spawns + 1):
            out = Path(folder) / str(spawn)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(
                [inkcard, "render", str(post), "-o", str(out)],
                check=True,
                env=ENV,
                stdout=subprocess.DEVNULL,
            )
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            assert (out / "1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            if spawn:  # the first spawn warms the OS file cache
                walls.append(wall)
                cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return {
        "median_s": round(statistics.median(walls), 3),
        "min_s": round(min(walls), 3),
        "median_cpu_s": round(statistics.median(cpus), 3),
        "spawns": spawns,
    }


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _total(timings: dict[str, object]) -> dict[str, object]:
    median = timings["median_ms"]
    assert isinstance(median, dict)
    return {"cards": timings["cards"], "median_total_ms": median["total"]}


def all_themes() -> tuple[str, ...]:
    out = subprocess.run(
        [sys.executable, "-c", "from inkcard import themes; print(','.join(themes.names()))"],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return tuple(out.stdout.strip().split(","))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="warm renders per post and theme")
    parser.add_argument("--spawns", type=int, default=15, help="cold `inkcard render` processes")
    parser.add_argument("--themes", default="all", help="all, or names joined by commas")
    parser.add_argument(
        "--split",
        default="noSplit",
        choices=("noSplit", "autoSplit"),
        help="of the per-post timings: autoSplit lays out fixed cards and breaks them",
    )
    args = parser.parse_args()
    names = all_themes() if args.themes == "all" else tuple(args.themes.split(","))
    posts = sorted(POSTS.glob("*.md"))
    engine = {p.stem: stage_timings(p, args.runs, args.split, names=names) for p in posts}
    target = stage_timings(TARGET_POST, args.runs * 3, "noSplit")["apple-notes"]
    report: dict[str, object] = {
        "card": f"440x586 @2x, {args.split} (the target: noSplit), each theme's default mode",
        "target_post": TARGET_POST.name,
        "target_post_chars": len(TARGET_POST.read_text("utf-8")),
        "target": target,
        "cold_start_to_first_png": cold_start(TARGET_POST, args.spawns),
        "engine": engine,
        # the target post in autoSplit, with static layers (background and decorations)
        # cached as in service, and laid out and recorded for every card
        "static_layers": {
            name: {
                mode: _total(
                    stage_timings(TARGET_POST, args.runs, "autoSplit", theme, cold)["apple-notes"]
                )
                for mode, cold in (("cached", False), ("uncached", True))
            }
            for name, theme in (("apple-notes", None), ("demo", DEMO_THEME))
        },
    }
    cold = report["cold_start_to_first_png"]
    assert isinstance(cold, dict)
    report["targets"] = {
        "warm_markdown_to_png_median_ms<=15": target["median_ms"]["total"] <= 15,
        "cold_start_median_s<=0.35": cold["median_s"] <= 0.35,
    }
    print(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
