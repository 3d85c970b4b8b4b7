"""Justified lines over a corpus: how many are set flush (too loose to spread), how many
pulled a piece up by compressing their marks, and how far the rest are spread, as JSON.

Run: `.venv/bin/python benchmarks/bench_justify.py [--theme NAME ...] [--size WxH ...]`.
Every post of tests/cases/posts, tests/cases/hard and tests/cases/justify (long Chinese
prose with quotes and numbers) at four card sizes, autoSplit, laid out (not drawn), in
traditional-chinese (the built-in justified theme) and, by default, japanese-magazine and
minimal with their body set justified. Each distinct paragraph layout (its clusters and
width: a set the type ladder lays out again at another size counts again) is counted once,
at the breaks `pretty.even_lines` chose: a line that is not its paragraph's last is
`flush` when justifying it would spread a gap past `inline.LOOSE_GAP` (so it is set at its
natural spacing), `flush_first` when it is also its paragraph's first line; `squeezed`
lines took a piece of the next line up by compressing their marks' blanks. The spread of
the others is a histogram of the widest gap, in hundredths of an em.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

from inkcard import layout, themes
from inkcard.layout.style import theme as style
from inkcard.layout.text import inline
from inkcard.layout.text.linebreak import LineRange
from inkcard.layout.text.opportunities import MANDATORY

ROOT = Path(__file__).resolve().parents[1]
CORPUS = [ROOT / "tests" / "cases" / name for name in ("posts", "hard", "justify")]
SIZES = ((440, 586), (500, 500), (1080, 1440), (1600, 900))
THEMES = ("traditional-chinese", "japanese-magazine", "minimal")


class Survey:
    """Counts the lines `even_lines` returns, each distinct paragraph layout once."""

    def __init__(self) -> None:
        self.seen: set[tuple[tuple[str, ...], float]] = set()
        self.counts: collections.Counter[str] = collections.Counter()
        self.spread: collections.Counter[int] = collections.Counter()
        self.even = inline.even_lines

    def even_lines(self, texts, widths, allowed, lines, max_width, edges, looseness):  # type: ignore[no-untyped-def]
        """`pretty.even_lines`, its result counted."""
        out: list[LineRange] = self.even(texts, widths, allowed, lines, max_width, edges, looseness)
        key = (tuple(texts), round(max_width, 2))
        if key not in self.seen:
            self.seen.add(key)
            self.count(out, allowed, looseness)
        return out

    def count(self, lines: list[LineRange], allowed: list[int], looseness) -> None:  # type: ignore[no-untyped-def]
        first = True
        for k, line in enumerate(lines):
            last = k == len(lines) - 1 or allowed[line.end - 1] == MANDATORY
            self.counts["squeezed"] += bool(line.squeeze)
            if not last:
                self.counts["justified"] += 1
                loose = looseness(line)
                if loose > 1.0:
                    self.counts["flush"] += 1
                    self.counts["flush_first"] += first
                else:
                    self.spread[min(int(loose * inline.LOOSE_GAP * 100), 10)] += 1
            first = last


def justified(name: str) -> layout.Theme:
    """The theme, its body set justified (traditional-chinese already is)."""
    if name == "traditional-chinese":
        return themes.load(name)
    text = (ROOT / "src" / "themes" / name / "card.toml").read_text("utf-8")
    return style.decode_theme(
        text.replace("[roles.body]\n", '[roles.body]\nalign = "justify"\n', 1)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--theme", action="append")
    parser.add_argument("--size", action="append", help="WxH")
    args = parser.parse_args()
    sizes = [tuple(map(int, s.split("x"))) for s in args.size] if args.size else SIZES
    posts = sorted(p for folder in CORPUS for p in folder.glob("*.md"))
    fonts = layout.FontBook.load()
    report: dict[str, object] = {}
    for name in args.theme or THEMES:
        survey = Survey()
        inline.even_lines = survey.even_lines
        theme, cards = justified(name), 0
        for width, height in sizes:
            options = layout.RenderOptions(width=width, height=height, split="autoSplit")
            for post in posts:
                cards += len(layout.layout_pages(post.read_text("utf-8"), theme, fonts, options))
        inline.even_lines = survey.even
        report[name] = {
            "cards": cards,
            **dict(survey.counts),
            "spread_hundredths_em": dict(sorted(survey.spread.items())),
        }
    sys.stdout.write(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
