"""Diagram legibility by OCR: how many of each Mermaid case's labels tesseract finds on its
cards, as JSON.

Run: `.venv/bin/python benchmarks/bench_diagram_ocr.py [--theme apple-notes] [--mode
light-mode]` (needs `tesseract` with the `chi_sim` data: `apt-get install tesseract-ocr
tesseract-ocr-chi-sim`). Each post of tests/cases/mermaid/ is drawn on 440x586 cards at
scale 2, as a phone shows them sharp; tesseract reads every card three ways (page
segmentation modes 3, 6 and 11, Chinese and English) and a label counts as found when its
text, or each of its words, appears in what it read (spaces and punctuation ignored).
Both sides are compared in one width (NFKC: a full-width ？ or （ is the ASCII one, as
tesseract's English model writes it), and any bracket is a bracket (（ read as 〈): the
letters must all be read, never fewer. A label the card wraps counts as found when each
of its drawn lines (two characters or more) is: tesseract reads a card's rows across, so
a wrapped label's second line comes after its neighbours' first. A case the card shows as
its source (a sequence under its floor) is listed apart, its labels not counted.
Tesseract's Chinese model misreads some short
words on any image: the misses are listed by case, to be looked at, not taken as a
verdict (`--cards DIR` keeps each card that has a miss, named by case, to look at;
`--only 40,71` reads those cases alone).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / ".dev"))  # `inkcard`: src/ through the .dev/inkcard symlink

from inkcard import layout, themes  # noqa: E402 - the path above must come first
from inkcard.layout.base.boxes import Item  # noqa: E402
from inkcard.layout.diagrams.labels import LabelSetter  # noqa: E402
from inkcard.layout.diagrams.marks import Label  # noqa: E402
from inkcard.layout.diagrams.mermaidkinds import parse_diagram  # noqa: E402
from inkcard.layout.errors import DiagramError  # noqa: E402
from inkcard.layout.pages.quality import measure  # noqa: E402

CASES = ROOT / "tests" / "cases" / "mermaid"
FENCE = re.compile(r"```mermaid\n(.*?)```", re.S)
IGNORED = re.compile(r"[\s\-–—:：,，。.()（）《》〈〉「」“”‘’'\"|·•]")
MODES = ("3", "6", "11")


def _plain(text: str) -> str:
    return IGNORED.sub("", unicodedata.normalize("NFKC", text)).lower()


PAINTED: list[tuple[str, ...]] = []  # the lines of each label the cards painted
_paint = LabelSetter.items


def _painting(self: LabelSetter, label: Label, color: int) -> list[Item]:
    PAINTED.append(label.text.lines)
    return _paint(self, label, color)


LabelSetter.items = _painting  # type: ignore[method-assign]  # to see the drawn lines


def _found(label: str, seen: str, drawn: dict[str, tuple[str, ...]]) -> bool:
    """Whether `label` was read: whole, each of its words, or each line it was drawn in."""
    if _plain(label) in seen or all(_plain(w) in seen for w in label.split()):
        return True
    lines = [_plain(line) for line in drawn.get(_plain(label), ())]
    return len(lines) > 1 and all(len(line) > 1 and line in seen for line in lines)


def _as_source(
    text: str, theme: layout.Theme, fonts: layout.FontBook, options: layout.RenderOptions
) -> bool:
    """Whether the cards show the diagram as its source (a sequence under its floor): their
    quality report says so."""
    pages = layout.layout_pages(text, theme, fonts, options)
    notes = [note for page in pages if (q := measure(page)) for note in q.notes]
    return any(note.startswith("a diagram shown as source") for note in notes)


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
    parser.add_argument("--only", default="", help="case numbers, comma-separated")
    parser.add_argument("--cards", type=Path, help="a folder to keep the cards with a miss in")
    args = parser.parse_args()
    only = tuple(f"{n}-" for n in args.only.split(",") if n)
    fonts, theme = layout.FontBook.load(), themes.load(args.theme)
    options = layout.RenderOptions(
        width=440, height=586, split="autoSplit", mode=args.mode or None, scale=2
    )
    cases: dict[str, dict[str, object]] = {}
    found, total, sources = 0, 0, []
    with tempfile.TemporaryDirectory() as scratch:
        for post in sorted(CASES.glob("*.md")):
            if only and not post.stem.startswith(only):
                continue
            text = post.read_text("utf-8")
            fence = FENCE.search(text)
            if fence is None:
                continue
            try:
                labels = [label for label in parse_diagram(fence.group(1)).labels() if label]
            except DiagramError:  # a case that shows its source: nothing drawn to read
                continue
            read, paths = "", []
            if _as_source(text, theme, fonts, options):  # no diagram to read
                sources.append(post.stem)
                continue
            PAINTED.clear()
            cards = layout.render(text, theme, fonts, options)
            drawn = {_plain("".join(lines)): lines for lines in PAINTED}
            for index, png in enumerate(cards):
                path = Path(scratch) / f"{post.stem}-{index}.png"
                path.write_bytes(png)
                paths.append(path)
                read += "|" + _read(path)
            seen = _plain(read)
            missing = [label for label in labels if not _found(label, seen, drawn)]
            cases[post.stem] = {"labels": len(labels), "found": len(labels) - len(missing)}
            if missing:
                cases[post.stem]["missing"] = missing
                if args.cards:
                    args.cards.mkdir(parents=True, exist_ok=True)
                    for path in paths:
                        shutil.copy(path, args.cards / path.name)
            found, total = found + len(labels) - len(missing), total + len(labels)
    print(
        json.dumps(
            {"found": found, "labels": total, "shown as source": sources, "cases": cases},
            ensure_ascii=False,
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
