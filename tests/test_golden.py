"""Golden cards at half scale: every corpus post in every mode of apple-notes, and one
long Chinese, a code-heavy and an English post in every mode of each other theme, autoSplit.

Half scale and a level-9 zlib re-encode keep a card near 14 kB, so all 23 themes fit
in the repository. The comparison stays strict: the same size and card count, a mean
difference under EPSILON, and no pixel off by more than MAX_PIXEL_DIFF in any channel
(anti-aliasing noise moves a pixel by a few levels; a moved glyph by far more).

On a failure the actual card and a difference image (changed pixels red over a faded
copy) go to tests/_output/. `pytest --update-golden` compares each card with the OLD
file first, rewrites only what differs, deletes cards a post no longer has, and lists
what changed, was added or removed at the end of the run. Look at them before committing.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from inkcard import layout, themes
from inkcard.themes.custom import read_theme_file
from tests import pngcodec
from tests.conftest import GOLDEN_CHANGES, corpus_posts

GOLDEN = Path(__file__).parent / "golden"
OUTPUT = Path(__file__).parent / "_output"
SCALE = 0.5
EPSILON = 0.0005  # mean absolute difference, 0..1
MAX_PIXEL_DIFF = 48  # of 255, in any channel of any pixel
FULL_THEME = "apple-notes"  # the theme every corpus post is drawn in
# every other theme and mode: a long Chinese post, a code-heavy post, an English post
SAMPLERS = ("04-long-article-zh", "02-python-tips-mixed", "03-english-notes")
# mdxMode posts (tests/cases/mdx/): every component, in a light, a dark and a framed theme
MDX_POSTS = sorted((Path(__file__).parent / "cases" / "mdx").glob("*.md"))
MDX_THEMES = (("apple-notes", "light-mode"), ("darktech", None), ("watercolor", None))
# LaTeX math posts (tests/cases/math/): inline, display, a bad formula, in a light and a dark theme
MATH_POSTS = sorted((Path(__file__).parent / "cases" / "math").glob("*.md"))
MATH_THEMES = (("apple-notes", "light-mode"), ("darktech", None))
# GitHub alerts and footnotes (tests/cases/alerts/): each alert kind, in a light and a dark theme
ALERT_POSTS = sorted((Path(__file__).parent / "cases" / "alerts").glob("*.md"))
ALERT_THEMES = (("apple-notes", "light-mode"), ("darktech", None))
# Mermaid diagrams (tests/cases/mermaid/): flowcharts, mind maps, sequences, pies, in three themes
MERMAID_POSTS = sorted((Path(__file__).parent / "cases" / "mermaid").glob("*.md"))
MERMAID_THEMES = (("apple-notes", "light-mode"), ("darktech", None), ("warm", None))
# a custom CSS theme ported from the original service, its post using every construct it maps
CUSTOM_THEMES = Path(__file__).parent / "cases" / "custom-themes"
CSS_THEME, CSS_POST = CUSTOM_THEMES / "inkwell.css", CUSTOM_THEMES / "inkwell.md"


@dataclass(frozen=True)
class Case:
    post: Path
    theme: str
    mode: str | None
    mdx: bool = False
    theme_file: Path | None = None  # a custom theme's file, for a theme that is not built in

    @property
    def stem(self) -> str:
        return f"{self.post.stem}__{self.theme}" + (f"-{self.mode}" if self.mode else "")


def golden_cases() -> list[Case]:
    cases = []
    for theme in themes.names():
        posts = [p for p in corpus_posts() if theme == FULL_THEME or p.stem in SAMPLERS]
        for mode in themes.modes(theme) or [None]:
            cases.extend(Case(post, theme, mode) for post in posts)
    for theme, mode in MDX_THEMES:
        cases.extend(Case(post, theme, mode, mdx=True) for post in MDX_POSTS)
    for theme, mode in MATH_THEMES:
        cases.extend(Case(post, theme, mode) for post in MATH_POSTS)
    for theme, mode in ALERT_THEMES:
        cases.extend(Case(post, theme, mode) for post in ALERT_POSTS)
    for theme, mode in MERMAID_THEMES:
        cases.extend(Case(post, theme, mode) for post in MERMAID_POSTS)
    custom = read_theme_file(CSS_THEME)
    for mode in custom.theme.modes or [None]:
        cases.append(Case(CSS_POST, custom.name, mode, theme_file=CSS_THEME))
    return cases


def render(case: Case, fonts: layout.FontBook) -> list[np.ndarray]:
    options = layout.RenderOptions(split="autoSplit", mode=case.mode, scale=SCALE, mdx=case.mdx)
    markdown = case.post.read_text("utf-8")
    theme = read_theme_file(case.theme_file).theme if case.theme_file else themes.load(case.theme)
    cards = layout.render(markdown, theme, fonts, options)
    return [pngcodec.decode(png) for png in cards]


def mismatch(actual: np.ndarray, expected: np.ndarray) -> str | None:
    """Why two cards differ, or None when they match."""
    if actual.shape != expected.shape:
        (h, w), (gh, gw) = actual.shape[:2], expected.shape[:2]
        return f"size {w}x{h}, golden {gw}x{gh}"
    diff = np.abs(actual.astype(np.int16) - expected.astype(np.int16))
    mean = float(diff.mean() / 255)
    far = int((diff.max(axis=2) > MAX_PIXEL_DIFF).sum())
    if mean > EPSILON or far:
        return (
            f"mean difference {mean:.5f} (limit {EPSILON}), {far} pixels off by >{MAX_PIXEL_DIFF}"
        )
    return None


def difference_image(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Changed pixels in red, as strong as the change, over a faded copy of the actual card."""
    diff = np.abs(actual.astype(np.int16) - expected.astype(np.int16)).max(axis=2)
    faded = (actual.astype(np.int16) + 3 * 255) // 4
    out = faded.copy()
    changed = diff > 0
    strength = np.clip(diff * 4, 96, 255)[changed]
    out[changed] = np.stack([np.full_like(strength, 255), 255 - strength, 255 - strength], 1)
    return out.astype(np.uint8)


def golden_path(stem: str, page: int) -> Path:
    return GOLDEN / f"{stem}__p{page}.png"


def stored_pages(stem: str) -> list[Path]:
    """The golden files of a case, p1, p2, … in page order."""
    found = {int(p.stem.rsplit("__p", 1)[1]): p for p in GOLDEN.glob(f"{stem}__p*.png")}
    return [found[n] for n in sorted(found)]


def read_golden(path: Path) -> np.ndarray:
    return pngcodec.decode(path.read_bytes())


def judge(stem: str, cards: list[np.ndarray]) -> tuple[dict[str, str], list[Path]]:
    """What is wrong with each card's file (by name), and the files of cards now gone."""
    problems: dict[str, str] = {}
    for n, actual in enumerate(cards, start=1):
        path = golden_path(stem, n)
        if not path.exists():
            problems[path.name] = "no golden file"
        elif reason := mismatch(actual, read_golden(path)):
            problems[path.name] = reason
    rendered = {golden_path(stem, n).name for n in range(1, len(cards) + 1)}
    extra = [p for p in stored_pages(stem) if p.name not in rendered]
    for path in extra:
        problems[path.name] = f"golden has this card, the post now renders {len(cards)}"
    return problems, extra


@pytest.mark.parametrize("case", golden_cases(), ids=lambda c: c.stem)
def test_golden_cards(fonts, request, case: Case) -> None:
    cards = render(case, fonts)
    problems, extra = judge(case.stem, cards)
    if request.config.getoption("--update-golden"):
        update(case.stem, cards, problems, extra, request.config.stash[GOLDEN_CHANGES])
        return
    for n, actual in enumerate(cards, start=1):
        path = golden_path(case.stem, n)
        if path.name in problems:
            write_output(path, actual)
    assert not problems, "; ".join(f"{name}: {why}" for name, why in problems.items()) + (
        f" (actual and difference images in {OUTPUT}; after looking, --update-golden)"
    )


def update(
    stem: str,
    cards: list[np.ndarray],
    problems: dict[str, str],
    extra: list[Path],
    changes: list[tuple[str, str]],
) -> None:
    """Rewrites the files that differ from the OLD golden, and records what it did."""
    for n, actual in enumerate(cards, start=1):
        path = golden_path(stem, n)
        if path.name in problems:
            changes.append(("changed" if path.exists() else "added", path.name))
            path.write_bytes(pngcodec.encode(actual))
    for path in extra:
        changes.append(("removed", path.name))
        path.unlink()


def write_output(golden: Path, actual: np.ndarray) -> None:
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / golden.name).write_bytes(pngcodec.encode(actual))
    if golden.exists():
        expected = read_golden(golden)
        if expected.shape == actual.shape:
            diff = difference_image(actual, expected)
            (OUTPUT / f"{golden.stem}.diff.png").write_bytes(pngcodec.encode(diff))


def test_update_rewrites_only_what_differs_and_reports_it(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sys.modules[__name__], "GOLDEN", tmp_path)
    white, black = np.full((3, 5, 3), 255, np.uint8), np.zeros((3, 5, 3), np.uint8)
    for n in (1, 2, 4):
        golden_path("post", n).write_bytes(pngcodec.encode(white))
    unchanged = golden_path("post", 1).read_bytes()
    cards = [white, black, black]  # p1 the same, p2 changed, p3 new, p4 gone
    problems, extra = judge("post", cards)
    changes: list[tuple[str, str]] = []
    update("post", cards, problems, extra, changes)
    assert changes == [
        ("changed", "post__p2.png"),
        ("added", "post__p3.png"),
        ("removed", "post__p4.png"),
    ]
    assert golden_path("post", 1).read_bytes() == unchanged
    assert [read_golden(p).max() for p in stored_pages("post")] == [255, 0, 0]
    assert judge("post", cards) == ({}, [])


def test_every_golden_file_belongs_to_a_case() -> None:
    stems = {case.stem for case in golden_cases()}
    orphans = [p.name for p in GOLDEN.glob("*.png") if p.stem.rsplit("__p", 1)[0] not in stems]
    assert orphans == []
    assert len(list(GOLDEN.glob("*.png"))) >= len(stems)


def test_golden_files_are_half_scale_and_level_9() -> None:
    for path in GOLDEN.glob("*.png"):
        head = pngcodec.header(path.read_bytes())
        assert (head.width, head.height) == (220, 293), path.name
        idat = b"".join(c.data for c in pngcodec.chunks(path.read_bytes()) if c.kind == b"IDAT")
        assert idat[:2] == b"\x78\xda", f"{path.name} is not zlib level 9"


@pytest.fixture(scope="module")
def english_card(fonts) -> tuple[str, np.ndarray]:
    case = next(c for c in golden_cases() if c.stem == "03-english-notes__apple-notes-light-mode")
    return case.post.read_text("utf-8"), read_golden(golden_path(case.stem, 1))


def test_comparison_accepts_the_identical_card(english_card) -> None:
    _, golden = english_card
    assert mismatch(golden.copy(), golden) is None


def test_comparison_sees_a_one_row_shift(english_card) -> None:
    _, golden = english_card
    shifted = np.concatenate([golden[:1], golden[:-1]])
    assert mismatch(shifted, golden) is not None


def test_comparison_sees_one_changed_letter_and_a_comma(fonts, english_card) -> None:
    markdown, golden = english_card
    options = layout.RenderOptions(split="autoSplit", mode="light-mode", scale=SCALE)
    for edited in (markdown.replace("Books", "Bookz", 1), markdown.replace(".", ",", 1)):
        [first, *_] = layout.render(edited, themes.load("apple-notes"), fonts, options)
        assert mismatch(pngcodec.decode(first), golden) is not None


def test_comparison_sees_a_card_of_another_size(english_card) -> None:
    _, golden = english_card
    assert mismatch(golden[:-1], golden) == "size 220x292, golden 220x293"


def test_difference_image_marks_only_changed_pixels(english_card) -> None:
    _, golden = english_card
    changed = golden.copy()
    changed[10, 20] = 255 - changed[10, 20]
    diff = difference_image(changed, golden)
    red = (diff[:, :, 0] == 255) & (diff[:, :, 1] < 160) & (diff[:, :, 2] < 160)
    assert np.argwhere(red).tolist() == [[10, 20]]
