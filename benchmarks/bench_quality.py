"""The quality report over a corpus: what the engine scores each theme-mode at each size.

Run: `.venv/bin/python benchmarks/bench_quality.py [--fit auto] [--theme NAME ...]
[--size WxH ...] [--out FILE.json]`. Every post of tests/cases/posts and tests/cases/hard
(posts written to be hard: a travel guide, a code tutorial, a fund explainer with a table and
formulas, a poem, an English essay, Japanese with a diagram, a recipe, a long table, several
diagrams, dense headings, quotes and a long list) in every built-in theme-mode at four card
sizes, autoSplit, laid out (not drawn) and measured (`layout/pages/quality.py`). Prints one
JSON document: per theme-mode (with its mean at each size) and per size the mean card
score, the lowest, the share of cards under 80, and the count of each defect the report
names (a card before the last under 55 % full, a title card counted apart: set as the
post's cover, or left at the theme's size; an empty band over a quarter; text under 11
px at 360 px; contrast under what WCAG asks of the text's size (4.5:1, large text 3:1);
each broken rule; hidden text; a last card under 55 % full, `short_last`); per size the
cards, and the last cards of sets of two or more (`last_card`: mean fill, lowest, how many
short); the worst cards (post, theme, mode, size, card, score); and the run time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from inkcard import layout, themes
from inkcard.layout.base.boxes import Fit
from inkcard.layout.pages.quality import Quality, measure

ROOT = Path(__file__).resolve().parents[1]
CORPUS = (ROOT / "tests" / "cases" / "posts", ROOT / "tests" / "cases" / "hard")
SIZES = ((440, 586), (1080, 1440), (1600, 900), (500, 500))
WORST = 15
SHORT_LAST = 0.55  # a last card of a set under this reads as left over (issue 41, class 3)


def defects(quality: Quality, last: bool, fit: Fit) -> list[str]:
    """What the report says a designer would fix on this card; a title card (`Fit.title`)
    is counted as such, a cover or one left at the theme's size, not as half empty."""
    found = [f"rule:{rule}" for rule in quality.broken_rules]
    if fit.title and not last:
        found.append("title_cover" if fit.cover else "title_card_plain")
    elif not last and quality.fill < 0.55:
        found.append("half_empty_before_last")
    if quality.empty_band > 0.25:
        found.append("empty_band")
    if quality.smallest_text < 11:
        found.append("small_text")
    if quality.contrast_short > 0:  # under what WCAG asks of the run's size (large text: 3:1)
        found.append("low_contrast")
    if quality.overflow:
        found.append("hidden")
    if quality.stranded:  # opens with the short end of the section before
        found.append("stranded_end")
    return found


def _last_fill(fills: list[float]) -> dict[str, float | int]:
    """The last cards of sets of two or more: their mean fill, the lowest, how many are short."""
    return {
        "mean_fill": round(statistics.fmean(fills), 3),
        "lowest": round(min(fills), 3),
        "short": sum(f < SHORT_LAST for f in fills),
        "sets": len(fills),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", choices=layout.FITS, default="none")
    parser.add_argument("--theme", action="append")
    parser.add_argument("--size", action="append", help="WxH")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    sizes = [tuple(map(int, s.split("x"))) for s in args.size] if args.size else SIZES
    names = args.theme or themes.names()
    posts = sorted(p for folder in CORPUS for p in folder.glob("*.md"))
    fonts = layout.FontBook.load()
    started = time.perf_counter()
    scores: dict[str, list[int]] = defaultdict(list)
    sized: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    by_size: dict[str, list[int]] = defaultdict(list)
    lasts: dict[str, list[float]] = defaultdict(list)  # last-card fill, sets of 2+ cards
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    cards: list[tuple[int, str, str, str, str, int]] = []
    for name in names:
        theme = themes.load(name)
        for mode in themes.modes(name) or [None]:
            label = f"{name}/{mode}" if mode else name
            for width, height in sizes:
                options = layout.RenderOptions(
                    width=width, height=height, split="autoSplit", mode=mode, fit=args.fit
                )
                for post in posts:
                    pages = layout.layout_pages(post.read_text("utf-8"), theme, fonts, options)
                    for number, page in enumerate(pages, start=1):
                        quality = measure(page)
                        assert quality is not None
                        scores[label].append(quality.score)
                        sized[label][f"{width}x{height}"].append(quality.score)
                        by_size[f"{width}x{height}"].append(quality.score)
                        assert page.fit is not None
                        counts[label].update(defects(quality, number == len(pages), page.fit))
                        if number == len(pages) > 1:
                            lasts[f"{width}x{height}"].append(quality.fill)
                            if quality.fill < SHORT_LAST:
                                counts[label]["short_last"] += 1
                        cards.append(
                            (quality.score, post.stem, label, f"{width}x{height}", str(number), 0)
                        )
    report = {
        "fit": args.fit,
        "posts": len(posts),
        "theme_modes": {
            label: {
                "mean": round(statistics.fmean(values), 1),
                "lowest": min(values),
                "under_80": round(sum(v < 80 for v in values) / len(values), 3),
                "cards": len(values),
                "by_size": {z: round(statistics.fmean(v), 1) for z, v in sized[label].items()},
                "defects": dict(counts[label]),
            }
            for label, values in scores.items()
        },
        "sizes": {size: round(statistics.fmean(v), 1) for size, v in by_size.items()},
        "cards": {size: len(v) for size, v in by_size.items()},
        "last_card": {size: _last_fill(v) for size, v in lasts.items()},
        "worst": [
            {"score": s, "post": p, "theme": t, "size": z, "card": int(c)}
            for s, p, t, z, c, _ in sorted(cards)[:WORST]
        ],
        "seconds": round(time.perf_counter() - started, 1),
    }
    text = json.dumps(report, ensure_ascii=False, indent=1)
    if args.out:
        args.out.write_text(text + "\n", "utf-8")
    sys.stdout.write(text + "\n")


if __name__ == "__main__":
    main()
