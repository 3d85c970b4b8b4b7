"""The first request after a start against a warm one, through ``inkcard serve`` → JSON.

For each operation (a card, an article, an article with math) a fresh ``inkcard serve`` is
started on loopback with temporary data (as ``bench_api.py`` does), polled until ``/readyz``
says 200, and then sent the operation once (the first request) and ``--runs`` more times
(warm). Every request differs from the ones before (a numbered line; the math article's
formulas too), so none is served from storage, replayed or typeset from a cache. Target: the
first within 1.5x of the warm median, for each operation.

`card` repeats one post's text, so its warm requests find every glyph already shaped and
rasterized: a service's warm request for a new post does not. `card_new_text` sends each
request the same post with its Chinese characters moved to others of the 3,755 common ones
(GB2312 level 1, `new_text`): same length and blocks, text the service has not seen, the
first request's as much as the warm ones'. Its ratio is what a start costs beyond new text.

Usage: python benchmarks/bench_first.py [--runs 15] [--spawns 1]
[--only card,card_new_text,article,article_math].
Not collected by pytest.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_api import POST, start_service

ARTICLE = "/api/platform/convert-and-draft"
TARGET_RATIO = 1.5


def card_body(n: int) -> tuple[str, dict[str, object]]:
    return "/api/generate", {"markdown": f"{POST.read_text('utf-8').rstrip()} #{n}"}


COMMON_HANZI = "".join(
    bytes((row, cell)).decode("gb2312")
    for row in range(0xB0, 0xD8)
    for cell in range(0xA1, 0xFF)
    if (row, cell) < (0xD7, 0xFA)  # level 1 ends at D7F9
)
SHIFT = 997  # prime: variant n and m share few characters


def new_text(text: str, n: int) -> str:
    """`text` with each common Chinese character moved `n * SHIFT` places along the level-1
    list (others kept): a post of the same shape in text not seen before."""
    at = {char: index for index, char in enumerate(COMMON_HANZI)}
    size = len(COMMON_HANZI)
    return "".join(
        COMMON_HANZI[(at[char] + n * SHIFT) % size] if char in at else char for char in text
    )


def new_text_card_body(n: int) -> tuple[str, dict[str, object]]:
    return "/api/generate", {"markdown": new_text(POST.read_text("utf-8"), n + 1)}


def article_body(n: int) -> tuple[str, dict[str, object]]:
    return ARTICLE, {"markdown": f"{POST.read_text('utf-8').rstrip()}\n\n第 {n} 篇。"}


def math_body(n: int) -> tuple[str, dict[str, object]]:
    math = (
        f"\n\n质能 $E_{{{n}}} = m c^2$,求和 $\\sum_{{i=1}}^{{{n}}} i^2$。\n\n"
        f"$$\\int_0^{{{n}}} \\frac{{x^2}}{{\\sqrt{{1 + x}}}} \\, dx$$\n"
    )
    return ARTICLE, {"markdown": f"{POST.read_text('utf-8').rstrip()}{math}"}


OPERATIONS: dict[str, Callable[[int], tuple[str, dict[str, object]]]] = {
    "card": card_body,
    "card_new_text": new_text_card_body,
    "article": article_body,
    "article_math": math_body,
}


def timed(http: httpx.Client, key: str, path: str, body: dict[str, object]) -> float:
    """Milliseconds for one request (which must succeed)."""
    start = time.perf_counter()
    response = http.post(path, json=body, headers={"x-api-key": key})
    elapsed = (time.perf_counter() - start) * 1000
    if response.status_code != 200:
        raise SystemExit(f"{path}: {response.status_code} {response.text[:300]}")
    return elapsed


def measure(operation: str, runs: int) -> dict[str, float]:
    """A fresh service: its first `operation` and then `runs` warm ones."""
    make = OPERATIONS[operation]
    with tempfile.TemporaryDirectory(prefix="inkcard-first-") as tmp:
        proc, base, key = start_service(Path(tmp))
        try:
            with httpx.Client(base_url=base, timeout=60) as http:
                first = timed(http, key, *make(0))
                warm = [timed(http, key, *make(n)) for n in range(1, runs + 1)]
        finally:
            proc.terminate()
            proc.wait(10)
    median = statistics.median(warm)
    return {
        "first_ms": round(first, 1),
        "warm_median_ms": round(median, 1),
        "warm_min_ms": round(min(warm), 1),
        "ratio": round(first / median, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="warm requests (max 200)")
    parser.add_argument("--spawns", type=int, default=1, help="fresh services per operation")
    parser.add_argument("--only", default=",".join(OPERATIONS), help="operations, comma-separated")
    args = parser.parse_args()
    runs, spawns = min(max(args.runs, 3), 200), min(max(args.spawns, 1), 10)
    results: dict[str, object] = {}
    for operation in args.only.split(","):
        each = [measure(operation, runs) for _ in range(spawns)]
        ratios = [m["ratio"] for m in each]
        results[operation] = {
            "spawns": each,
            "median_ratio": statistics.median(ratios),
            "met": statistics.median(ratios) <= TARGET_RATIO,
        }
    print(json.dumps({"runs": runs, "target_ratio": TARGET_RATIO, **results}, indent=1))


if __name__ == "__main__":
    main()
