"""The page-break report's counters (benchmarks/bench_pagination.py) on cards built by hand,
where the right count is known, and the block names the engine gives its rows."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Page, PlacedRow, Row

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_pagination.py"
_SPEC = importlib.util.spec_from_file_location("bench_pagination", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
report = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = report  # dataclasses look their module up while it loads
_SPEC.loader.exec_module(report)

HEIGHT = 100.0  # content height of every hand-built card
LINE = 20.0


def row(text: str, *source: tuple[str, int], height: float = LINE) -> Row:
    return Row(height=height, items=(), text=text, source=source)


def para(n: int, *texts: str) -> list[Row]:
    return [row(t, ("Paragraph", n)) for t in texts]


def cards(*contents: list[Row]) -> list[Page]:
    """Each list of rows stacked from the top of a card of its own."""
    pages = []
    for rows in contents:
        placed, y = [], 0.0
        for r in rows:
            placed.append(PlacedRow(r, y))
            y += r.height
        pages.append(Page(300.0, 400.0, 0xFFFFFFFF, (), tuple(placed)))
    return pages


def counts(pages: list[Page]) -> Counter[str]:
    return Counter(d.kind for d in report.defects(pages, HEIGHT))


def test_a_short_code_block_split_across_cards_is_counted_a_long_one_is_not() -> None:
    short = [row(f"code {i}", ("CodeBlock", 9)) for i in range(3)]
    pages = cards([*para(1, "a", "b", "c", "d"), short[0]], [*short[1:], *para(2, "e", "f")])
    assert counts(pages)["split_code_that_fits"] == 1
    long = [row(f"code {i}", ("CodeBlock", 9)) for i in range(7)]
    pages = cards([*para(1, "a"), *long[:4]], long[4:])
    assert counts(pages)["split_code_that_fits"] == 0


def test_a_paragraph_split_though_it_fits_its_first_card_is_counted() -> None:
    split = para(2, "one", "two", "three")
    pages = cards([*para(1, "a", "b"), split[0]], [*split[1:], *para(3, "x", "y")])
    found = counts(pages)
    assert found["split_paragraph_that_fits"] == 1
    assert found["paragraph_split_one_line"] == 1
    tall = para(2, *"abcdefg")  # 140 px: taller than a card, so it must split
    pages = cards([*para(1, "a"), *tall[:4]], tall[4:])
    assert counts(pages)["split_paragraph_that_fits"] == 0


def test_a_list_split_leaving_one_item_on_a_side_is_counted() -> None:
    items = [row(f"item {i}", ("ListBlock", 1), ("Paragraph", 10 + i)) for i in range(4)]
    heading = row("Ingredients", ("Heading", 0))
    filler = para(5, "a", "b", "c")
    assert counts(cards([*filler, heading, items[0]], items[1:]))["single_item_list_remainder"] == 1
    assert counts(cards([*filler, *items[:2]], items[2:]))["single_item_list_remainder"] == 0
    assert counts(cards([*filler, *items[:3]], items[3:]))["single_item_list_remainder"] == 1


@pytest.mark.parametrize(
    ("lines", "kind", "expected"),
    [
        (("Begin-", "ners"), "hyphenated_heading", 1),
        (("Well-known", "words"), "hyphenated_heading", 0),
        (("荔", "枝为什么这么难保存"), "cjk_heading_word_split", 1),
        (("荔枝为什么这么难保存：", "从采摘到上桌"), "cjk_heading_word_split", 0),
        (("Why Small Teams", "Ship Faster"), "cjk_heading_word_split", 0),
    ],
)
def test_heading_line_breaks(lines: tuple[str, ...], kind: str, expected: int) -> None:
    heading = [row(text, ("Heading", 1)) for text in lines]
    assert counts(cards(heading))[kind] == expected


@pytest.mark.parametrize(
    ("last", "expected"),
    [("ing.", 1), ("字。", 1), ("world.", 0), ("of it.", 0), ("字字", 0), ("“Yes!”", 1)],
)
def test_runts_are_one_cjk_character_or_one_short_latin_word(last: str, expected: int) -> None:
    assert counts(cards(para(1, "a whole line of words", last)))["runt"] == expected
    assert counts(cards(para(1, last)))["runt"] == 0  # a one-line paragraph has no runt


def test_a_nearly_empty_last_card_is_a_stub() -> None:
    full = para(1, "a", "b", "c", "d")
    assert counts(cards(full, [row("end", ("Paragraph", 2), height=10.0)]))["stub"] == 1
    assert counts(cards(full, [row("end", ("Paragraph", 2), height=20.0)]))["stub"] == 0
    assert counts(cards([row("end", ("Paragraph", 2), height=10.0)]))["stub"] == 0


def test_a_rule_at_the_bottom_or_top_of_a_card_dangles() -> None:
    rule = row("", ("Rule", 7), height=1.0)
    assert counts(cards([*para(1, "a"), rule], para(2, "b")))["dangling_rule"] == 1
    assert counts(cards(para(1, "a"), [rule, *para(2, "b")]))["dangling_rule"] == 1
    assert counts(cards([*para(1, "a"), rule, *para(2, "b")]))["dangling_rule"] == 0


def test_rows_name_the_blocks_they_come_from() -> None:
    post = "# Title\n\nSome text.\n\n- one\n- two\n\n```\ncode\n```\n\n---\n\nEnd.\n"
    options = layout.RenderOptions(split="autoSplit")
    [page] = layout.layout_pages(post, themes.load("apple-notes"), layout.FontBook.load(), options)
    kinds = [[kind for kind, _ in p.row.source] for p in page.rows if p.row.text or p.row.source]
    assert kinds == [
        ["Heading"],
        ["Paragraph"],
        ["ListBlock", "ListItem", "Paragraph"],
        ["ListBlock", "ListItem", "Paragraph"],
        ["CodeBlock"],
        ["Rule"],
        ["Paragraph"],
    ]
    items = {p.row.source[1] for p in page.rows if p.row.source[0][0] == "ListBlock"}
    assert len(items) == 2  # each item is a block of its own


def _chromium_pages() -> object:
    """benchmarks/chromium_pages.py, loaded as `bench_pagination --chromium` imports it."""
    path = _PATH.with_name("chromium_pages.py")
    spec = importlib.util.spec_from_file_location("chromium_pages", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_chromium_cards_feed_the_same_counters() -> None:
    """One card's worth of lines plus one in headless Chromium: greedy filling would leave one
    line on the second card; `widows: 2` moves a second one over, which the counters see as
    no one-line split and as a stub (two lines on a tall last card)."""
    pages = _chromium_pages()
    styles = layout.style.resolver.resolve(themes.load("apple-notes"), None)
    box = sys.modules["inkcard.layout.pages.cardface"].content_box(styles, 440, 586)
    body = styles["body"]
    per_card = int(box.height // (body.size * body.line_height))
    lines = [f"line {n}" for n in range(1, per_card + 2)]
    post = "  \n".join(lines) + "\n"  # hard breaks: exactly these lines
    with pages.session() as chromium:  # type: ignore[attr-defined]
        card = pages.Box(box.width, box.height)  # type: ignore[attr-defined]
        read = chromium.lay_out({"post": post}, styles, card)
    laid = [report.Line(*row) for row in read["post"]]
    assert [line.text.strip() for line in laid] == lines
    assert {line.source for line in laid} == {(("Paragraph", 0),)}
    assert [line.card for line in laid].count(2) == 2  # not 1: widows
    found = Counter(d.kind for d in report.count(report.Laid(tuple(laid), 2, box.height)))
    assert found["paragraph_split_one_line"] == 0
    assert found["stub"] == 1
    assert found["split_paragraph_that_fits"] == 0  # one line taller than a card
