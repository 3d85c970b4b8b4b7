"""Custom themes: the CSS subset's translation, the folder loader and `inkcard themes check`.

The stylesheets are in tests/cases/custom-themes/; the HTTP side is in
tests/app/test_custom_themes_api.py.
"""

from __future__ import annotations

import logging
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from inkcard import layout, themes
from inkcard.app.cli import main
from inkcard.layout.style.resolver import resolve
from inkcard.layout.style.schema import BASE_COLORS, DARK_CODE
from inkcard.themes import css
from inkcard.themes.custom import read_theme_file
from tests.conftest import CORPUS

CASES = CORPUS / "custom-themes"


def knobs(source: str, role: str) -> dict[str, Any]:
    """The knobs a stylesheet sets on one role."""
    role_knobs = css.translate(source).theme.roles[role]
    return {f: v for f in role_knobs.__struct_fields__ if (v := getattr(role_knobs, f)) is not None}


def notes(source: str) -> list[str]:
    return [str(note) for note in css.translate(source).notes]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("red", "#ff0000"),
        ("RebeccaPurple", "#663399"),
        ("transparent", "#00000000"),
        ("#abc", "#aabbcc"),
        ("#abcd", "#aabbccdd"),
        ("#A1B2C3", "#a1b2c3"),
        ("#a1b2c380", "#a1b2c380"),
        ("rgb(255, 128, 0)", "#ff8000"),
        ("rgb(255 128 0)", "#ff8000"),
        ("rgba(255, 128, 0, 0.5)", "#ff800080"),
        ("rgb(255 128 0 / 50%)", "#ff800080"),
        ("rgb(100%, 0%, 0%)", "#ff0000"),
        ("hsl(120, 100%, 25%)", "#008000"),
        ("hsl(120deg 100% 25%)", "#008000"),
        ("hsla(240, 100%, 50%, .25)", "#0000ff40"),
        ("hsl(240 100% 50% / 0.25)", "#0000ff40"),
    ],
)
def test_colour_syntaxes(value: str, expected: str) -> None:
    # on a rule's line, not text: a pale or clear text colour would be refused as unreadable
    assert knobs(f".t hr {{ color: {value}; }}", "hr")["color"] == expected


@pytest.mark.parametrize("value", ["blurple", "#12", "rgb(1, 2)", "currentColor", "12px"])
def test_a_colour_we_cannot_read_is_reported_not_fatal(value: str) -> None:
    result = css.translate(f".t h1 {{ color: {value}; font-size: 30px; }}")
    assert result.theme.roles["h1"].color is None
    assert result.theme.roles["h1"].size == 30.0
    assert [note.line for note in result.notes] == [1]
    assert "color" in str(result.notes[0])


def test_the_class_rule_styles_the_card_and_hands_text_to_the_body() -> None:
    source = """.t {
      background-color: #fafafa; padding: 10px 20px; color: #111;
      font-family: Georgia, serif; font-size: 15px; line-height: 24px;
    }"""
    assert knobs(source, "card") == {"background": "#fafafa", "padding": (10.0, 20.0, 10.0, 20.0)}
    assert knobs(source, "body") == {
        "family": "serif-cjk",
        "color": "#111111",
        "size": 15.0,
        "line_height": 1.6,  # 24px over the body's own 15px
    }
    assert css.translate(source).theme.name == "t"


@pytest.mark.parametrize(
    ("selector", "role"),
    [
        ("h3", "h3"),
        ("p", "body"),
        ("b", "strong"),
        ("em", "em"),
        ("a", "link"),
        ("blockquote", "quote"),
        ("code", "inline_code"),
        ("pre code", "code_block"),
        ("> pre", "code_block"),
        ("li", "list"),
        ("td", "table"),
        ("hr", "hr"),
    ],
)
def test_element_selectors_name_roles(selector: str, role: str) -> None:
    assert knobs(f".t {selector} {{ color: #123456; }}", role) == {"color": "#123456"}


def test_selector_lists_style_each_role() -> None:
    source = ".t h1, .t h2 { font-weight: bold; font-style: italic; }"
    assert knobs(source, "h1") == knobs(source, "h2") == {"weight": 700, "italic": True}


def test_sizes_in_px_em_rem_and_percent() -> None:
    source = ".t h1 { font-size: 2em; } .t h2 { font-size: 1.5rem; } .t h3 { font-size: 125%; }"
    sizes = [knobs(source, h)["size"] for h in ("h1", "h2", "h3")]
    assert sizes == [32.0, 24.0, 20.0]


def test_gradients_become_paints() -> None:
    source = """.t { background: linear-gradient(to right, pink, #ccf 75%, white); }
      .t pre { background: radial-gradient(circle at 25% top, #000, #333); }
      .t blockquote { background: linear-gradient(45deg, pink, lavender); }"""
    card = knobs(source, "card")["background"]
    assert (card.angle, card.stops, card.positions) == (
        90.0,
        ["#ffc0cb", "#ccccff", "#ffffff"],
        [0.0, 0.75, 1.0],
    )
    code = knobs(source, "code_block")["background"]
    assert (code.center, code.stops) == ((0.25, 0.0), ["#000000", "#333333"])
    assert knobs(source, "quote")["background"].angle == 45.0


def test_borders_shadows_and_radii() -> None:
    source = """.t blockquote { border-left: 5px solid #f59e0b; border-radius: 8px;
        box-shadow: 2px 4px 10px rgba(0,0,0,.3); }
      .t td { border: 2px solid #ccc; }
      .t hr { border: none; border-top: 3px dashed #999; }"""
    quote = knobs(source, "quote")
    assert (quote["bar_width"], quote["bar_color"], quote["radius"]) == (5.0, "#f59e0b", 8.0)
    shadow = quote["effects"][0]
    assert (shadow.dx, shadow.dy, shadow.blur, shadow.color) == (2.0, 4.0, 10.0, "#0000004c")
    assert knobs(source, "table") == {
        "border_width": 2.0,
        "border_color": "#cccccc",
        "grid": "full",
    }, "a td's border boxes every cell, as in a browser"
    assert knobs(source, "hr") == {
        "border_width": 3.0,
        "border_color": "#999999",
        "dash": (9.0, 6.0),
    }


def test_padding_sides_lay_over_the_base_model() -> None:
    source = ".t pre { padding-top: 4px; padding-left: 30px; } .t ul { padding-left: 36px; }"
    assert knobs(source, "code_block")["padding"] == (4.0, 16.0, 16.0, 30.0)
    assert knobs(source, "list") == {"indent": 36.0}


def test_font_families_map_onto_our_families() -> None:
    families = tomllib.loads((Path(layout.DEFAULT_FONTS_DIR) / "families.toml").read_text())
    assert set(css.FAMILIES.values()) <= set(families["families"])
    source = """.t h1 { font-family: "Some Unknown Face", KaiTi, serif; }
      .t h2 { font-family: "Courier New", monospace; }
      .t h3 { font-family: "Nobody Has This"; }"""
    assert knobs(source, "h1")["family"] == "kai"
    assert knobs(source, "h2")["family"] == "typewriter"
    assert "font-family" in notes(source)[0]


def test_letter_spacing_follows_the_engine() -> None:
    """Mapped when Style has the knob, reported as unsupported while it does not."""
    source = ".t h1 { letter-spacing: 2px; }"
    if "letter_spacing" in layout.style.schema.KNOB_TYPES:
        assert knobs(source, "h1") == {"letter_spacing": 2.0}
    else:
        assert notes(source) == [
            "line 1: letter-spacing has no effect on h1 (no letter_spacing knob)"
        ]


def test_unsupported_things_are_listed_once_with_their_lines() -> None:
    source = """.t h1 { text-shadow: 0 0 2px red; color: red; }
.t h1::after { content: "x"; }
.other p { color: red; }
@import url(x.css);
.t h2 { border: 1px solid red; }
.t img { margin-left: 4px; }"""
    assert notes(source) == [
        "line 1: text-shadow (h1) is not supported",
        "line 2: selector '.t h1::after': no role for 'h1::after'",
        "line 3: selector '.other p' names another class than .t; ignored",
        "line 4: @import rules are not supported",
        "line 5: border has no effect on h2 (no border_width knob)",
        "line 5: border has no effect on h2 (no border_color knob)",
        "line 6: margin-left (image) is not supported",
    ]


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("h1 { color: red; }", "no `.<class-name>` rule"),
        (".t { color: red; } }", "CSS syntax error"),
        (".t { color: red; ( }", "CSS syntax error"),
    ],
)
def test_a_broken_stylesheet_is_an_error_naming_the_source(source: str, reason: str) -> None:
    with pytest.raises(layout.ThemeError, match=reason) as error:
        css.translate(source, "mine.css")
    assert str(error.value).startswith("mine.css: ")


def test_a_dark_code_panel_gets_light_token_colours() -> None:
    dark = css.translate(".t pre { background: #0b1021; }").theme
    light = css.translate(".t pre { background: #f8f8f8; }").theme
    assert resolve(dark, None).tokens["code_string"] == DARK_CODE["code_string"]
    assert resolve(light, None).tokens["code_string"] == BASE_COLORS["code_string"]


def test_a_css_theme_renders(fonts: layout.FontBook) -> None:
    theme = read_theme_file(CASES / "ocean.css").theme
    options = layout.RenderOptions(width=300, height=300, scale=1)
    [png] = layout.render("# Hi\n\n> quoted\n\n```\nx = 1\n```", theme, fonts, options)
    assert png.startswith(b"\x89PNG")


# --- the folder ---------------------------------------------------------------------------


def test_broken_files_are_skipped_and_logged_and_the_builtins_stay(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    for path in CASES.glob("*"):
        shutil.copy(path, tmp_path)
    caplog.set_level(logging.INFO, logger="inkcard.themes")
    catalogue = themes.builtin().with_custom(tmp_path)
    assert set(themes.names()) <= set(catalogue.names())
    assert {"ocean", "plum"} <= set(catalogue.custom)
    assert not {n for n in catalogue.names() if n.startswith("broken")}
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    for name in ("broken-syntax.css", "broken-no-class.css", "broken-typo.toml"):
        assert any(name in message for message in errors), name
    assert any("broken-not-toml.toml" in message for message in errors)
    [unsupported] = [
        m for r in caplog.records if "ocean" in (m := r.getMessage()) and "unsupp" in m
    ]
    assert "ocean" in unsupported and "line 46" in unsupported
    assert "line 13" not in unsupported  # letter-spacing maps onto the letter_spacing knob


def test_a_custom_theme_replaces_the_builtin_of_its_name(tmp_path: Path) -> None:
    shutil.copy(CASES / "apple-notes.css", tmp_path)
    catalogue = themes.builtin().with_custom(tmp_path)
    assert catalogue.get("apple-notes") is not themes.load("apple-notes")
    assert catalogue.modes("apple-notes") == []
    assert catalogue.fingerprint("apple-notes") != themes.builtin().fingerprint("apple-notes")
    assert themes.load("apple-notes").modes == ["light-mode", "dark-mode"], "builtin untouched"


def test_two_files_of_one_name_keep_the_first(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "a.css").write_text(".same { color: red; }")
    (tmp_path / "b.css").write_text(".same { color: blue; }")
    catalogue = themes.builtin().with_custom(tmp_path)
    assert catalogue.custom["same"].path.name == "a.css"
    assert "already defined" in caplog.text


def test_a_missing_folder_loads_only_the_builtins(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    catalogue = themes.builtin().with_custom(tmp_path / "nowhere")
    assert catalogue.names() == themes.names()
    assert "not a folder" in caplog.text


# --- inkcard themes check -----------------------------------------------------------------


def test_themes_check_prints_the_theme_its_knobs_and_what_it_ignores(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["themes", "check", str(CASES / "ocean.css")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"theme ocean: css file {CASES / 'ocean.css'}"
    assert '  h1: {"family":"sans","size":28.0,"weight":800,"color":"#085f87",' in "\n".join(out)
    assert '"letter_spacing":0.5' in "\n".join(out)
    assert '"bar_color":"#67e8f9","bar_side":"bottom"' in "\n".join(out), "h2 border-bottom"
    assert "unsupported, ignored: 3" in out
    assert "  line 46: @media rules are not supported" in out


def test_themes_check_names_an_override(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["themes", "check", str(CASES / "apple-notes.css")]) == 0
    assert "(replaces the built-in theme)" in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize(
    "name", ["broken-syntax.css", "broken-no-class.css", "broken-typo.toml", "missing.css"]
)
def test_themes_check_fails_on_a_broken_file(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["themes", "check", str(CASES / name)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("broken, would be skipped: ") and name in out
