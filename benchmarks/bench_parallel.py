"""A split request's cards drawn side by side: the latency of one 10-card autoSplit request on
a pool of 2 render workers, each request kept to one worker (as before) against its last cards
handed, laid out, to the idle worker (``app.render.spread``), and the throughput of both under
load; JSON.

Run: `.venv/bin/python benchmarks/bench_parallel.py [--runs 15] [--load 24]`. Two pools of
`--workers` processes (spread off, spread on) render the same job (corpus posts 04, 01, 02, 03
joined: 10 cards of 440x586 at 2x, apple-notes) one request at a time, the two pools taking
turns so that other work on the machine weighs on both alike; the median wall time of each is
printed, and their ratio (target <= 0.6 on 2 workers). Then each pool gets `--load` of those
requests at once (4 in flight per worker) and the cards per second are printed: spreading only
uses an idle worker nobody waits for, so under load the two should match.

`--single one_worker|spread [--runs 60]`: one pool only, its requests 10 ms apart, the job
carrying the service's parse of the post (as ``/api/generate`` sends it when it looked for
images); prints the minimum, quartiles and median. It runs against older checkouts too (a
pool without the ``spread`` switch is one worker): copy this file into one and run it there,
alternating with this one, to compare commits.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import statistics
import time
from pathlib import Path
from typing import Any

import msgspec

from inkcard import layout, themes
from inkcard.app.render.messages import RenderJob, WorkerConfig
from inkcard.app.render.pool import ProcessRenderPool

POSTS = Path(__file__).resolve().parents[1] / "tests" / "cases" / "posts"
CORPUS = ("04-long-article-zh.md", "01-efficiency-zh.md", "02-python-tips-mixed.md")
CORPUS += ("03-english-notes.md",)


def ten_card_job() -> RenderJob:
    markdown = "\n\n".join((POSTS / name).read_text(encoding="utf-8") for name in CORPUS)
    options = layout.RenderOptions(split="autoSplit", width=440, height=586, scale=2)
    return RenderJob(markdown=markdown, theme=themes.builtin().get("apple-notes"), options=options)


async def started(workers: int, spread: bool) -> ProcessRenderPool:
    config = WorkerConfig(
        fonts_dir=str(layout.DEFAULT_FONTS_DIR), warm_up_theme=themes.builtin().get("apple-notes")
    )
    older = "spread" not in inspect.signature(ProcessRenderPool).parameters  # one worker
    switch: dict[str, Any] = {} if older else {"spread": spread}
    pool = ProcessRenderPool(workers, queue=64, config=config, **switch)
    pool.start()
    while not pool.ready:
        await asyncio.sleep(0.05)
    return pool


async def timed(pool: ProcessRenderPool, job: RenderJob) -> tuple[float, int]:
    began = time.perf_counter()
    rendered = await pool.run(job, timeout=60)
    return time.perf_counter() - began, len(rendered.files)


async def throughput(pool: ProcessRenderPool, job: RenderJob, requests: int) -> float:
    """Cards per second with ``requests`` of ``job`` in flight at once."""
    began = time.perf_counter()
    done = await asyncio.gather(*(pool.run(job, timeout=120) for _ in range(requests)))
    return sum(len(rendered.files) for rendered in done) / (time.perf_counter() - began)


async def main(runs: int, workers: int, load: int) -> dict[str, object]:
    job = ten_card_job()
    one, spread = await started(workers, False), await started(workers, True)
    try:
        times: dict[str, list[float]] = {"one_worker": [], "spread": []}
        cards = 0
        for _ in range(2):  # warm both pools' page caches first
            await timed(one, job)
            await timed(spread, job)
        for _ in range(runs):
            for name, pool in (("one_worker", one), ("spread", spread)):
                seconds, cards = await timed(pool, job)
                times[name].append(seconds)
        medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
        loaded = {"one_worker": [], "spread": []}
        for _ in range(3):
            loaded["one_worker"].append(await throughput(one, job, load))
            loaded["spread"].append(await throughput(spread, job, load))
    finally:
        await one.close()
        await spread.close()
    return {
        "workers": workers,
        "cards": cards,
        "runs": runs,
        "median_ms": {name: round(ms, 1) for name, ms in medians.items()},
        "ratio": round(medians["spread"] / medians["one_worker"], 3),
        "under_load_cards_per_s": {
            name: round(statistics.median(values), 1) for name, values in loaded.items()
        },
        "load_requests": load,
    }


async def single(spread: bool, runs: int, workers: int) -> dict[str, object]:
    """One pool's requests, one at a time, 10 ms apart (the post parsed, as the service may)."""
    job = ten_card_job()
    job = msgspec.structs.replace(job, doc=layout.parse_post(job.markdown))
    pool = await started(workers, spread)
    try:
        for _ in range(5):
            await timed(pool, job)
        times = []
        for _ in range(runs):
            seconds, cards = await timed(pool, job)
            times.append(seconds * 1000)
            await asyncio.sleep(0.01)
    finally:
        await pool.close()
    quartiles = statistics.quantiles(times, n=4)
    return {
        "pool": "spread" if spread else "one_worker",
        "cards": cards,
        "runs": runs,
        "ms": {
            "min": round(min(times), 1),
            "q1": round(quartiles[0], 1),
            "median": round(quartiles[1], 1),
            "q3": round(quartiles[2], 1),
        },
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--load", type=int, default=8)
    parser.add_argument("--single", choices=("one_worker", "spread"), help="one pool only")
    args = parser.parse_args()
    if args.single:
        result = asyncio.run(single(args.single == "spread", args.runs, args.workers))
    else:
        result = asyncio.run(main(args.runs, args.workers, args.load))
    print(json.dumps(result, indent=2))
