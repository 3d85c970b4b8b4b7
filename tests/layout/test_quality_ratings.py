"""The quality score ranks card sets as a designer's eye did: a recipe (a five-row table, a
tip in a quote, a four-step method, an FAQ) rated at 500x500 and 1080x1440 in the twelfth
and thirteenth sessions' closing notes. Its sets that open a card with the tip, stranded
above the method's heading, were rated 4/5; those that end the ingredients section on its
card, 5/5. Before the report counted a stranded end, both scored 100: the score could not
tell them apart. A set's score is the mean of its cards' (as `fit: "auto"` weighs it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.pages.fitting import set_score

RECIPE = Path(__file__).resolve().parents[1] / "cases" / "rated" / "recipe-tip.md"
# size -> (theme-modes rated 4/5, theme-modes rated 5/5)
RATED = {
    (500, 500): (
        ["coil-notebook/blue-mode", "pop-art/default-mode", "minimal/", "cyberpunk/"],
        ["apple-notes/light-mode", "business/", "dreamy/", "traditional-chinese/"],
    ),
    (1080, 1440): (["art-deco/"], ["apple-notes/light-mode", "warm/", "typewriter/"]),
}


def _score(fonts: layout.FontBook, theme_mode: str, width: int, height: int) -> float:
    name, _, mode = theme_mode.partition("/")
    options = layout.RenderOptions(width=width, height=height, split="autoSplit", mode=mode or None)
    post = RECIPE.read_text(encoding="utf-8")
    return set_score(layout.layout_pages(post, themes.load(name), fonts, options))


@pytest.mark.parametrize(("width", "height"), list(RATED))
def test_the_score_ranks_the_recipes_sets_as_the_eye_did(fonts, width, height) -> None:
    four, five = RATED[(width, height)]
    fours = {tm: _score(fonts, tm, width, height) for tm in four}
    fives = {tm: _score(fonts, tm, width, height) for tm in five}
    assert max(fours.values()) < min(fives.values()), (fours, fives)
