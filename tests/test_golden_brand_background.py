"""Golden cards with a brand kit's background, in each `backgroundFit` (a mid-tone photo as
`cover`, a pale wash as `contain`, a dotted tile as `tile`) in three themes (japanese-magazine,
pop-art, watercolor), compared as `test_golden` compares cards (`--update-golden` rewrites them).

Each card's text keeps the theme's contrast rule over the image (WCAG 4.5:1, 3:1 for large
text, measured on pixels as `test_theme_contrast` measures a theme): where the image would
break it, the theme's face colour is washed over it, as little as needed (pages/marks/brandwash.py).
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import numpy as np
import pytest

from inkcard import layout, themes
from inkcard.layout.pages.marks.brandwash import wash_alpha
from inkcard.layout.style import BrandKit
from tests import pngcodec
from tests.brandassets import BYLINE, POST, logo_png
from tests.conftest import GOLDEN_CHANGES
from tests.pixel_contrast import (
    Found,
    color_names,
    measure_page,
    without_decorative,
    worst_by_role,
)
from tests.test_golden import OUTPUT, SCALE, mismatch, write_output
from tests.test_theme_contrast import failures

GOLDEN = Path(__file__).parent / "golden" / "brand-background"
THEMES = ("japanese-magazine", "pop-art", "watercolor")


def sunset(width: int = 240, height: int = 320) -> bytes:
    """A mid-tone photo: deep blue at the top to orange at the bottom, a pale sun."""
    yy, xx = np.mgrid[0:height, 0:width] / np.array([height, width])[:, None, None]
    rgb = np.array([40, 60, 140]) * (1 - yy[..., None]) + np.array([240, 140, 60]) * yy[..., None]
    sun = np.exp(-(((xx - 0.7) ** 2 + (yy - 0.35) ** 2) / 0.02))[..., None]
    rgb = rgb * (1 - sun) + np.array([250, 220, 120]) * sun
    return pngcodec.encode(rgb.clip(0, 255).astype(np.uint8))


def pastel(width: int = 300, height: int = 200) -> bytes:
    """A pale wash, pink at the left to blue at the right: wider than a card (contain)."""
    xx = np.linspace(0, 1, width)[None, :, None]
    rgb = np.array([252, 228, 236]) * (1 - xx) + np.array([222, 236, 252]) * xx
    return pngcodec.encode(np.broadcast_to(rgb, (height, width, 3)).astype(np.uint8).copy())


def dots(side: int = 24) -> bytes:
    """A tile: a mid-blue dot on a light ground."""
    yy, xx = np.mgrid[0:side, 0:side]
    dot = (xx - side / 2 + 0.5) ** 2 + (yy - side / 2 + 0.5) ** 2 <= (side / 5) ** 2
    rgb = np.full((side, side, 3), (236, 240, 246), np.uint8)
    rgb[dot] = (110, 150, 200)
    return pngcodec.encode(rgb)


BACKGROUNDS = {"cover": sunset, "contain": pastel, "tile": dots}


def kit(fit: str) -> BrandKit:
    return BrandKit(
        logo=logo_png(),
        byline=BYLINE,
        page_number="n/N",
        background=BACKGROUNDS[fit](),
        background_fit=fit,  # type: ignore[arg-type]  # one of the three
    )


CASES = [pytest.param(theme, fit, id=f"{theme}-{fit}") for theme in THEMES for fit in BACKGROUNDS]
# cyberpunk sets its text on a 78 % glass panel: the image is measured through it
MEASURED = [*CASES, *(pytest.param("cyberpunk", fit, id=f"cyberpunk-{fit}") for fit in BACKGROUNDS)]


@pytest.mark.parametrize(("theme", "fit"), CASES)
def test_golden_background_cards(fonts, request, theme: str, fit: str) -> None:
    options = layout.RenderOptions(scale=SCALE, split="autoSplit", brand=kit(fit))
    [png, *_] = layout.render(POST, themes.load(theme), fonts, options)
    path = GOLDEN / f"{theme}__{fit}.png"
    actual = pngcodec.decode(png)
    expected = pngcodec.decode(path.read_bytes()) if path.exists() else None
    reason = "no golden file" if expected is None else mismatch(actual, expected)
    if reason is None:
        return
    if request.config.getoption("--update-golden"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        changes = request.config.stash[GOLDEN_CHANGES]
        changes.append(("changed" if path.exists() else "added", f"brand-background/{path.name}"))
        path.write_bytes(pngcodec.encode(actual))
        return
    write_output(path, actual)
    pytest.fail(f"{path.name}: {reason} (actual image in {OUTPUT})")


def _worst(theme: layout.Theme, fonts: layout.FontBook, brand: BrandKit) -> dict[str, Found]:
    """Each role's worst glyph run on the post's cards with `brand`, measured on pixels."""
    options = layout.RenderOptions(scale=1, split="autoSplit", brand=brand)
    laid = layout.layout_cards(POST, theme, fonts, options)
    names = color_names(theme, None)
    found = [f for page in laid.pages for f in measure_page(page, fonts, names, laid.images)]
    assert found, "the cards' text is measured"
    return worst_by_role(found)


@pytest.mark.parametrize(("theme", "fit"), MEASURED)
def test_text_keeps_the_themes_contrast_over_the_background(fonts, theme: str, fit: str) -> None:
    """Every glyph run of every card against the pixels drawn under it, the image among
    them: the theme's own rule for the text. The chrome (page number, the kit's byline) is
    held to what it reads at with the same kit and no background: in watercolor the byline
    sits on the theme's own blob at 3.7:1 with or without one (docs/decisions/themes.md)."""
    styled = without_decorative(themes.load(theme))
    worst = _worst(styled, fonts, kit(fit))
    text = {role: f for role, f in worst.items() if not role.startswith("chrome")}
    assert not failures(text)
    bare = _worst(styled, fonts, msgspec.structs.replace(kit(fit), background=b""))
    for role, found in worst.items():
        if role.startswith("chrome") and role in bare:
            floor = min(found.needed, bare[role].ratio) - 0.1
            assert found.ratio >= floor, f"{role}: {found.ratio:.2f}:1 < {floor:.2f}:1"


def test_the_wash_is_as_light_as_the_text_allows() -> None:
    """None under dark text on a pale paper; some under it on a sunset; the same sunset
    under white text on a dark face needs its own (the sun is pale)."""
    paper, night = (0xFFF4F1EA,) * 4, (0xFF283C8C, 0xFFF08C3C, 0xFFFADC78)
    dark_text = ((0xFF222222, 4.5),)
    assert wash_alpha(paper, 0xFFFFFFFF, dark_text) == 0.0
    on_white = wash_alpha(night, 0xFFFFFFFF, dark_text)
    assert 0.0 < on_white < 1.0
    assert 0.0 < wash_alpha(night, 0xFF101018, ((0xFFFFFFFF, 4.5),)) < 1.0
