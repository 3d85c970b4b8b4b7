"""Mermaid benchmark: ms per diagram for the ten golden diagrams, as JSON.

Run: `.venv/bin/python benchmarks/bench_mermaid.py [--runs 20]`. For each diagram of
tests/cases/mermaid/ (the first fence of each post): parse and lay out (labels measured
by our shaping, each run with a fresh measure cache), and the same drawn as article SVG;
the median of N warm runs after one cold run. Target: ≤ 50 ms per diagram.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / ".dev"))  # `inkcard`: src/ through the .dev/inkcard symlink

from inkcard.layout.base.fonts import FontBook  # noqa: E402
from inkcard.layout.diagrams.forms import draw_diagram  # noqa: E402 - the path above must come first
from inkcard.layout.diagrams.labels import LabelSetter  # noqa: E402
from inkcard.layout.diagrams.svg import svg_of  # noqa: E402

CASES = ROOT / "tests" / "cases" / "mermaid"
FENCE = re.compile(r"```mermaid\n(.*?)```", re.S)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    fonts = FontBook.load()
    results = {}
    for case in sorted(CASES.glob("*.md")):
        match = FENCE.search(case.read_text("utf-8"))
        if match is None:
            continue
        source = match.group(1)
        draw_diagram(source, LabelSetter(fonts).measure)  # cold: imports, font caches
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            svg_of(draw_diagram(source, LabelSetter(fonts).measure))
            times.append((time.perf_counter() - started) * 1000)
        results[case.stem] = round(statistics.median(times), 2)
    print(json.dumps({"ms_per_diagram": results, "max_ms": max(results.values())}, indent=2))


if __name__ == "__main__":
    main()
