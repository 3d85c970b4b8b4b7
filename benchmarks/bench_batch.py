"""A 7-card request against seven one-card requests of the same text, on two idle render
workers; JSON.

Run: `.venv/bin/python benchmarks/bench_batch.py [--runs 20] [--workers 2]`. The 7-card
request is corpus posts 01, 02 and 04 joined (apple-notes, 440 x 586 at scale 2, autoSplit:
seven cards of 880 x 1172 px). The seven one-card requests are the same post cut between
its blocks into consecutive pieces of as many blocks as one card holds (checked: seven, one
card each): the same text in cards of the same size, asked for in one request or in seven.
The service's pool (``app.render.pool``, spreading on: a split request's layout and
drawing shared with the idle worker) is started once; each run sends the 7-card request and
waits for it, then sends the seven one-card requests one after another (a client asking for
them in turn, as one at a time is what a one-card request's latency means), each timed from
send to answer. Printed: the medians of both, their ratio per run and its median (target
<= 0.6 on 2 workers), and the one-card requests' median.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path

from inkcard import layout, themes
from inkcard.app.render.messages import RenderJob, WorkerConfig
from inkcard.app.render.pool import ProcessRenderPool

POSTS = Path(__file__).resolve().parents[1] / "tests" / "cases" / "posts"
CORPUS = ("01-efficiency-zh.md", "02-python-tips-mixed.md", "04-long-article-zh.md")
CARDS = 7
TARGET = 0.6


def options() -> layout.RenderOptions:
    return layout.RenderOptions(split="autoSplit", width=440, height=586, scale=2)


def pieces(markdown: str, fonts: layout.FontBook, theme: layout.Theme) -> list[str]:
    """``markdown`` cut between its blocks (blank lines outside code fences) into consecutive
    pieces, each as many blocks as one card holds: the cards a reader gets one at a time."""
    blocks: list[str] = []
    for block in markdown.split("\n\n"):
        if blocks and blocks[-1].count("```") % 2:  # inside a fence: same block
            blocks[-1] += "\n\n" + block
        else:
            blocks.append(block)
    made: list[str] = []
    for block in blocks:
        longer = f"{made[-1]}\n\n{block}" if made else ""
        if made and len(layout.render(longer, theme, fonts, options())) == 1:
            made[-1] = longer
        else:
            made.append(block)
    return made


def jobs() -> tuple[RenderJob, list[RenderJob]]:
    """The 7-card job and the seven one-card jobs (checked: 7 cards, one card each)."""
    theme = themes.builtin().get("apple-notes")
    markdown = "\n\n".join((POSTS / name).read_text(encoding="utf-8") for name in CORPUS)
    fonts = layout.FontBook.load(str(layout.DEFAULT_FONTS_DIR))
    whole = RenderJob(markdown=markdown, theme=theme, options=options())
    cut = pieces(markdown, fonts, theme)
    singles = [RenderJob(markdown=piece, theme=theme, options=options()) for piece in cut]
    assert len(layout.render(markdown, theme, fonts, options())) == CARDS
    for single in singles:
        assert len(layout.render(single.markdown, theme, fonts, options())) == 1
    assert len(singles) == CARDS
    return whole, singles


async def timed(pool: ProcessRenderPool, job: RenderJob) -> float:
    began = time.perf_counter()
    await pool.run(job, timeout=60)
    return (time.perf_counter() - began) * 1000


async def run(runs: int, workers: int) -> dict[str, object]:
    whole, singles = jobs()
    config = WorkerConfig(
        fonts_dir=str(layout.DEFAULT_FONTS_DIR), warm_up_theme=themes.builtin().get("apple-notes")
    )
    pool = ProcessRenderPool(workers, queue=64, config=config, spread=True)
    pool.start()
    while not pool.ready:
        await asyncio.sleep(0.05)
    batch_ms: list[float] = []
    seven_ms: list[float] = []
    single_ms: list[float] = []
    try:
        for round_ in range(runs + 2):  # two rounds to warm the workers' caches first
            batch = await timed(pool, whole)
            await asyncio.sleep(0.01)
            each = []
            for job in singles:
                each.append(await timed(pool, job))
            await asyncio.sleep(0.01)
            if round_ >= 2:
                batch_ms.append(batch)
                seven_ms.append(sum(each))
                single_ms += each
    finally:
        await pool.close()
    ratios = [b / s for b, s in zip(batch_ms, seven_ms, strict=True)]
    median = statistics.median(ratios)
    return {
        "workers": workers,
        "runs": runs,
        "cards": CARDS,
        "batch_ms_median": round(statistics.median(batch_ms), 1),
        "batch_ms_min": round(min(batch_ms), 1),
        "seven_single_ms_min": round(min(seven_ms), 1),
        "seven_single_ms_median": round(statistics.median(seven_ms), 1),
        "single_ms_median": round(statistics.median(single_ms), 1),
        "ratio_median": round(median, 3),
        "ratio_min_max": [round(min(ratios), 3), round(max(ratios), 3)],
        "target": TARGET,
        "met": median <= TARGET,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.runs, args.workers)), indent=2))


if __name__ == "__main__":
    main()
