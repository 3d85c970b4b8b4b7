"""Diagram legibility by OCR: how many of each Mermaid case's labels tesseract finds on its
cards, as JSON.

Run: `.venv/bin/python benchmarks/bench_diagram_ocr.py [--theme apple-notes] [--mode
light-mode]` (needs `tesseract` with the `chi_sim` data: `apt-get install tesseract-ocr
tesseract-ocr-chi-sim`). Each post of tests/cases/mermaid/ is drawn on 440x586 cards at
scale 2, as a phone shows them sharp; tesseract reads every card three ways (page
segmentation modes 3, 6 and 11, Chinese and English) and a label counts as found when its
text, or each of its words, appears in what it read (spaces and punctuation ignored).
Tesseract's Chinese model misreads some short words on any image: the misses are listed
by case, to be looked at, not taken as a verdict.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / ".dev"))  # `inkcard`: src/ through the .dev/inkcard symlink

from inkcard import layout, themes  # noqa: E402 - the path above must come first
from inkcard.layout.diagrams.mermaidkinds import parse_diagram  # noqa: E402
from inkcard.layout.errors import DiagramError  # noqa: E402

CASES = ROOT / "tests" / "cases" / "mermaid"
FENCE = re.compile(r"```mermaid\n(.*?)```", re.S)
IGNORED = re.compile(r"[\s\-–—:：,，。.()（）《》'\"|·•]")
MODES = ("3", "6", "11")


def _plain(text: str) -> str:
    return IGNORED.sub("", text).lower()


def _read(png: Path) -> str:
    return "|".join(
        subprocess.run(
            ["tesseract", str(png), "-", "-l", "chi_sim+eng", "--psm", mode],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for mode in MODES
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--theme", default="apple-notes")
    parser.add_argument("--mode", default="light-mode")
    args = parser.parse_args()
    fonts, theme = layout.FontBook.load(), themes.load(args.theme)
    options = layout.RenderOptions(
        width=440, height=586, split="autoSplit", mode=args.mode or None, scale=2
    )
    cases, found, total = {}, 0, 0
    with tempfile.TemporaryDirectory() as scratch:
        for post in sorted(CASES.glob("*.md")):
            text = post.read_text("utf-8")
            fence = FENCE.search(text)
            if fence is None:
                continue
            try:
                labels = [label for label in parse_diagram(fence.group(1)).labels() if label]
            except DiagramError:  # a case that shows its source: nothing drawn to read
                continue
            read = ""
            for index, png in enumerate(layout.render(text, theme, fonts, options)):
                path = Path(scratch) / f"{post.stem}-{index}.png"
                path.write_bytes(png)
                read += "|" + _read(path)
            seen = _plain(read)
            missing = [
                label
                for label in labels
                if _plain(label) not in seen and not all(_plain(w) in seen for w in label.split())
            ]
            cases[post.stem] = {"labels": len(labels), "found": len(labels) - len(missing)}
            if missing:
                cases[post.stem]["missing"] = missing
            found, total = found + len(labels) - len(missing), total + len(labels)
    print(
        json.dumps({"found": found, "labels": total, "cases": cases}, ensure_ascii=False, indent=1)
    )


if __name__ == "__main__":
    main()
