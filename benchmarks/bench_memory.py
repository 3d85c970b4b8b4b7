"""Render-process memory benchmark: peak RSS per worker over 1,000 cards, as JSON; or, with
``--per-format``, the peak of one card per output format and size.

Run: `.venv/bin/python benchmarks/bench_memory.py [--cards 1000] [--workers 2]`. Starts the
service's own render pool (``app.render.pool``: forkserver workers, fonts loaded, one warm-up
card), then sends it distinct cards: every corpus post in every card theme and mode, at the
default size and scale in autoSplit, each with a counter line so no two are alike, two jobs
in flight per worker. After every ``--every`` cards it records each worker's peak resident
set (``ru_maxrss``, reported by the worker), its current one (``VmRSS`` from /proc), its
proportional one (``Pss``: pages shared with the other workers counted once between them)
and its private pages.
With ``--diagrams`` every fourth card is a post of diagrams (a pie, a flowchart, a sequence
diagram) in the same theme-mode: the corpus posts have none.
Target: peak RSS per worker ≤ 120 MB, flat after 1,000 cards (the peak at the
end at most ``--slack`` MB above the peak after the first checkpoint past the warm-up).

`--per-format [--themes ...]`: for each format (png, jpeg, webp, pdf), size (1080 x 1440 at
scale 1, 2, 4; 1600 x 4000 at the largest scale the format's pixel budget allows) and theme
(default apple-notes, and typewriter, whose card-sized grain layer costs the most to draw), a
fresh process loads the fonts, draws one warm-up card in that format, then one card of that
size at quality 100; its peak is ``VmHWM`` less the resident set after the warm-up (reset
through /proc/self/clear_refs), printed in MB and in bytes per output pixel. Target: at most
8 bytes per output pixel for PNG and JPEG, and under 1 GB for the largest card of any format
(docs/decisions/engine.md, "Memory per output pixel").
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / ".dev"))  # `inkcard`: src/ through the .dev/inkcard symlink

from inkcard import layout, themes  # noqa: E402  # after the path setup: no install needed
from inkcard.app.render.messages import RenderJob, WorkerConfig  # noqa: E402  # same reason
from inkcard.app.render.pool import ProcessRenderPool  # noqa: E402  # same reason
from inkcard.app.render.refusals import MAX_CARD_PIXELS  # noqa: E402  # same reason

POSTS = ROOT / "tests" / "cases" / "posts"
# `--diagrams`: every `DIAGRAMS_EVERY`th card draws a pie, a flowchart and a sequence diagram
# instead of its post (the posts have none; 60 cards are the first two posts in 30 theme
# modes): a flowchart is what loaded numpy into a worker through grandalf
DIAGRAMS = ROOT / "tests" / "cases" / "hard" / "09-mixed-diagrams.md"
DIAGRAMS_EVERY = 4
TARGET_MB = 120
PER_PIXEL_TARGET = 8  # bytes per output pixel, PNG and JPEG
LARGEST_TARGET_MB = 1000  # the largest card any format allows
ONE_CARD = """
import json, sys
from pathlib import Path
from inkcard import layout, themes
from inkcard.layout.draw import load_row_packer

def kb(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])

fmt, theme, width, height, scale = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
fonts = layout.FontBook.load(str(layout.DEFAULT_FONTS_DIR))
load_row_packer()
text = "# Memory\\n\\n" + "\\n\\n".join(f"Line {i} of the card, 墨卡 **bold**." for i in range(60))
def options(width, height, scale):
    return layout.RenderOptions(
        width=width, height=height, scale=scale, split="hrSplit", overflow_hidden=True,
        format=fmt, quality=100, max_pixels=layout.MAX_CARD_PIXELS,
    )
layout.render(text, themes.builtin().get(theme), fonts, options(440, 586, 2))
before = kb("VmRSS")
Path("/proc/self/clear_refs").write_text("5")  # VmHWM starts again from here
files = layout.render(text, themes.builtin().get(theme), fonts, options(width, height, scale))
print(json.dumps({"files": len(files), "bytes": sum(map(len, files)), "base_kb": before,
                  "peak_kb": kb("VmHWM") - before, "vm_peak_kb": kb("VmPeak")}))
"""


def jobs(count: int, only: list[str], diagrams: bool = False) -> list[RenderJob]:
    """``count`` distinct default-size cards cycling through posts x theme-modes (of the
    themes in ``only``, or of all); with ``diagrams``, every `DIAGRAMS_EVERY`th draws those."""
    catalogue = themes.builtin()
    posts = [p.read_text("utf-8") for p in sorted(POSTS.glob("*.md"))]
    names = only or catalogue.names()
    variants = [(n, m) for n in names for m in (catalogue.modes(n) or [None])]
    made = []
    for number, (post, (name, mode)) in zip(
        range(count), itertools.cycle(itertools.product(posts, variants)), strict=False
    ):
        options = layout.RenderOptions(
            split="autoSplit", mode=mode, max_pixels=MAX_CARD_PIXELS, max_total_pixels=120_000_000
        )
        if diagrams and number % DIAGRAMS_EVERY == DIAGRAMS_EVERY - 1:
            post = DIAGRAMS.read_text("utf-8")
        text = f"{post}\n\ncard {number}"
        made.append(RenderJob(markdown=text, theme=catalogue.get(name), options=options))
    return made


def current_rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def rollup_kb(pid: int) -> dict[str, int]:
    """The process's resident set by kind (``/proc/PID/smaps_rollup``): ``Pss`` counts a page
    shared by n processes as 1/n (the font files and libraries the workers share),
    ``Private_Dirty`` what is this process's own (its heap, Python objects, caches)."""
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value, *_ = line.split()
        fields[name.rstrip(":")] = int(value)
    return fields


def private_kb(pid: int) -> int:
    rollup = rollup_kb(pid)
    return rollup["Private_Dirty"] + rollup["Private_Clean"]


async def run(
    cards: int, workers: int, every: int, seconds: float, only: list[str], diagrams: bool
) -> dict[str, object]:
    config = WorkerConfig(
        fonts_dir=str(layout.DEFAULT_FONTS_DIR), warm_up_theme=themes.builtin().get("apple-notes")
    )
    pool = ProcessRenderPool(workers, queue=workers, config=config)
    started = time.monotonic()
    pool.start()
    while not pool.ready:
        await asyncio.sleep(0.05)
    warm_s = time.monotonic() - started
    after_warm_up = {pid: kb // 1024 for pid, kb in pool.peak_rss_kb.items()}
    todo = jobs(cards, only, diagrams)
    checkpoints: list[dict[str, object]] = []
    done = 0
    began = time.monotonic()
    for start in range(0, len(todo), every):
        if time.monotonic() - began > seconds:
            break
        batch = todo[start : start + every]
        limit = asyncio.Semaphore(2 * workers)

        async def one(job: RenderJob, limit: asyncio.Semaphore = limit) -> int:
            async with limit:
                return len((await pool.run(job, timeout=60)).files)

        await asyncio.gather(*(one(job) for job in batch))
        done += len(batch)
        checkpoints.append(
            {
                "cards": done,
                "peak_mb": {str(p): kb // 1024 for p, kb in pool.peak_rss_kb.items()},
                "rss_mb": {str(p): current_rss_kb(p) // 1024 for p in pool.pids()},
                "pss_mb": {str(p): rollup_kb(p)["Pss"] // 1024 for p in pool.pids()},
                "private_mb": {str(p): private_kb(p) // 1024 for p in pool.pids()},
            }
        )
    elapsed = time.monotonic() - began
    killed = pool.killed
    await pool.close()
    return {
        "workers": workers,
        "themes": only or "all",
        "diagrams": diagrams,
        "cards": done,
        "seconds": round(elapsed, 1),
        "cards_per_s": round(done / elapsed, 1) if elapsed else None,
        "warm_up_s": round(warm_s, 2),
        "workers_killed": killed,
        "peak_mb_after_warm_up": {str(p): mb for p, mb in after_warm_up.items()},
        "checkpoints": checkpoints,
    }


def verdict(result: dict[str, object], slack_mb: int) -> dict[str, object]:
    checkpoints = result["checkpoints"]
    assert isinstance(checkpoints, list) and checkpoints, "no card was rendered"
    first, last = checkpoints[0]["peak_mb"], checkpoints[-1]["peak_mb"]
    growth = {pid: last[pid] - first.get(pid, 0) for pid in last}
    worst = max(last.values())
    return {
        "peak_mb_max": worst,
        "growth_mb_after_first_checkpoint": growth,
        "target_peak_mb": TARGET_MB,
        "peak_met": worst <= TARGET_MB,
        "flat_met": all(g <= slack_mb for g in growth.values()),
        "no_worker_replaced": result["workers_killed"] == 0,
    }


def largest_scale(fmt: str) -> int:
    """The largest integer scale a 1600 x 4000 card of ``fmt`` may be drawn at."""
    limit = layout.MAX_CARD_PIXELS_BY_FORMAT.get(fmt, MAX_CARD_PIXELS)
    return max(s for s in range(1, 5) if 1600 * 4000 * s * s <= limit)


def one_card(fmt: str, theme: str, width: int, height: int, scale: int) -> dict[str, object]:
    """The peak of one card in a fresh process (see the module's docstring)."""
    args = [fmt, theme, str(width), str(height), str(scale)]
    done = subprocess.run(
        [sys.executable, "-c", ONE_CARD, *args], capture_output=True, text=True, check=True
    )
    measured = json.loads(done.stdout)
    pixels = width * height * scale * scale
    return {
        "format": fmt,
        "theme": theme,
        "size": f"{width}x{height}@{scale}",
        "output_pixels": pixels,
        "file_bytes": measured["bytes"],
        "idle_rss_mb": measured["base_kb"] // 1024,
        "peak_mb": round(measured["peak_kb"] / 1024),
        "bytes_per_pixel": round(measured["peak_kb"] * 1024 / pixels, 2),
        "vm_peak_mb": measured["vm_peak_kb"] // 1024,
    }


def per_format(names: list[str]) -> dict[str, object]:
    rows = []
    for fmt in layout.FORMATS:
        sizes = [(1080, 1440, s) for s in (1, 2, 4)] + [(1600, 4000, largest_scale(fmt))]
        for theme in names:
            rows += [one_card(fmt, theme, *size) for size in sizes]
    largest = {
        fmt: max(r["peak_mb"] for r in rows if r["format"] == fmt and r["size"].startswith("1600"))
        for fmt in layout.FORMATS
    }
    per_pixel = {
        fmt: max(r["bytes_per_pixel"] for r in rows if r["format"] == fmt) for fmt in layout.FORMATS
    }
    return {
        "cards": rows,
        "bytes_per_pixel_max": per_pixel,
        "largest_card_peak_mb": largest,
        "verdict": {
            "per_pixel_met": all(per_pixel[f] <= PER_PIXEL_TARGET for f in ("png", "jpeg")),
            "largest_met": all(mb <= LARGEST_TARGET_MB for mb in largest.values()),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--every", type=int, default=100, help="cards between checkpoints")
    parser.add_argument("--seconds", type=float, default=600, help="stop sending after this")
    parser.add_argument("--themes", nargs="*", default=[], help="only these (default: all)")
    parser.add_argument("--slack", type=int, default=8, help="MB of growth still called flat")
    parser.add_argument("--diagrams", action="store_true", help="a post of diagrams too")
    parser.add_argument("--per-format", action="store_true", help="one card's peak per format")
    args = parser.parse_args()
    if args.per_format:
        print(json.dumps(per_format(args.themes or ["apple-notes", "typewriter"]), indent=2))
        return
    result = asyncio.run(
        run(args.cards, args.workers, args.every, args.seconds, args.themes, args.diagrams)
    )
    result["verdict"] = verdict(result, args.slack)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
