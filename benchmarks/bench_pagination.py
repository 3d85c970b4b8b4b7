"""A page-break quality report: the breaks a book designer would refuse, counted.

Run: `.venv/bin/python benchmarks/bench_pagination.py [--quick] [--theme NAME ...]
[--size WxH ...] [--examples 5] [--chromium] [--out FILE.json]`. Every corpus post
(tests/cases/posts and the hard cases in tests/cases/pagination) in every built-in
theme-mode at five card sizes, autoSplit, is laid out (not drawn) and its cards are read
for each defect kind (`KINDS`). Prints one JSON document: per kind the total and a few
examples (post, theme, mode, size, card number, what), totals per theme-mode and per size,
and the run time.
`--quick` takes three posts, four themes and two sizes (a few seconds).
`--chromium` adds a `"chromium"` object of the same shape: headless Chromium laying out
the same posts as cards with a designer's CSS (benchmarks/chromium_pages.py: how, and what
is `not_comparable`), its lines counted by the same rules (`count` reads engine-neutral
`Line`s; `inkcard_laid` turns Inkcard's pages into them). It adds a few minutes.

Rows name the blocks they come from (`Row.source`), so a paragraph, a list, a list item,
a code block or a heading is known on the page without reading the Markdown again.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path

from inkcard import layout, themes
from inkcard.layout.base.boxes import Page, Rect, Row
from inkcard.layout.base.placing import place
from inkcard.layout.style.resolver import Styles, resolve
from inkcard.layout.text.words import inside_words

# the module, not the package's re-exported function of this name
compose = sys.modules["inkcard.layout.pages.compose"]
cardface = sys.modules["inkcard.layout.pages.cardface"]

ROOT = Path(__file__).resolve().parents[1]
CORPUS = (ROOT / "tests" / "cases" / "posts", ROOT / "tests" / "cases" / "pagination")
SIZES = ((440, 586), (360, 640), (500, 500), (1080, 1440), (1600, 900))
QUICK_POSTS = ("03-english-notes", "04-long-article-zh", "hard-code-near-ends")
QUICK_THEMES = ("apple-notes", "darktech", "traditional-chinese", "coil-notebook")
QUICK_SIZES = ((440, 586), (360, 640))
KINDS = (
    "split_paragraph_that_fits",  # split, yet whole on the card it starts on or the next
    "paragraph_split_one_line",  # a paragraph split leaving one line on a side
    "single_item_list_remainder",  # a list split leaving one item on a side
    "split_code_that_fits",  # a code block split though it fits one card
    "hyphenated_heading",  # a heading line ending in a hyphen
    "cjk_heading_word_split",  # a heading line break inside a Chinese word (rjieba's words)
    "runt",  # a paragraph's last line: one CJK character or one Latin word under 5 letters
    "stub",  # a last card under 15 % filled, when the post has more than one card
    "underfull",  # a card before the last filled under 55 %, ending inside a section
    "section_end_underfull",  # the same, the next card opening with a heading
    "title_card",  # not a defect: a first card of the title and its lead, set in its middle
    "dangling_rule",  # a thematic break at the bottom or top of a card
)
STUB_SHARE = 0.15
UNDERFULL_SHARE = 0.55  # a card before the last filled less than this leaves a hole
RUNT_LETTERS = 5
EPSILON = 1e-6


@dataclass(frozen=True, slots=True)
class Defect:
    kind: str
    card: int  # 1-based
    what: str


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a laid-out post, whichever engine laid it out: the blocks it belongs to,
    outermost first (as `Row.source`), the card it is on (1-based), its text, and its top and
    bottom on that card (from the content top)."""

    source: tuple[tuple[str, int], ...]
    card: int
    text: str
    top: float
    bottom: float
    gap: float = 0.0  # the space above it when a line comes before it
    repeated: bool = False  # a table header repeated on a later card


def _extent(lines: Sequence[Line]) -> float:
    """What lines take stacked on a fresh card: each card's share, top to bottom, summed."""
    total = 0.0
    for card in sorted({line.card for line in lines}):
        on = [line for line in lines if line.card == card]
        total += on[-1].bottom - on[0].top
    return total


@dataclass(frozen=True, slots=True)
class Laid:
    """A laid-out post as the counters read it: its lines, its card count and content height,
    and how tall given lines of it are stacked on a fresh card (the engine knows best)."""

    lines: tuple[Line, ...]
    cards: int
    content_height: float
    stacked: Callable[[Sequence[Line]], float] = _extent


def inkcard_laid(pages: Sequence[Page], content_height: float) -> Laid:
    """Inkcard's pages as lines; a stack's height is what `place` gives its rows."""
    rows: dict[int, Row] = {}
    lines = []
    seen: set[int] = set()
    for n, page in enumerate(pages, start=1):
        for p in page.rows:
            bottom = p.y + p.row.height * p.scale
            line = Line(
                p.row.source,
                n,
                p.row.text,
                bottom - p.row.height,
                bottom,
                p.row.gap,
                id(p.row) in seen,
            )
            seen.add(id(p.row))
            rows[id(line)] = p.row
            lines.append(line)

    def stacked(some: Sequence[Line]) -> float:
        return _height([rows[id(line)] for line in some])

    return Laid(tuple(lines), len(pages), content_height, stacked)


def defects(pages: Sequence[Page], content_height: float) -> list[Defect]:
    """Every defect of one post Inkcard laid out (autoSplit cards of `content_height`)."""
    return count(inkcard_laid(pages, content_height))


def count(laid: Laid) -> list[Defect]:
    """Every defect of one laid-out post, whichever engine laid it out."""
    used = [0.0] * laid.cards
    for line in laid.lines:
        used[line.card - 1] = max(used[line.card - 1], line.bottom)
    found: list[Defect] = []
    for (kind, _), members in _blocks(laid.lines).items():
        if kind == "Paragraph":
            found.extend(_paragraph(members, used, laid))
        elif kind == "ListBlock":
            found.extend(_list(members))
        elif kind == "CodeBlock":
            found.extend(_code(members, laid))
        elif kind == "Heading":
            found.extend(_heading(members))
    found.extend(_rules(laid))
    height = laid.content_height
    if laid.cards > 1 and used[-1] < STUB_SHARE * height:
        found.append(Defect("stub", laid.cards, f"last card {used[-1] / height:.0%} filled"))
    opening: dict[int, Line] = {}  # each card's first line
    for line in laid.lines:
        opening.setdefault(line.card, line)
    for n, bottom in enumerate(used[:-1], start=1):
        if bottom < UNDERFULL_SHARE * height:
            following = opening.get(n + 1)
            ends_section = following is not None and _is_heading(following)
            kind = "section_end_underfull" if ends_section else "underfull"
            if ends_section and n == 1 and _title_and_lead(laid.lines):
                kind = "title_card"
            found.append(Defect(kind, n, f"card {bottom / height:.0%} filled"))
    return found


def _title_and_lead(lines: Sequence[Line]) -> bool:
    """Whether the first card holds only the post's opening heading and paragraphs."""
    first = [line for line in lines if line.card == 1]
    title = first[0].source if first else ()
    return (
        bool(title)
        and title[0][0] == "Heading"
        and all(
            line.source == title or (len(line.source) == 1 and line.source[0][0] == "Paragraph")
            for line in first
        )
    )


def _is_heading(line: Line) -> bool:
    return bool(line.source) and line.source[0][0] == "Heading"


def _blocks(lines: Sequence[Line]) -> dict[tuple[str, int], list[tuple[int, Line]]]:
    """Each block (at every depth) → its lines, with the depth it sits at in their
    `source`; a table header repeated on a later card is left out."""
    blocks: dict[tuple[str, int], list[tuple[int, Line]]] = defaultdict(list)
    for line in lines:
        if not line.repeated:
            for depth, tag in enumerate(line.source):
                blocks[tag].append((depth, line))
    return blocks


def _cards(members: list[tuple[int, Line]]) -> list[int]:
    return sorted({line.card for _, line in members})


def _height(rows: list[Row]) -> float:
    """What the rows take stacked on a fresh card (the first one's gap dropped)."""
    return place([replace(rows[0], gap=0.0), *rows[1:]]).height


def _paragraph(members: list[tuple[int, Line]], used: list[float], laid: Laid) -> Iterator[Defect]:
    lines = [line for _, line in members]
    text = _snippet(" / ".join(line.text for line in lines))
    if len(lines) >= 2 and _is_runt(lines[-1].text):
        yield Defect("runt", lines[-1].card, f"{lines[-1].text!r} ending {text}")
    cards = _cards(members)
    if len(cards) < 2:
        return
    first = cards[0]
    before = [line for line in lines if line.card == first]
    after = len(lines) - len(before)
    if min(len(before), after) == 1:
        yield Defect("paragraph_split_one_line", first, f"{len(before)}|{after} lines: {text}")
    room = laid.content_height + EPSILON
    whole = laid.stacked(lines)
    fits_here = before[0].top + whole <= room
    fits_next = used[first] + before[0].gap + laid.stacked(before) <= room
    if whole <= room and (fits_here or fits_next):
        where = "the card it starts on" if fits_here else "the next card"
        yield Defect("split_paragraph_that_fits", first, f"fits {where}: {text}")


def _list(members: list[tuple[int, Line]]) -> Iterator[Defect]:
    """A list's items are the blocks right inside it; a split leaving one on a side."""
    cards = _cards(members)
    if len(cards) < 2:
        return
    items: dict[int, dict[tuple[str, int], None]] = defaultdict(dict)
    for depth, line in members:
        if depth + 1 < len(line.source):
            items[line.card][line.source[depth + 1]] = None
    total = len({item for per_card in items.values() for item in per_card})
    for card, following in pairwise(cards):
        sides = (len(items[card]), len(items[following]))
        if total > 1 and min(sides) == 1:
            text = _snippet(" ".join(line.text for _, line in members if line.card == card))
            yield Defect("single_item_list_remainder", card, f"items {sides}: ...{text}")


def _code(members: list[tuple[int, Line]], laid: Laid) -> Iterator[Defect]:
    cards = _cards(members)
    lines = [line for _, line in members]
    if len(cards) > 1 and laid.stacked(lines) <= laid.content_height + EPSILON:
        yield Defect("split_code_that_fits", cards[0], f"{len(lines)} lines: {lines[0].text!r}")


def _heading(members: list[tuple[int, Line]]) -> Iterator[Defect]:
    lines = [line for _, line in members]
    inside = inside_words("".join(line.text for line in lines))
    offset = 0
    for line, following in pairwise(lines):
        offset += len(line.text)
        end, start = line.text.rstrip(), following.text.lstrip()
        pair = f"{end[-12:]!r} / {start[:12]!r}"
        if end.endswith(("-", "\u2010", "\u00ad")):
            yield Defect("hyphenated_heading", line.card, pair)
        elif _is_ideograph(end[-1:]) and _is_ideograph(start[:1]) and offset in inside:
            # inside one word, as the segmenter (rjieba) reads it
            yield Defect("cjk_heading_word_split", line.card, pair)


def _rules(laid: Laid) -> Iterator[Defect]:
    for n in range(1, laid.cards + 1):
        on = [line for line in laid.lines if line.card == n]
        ends = ((on[0], "top", n > 1), (on[-1], "bottom", n < laid.cards)) if on else ()
        for line, side, on_break in ends:
            if on_break and line.source and line.source[-1][0] == "Rule":
                yield Defect("dangling_rule", n, f"--- at the {side}")


def _is_ideograph(char: str) -> bool:
    """A CJK character that is not punctuation (Han, kana, hangul); "" is none."""
    if len(char) != 1 or unicodedata.category(char)[0] != "L":
        return False
    return any(s in unicodedata.name(char, "") for s in ("CJK", "HIRAGANA", "KATAKANA", "HANGUL"))


def _is_runt(text: str) -> bool:
    """One CJK character, or one Latin word under RUNT_LETTERS letters (punctuation aside)."""
    word = "".join(c for c in text.strip() if unicodedata.category(c)[0] in "LN")
    if not word or " " in text.strip():
        return False
    if all(_is_ideograph(c) for c in word):
        return len(word) == 1
    return word.isascii() and len(word) < RUNT_LETTERS


def _snippet(text: str, length: int = 60) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"


def corpus(quick: bool) -> list[Path]:
    posts = sorted(p for folder in CORPUS for p in folder.glob("*.md"))
    return [p for p in posts if p.stem in QUICK_POSTS] if quick else posts


def theme_modes(names: Sequence[str]) -> list[tuple[str, str | None]]:
    return [(name, mode) for name in names for mode in themes.modes(name) or [None]]


class Tally:
    """Defects counted per kind, theme-mode and size, with a few examples of each kind."""

    def __init__(self, examples: int) -> None:
        self.examples = examples
        self.totals: Counter[str] = Counter()
        self.by_theme: dict[str, Counter[str]] = defaultdict(Counter)
        self.by_size: dict[str, Counter[str]] = defaultdict(Counter)
        self.shown: dict[str, list[dict]] = defaultdict(list)
        self.layouts = self.cards = 0
        self.started = time.perf_counter()

    def add(self, stem: str, label: str, size: str, cards: int, found: list[Defect]) -> None:
        self.layouts, self.cards = self.layouts + 1, self.cards + cards
        for defect in found:
            self.totals[defect.kind] += 1
            self.by_theme[label][defect.kind] += 1
            self.by_size[size][defect.kind] += 1
            if len(self.shown[defect.kind]) < self.examples:
                where = {"post": stem, "theme": label, "size": size, "card": defect.card}
                self.shown[defect.kind].append({**where, "what": defect.what})

    def summary(self) -> dict:
        kinds = {k: {"count": self.totals[k], "examples": self.shown[k]} for k in KINDS}
        return {
            "layouts": self.layouts,
            "cards": self.cards,
            "seconds": round(time.perf_counter() - self.started, 1),
            "totals": {kind: self.totals[kind] for kind in KINDS},
            "kinds": kinds,
            "by_theme": {k: dict(sorted(c.items())) for k, c in sorted(self.by_theme.items())},
            "by_size": {size: dict(sorted(c.items())) for size, c in self.by_size.items()},
        }


def _rows_box(styles: Styles, width: int, height: int) -> Rect:
    """The content box a card's rows are laid out in: a card larger than the default is
    laid out at its virtual size and drawn zoomed, so its rows are in virtual px (the
    browser gets the same box)."""
    zoom = compose.type_zoom(styles["card"], width, height)
    return cardface.content_box(styles, width / zoom, height / zoom)


def _label(name: str, mode: str | None) -> str:
    return name + (f"-{mode}" if mode else "")


def report(
    posts: Sequence[Path],
    modes: Sequence[tuple[str, str | None]],
    sizes: Sequence[tuple[int, int]],
    examples: int,
) -> dict:
    fonts = layout.FontBook.load()
    tally = Tally(examples)
    texts = {post.stem: post.read_text("utf-8") for post in posts}
    for name, mode in modes:
        theme = themes.load(name)
        styles = resolve(theme, mode)
        for width, height in sizes:
            box = _rows_box(styles, width, height)
            options = layout.RenderOptions(split="autoSplit", width=width, height=height, mode=mode)
            for stem, text in texts.items():
                pages = layout.layout_pages(text, theme, fonts, options)
                found = defects(pages, box.height)
                tally.add(stem, _label(name, mode), f"{width}x{height}", len(pages), found)
    return {
        "engine": "inkcard",
        "posts": [post.stem for post in posts],
        "theme_modes": len(modes),
        "sizes": [f"{w}x{h}" for w, h in sizes],
        **tally.summary(),
    }


def chromium_report(
    posts: Sequence[Path],
    modes: Sequence[tuple[str, str | None]],
    sizes: Sequence[tuple[int, int]],
    examples: int,
) -> dict:
    """The same counts for headless Chromium laying out the same posts as cards
    (benchmarks/chromium_pages.py says how, and what it cannot express)."""
    import chromium_pages  # imported here: the default run needs no browser

    tally = Tally(examples)
    texts = {post.stem: post.read_text("utf-8") for post in posts}
    with chromium_pages.session() as chromium:
        for name, mode in modes:
            styles = resolve(themes.load(name), mode)
            for width, height in sizes:
                box = _rows_box(styles, width, height)
                read = chromium.lay_out(texts, styles, chromium_pages.Box(box.width, box.height))
                for stem, rows in read.items():
                    lines = tuple(Line(*row) for row in rows)
                    cards = max((line.card for line in lines), default=1)
                    found = count(Laid(lines, cards, box.height))
                    tally.add(stem, _label(name, mode), f"{width}x{height}", cards, found)
        return {
            "engine": "chromium",
            "version": chromium.version,
            "hyphenation_dictionary": chromium.hyphenation,
            "css": " ".join(chromium_pages.DESIGNER_CSS.split()),
            "not_comparable": chromium_pages.NOT_COMPARABLE
            + ([] if chromium.hyphenation else [chromium_pages.NO_DICTIONARY]),
            **tally.summary(),
        }


def _size(text: str) -> tuple[int, int]:
    width, height = text.lower().split("x")
    return int(width), int(height)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 posts, 4 themes, 2 sizes")
    parser.add_argument("--theme", action="append", help="only these built-in themes")
    parser.add_argument("--size", type=_size, action="append", help="WxH, instead of the five")
    parser.add_argument("--examples", type=int, default=5, help="examples kept per kind")
    parser.add_argument(
        "--chromium", action="store_true", help="also count headless Chromium's cards"
    )
    parser.add_argument("--out", type=Path, help="also write the JSON here")
    args = parser.parse_args()
    names = args.theme or (QUICK_THEMES if args.quick else themes.names())
    sizes = args.size or (QUICK_SIZES if args.quick else SIZES)
    posts, modes = corpus(args.quick), theme_modes(names)
    result = report(posts, modes, sizes, args.examples)
    if args.chromium:
        result["chromium"] = chromium_report(posts, modes, sizes, args.examples)
    text = json.dumps(result, ensure_ascii=False, indent=1)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
