"""CSS themes that behave like CSS: inheritance, `pre code`, the original service's markup
and modes, and each common construct drawn, on a theme ported as an operator would
(tests/cases/custom-themes/inkwell.css, its post inkwell.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from inkcard import layout
from inkcard.app.cli import main
from inkcard.layout.style.resolver import resolve
from inkcard.layout.style.schema import BASE_COLORS, DARK_CODE
from inkcard.layout.style.theme import decode_theme
from inkcard.themes import css
from inkcard.themes.contrast import code_contrast, text_contrast
from inkcard.themes.custom import read_theme_file
from tests import pngcodec
from tests.conftest import CORPUS

CASES = CORPUS / "custom-themes"
INKWELL = CASES / "inkwell.css"


def role(source: str, name: str) -> dict[str, Any]:
    knobs = css.translate(source).theme.roles.get(name)
    if knobs is None:
        return {}
    return {f: v for f in knobs.__struct_fields__ if (v := getattr(knobs, f)) is not None}


def test_the_cards_font_and_colour_inherit_unless_a_role_sets_its_own() -> None:
    source = """.t { font-family: Georgia, serif; color: #123456; }
        .t h2 { color: #ff0000; } .t p { color: #006400; }
        .t th { color: #ffffff; background: #334155; }"""
    for name in ("h1", "h3", "table", "list", "quote"):
        assert (role(source, name)["family"], role(source, name)["color"]) == (
            "serif-cjk",
            "#123456",
        ), name
    assert role(source, "h2")["color"] == "#ff0000"
    assert role(source, "body")["color"] == "#006400", "p styles the body, not the headings"


def test_pre_code_never_erases_the_pre_panel() -> None:
    source = """.t pre { background: #1e1b2e; padding: 12px; }
        .t pre code { background: transparent; padding: 0; font-size: 13px; color: #eeeeee; }"""
    code = role(source, "code_block")
    assert code["background"] == "#1e1b2e" and code["padding"] == (12.0, 12.0, 12.0, 12.0)
    assert (code["size"], code["color"]) == (13.0, "#eeeeee")
    assert css.translate(source).notes == ()
    [note] = css.translate(".t pre code { background: #ff0000; }").notes
    assert "pre code" in note.text and "code_block box" in note.text


def test_blockquote_p_margins_do_not_move_the_quote() -> None:
    assert role(".t blockquote p { margin: 0; color: #333333; }", "quote") == {"color": "#333333"}


def test_every_construct_of_the_ported_theme_maps_onto_a_knob() -> None:
    translation = read_theme_file(INKWELL)
    theme = translation.theme
    knobs = {name: role(INKWELL.read_text(), name) for name in theme.roles}
    assert translation.name == "card-inkwell" and theme.modes == ["light-mode", "dark-mode"]
    h1, h2 = knobs["h1"], knobs["h2"]
    assert (h1["bar_side"], h1["bar_width"], h1["bar_color"]) == ("bottom", 3.0, "#c2410c")
    assert h1["size"] == 26.0, ".card-content-inner h1 is an h1"
    assert (h2["bar_side"], h2["bar_width"], h2["radius"]) == ("left", 5.0, 6.0)
    assert h2["padding"] == (4.0, 12.0, 4.0, 12.0) and h2["background"] == "h2_background"
    assert knobs["strong"]["background_height"] == 0.4
    assert (knobs["link"]["underline"], knobs["link"]["underline_color"]) == ("dashed", "#93c5fd")
    assert knobs["table"]["radius"] == 10.0
    assert knobs["table"]["stripe_background"] == "table_stripe_background"
    assert type(knobs["hr"]["border_color"]).__name__ == "Linear"
    assert knobs["list"]["marker_color"] == "#c2410c"
    assert (knobs["image"]["border_width"], knobs["image"]["border_color"]) == (3.0, "#c2410c")
    assert knobs["page_number"]["color"] == "#c2410c", ".card-footer .page"
    assert [n.line for n in translation.notes] == [53], "only h3::after is left"
    dark = resolve(theme, "dark-mode").tokens
    assert (dark["card_background"], dark["card_body_color"]) == ("#1c1a22", "#e7e5e4")
    assert resolve(theme, "light-mode").tokens["card_background"] == "#fbfaf7"


def test_a_highlighter_gradient_is_a_marker_stroke_other_gradients_stay_gradients() -> None:
    stroke = ".t strong { background: linear-gradient(transparent 60%, #fcd34d 60%); }"
    assert role(stroke, "strong") == {"background": "#fcd34d", "background_height": 0.4}
    fade = ".t strong { background: linear-gradient(90deg, #fcd34d, #f472b6); }"
    assert type(role(fade, "strong")["background"]).__name__ == "Linear"


def test_a_mode_changes_colours_only_and_says_so() -> None:
    translation = css.translate(".t { padding: 4px; } .t.dark-mode { padding: 8px; }")
    why, refused = translation.notes
    assert why.line == 1 and "a mode changes colours only" in why.text
    assert ".dark-mode is left out whole" in refused.text
    assert translation.theme.modes == ["light-mode"], "never half a mode"


@pytest.mark.parametrize("theme_file", ["toml", "css"])
def test_a_dark_code_panel_picks_the_dark_token_palette(theme_file: str) -> None:
    if theme_file == "toml":
        theme = decode_theme('name = "n"\n[roles.code_block]\nbackground = "#0b1021"\n')
    else:
        theme = css.translate(".n pre { background: #0b1021; }").theme
    tokens = resolve(theme, None).tokens
    assert tokens["code_string"] == DARK_CODE["code_string"] != BASE_COLORS["code_string"]
    assert code_contrast(theme) == []


def test_themes_check_reports_code_colours_a_theme_chose_badly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "navy.toml"
    path.write_text(
        'name = "navy"\n[colors.all]\ncode_string = "#032f62"\n'
        '[roles.code_block]\nbackground = "#0b1021"\ncolor = "#e6edf3"\n'
    )
    assert main(["themes", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "code_string #032f62 on the code panel: contrast" in out


def test_themes_check_gives_each_ignored_line_and_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.css"
    path.write_text(".t { color: #111; }\n.t h1 { color: bogus; }\n.t h3::after { x: 1; }\n")
    assert main(["themes", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "line 2: color: 'bogus' is not a colour we can use" in out
    assert "line 3: selector '.t h3::after'" in out


def colour_share(pixels: np.ndarray, hex_colour: str) -> float:
    """The share of the card's pixels within a few levels of the colour."""
    target = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)])
    near = np.abs(pixels[..., :3].astype(int) - target).max(axis=-1) <= 3
    return float(near.mean())


@pytest.mark.parametrize(
    ("mode", "colours"),
    [
        ("light-mode", ["#fbfaf7", "#fde7d9", "#1e1b2e", "#fcd34d", "#c2410c", "#f3f0ea"]),
        ("dark-mode", ["#1c1a22", "#3b2a22", "#9a3412", "#2a2733"]),
    ],
)
def test_the_ported_theme_draws_each_construct(
    fonts: layout.FontBook, mode: str, colours: list[str]
) -> None:
    theme = read_theme_file(INKWELL).theme
    options = layout.RenderOptions(width=440, height=586, scale=1, split="autoSplit", mode=mode)
    post = (CASES / "inkwell.md").read_text("utf-8")
    first, second = (pngcodec.decode(png) for png in layout.render(post, theme, fonts, options))
    for colour in colours:  # card, h2 box, code panel, marker stroke, bars, quote panel
        assert colour_share(first, colour) > 0.0005, colour
    if mode == "light-mode":
        assert colour_share(second, "#f5f0e8") > 0.01, "zebra rows"
        assert colour_share(second, "#c2410c") > 0.01, "the header row"


@pytest.mark.parametrize(
    ("style", "dash"), [("dashed", (6.0, 4.0)), ("dotted", (0.0, 4.0)), ("solid", None)]
)
def test_a_dashed_or_dotted_hr_keeps_its_dashes(
    style: str, dash: tuple[float, float] | None
) -> None:
    source = f".t hr {{ border: none; border-top: 2px {style} #999999; }}"
    knobs = role(source, "hr")
    assert knobs["border_width"] == 2.0
    assert (tuple(knobs["dash"]) if "dash" in knobs else None) == dash


AURORA = CASES / "aurora.css"


def test_a_rounded_shadowed_card_is_inset_on_its_page() -> None:
    """As a browser shows `.card { border-radius; box-shadow }` on its page (md2card's
    export too): inset by the shadow's offset plus its blur, on `body`'s background."""
    source = """body { background: #e8ecf3; }
      .card { border-radius: 16px; box-shadow: 0 8px 24px rgba(0,0,0,.15); }"""
    card = role(source, "card")
    assert (card["radius"], card["inset"], card["outer_background"]) == (16.0, 32.0, "#e8ecf3")
    assert css.translate(source).notes == ()
    assert role(".card { border-radius: 12px; }", "card")["inset"] == 16.0, "a page to show on"
    assert role(".card { margin: 40px; box-shadow: 0 2px 4px #0003; }", "card")["inset"] == 40.0
    assert role(".card { margin: 4px; box-shadow: 0 2px 30px #0003; }", "card")["inset"] == 32.0
    assert "inset" not in role(".card { background: #ffffff; }", "card")


def test_the_md2card_style_card_is_drawn_rounded_with_its_shadow_on_its_page(
    fonts: layout.FontBook,
) -> None:
    theme = read_theme_file(AURORA).theme
    options = layout.RenderOptions(width=440, height=586, scale=1, mode="light-mode")
    post = (CASES / "aurora.md").read_text("utf-8")
    [pixels] = (pngcodec.decode(png) for png in layout.render(post, theme, fonts, options))
    height = pixels.shape[0]
    assert colour_share(pixels[:20], "#e8ecf3") > 0.9, "body's background around the card"
    assert pixels[33, 100, :3].min() >= 250, "the card's (white) top edge, 32 px in"
    assert pixels[33, 33, :3].max() < 245, "its corner, rounded off"
    below = pixels[height - 30 : height - 26, 200:240, :3].astype(int).mean()
    above = pixels[26:30, 200:240, :3].astype(int).mean()
    assert below < above - 8, "the shadow falls below the card"


@pytest.mark.parametrize(
    ("rules", "grid"),
    [
        ("td { border: 1px solid #ccc; }", "full"),
        ("th, td { border: 1px solid #ccc; }", "full"),
        ("td { border-left: 1px solid #ccc; }", "full"),
        ("td { border-right: 1px solid #ccc; }", "full"),
        ("td { border-bottom: 1px solid #ccc; }", "rows"),
        ("td { border: 1px solid #ccc; border-left: none; border-right: none; }", "rows"),
        ("td { border: none; }", "none"),
        ("table { border-radius: 8px; }", None),
    ],
)
def test_cell_borders_draw_the_sides_a_browser_draws(rules: str, grid: str | None) -> None:
    source = ".t " + rules.replace(", td", ", .t td")
    knobs = role(source, "table")
    assert knobs.get("grid") == grid
    assert css.translate(source).notes == ()


def test_boxed_cells_in_a_rounded_table_are_outlined_round_it() -> None:
    knobs = role(".t table { border-radius: 8px; } .t td { border: 2px solid #ccc; }", "table")
    assert (knobs["grid"], knobs["radius"], knobs["outline_width"]) == ("full", 8.0, 2.0)
    assert "outline_width" not in role(".t td { border: 2px solid #ccc; }", "table")


def test_bordered_cells_are_drawn_with_vertical_rules(fonts: layout.FontBook) -> None:
    theme = css.translate(".t td { border: 2px solid #ff0000; }").theme
    options = layout.RenderOptions(width=440, height=300, scale=1)
    post = "| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n| 4 | 5 | 6 |\n"
    [pixels] = (pngcodec.decode(png) for png in layout.render(post, theme, fonts, options))
    red = np.abs(pixels[..., :3].astype(int) - [255, 0, 0]).max(axis=-1) <= 8
    columns = np.flatnonzero(red.sum(axis=0) > 60)  # lines running down the table
    edges = np.split(columns, np.flatnonzero(np.diff(columns) > 1) + 1)
    assert len(edges) == 4, "both edges and the two rules between three columns"


def test_a_mode_gradient_applies_whole_as_colour_tokens() -> None:
    """md2card's dark mode: a gradient card under pale text; both apply, or neither."""
    theme = css.translate(AURORA.read_text()).theme
    assert theme.modes == ["light-mode", "dark-mode"]
    dark, light = resolve(theme, "dark-mode"), resolve(theme, "light-mode")
    assert dark["card"].background.colors == (0xFF1E1B4B, 0xFF312E81)  # type: ignore[union-attr]
    assert light["card"].background.colors == (0xFFFFFFFF, 0xFFEEF2FF)  # type: ignore[union-attr]
    assert (dark["body"].color, light["body"].color) == (0xFFE0E7FF, 0xFF1F2937)


@pytest.mark.parametrize(
    ("base", "mode", "stops"),
    [
        ("#ffffff", "linear-gradient(90deg, #111111, #222222)", (0xFF111111, 0xFF222222)),
        ("linear-gradient(90deg, #eeeeee, #ffffff)", "#111111", (0xFF111111, 0xFF111111)),
        (
            "linear-gradient(90deg, #eeeeee, #ffffff)",
            "linear-gradient(90deg, #111111, #ffffff)",
            (0xFF111111, 0xFFFFFFFF),
        ),
    ],
)
def test_a_colour_and_a_gradient_meet_in_a_mode(
    base: str, mode: str, stops: tuple[int, ...]
) -> None:
    source = f""".t {{ background: {base}; }}
        .t.dark-mode {{ background: {mode}; color: #eee; }}
        .t.dark-mode code {{ background: #333333; }} .t.dark-mode a {{ color: #dbeafe; }}
        .t.dark-mode .card-footer .page {{ color: #cccccc; }}"""
    theme = css.translate(source).theme
    assert theme.modes == ["light-mode", "dark-mode"]
    assert resolve(theme, "dark-mode")["card"].background.colors == stops  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "mode",
    [
        "background: linear-gradient(45deg, #111111, #222222)",  # another angle
        "background: linear-gradient(90deg, #111111, #222222, #333333)",  # another count
        "background: url(night.png)",  # not read at all
        "padding: 8px",  # not a colour
    ],
)
def test_a_mode_that_cannot_apply_whole_is_left_out_whole(mode: str) -> None:
    source = (
        ".t { background: linear-gradient(90deg, #f8f8f8, #ffffff); color: #222222; }\n"
        f".t.dark-mode {{ {mode}; color: #eeeeee; }}\n"
        ".t.dark-mode h1 { color: #ffffff; }"
    )
    translation = css.translate(source)
    assert translation.theme.modes == ["light-mode"]
    assert "#eeeeee" not in str(translation.theme.colors), "not its text colour either"
    assert ".dark-mode is left out whole" in translation.notes[-1].text


def test_text_that_cannot_be_read_on_its_background_is_refused_naming_its_rule() -> None:
    with pytest.raises(layout.ThemeError, match="text that cannot be read") as error:
        css.translate(".t { background: #eef2ff; color: #e0e7ff; }", "pale.css")
    assert str(error.value).startswith("pale.css: ")
    assert ".t (or .t p): text #e0e7ff on the card #eef2ff: contrast 1.1:1" in str(error.value)
    with pytest.raises(layout.ThemeError, match=r"\.t h2: text #333333 on its panel #222222"):
        css.translate(".t h2 { background: #222222; color: #333333; }")
    marker = ".t { color: #eeeeee; background: #111111; } .t strong { background: #fde68a; }"
    with pytest.raises(layout.ThemeError, match=r"\.t strong: text #eeeeee on its background"):
        css.translate(marker)


def test_a_mode_whose_text_cannot_be_read_is_left_out_whole_naming_its_rule() -> None:
    """The issue's card: a pale gradient in a dark mode, under the mode's pale text."""
    source = """.t { background: #ffffff; color: #1f2937; }
.t.dark-mode { background: linear-gradient(135deg, #fdf2f8, #e0e7ff); color: #f3f4f6; }"""
    translation = css.translate(source)
    assert translation.theme.modes == ["light-mode"]
    assert "dark-mode" not in translation.theme.colors
    [note] = translation.notes
    assert note.line == 2 and ".dark-mode is left out whole: text that cannot" in note.text
    assert ".t.dark-mode (or .t.dark-mode p): text #f3f4f6 on the card" in note.text


def test_themes_check_refuses_unreadable_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "pale.css"
    path.write_text(".pale { background: #f3f4f6; } .pale h1 { color: #e5e7eb; }\n")
    assert main(["themes", "check", str(path)]) == 1
    assert ".pale h1: text #e5e7eb on the card #f3f4f6" in capsys.readouterr().out


def test_a_dark_sheet_without_a_code_rule_gets_a_readable_code_chip() -> None:
    """White text on a dark card, no rule for `code`: the chip is the text colour at 12 %
    over the card (a browser's translucent chip), not the base model's opaque #eaecef,
    under which the white code text was 1.2:1 and the sheet was refused."""
    theme = css.translate(".card-night { background: #123456; color: #ffffff; }").theme
    assert theme.roles["inline_code"].background == "#ffffff1f"
    assert text_contrast(theme) == []
    light = css.translate(".card-day { color: #333333; }").theme
    assert light.roles["inline_code"].background == "#3333331f"
    own = css.translate(
        ".card-own { color: #fff; background: #000 } .card-own code { background: #222 }"
    )
    assert own.theme.roles["inline_code"].background == "#222222"
