"""A theme's chrome in the post's language (style/locale.py, pages/marks/language.py): notebook's
第 1 页 · 共 2 页 under an English or Japanese post, and apple-notes' 备忘录 over one, were
marked as faults (fourth and fifth looks, 500x500); a theme gives the Latin form beside the
Chinese one, and a post that is not Chinese gets it."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import themes
from inkcard.layout.pages.marks.language import chrome_for, is_chinese
from inkcard.layout.parse.markdown import parse
from inkcard.layout.style.decorations import Label
from inkcard.layout.style.resolver import resolve

HARD = Path(__file__).resolve().parents[1] / "cases" / "hard"


@pytest.mark.parametrize(
    ("post", "chinese"),
    [("13-reading-notes", True), ("15-english-focus", False), ("18-cafe-kyoto", False)],
)
def test_a_posts_language_is_read_from_its_first_words(post: str, chinese: bool) -> None:
    assert is_chinese(parse((HARD / f"{post}.md").read_text("utf-8"))) is chinese


def _labels(styles) -> list[str]:
    return [d.text for d in styles.decorations if isinstance(d, Label)]


@pytest.mark.parametrize("post", ["15-english-focus", "18-cafe-kyoto"])
def test_a_post_that_is_not_chinese_gets_the_latin_chrome(post: str) -> None:
    doc = parse((HARD / f"{post}.md").read_text("utf-8"))
    notebook = chrome_for(doc, resolve(themes.load("notebook"), None))
    assert notebook["page_number"].format == "Page {n} of {total}"
    notes = chrome_for(doc, resolve(themes.load("apple-notes"), "light-mode"))
    assert "Notes" in _labels(notes) and "备忘录" not in _labels(notes)
    # business's bilingual masthead read 商务简报 over an English and a Japanese post
    # (tenth look, 1080x1440): its Latin form is its English half
    brief = chrome_for(doc, resolve(themes.load("business"), None))
    assert "BRIEFING" in _labels(brief) and "商务简报 · BRIEFING" not in _labels(brief)
    # its static layers are cached apart from the Chinese chrome's
    assert notes.key != resolve(themes.load("apple-notes"), "light-mode").key


def test_a_chinese_post_keeps_the_themes_chrome() -> None:
    doc = parse((HARD / "13-reading-notes.md").read_text("utf-8"))
    styles = resolve(themes.load("notebook"), None)
    assert chrome_for(doc, styles) is styles
    notes = chrome_for(doc, resolve(themes.load("apple-notes"), "light-mode"))
    assert "备忘录" in _labels(notes)


def test_a_theme_with_one_form_is_left_as_it_is() -> None:
    """darktech's terminal chrome has no Latin form (it is Latin): the English post keeps
    it, and the post is not read for its language at all."""
    doc = parse((HARD / "15-english-focus.md").read_text("utf-8"))
    styles = resolve(themes.load("darktech"), None)
    assert chrome_for(doc, styles) is styles
