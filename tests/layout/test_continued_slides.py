"""A later slide that holds one panel alone, the end of a section the slide before began,
goes on under its section's heading again, marked as continued, in the deck's type
(`setting.continued`): the git post's warning, alone after its six lines of code in every
theme-mode at 1600x900, was set larger in the slide's middle as a plate and read as cut
off from its section in type twice the body's (eleventh look, rated 3 in 22 of 30)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Page
from inkcard.layout.pages.setting.continued import _section_heading
from inkcard.layout.parse.doc import Doc, Heading, Paragraph, Text

CASES = Path(__file__).resolve().parents[1] / "cases"
GIT = (CASES / "hard" / "14-git-cheatsheet.md").read_text("utf-8")
SLIDE = layout.RenderOptions(width=1600, height=900, split="autoSplit")
# The git post's start in English: its second section's code fills a slide, its warning
# goes on to the next
GIT_EN = """# Git rescue guide: what to do after a slip

Three years of code, and these are the `git` commands I search for most. Save them.

## Wrong commit message

```bash
git commit --amend -m "fix: login redirect"
```

Only for the **latest** commit that is not pushed yet. Pushed already? Leave it.

## Committed to the wrong branch

```bash
# note the commit id, then switch to the right branch
git log --oneline -1
git switch feature/login
git cherry-pick a1b2c3d
git switch main
git reset --hard HEAD~1
```

> [!WARNING]
> `reset --hard` drops uncommitted changes in the working tree: run `git status` first.

## Deleted the wrong file

| Case | Command |
|---|---|
| Not committed | `git restore file` |
| Committed | `git checkout HEAD~1 -- file` |
| Drop the whole commit | `git revert id` |

Remember: **before a push anything goes; after it, only revert.**
"""


def _sizes(page: Page, kind: str) -> list[float]:
    """The sizes of the text runs on `page` of the top-level blocks of `kind`."""
    return [
        item.size
        for placed in page.rows
        if placed.row.source and placed.row.source[0][0] == kind
        for item in placed.row.items
        if isinstance(item, GlyphRun)
    ]


def _warning_slide(post: str, theme: str) -> tuple[list[Page], Page]:
    pages = layout.layout_pages(post, themes.load(theme), layout.FontBook.load(), SLIDE)
    [warning] = [page for page in pages if _sizes(page, "Callout")]
    return pages, warning


@pytest.mark.parametrize("theme", ["warm", "business", "notebook", "pop-art", "art-deco"])
def test_a_warning_alone_on_a_slide_goes_on_under_its_heading(theme: str) -> None:
    """The warning's slide opens with its section's title and 续 (the heading's lines
    first), its text at the body's size on the other slides (1.3 times it and more as a
    plate), hung at the top, every word kept."""
    pages, warning = _warning_slide(GIT, theme)
    assert warning.fit is not None and warning.fit.continued and not warning.fit.plate
    first = warning.alt_text().splitlines()[0]
    assert "".join(first.split()).lower() == "提交到了错误的分支（续）"
    assert warning.rows[0].row.source[0][0] == "Heading"
    body = min(size for page in pages for size in _sizes(page, "Paragraph"))
    assert max(_sizes(warning, "Callout")) <= 1.01 * body
    assert warning.fit.offset == 0
    text = "".join(warning.alt_text().split())
    assert "reset--hard会丢掉工作区里没提交的改动" in text and "看一眼。" in text


def test_a_latin_title_is_marked_cont() -> None:
    """An English section's title is marked "(cont.)"."""
    _, warning = _warning_slide(GIT_EN, "warm")
    assert warning.alt_text().splitlines()[0] == "Committed to the wrong branch (cont.)"


def test_a_mark_that_would_wrap_the_title_is_left_out() -> None:
    """pop-art's uppercase title with "(CONT.)" took two lines where the title alone takes
    one: the title is repeated alone."""
    _, warning = _warning_slide(GIT_EN, "pop-art")
    lines = warning.alt_text().splitlines()
    assert lines[0] == "COMMITTED TO THE WRONG BRANCH"
    assert "(CONT.)" not in warning.alt_text()


@pytest.mark.parametrize("size", [(440, 586), (500, 500)])
def test_a_portrait_or_square_card_is_not_continued(size: tuple[int, int]) -> None:
    """Only a deck repeats a section's title: cards read one under the next."""
    options = layout.RenderOptions(width=size[0], height=size[1], split="autoSplit")
    pages = layout.layout_pages(GIT, themes.load("warm"), layout.FontBook.load(), options)
    assert not any(page.fit is not None and page.fit.continued for page in pages)


def test_a_panel_under_the_posts_title_alone_is_not_continued() -> None:
    """The post's title is no section's heading: a panel whose only heading before it is
    the title keeps its plate; a first section's heading (a post without a title) is."""
    heading = Heading(2, (Text("Setup"),))
    title = Heading(1, (Text("Title"),))
    quote = Paragraph((Text("x"),))
    assert _section_heading(Doc((title, quote, quote)), 2) is None
    assert _section_heading(Doc((heading, quote, quote)), 2) == heading
    assert _section_heading(Doc((title, heading, quote)), 2) == heading
