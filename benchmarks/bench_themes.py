"""What each theme costs per card: every built-in theme and mode renders the same post.

Run: `.venv/bin/python benchmarks/bench_themes.py [--runs 9] [--post FILE] [--tall]
[--theme NAME ...] [--theme-file FILE.toml]`. One process, fonts loaded once; each
theme-mode renders the post (autoSplit, 440x586 at scale 2) once cold (lays out and draws
its static layers), then `--runs` times warm. Prints one JSON line per theme-mode: cards,
PNG bytes, median and fastest ms per card by stage (layout, record, rasterize, encode),
total and CPU time (this process's: steadier than wall time while other processes run) and
the ratio of its fastest total per card to apple-notes light's (the fastest run is the
least disturbed by other processes on a shared machine). Target: the most
decorated theme within 1.5x of apple-notes.

`--tall` measures the worst case instead: one noSplit card 440x3999 at scale 2, with the
static-layer caches emptied before every run (a noSplit card's height follows its post, so
in service its static layers are seldom cached). Every effect layer then covers a tall card
unless draw bounds it. `--theme-file` adds a theme file (e.g. tests/cases/demo-theme.toml,
which uses every effect) to the themes measured; `--theme` restricts the built-in ones.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from inkcard import layout, themes
from inkcard.layout.draw import encode, png, statics
from inkcard.layout.draw import painter as draw

# the module, not the package's re-exported function of this name
cardface = sys.modules["inkcard.layout.pages.cardface"]

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_POST = ROOT / "tests" / "cases" / "posts" / "01-efficiency-zh.md"
STAGES = ("layout", "record", "rasterize", "encode")
CARD = {"split": "autoSplit", "width": 440, "height": 586}
TALL = {"split": "noSplit", "width": 440, "height": 3999}


def per_card_ms(
    text: str,
    theme: layout.Theme,
    mode: str | None,
    fonts: layout.FontBook,
    runs: int,
    tall: bool = False,
) -> dict:
    options = layout.RenderOptions(mode=mode, scale=2, **(TALL if tall else CARD))  # type: ignore[arg-type]  # the dicts hold valid options
    painter = draw.Painter(fonts.typefaces(), scale=2)
    samples: dict[str, list[float]] = {stage: [] for stage in (*STAGES, "total", "cpu")}
    size = cards = 0
    for run in range(runs + 1):
        if tall:  # every run pays for its static layers, as a card of a new height does
            cardface.clear_static_layers()
            statics.clear_static_cache()
        c0, t0 = time.process_time(), time.perf_counter()
        pages = layout.layout_pages(text, theme, fonts, options)
        t1 = time.perf_counter()
        pictures = [painter.record(page) for page in pages]
        t2 = time.perf_counter()
        pixels = [
            encode.rasterize(pic, page.width, page.height, page.background, 2)
            for pic, page in zip(pictures, pages, strict=True)
        ]
        t3 = time.perf_counter()
        encoded = [png.encode_rgb(p) for p in pixels]
        t4, c4 = time.perf_counter(), time.process_time()
        if run or (tall and runs == 0):  # the first run is the cold one (unless all are)
            cards, size = len(pages), sum(map(len, encoded))
            for stage, seconds in zip(
                (*STAGES, "total"), (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0), strict=True
            ):
                samples[stage].append(seconds * 1000 / len(pages))
            samples["cpu"].append((c4 - c0) * 1000 / len(pages))
    medians = {stage: round(statistics.median(v), 2) for stage, v in samples.items()}
    # The fastest run is the cost with the least interference from other processes.
    fastest = {stage: round(min(v), 2) for stage, v in samples.items()}
    return {"cards": cards, "bytes": size, "ms_per_card": medians, "min_ms_per_card": fastest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--post", type=Path, default=DEFAULT_POST)
    parser.add_argument("--tall", action="store_true", help="one noSplit 440x3999 card, cold")
    parser.add_argument("--theme", action="append", help="only these built-in themes")
    parser.add_argument("--theme-file", type=Path, action="append", default=[])
    args = parser.parse_args()
    text = args.post.read_text(encoding="utf-8")
    fonts = layout.FontBook.load()
    apple = themes.load("apple-notes")
    baseline = per_card_ms(text, apple, None, fonts, args.runs, args.tall)
    base_ms, base_cpu = (baseline["min_ms_per_card"][k] for k in ("total", "cpu"))
    measured: list[tuple[str, layout.Theme, list[str] | list[None]]] = [
        (name, themes.load(name), themes.modes(name) or [None])
        for name in args.theme or themes.names()
    ]
    for path in args.theme_file:
        theme = layout.decode_theme(path.read_bytes(), str(path))
        measured.append((path.name, theme, [None]))
    for name, theme, modes in measured:
        for mode in modes:
            result = per_card_ms(text, theme, mode, fonts, args.runs, args.tall)
            fastest = result["min_ms_per_card"]
            ratios = {
                "vs_apple_notes": round(fastest["total"] / base_ms, 2),
                "cpu_vs_apple_notes": round(fastest["cpu"] / base_cpu, 2),
            }
            print(json.dumps({"theme": name, "mode": mode, **result, **ratios}))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
