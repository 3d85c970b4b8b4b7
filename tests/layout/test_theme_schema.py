"""The theme schema: one definition of each knob, theme files decoded into it, clear errors."""

from __future__ import annotations

import dataclasses

import pytest

from inkcard import layout
from inkcard.layout.style.resolver import resolve
from inkcard.layout.style.schema import BASE_ROLES, COLOR_KNOBS, KNOB_TYPES, Role, Style


def test_every_style_knob_is_an_optional_theme_field() -> None:
    names = [f.name for f in dataclasses.fields(Style)]
    assert list(Role.__struct_fields__) == names == list(KNOB_TYPES)
    assert all(getattr(Role(), name) is None for name in names)
    assert {
        "color",
        "background",
        "bar_color",
        "border_color",
        "marker_color",
        "strong_color",
        "header_background",
        "header_color",
        "number_color",
        "number_background",
        "outline_color",
        "stripe_background",
        "underline_color",
        "outer_background",
    } == COLOR_KNOBS


def test_the_base_model_is_spelled_in_the_theme_schema() -> None:
    assert BASE_ROLES["h1"] == Role(
        weight=600, line_height=1.25, margin_top=16.0, margin_bottom=0.0, size=24.0
    )
    assert BASE_ROLES["quote"].padding == (10.0, 20.0, 10.0, 20.0)


def test_a_theme_overrides_only_what_it_names() -> None:
    theme = layout.decode_theme('name = "t"\n[roles.h1]\nsize = 30\ncolor = "#fff"\n')
    h1 = resolve(theme, None)["h1"]
    assert (h1.size, h1.weight, h1.line_height, h1.color) == (30.0, 600, 1.25, 0xFFFFFFFF)
    body = resolve(theme, None)["body"]
    assert (body.size, body.color, body.padding) == (16.0, 0xFF24292E, (0.0, 0.0, 0.0, 0.0))


def test_apple_notes_resolves_as_its_file_says(apple_notes: layout.Theme) -> None:
    dark = resolve(apple_notes, "dark-mode")
    assert dark["card"].header_height == 40.0 and dark["card"].background == 0xFF1C1C1E
    assert dark["task"].marker_size == 20.0 and dark["task"].marker_color == 0xFFFFD60A
    assert dark["quote"].padding == (6.0, 0.0, 6.0, 16.0)
    assert dark["h3"].size == 16.0 and dark["h2"].size == 20.0
    assert dark.inline["inline_code"]["padding"] == (2.0, 4.0, 2.0, 4.0)


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('name = "t"\n[roles.h1]\nsise = 3\n', "unknown field `sise`"),
        ('name = "t"\n[roles.h1]\nsize = "big"\n', "Expected `float | null`, got `str`"),
        ('name = "t"\n[roles.h1]\nalign = "middle"\n', "Invalid enum value 'middle'"),
        ('name = "t"\n[roles.h9]\nsize = 3\n', "t: unknown roles ['h9']"),
        ('name = "t"\n[roles.h1]\ncolor = "nope"\n', "t (no mode): unknown colour or palette"),
        ('name = "t"\nsurprise = 1\n', "unknown field `surprise`"),
        ("name = ", "card theme: "),
    ],
)
def test_bad_theme_files_raise_theme_error(toml: str, message: str) -> None:
    with pytest.raises(layout.ThemeError) as error:
        layout.decode_theme(toml)
    assert message in str(error.value)


def test_a_theme_chooses_how_cjk_italics_are_set() -> None:
    """Kai by default (clreq); a theme may ask for the slant or for upright CJK instead."""
    theme = layout.decode_theme('name = "t"\n[roles.quote]\ncjk_italic = "oblique"\n')
    styles = resolve(theme, None)
    assert styles["quote"].cjk_italic == "oblique"
    assert styles["body"].cjk_italic == "kai"
    with pytest.raises(layout.ThemeError, match="cjk_italic"):
        layout.decode_theme('name = "t"\n[roles.quote]\ncjk_italic = "slanted"\n')
