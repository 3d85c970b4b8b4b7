"""Article benchmark: Markdown → WeChat article HTML, warm median, as JSON.

Run: `.venv/bin/python benchmarks/bench_article.py [--runs 50] [--theme brandA]`. The
article is the corpus posts joined in order and cut at the first block boundary past
3,600 characters (Chinese, English, code, tables, lists, quotes, links). One cold
conversion first (it parses the theme CSS), then the median and minimum of N warm runs.
Target: ≤ 20 ms warm median for the 3,600-character article.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / ".dev"))  # `inkcard`: src/ through the .dev/inkcard symlink

from inkcard.app.articles.convert.html import to_article  # noqa: E402 - the path above must come first

POSTS = ROOT / "tests" / "cases" / "posts"
TARGET_CHARS = 3600


def article_text(chars: int = TARGET_CHARS) -> str:
    """The corpus joined, cut at the first blank line at or past `chars` characters."""
    text = "\n\n".join(p.read_text("utf-8").strip() for p in sorted(POSTS.glob("*.md")))
    cut = text.find("\n\n", chars)
    return text if cut < 0 else text[:cut]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--theme", default="brandA")
    args = parser.parse_args()
    text = article_text()
    start = time.perf_counter()
    article = to_article(text, args.theme)
    cold = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        to_article(text, args.theme)
        times.append((time.perf_counter() - start) * 1000)
    print(
        json.dumps(
            {
                "theme": args.theme,
                "markdown_chars": len(text),
                "html_bytes": len(article.html.encode()),
                "word_count": article.word_count,
                "runs": args.runs,
                "cold_ms": round(cold, 2),
                "median_ms": round(statistics.median(times), 2),
                "min_ms": round(min(times), 2),
                "target_ms": 20,
            }
        )
    )


if __name__ == "__main__":
    main()
