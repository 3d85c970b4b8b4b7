"""Colours and theme files: every accepted colour form to its exact ARGB int, and every
kind of mistake in a `card.toml` to an error that names what is wrong."""

from __future__ import annotations

import msgspec
import pytest

from inkcard.layout.style.paint import parse_color
from inkcard.layout.style.resolver import resolve
from inkcard.layout.style.schema import BASE_COLORS
from inkcard.layout.style.theme import ThemeError, decode_theme

COLOURS = [
    ("#abc", 0xFFAABBCC),
    ("#ABC", 0xFFAABBCC),
    ("#a1b2c3", 0xFFA1B2C3),
    ("#A1B2C380", 0x80A1B2C3),
    ("#00000000", 0x00000000),
    ("  #fff\t", 0xFFFFFFFF),
    ("rgb(1,2,3)", 0xFF010203),
    ("rgb( 255 , 128 , 0 )", 0xFFFF8000),
    ("rgb(1.6,0,0)", 0xFF020000),  # channels round
    ("rgb(300,0,0)", 0xFFFF0000),  # and clamp at 255
    ("rgba(255,0,0,.5)", 0x80FF0000),  # alpha 0.5 * 255 = 127.5 rounds to 128
    ("rgba(248,206,64,.2)", 0x33F8CE40),
    ("rgba(0,0,0,0)", 0x00000000),
    ("rgba(0,0,0,1)", 0xFF000000),
    ("rgba(0,0,0,7)", 0xFF000000),  # alpha clamps at 1
    ("rgb(0,0,0,.5)", 0x80000000),  # one pattern serves both names
]


@pytest.mark.parametrize(("text", "argb"), COLOURS)
def test_colour_literals(text: str, argb: int) -> None:
    assert parse_color(text) == argb


@pytest.mark.parametrize(
    ("token", "argb"),
    [("text", 0xFF24292E), ("highlight", 0xFFF8CE40), ("placeholder_bg", 0x1F7F7F7F)],
)
def test_base_palette_tokens(token: str, argb: int) -> None:
    assert parse_color(token, BASE_COLORS) == argb


def test_tokens_may_name_tokens() -> None:
    palette = {"accent": "brand", "brand": "second", "second": "#102030"}
    assert parse_color("accent", palette) == 0xFF102030


BAD_COLOURS = ["", "#", "#12", "#1234", "#12345", "#1234567", "#ggg", "red", "rgb(1,2)"]
BAD_COLOURS += ["rgb(-1,0,0)", "rgb(a,b,c)", "rgba(1,2,3,4,5)", "hsl(0,0%,0%)", "#abc;"]


@pytest.mark.parametrize("text", BAD_COLOURS)
def test_malformed_colours_are_theme_errors_naming_the_value(text: str) -> None:
    with pytest.raises(ThemeError, match="unknown colour or palette token") as error:
        parse_color(text, BASE_COLORS)
    assert repr(text.strip()) in str(error.value)


@pytest.mark.parametrize("text", ["rgb(1..2,0,0)", "rgba(0,0,0,.)"])
def test_malformed_numbers_in_rgb_are_theme_errors(text: str) -> None:
    with pytest.raises(ThemeError, match="colour"):
        parse_color(text)


def test_a_token_without_a_palette_is_unknown() -> None:
    with pytest.raises(ThemeError, match="'text'"):
        parse_color("text")


def test_a_token_cycle_ends_in_an_error() -> None:
    with pytest.raises(ThemeError, match="unknown colour or palette token"):
        parse_color("a", {"a": "b", "b": "a"})


THEME = 'name = "t"\nmodes = ["day", "night"]\n'


def test_palette_precedence_base_then_all_then_mode() -> None:
    theme = decode_theme(
        THEME + '[colors.all]\ntext = "#010101"\nlink = "#020202"\n'
        '[colors.night]\ntext = "#030303"\n'
        '[roles.h1]\ncolor = "link"\n[roles.body]\ncolor = "rgba(255,255,255,.5)"\n'
    )
    day, night = resolve(theme, "day"), resolve(theme, "night")
    assert (day.palette["text"], night.palette["text"]) == (0xFF010101, 0xFF030303)
    assert day.palette["muted"] == 0xFF6A737D  # untouched base token
    assert day["h1"].color == night["h1"].color == 0xFF020202
    assert day["body"].color == 0x80FFFFFF
    assert day["h2"].color == 0xFF010101  # no colour of its own: the mode's text
    assert resolve(theme, "dusk").palette["text"] == 0xFF010101  # unknown mode: the first


def test_inline_roles_keep_only_what_they_set() -> None:
    theme = decode_theme('name = "t"\n[roles.strong]\ncolor = "#ff0000"\nweight = 800\n')
    assert resolve(theme, None).inline["strong"] == {"weight": 800, "color": 0xFFFF0000}


def test_a_theme_is_resolved_once_per_content_and_mode() -> None:
    source = 'name = "kept"\nmodes = ["day", "night"]\n[colors.night]\ntext = "#030303"\n'
    first, again = decode_theme(source), decode_theme(source)  # equal, distinct objects
    day = resolve(first, "day")
    assert resolve(again, "day") is day
    assert resolve(first, "night") is not day
    assert resolve(first, "night").palette["text"] == 0xFF030303
    edited = decode_theme(source.replace("#030303", "#040404"))
    assert resolve(edited, "night").palette["text"] == 0xFF040404  # new content, new styles


THEME_ERRORS = [
    # (card.toml, error type, text the message must hold)
    ('name = "t"\n[roles.h7]\nsize = 3\n', ThemeError, "unknown roles ['h7']"),
    ('name = "t"\n[roles.h1]\ncolor = "nope"\n', ThemeError, "'nope'"),
    ('name = "t"\n[roles.quote]\nbar_color = "#12"\n', ThemeError, "'#12'"),
    ('name = "t"\n[colors.all]\ntext = "#zzz"\n', ThemeError, "'#zzz'"),
    (THEME + '[colors.night]\ntext = "dark"\n', ThemeError, "'dark'"),  # one mode only
    ('name = "t"\n[[decorations]]\nkind = "label"\ncolor = "ink"\n', ThemeError, "'ink'"),
    ('name = "t"\n[roles.h1]\nsiz = 3\n', msgspec.ValidationError, "unknown field `siz`"),
    ('nam = "t"\n', msgspec.ValidationError, "unknown field `nam`"),
    ("", msgspec.ValidationError, "missing required field `name`"),
    ('name = "t"\n[roles.h1]\nsize = "big"\n', msgspec.ValidationError, "got `str` - at `$"),
    ('name = "t"\n[roles.h1]\nweight = 1.5\n', msgspec.ValidationError, "got `float`"),
    ('name = "t"\n[roles.h1]\nalign = "middle"\n', msgspec.ValidationError, "'middle'"),
    ('name = "t"\n[roles.card]\npadding = [1, 2]\n', msgspec.ValidationError, "length 4, got 2"),
    ('name = "t"\n[colors.all]\ntext = 5\n', msgspec.ValidationError, "Expected `str`, got `int`"),
    ('name = "t"\nmodes = "day"\n', msgspec.ValidationError, "at `$.modes`"),
    (
        'name = "t"\n[[decorations]]\nkind = "sparkle"\n',
        msgspec.ValidationError,
        "'sparkle' - at `$.decorations[0].kind`",
    ),
    ('name = "t"\n[roles.h1\n', msgspec.DecodeError, "line 2"),
]


@pytest.mark.parametrize(("toml", "kind", "message"), THEME_ERRORS)
def test_theme_mistakes_are_refused_with_a_useful_message(toml, kind, message) -> None:
    """Every mistake is a ThemeError; `kind` is the decoder's error underneath, if any."""
    with pytest.raises(ThemeError) as error:
        decode_theme(toml)
    assert message in str(error.value)
    if kind is not ThemeError:
        assert isinstance(error.value.__cause__, kind)


def test_theme_errors_are_value_errors() -> None:
    """Callers catch one family: ThemeError and msgspec's errors are all ValueErrors."""
    assert issubclass(ThemeError, ValueError)
    assert issubclass(msgspec.ValidationError, ValueError)
    assert issubclass(msgspec.DecodeError, ValueError)
