"""Paints and effects: decoded from theme files, resolved per mode, painted by Skia.

Decode tests go through `decode_theme` (the path every theme file takes); draw tests
paint one record into a small card and probe pixels.
"""

from __future__ import annotations

import msgspec
import numpy as np
import pytest

from inkcard.layout.base.boxes import (
    Blur,
    Fill,
    Glow,
    Gradient,
    Grain,
    Layer,
    Page,
    Paint,
    Pattern,
    Rect,
    Segment,
    Shadow,
)
from inkcard.layout.draw.encode import rasterize
from inkcard.layout.draw.painter import Painter
from inkcard.layout.draw.shaders import NOISE_TILE
from inkcard.layout.style.resolver import resolve
from inkcard.layout.style.theme import ThemeError, decode_theme

THEME = 'name = "t"\nmodes = ["day"]\n[colors.day]\nink = "#112233"\n'


def card_paint(spec: str) -> Paint | None:
    theme = decode_theme(THEME + f"[roles.card]\nbackground = {spec}\n")
    return resolve(theme, "day")["card"].background


PAINTS = [
    ('"ink"', 0xFF112233),
    ('"#ff0000"', 0xFFFF0000),
    (
        '{ kind = "linear", angle = 90, stops = ["ink", "#fff"] }',
        Gradient("linear", (0xFF112233, 0xFFFFFFFF), angle=90.0),
    ),
    (
        '{ kind = "linear", stops = ["#000", "#777", "#fff"], positions = [0, 0.2, 1] }',
        Gradient("linear", (0xFF000000, 0xFF777777, 0xFFFFFFFF), (0.0, 0.2, 1.0)),
    ),
    (
        '{ kind = "radial", center = [0.2, 0.3], radius = 0.7, stops = ["#000", "#fff"] }',
        Gradient("radial", (0xFF000000, 0xFFFFFFFF), center=(0.2, 0.3), radius=0.7),
    ),
    (
        '{ kind = "sweep", angle = 45, stops = ["#000", "#fff", "#000"] }',
        Gradient("sweep", (0xFF000000, 0xFFFFFFFF, 0xFF000000), angle=45.0),
    ),
    (
        '{ kind = "dots", color = "ink", spacing = 24, size = 2, offset = [12, 12] }',
        Pattern("dots", 0xFF112233, None, 24.0, 2.0, 0.0, (12.0, 12.0)),
    ),
    (
        '{ kind = "lines", color = "#000", background = "#fff", angle = 45, spacing = 8 }',
        Pattern("lines", 0xFF000000, 0xFFFFFFFF, 8.0, 1.0, 45.0),
    ),
    (
        '{ kind = "grid", color = "rgba(0,0,0,.1)", spacing = 20 }',
        Pattern("grid", 0x1A000000, None, 20.0, 1.0),
    ),
    (
        '{ kind = "noise", color = "#000", background = "ink", opacity = 0.2 }',
        Pattern("noise", 0xFF000000, 0xFF112233, 1.5, 0.2),
    ),
]


@pytest.mark.parametrize(("spec", "paint"), PAINTS)
def test_every_paint_kind_decodes_and_resolves_in_the_mode(spec: str, paint: Paint) -> None:
    assert card_paint(spec) == paint


PAINT_ERRORS = [
    ('{ kind = "linaer", stops = ["#000", "#fff"] }', "Invalid value 'linaer'"),
    ('{ kind = "linear", stops = ["#000"] }', "length >= 2"),
    ('{ kind = "linear", stops = ["#000", "#fff"], angel = 3 }', "unknown field `angel`"),
    ('{ kind = "radial", stops = ["#000", "#fff"], radius = 0 }', "Expected `float` > 0.0"),
    ('{ kind = "dots", spacing = 20 }', "missing required field `color`"),
    ('{ kind = "lines", color = "#000", spacing = 0 }', "Expected `float` > 0.5"),
    ('{ kind = "noise", color = "#000", opacity = 2 }', "Expected `float` <= 1.0"),
    ("7", "Expected `str | object | null`, got `int`"),
]


@pytest.mark.parametrize(("spec", "message"), PAINT_ERRORS)
def test_a_malformed_paint_fails_at_load_naming_its_field(spec: str, message: str) -> None:
    with pytest.raises(ThemeError) as error:
        card_paint(spec)
    assert message in str(error.value)
    assert "$.roles.card.background" in str(error.value)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ('{ kind = "linear", stops = ["ink", "nope"] }', "'nope' (at roles.card.background)"),
        (
            '{ kind = "linear", stops = ["#000", "#fff", "#000"], positions = [0, 1] }',
            "2 positions for 3 stops (at roles.card.background)",
        ),
        (
            '{ kind = "linear", stops = ["#000", "#fff"], positions = [1, 0] }',
            "positions must not decrease",
        ),
        ('{ kind = "dots", color = "#000", background = "paper" }', "'paper'"),
    ],
)
def test_a_paint_whose_colours_do_not_resolve_names_the_mode_and_field(
    spec: str, message: str
) -> None:
    with pytest.raises(ThemeError) as error:
        card_paint(spec)
    assert message in str(error.value)
    assert "t (day)" in str(error.value)


def test_effects_decode_per_kind_on_a_role() -> None:
    theme = decode_theme(
        THEME
        + "[roles.code_block]\neffects = ["
        + '{ kind = "shadow", dx = 5, dy = 5, blur = 0, color = "ink" },'
        + '{ kind = "glow", blur = 8, color = "#f00" },'
        + '{ kind = "blur", blur = 3 },'
        + '{ kind = "grain", opacity = 0.1, seed = 2 }]\n'
    )
    assert resolve(theme, "day")["code_block"].effects == (
        Shadow(5.0, 5.0, 0.0, 0xFF112233),
        Glow(8.0, 0xFFFF0000),
        Blur(3.0),
        Grain(0.1, 0.8, 0xFF000000, 2.0),
    )


@pytest.mark.parametrize(
    ("effects", "message"),
    [
        ('[{ kind = "shade" }]', "Invalid value 'shade' - at `$.roles.card.effects[0].kind`"),
        ('[{ kind = "blur", blur = -1 }]', "at `$.roles.card.effects[0].blur`"),
        ('[{ kind = "glow", size = 3 }]', "unknown field `size`"),
        ('[{ kind = "shadow", color = "ash" }]', "'ash' (at roles.card.effects[0])"),
    ],
)
def test_a_malformed_effect_fails_at_load(effects: str, message: str) -> None:
    with pytest.raises(ThemeError) as error:
        decode_theme(THEME + f"[roles.card]\neffects = {effects}\n")
    assert message in str(error.value)


def draw(fonts, *items, width: float = 100, height: float = 60, scale: float = 1) -> np.ndarray:
    page = Page(width, height, 0xFFFFFFFF, tuple(items))
    picture = Painter(fonts.typefaces()).record(page)
    return rasterize(picture, width, height, page.background, scale).astype(int)


def close(pixel: np.ndarray, argb: int, tolerance: int = 12) -> bool:
    rgb = [(argb >> 16) & 0xFF, (argb >> 8) & 0xFF, argb & 0xFF]
    return bool(np.abs(pixel - rgb).max() <= tolerance)


def test_a_linear_gradient_has_its_stop_colours_at_its_two_ends(fonts) -> None:
    red_to_blue = Gradient("linear", (0xFFFF0000, 0xFF0000FF), angle=90.0)
    pixels = draw(fonts, Fill(Rect(10, 10, 80, 40), red_to_blue))
    assert close(pixels[30, 10], 0xFFFF0000) and close(pixels[30, 89], 0xFF0000FF)
    assert close(pixels[30, 50], 0xFF800080, 16)  # halfway: half of each
    down = draw(fonts, Fill(Rect(10, 10, 80, 40), Gradient("linear", (0xFF000000, 0xFFFFFFFF))))
    assert close(down[10, 50], 0xFF000000) and close(down[49, 50], 0xFFFFFFFF)  # 180: down


def test_radial_and_sweep_gradients_centre_where_asked(fonts) -> None:
    radial = Gradient("radial", (0xFF00FF00, 0xFF000000), center=(0.25, 0.5), radius=0.5)
    pixels = draw(fonts, Fill(Rect(0, 0, 100, 60), radial))
    assert close(pixels[30, 25], 0xFF00FF00) and close(pixels[30, 90], 0xFF000000, 20)
    sweep = Gradient("sweep", (0xFFFF0000, 0xFF0000FF), angle=0.0)
    turn = draw(fonts, Fill(Rect(0, 0, 100, 60), sweep))
    # from 12 o'clock clockwise: just right of the top is the first stop, left of it the last
    assert close(turn[2, 52], 0xFFFF0000, 30) and close(turn[2, 47], 0xFF0000FF, 30)


def test_patterns_repeat_their_motif(fonts) -> None:
    dots = Pattern("dots", 0xFF000000, 0xFFFFFF00, spacing=10.0, size=2.0)
    pixels = draw(fonts, Fill(Rect(0, 0, 100, 60), dots))
    assert close(pixels[5, 5], 0xFF000000) and close(pixels[25, 45], 0xFF000000)  # centres
    assert close(pixels[0, 0], 0xFFFFFF00)  # between dots: the background
    lines = Pattern("lines", 0xFF0000FF, None, spacing=10.0, size=2.0)
    rows = draw(fonts, Fill(Rect(0, 0, 100, 60), lines))
    assert close(rows[5, 30], 0xFF0000FF) and close(rows[0, 30], 0xFFFFFFFF)
    noise = Pattern("noise", 0xFF000000, None, spacing=1.5, size=0.5)
    grain = draw(fonts, Fill(Rect(0, 0, 100, 60), noise))
    assert grain.std() > 5 and grain.mean() < 250  # varied, and darker than the card


def test_a_segment_takes_a_paint_too(fonts) -> None:
    fade = Gradient("linear", (0xFFFF0000, 0xFF00FF00), angle=90.0)
    pixels = draw(fonts, Segment(0, 30, 100, 30, fade, 4.0))
    assert close(pixels[30, 1], 0xFFFF0000, 20) and close(pixels[30, 98], 0xFF00FF00, 20)


def test_a_shadow_darkens_pixels_outside_the_rect_only_where_it_falls(fonts) -> None:
    box = Fill(Rect(20, 10, 40, 30), 0xFFFFFFFF)
    pixels = draw(fonts, Layer((box,), (Shadow(6, 6, 4, 0x80000000),)))
    assert pixels[45, 66].max() < 240  # below-right of the rect: in the shadow
    assert pixels[4, 10].min() == 255  # above-left of it: untouched
    assert pixels[25, 40].min() == 255  # the rect itself stays on top
    hard = draw(fonts, Layer((box,), (Shadow(5, 5, 0, 0xFF000000),)))
    assert hard[42, 62].max() == 0 and hard[12, 62].min() == 255  # a hard offset copy


def test_glow_blur_grain_and_opacity(fonts) -> None:
    dot = Fill(Rect(40, 20, 20, 20), 0xFF0000FF)
    glow = draw(fonts, Layer((dot,), (Glow(10, 0xFFFF0000),)))
    assert glow[30, 36][0] > glow[30, 36][2] and glow[30, 36].min() < 250  # red halo
    blur = draw(fonts, Layer((dot,), (Blur(8),)))
    assert 0 < blur[30, 37].min() < 250 and blur[30, 50][2] > 150  # soft edge
    grain = draw(fonts, Layer((Fill(Rect(0, 0, 50, 60), 0xFF808080),), (Grain(0.5),)))
    assert grain[:, :50].std() > 3 and grain[:, 60:].min() == 255  # only where the layer is
    faint = draw(fonts, Layer((dot,), opacity=0.5))
    assert close(faint[30, 50], 0xFF7F7FFF, 2)


def test_grain_is_one_noise_tile_repeated_so_each_row_repeats_for_deflate(fonts) -> None:
    paper = Fill(Rect(0, 0, 200, 40), 0xFFF0E8D8)
    grain = draw(fonts, Layer((paper,), (Grain(0.3, 0.9),)), width=200, height=40, scale=2)
    tile = int(NOISE_TILE * 2)  # device pixels at scale 2
    first, second = grain[:, :tile], grain[:, tile : 2 * tile]
    assert first.std() > 2  # still grain, not a flat fill
    assert np.array_equal(first, second)  # the next tile along the row is the same bytes
    assert not np.array_equal(first[:, : tile // 2], first[:, tile // 2 :])  # not shorter


def test_a_rotated_layer_turns_about_its_pivot(fonts) -> None:
    bar = Fill(Rect(10, 28, 80, 4), 0xFF000000)
    pixels = draw(fonts, Layer((bar,), rotate=90.0, pivot=(50.0, 30.0)))
    assert pixels[30, 15].min() == 255 and pixels[12, 50].max() < 30  # now vertical


def test_malformed_theme_toml_is_a_decode_error_not_a_crash() -> None:
    with pytest.raises(ThemeError) as error:
        decode_theme(THEME + "[roles.card]\nbackground = { kind = \n")
    assert isinstance(error.value.__cause__, msgspec.DecodeError)
