"""A capitalised Latin name set in Chinese (La Roche-Posay, The Ordinary, City Walk) stays on
one heading line, and the one-character word before it stays with it (从La, 到The)."""

from __future__ import annotations

import pytest

from inkcard.layout.text.words import latin_names
from tests.layout.test_headings import THEME_MODES, heading_rows

NAMED = {
    "# 油痘肌的秋冬护肤清单：从La Roche-Posay到The Ordinary，我用了3年的真心话✨": (
        "La Roche-Posay",
        "The Ordinary",
    ),
    "## 我用iPhone 15 Pro拍下了New York Times大楼的夜景": ("iPhone 15 Pro", "New York Times"),
}


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("从La Roche-Posay到The Ordinary，", ["La Roche-Posay", "The Ordinary"]),
        ("不踩雷的City Walk路线", ["City Walk"]),
        ("我用iPhone 15 Pro拍的", ["iPhone 15 Pro"]),
        ("How To Write Better Code", []),  # an English title: no CJK beside it
        ("用 asyncio 和 httpx 写", []),  # lower case: code, not a name
        ("跑了3 15公里", []),  # numbers alone
        ("的A Very Long Brand Name Indeed And More报道", []),  # past MAX_NAME: a phrase
        ("《纳瓦尔宝典》The Almanack of Naval Ravikant", ["The Almanack of Naval Ravikant"]),
        ("读Pride and Prejudice的", ["Pride and Prejudice"]),
        ("用Python写of的", []),  # a joiner at an end: not a name
        ("的Apple is great报道", []),  # a lower-case word that joins nothing: prose
        # the writer's spaces between a name and its CJK text (art-deco's FAQ cover broke
        # "ChatGPT / Plus")
        ("新手开通 ChatGPT Plus 的 7 个问题", ["ChatGPT Plus"]),
        ("不踩雷的 City Walk 路线", ["City Walk"]),
        ("  How To Write Better Code", []),  # spaces, but no CJK past them
    ],
)
def test_latin_names(text: str, names: list[str]) -> None:
    clusters = list(text)
    assert ["".join(clusters[a:b]) for a, b in latin_names(clusters)] == names


# At 360 px art-deco's frame leaves a 204-px heading line, narrower than "La Roche-Posay":
# a name wider than the line breaks, as any unbreakable piece does.
@pytest.mark.parametrize("width", [440, 1080])
def test_a_heading_never_breaks_inside_a_name(width: int, fonts) -> None:
    split = []
    for heading, names in NAMED.items():
        for theme_mode in THEME_MODES:
            lines = [
                row.text.replace(" ", "") for row in heading_rows(heading, theme_mode, width, fonts)
            ]
            joined = "\n".join(lines)
            for name in names:
                whole = name.replace(" ", "")
                if any(whole[:n] + "\n" + whole[n:] in joined for n in range(1, len(whole))):
                    split.append((theme_mode, name, lines))
    assert split == []


SMALL_WORD_HEADINGS = (
    "## 1.《纳瓦尔宝典》The Almanack of Naval Ravikant",  # the name is wider than some lines
    "# How we run a 10-minute stand-up (and why we stopped doing Scrum)",
)


@pytest.mark.parametrize("width", [440, 1080])
def test_no_heading_line_ends_on_a_small_word(width: int, fonts) -> None:
    ending = []
    for heading in SMALL_WORD_HEADINGS:
        for theme_mode in THEME_MODES:
            lines = [row.text.strip() for row in heading_rows(heading, theme_mode, width, fonts)]
            for line in lines[:-1]:
                if line.rsplit(" ", 1)[-1].lower() in ("the", "of", "a", "and", "with", "to"):
                    ending.append((theme_mode, lines))
    assert ending == []


BODY = "\n\n" + "Some words of body text that run on for a while to fill the card. " * 30


@pytest.mark.parametrize(
    ("heading", "width"),
    [
        ("# Five habits for a focused morning", 440),  # FIVE HABITS / FOR A FOCUSED / MORNING
        ("# What to build next", 360),  # What to build / next
        ("# Every hop of a cross-region failover", 360),  # Every hop / of a … / failover
    ],
)
def test_a_small_word_may_end_a_line_to_spare_a_heading_a_lone_last_word(
    heading: str, width: int, fonts
) -> None:
    """Two lines, or fewer than the hold sets, with a small word ending the first beat a
    last line of one word ("Five habits for a / focused morning"); the word after it is
    still kept whole (never "cross- / region"). A stack of more lines keeps the hold."""
    lone = []
    for theme_mode in THEME_MODES:
        rows = heading_rows(heading + BODY, theme_mode, width, fonts)
        lines = [row.text.strip() for row in rows if not row.text.startswith("Some words")]
        lines = lines[: next(i for i, r in enumerate(rows) if r.text.startswith("Some"))]
        assert not any(line.endswith("-") for line in lines), lines
        if 1 < len(lines) <= 2 and " " not in lines[-1]:
            lone.append((theme_mode, lines))
    assert lone == []


@pytest.mark.parametrize(
    ("heading", "width", "lines"),
    [
        ("# How I Read 52 Books in a Year", 440, ["How I Read 52 Books", "in a Year"]),
        ("# The Quiet Power of Being Misunderstood", 440, ["The Quiet Power", "of Being"]),
        ("# Build pipeline, retries on two steps", 360, ["Build pipeline,", "retries"]),
    ],
)
def test_an_english_heading_breaks_between_phrases(
    heading: str, width: int, lines: list[str], fonts
) -> None:
    """A wrapping English heading breaks before a preposition or a conjunction or after
    punctuation while its lines stay even, not between an adjective and its noun: "How I
    Read 52 / Books in a Year", "THE QUIET / POWER OF BEING" (13 sets at 1080x1440, the
    twenty-second session's rater), "retries on two / steps"."""
    for theme_mode in [("apple-notes", "light-mode"), ("warm", ""), ("art-deco", "")]:
        rows = heading_rows(heading + BODY, theme_mode, width, fonts)
        got = [row.text.strip() for row in rows if not row.text.startswith("Some words")]
        got = got[: next(i for i, r in enumerate(rows) if r.text.startswith("Some"))]
        if len(got) > 1:  # where it wraps at all
            first, second = (line.lower() for line in lines)
            assert got[0].lower() == first and got[1].lower().startswith(second), got
