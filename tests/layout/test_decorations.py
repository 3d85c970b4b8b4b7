"""Decorations: every kind decoded from a theme file, built into items at its anchor, and
drawn; bad kinds, fields, paths and colours refused at load with the field named."""

from __future__ import annotations

from pathlib import Path

import msgspec
import numpy as np
import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Cached, Fill, Group, Item, Layer, Rect, Segment, Shape, Stroke
from inkcard.layout.base.svgpath import PathError, parse_svg_path, transform
from inkcard.layout.draw import encode
from inkcard.layout.draw import painter as draw
from inkcard.layout.draw.painter import build_path
from inkcard.layout.draw.statics import clear_static_cache, static_cache_stats
from inkcard.layout.pages.cardface import static_layers
from inkcard.layout.pages.decor.decorate import Context, build
from inkcard.layout.style.decorations import Icon
from inkcard.layout.style.resolver import resolve
from inkcard.layout.style.theme import ThemeError, decode_theme

DEMO = Path(__file__).resolve().parents[1] / "cases" / "demo-theme.toml"
THEME = 'name = "t"\n[colors.all]\nink = "#112233"\n'
CARD = Rect(0.0, 0.0, 400.0, 300.0)


def decoration(toml: str):
    theme = decode_theme(THEME + "[[decorations]]\n" + toml)
    return theme.decorations[0], resolve(theme, None).tokens


def built(toml: str, fonts, frame: Rect = CARD, baselines: tuple[float, ...] = ()) -> list[Item]:
    deco, tokens = decoration(toml)
    return build(deco, Context(frame, tokens, fonts, baselines))


def flat(items: list[Item] | tuple[Item, ...]) -> list[Item]:
    out: list[Item] = []
    for item in items:
        out.extend(flat(item.items) if isinstance(item, Layer | Cached) else [item])
    return out


def test_rule_spans_the_frame_or_its_length(fonts) -> None:
    [line] = built('kind = "rule"\nx = 10\ny = 20\nwidth = 2\npaint = "ink"\n', fonts)
    assert line == Segment(10.0, 21.0, 390.0, 21.0, 0xFF112233, 2.0)
    [stitch] = built('kind = "rule"\nvertical = true\nx = 20\ndash = [5, 10]\n', fonts)
    assert isinstance(stitch, Segment) and (stitch.x1, stitch.y1, stitch.y2) == (20.5, 0, 300)
    assert stitch.dash == (5.0, 10.0)


def test_rect_by_anchor_or_inset_with_fill_stroke_and_effects(fonts) -> None:
    toml = 'kind = "rect"\nanchor = "bottom-right"\nx = 10\ny = 5\nwidth = 50\nheight = 20\n'
    fill, stroke = built(toml + 'fill = "ink"\nstroke = "#fff"\nradius = 4\n', fonts)
    assert fill == Fill(Rect(340.0, 275.0, 50.0, 20.0), 0xFF112233, 4.0)
    assert isinstance(stroke, Stroke) and stroke.rect == fill.rect
    [layer] = built(
        'kind = "rect"\ninset = [1, 2, 3, 4]\nfill = "ink"\nrotate = 5\nopacity = 0.5\n'
        'effects = [{ kind = "shadow", blur = 0, dx = 3, dy = 3 }]\n',
        fonts,
    )
    assert isinstance(layer, Layer) and (layer.rotate, layer.opacity) == (5.0, 0.5)
    assert layer.items[0] == Fill(Rect(4.0, 1.0, 394.0, 296.0), 0xFF112233)
    assert layer.pivot == (201.0, 149.0) and len(layer.effects) == 1


def test_circle_and_centre_anchors(fonts) -> None:
    [disc] = built('kind = "circle"\nanchor = "center"\nradius = 10\nfill = "ink"\n', fonts)
    assert disc == Shape((("O", 200.0, 150.0, 10.0),), None, 0xFF112233, 1.0)


def test_an_icon_path_parsed_from_svg_has_the_expected_bounds(fonts) -> None:
    square = 'kind = "icon"\npath = "M4 4 H20 V20 h-16 z"\nx = 100\ny = 50\nsize = 48\n'
    [icon] = built(square + 'stroke = "ink"\n', fonts)
    assert isinstance(icon, Shape) and icon.stroke == 0xFF112233 and icon.fill is None
    bounds = build_path(icon.ops).computeTightBounds()  # 24-unit box drawn 48 px wide
    assert (bounds.left(), bounds.top(), bounds.right(), bounds.bottom()) == (108, 58, 140, 90)


def test_svg_paths_relative_smooth_and_arcs() -> None:
    assert parse_svg_path("m1 2 3 4 l1-1z") == (
        ("M", 1.0, 2.0),
        ("L", 4.0, 6.0),
        ("L", 5.0, 5.0),
        ("Z",),
    )
    curve = parse_svg_path("M0 0 C1 2 3 2 4 0 S7 -2 8 0 Q9 1 10 0 T12 0")
    assert curve[2] == ("C", 5.0, -2.0, 7.0, -2.0, 8.0, 0.0)  # reflected control point
    assert curve[4] == ("Q", 11.0, -1.0, 12.0, 0.0)
    arc = parse_svg_path("M10 10 a5 5 0 1 0 10 0")
    assert arc[1] == ("A", 5.0, 5.0, 0.0, True, False, 20.0, 10.0)
    ring = build_path(
        transform(parse_svg_path("M22 12 A10 10 0 1 1 2 12 A10 10 0 1 1 22 12Z"), 0, 0, 1)
    )
    bounds = ring.computeTightBounds()
    assert [round(v, 3) for v in (bounds.left(), bounds.top(), bounds.right())] == [2, 2, 22]


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("L1 2", "must start with a move-to"),
        ("M1", "'M' needs 2 numbers"),
        ("M1 2 X3", "unexpected 'X'"),
        ("M1 2 Z 3", "a number where a command is expected"),
        ("", "must start with a move-to"),
    ],
)
def test_bad_svg_paths_are_refused(path: str, message: str) -> None:
    with pytest.raises(PathError, match=message):
        parse_svg_path(path)


def test_a_bad_icon_path_fails_at_load_with_its_field() -> None:
    with pytest.raises(ThemeError) as error:
        decoration('kind = "icon"\npath = "M1 2 Q3"\n')
    assert "'Q' needs 4 numbers" in str(error.value)
    assert "$.decorations[0]" in str(error.value)


def test_labels_quote_glyphs_and_stamps_lay_out_text(fonts) -> None:
    [label] = built('kind = "label"\ntext = "Hi"\nanchor = "top-right"\nx = 10\ny = 4\n', fonts)
    assert isinstance(label, Group) and label.dy == 4.0 and 300 < label.dx < 390
    [glyph] = built('kind = "quote-glyph"\nsize = 40\n', fonts)
    assert isinstance(glyph, Group) and glyph.items
    [seal] = built('kind = "stamp"\ntext = "福"\nsize = 40\nfill = "#a52a2a"\nrotate = 15\n', fonts)
    assert isinstance(seal, Layer) and seal.rotate == 15.0 and seal.pivot == (20.0, 20.0)
    fill, text = seal.items
    assert fill == Fill(Rect(0.0, 0.0, 40.0, 40.0), 0xFFA52A2A, 3.0)
    assert isinstance(text, Group) and text.items


def test_ruled_lines_sit_on_the_baselines_layout_reported(fonts) -> None:
    frame = Rect(20.0, 40.0, 360.0, 200.0)
    toml = 'kind = "ruled-lines"\npaint = "ink"\noffset = 2\n'
    lines = built(toml, fonts, frame, baselines=(60.0, 88.0, 400.0))
    assert [(s.x1, s.y1, s.x2) for s in lines if isinstance(s, Segment)] == [
        (20.0, 62.0, 380.0),
        (20.0, 90.0, 380.0),
    ]  # the baseline outside the frame gets no line
    paper = built(toml + "extend = true\n", fonts, frame, baselines=(60.0, 88.0))
    ys = [s.y1 for s in paper if isinstance(s, Segment)]
    assert ys[:3] == [62.0, 90.0, 118.0] and ys[-1] <= 240 and len(ys) == 7


def test_ruled_paper_draws_no_rule_between_the_lines_of_a_tight_block(fonts) -> None:
    # A heading wrapped at 18 px lines on 24 px paper: a rule 6 px under its first line
    # would run through the second line's letters; the second line keeps its rule. Lines of
    # one table row share a baseline and get one rule.
    frame = Rect(0.0, 0.0, 360.0, 200.0)
    toml = 'kind = "ruled-lines"\npaint = "ink"\noffset = 6\npitch = 24\n'
    lines = built(toml, fonts, frame, baselines=(40.0, 58.0, 82.0, 106.0, 106.0))
    assert [s.y1 for s in lines if isinstance(s, Segment)] == [64.0, 88.0, 112.0]
    paper = built(toml + "extend = true\n", fonts, frame)  # a card with no text: all paper
    assert [s.y1 for s in paper if isinstance(s, Segment)][:2] == [24.0, 48.0]


def test_ruled_paper_stops_at_a_figure(fonts) -> None:
    """notebook ruled its paper on through the mixed post's pie and sequence and under a
    display formula's fraction bar (the raters' "ruled lines run through the diagram"): a
    figure row covers the rules, as a sketch pasted onto the page does; the paper goes on
    under it."""
    frame = Rect(0.0, 0.0, 360.0, 300.0)
    toml = 'kind = "ruled-lines"\npaint = "ink"\noffset = 6\npitch = 24\nextend = true\n'
    deco, tokens = decoration(toml)
    context = Context(frame, tokens, fonts, (40.0,), figures=((60.0, 180.0),))
    ys = [s.y1 for s in build(deco, context) if isinstance(s, Segment)]
    assert ys[0] == 46.0 and not [y for y in ys if 60.0 <= y <= 180.0]
    assert [y for y in ys if y > 180.0][:2] == [190.0, 214.0]  # the paper goes on


def test_ruled_paper_rules_a_wrapped_table_row_under_its_last_line(fonts) -> None:
    """notebook's git table wrapped "整个提交都不要了" over two lines, and its rule, under
    the row's first baseline, ran through the row: "都不要了" hung below it, outside the
    table (tenth look, rated 3). A table row's baseline is its last line's."""
    post = (
        "| 场景 | 命令 |\n|---|---|\n| 已经提交 | `git checkout HEAD~1 -- 文件名` |\n"
        "| 整个提交都不要了 | `git revert 提交号` |\n"
    )
    options = layout.RenderOptions(width=440, height=586)
    [page] = layout.layout_pages(post, themes.load("notebook"), fonts, options)
    header, _, body = (p.row for p in page.rows)
    assert body.height > 1.5 * header.height  # the first cell wraps
    # the last line sits as far above the row's foot as the header's one line does
    assert body.height - body.baseline == pytest.approx(header.height - header.baseline, abs=1)


def test_a_display_formula_and_a_diagram_are_figures(fonts) -> None:
    """What ruled paper stops at (`Row.figure`): the fund post's display formula, as a
    diagram, is a figure row; its text lines are not."""
    post = "Some text here.\n\n$$\nx = \\frac{a}{b}\n$$\n\n```mermaid\ngraph TD\nA --> B\n```\n"
    pages = layout.layout_pages(post, themes.load("notebook"), fonts, layout.RenderOptions())
    rows = [p.row for page in pages for p in page.rows]
    assert [row.figure for row in rows] == [False, True, True]


def test_patterns_halftone_rings_corners_and_frames_build(fonts) -> None:
    [grid] = built('kind = "dot-grid"\nspacing = 10\nradius = 1\npaint = "ink"\n', fonts)
    assert isinstance(grid, Fill) and grid.color.kind == "dots" and grid.rect == CARD
    [tone] = built('kind = "halftone"\nwidth = 100\nheight = 20\nspacing = 10\n', fonts)
    radii = [op[3] for op in tone.ops]
    assert len(radii) == 11 * 3 and radii[0] < radii[-1]  # grows toward the bottom
    holes, *loops = built('kind = "rings"\nx = 20\nspacing = 30\n', fonts)
    assert len(holes.ops) == len(loops) == 10 and loops[0].rect.x == -14.0
    corners = built('kind = "corners"\nstyle = "fan"\nsize = 20\n', fonts)
    assert len(corners) == 4 and all(("Z",) in c.ops for c in corners)
    bracket = built('kind = "corners"\ncorners = ["top-right"]\nsize = 10\nx = 5\ny = 5\n', fonts)
    assert bracket[0].ops == (("M", 385.0, 5.0), ("L", 395.0, 5.0), ("L", 395.0, 15.0))
    outer, inner = built('kind = "frame"\ninset = 10\nwidth = 2\ndouble = 4\n', fonts)
    assert outer.rect == Rect(11.0, 11.0, 378.0, 278.0)
    assert inner.rect == Rect(17.0, 17.0, 366.0, 266.0)


DECORATION_ERRORS = [
    ('kind = "rule"\nradius = 3\n', msgspec.ValidationError, "unknown field `radius`"),
    ('kind = "rect"\nfill = "ink2"\n', ThemeError, "'ink2' (at decorations[0].fill)"),
    ('kind = "label"\nframe = "page"\n', msgspec.ValidationError, "$.decorations[0].frame"),
    ('kind = "icon"\n', msgspec.ValidationError, "missing required field `path`"),
    ('kind = "halftone"\nspacing = 1\n', msgspec.ValidationError, ">= 6.0"),
    ('kind = "stamp"\nshape = "star"\n', msgspec.ValidationError, "'star'"),
    ('kind = "corners"\ncorners = ["middle"]\n', msgspec.ValidationError, "'middle'"),
    ('kind = "circle"\nopacity = 2\n', msgspec.ValidationError, "<= 1.0"),
    ('kind = "rings"\neffects = [{ kind = "glow", color = "x" }]\n', ThemeError, "'x'"),
]


def test_rings_are_centred_in_their_run(fonts) -> None:
    """The spare of the last spacing fell all at the bottom: coil-notebook's coil stopped a
    ring short of its sheet's foot (52 sets at 500x500, the twenty-second session's
    rater). As many rings as the run holds, centred: both ends keep the same margin."""
    frame = Rect(0.0, 0.0, 400.0, 310.0)
    holes, *_ = built('kind = "rings"\nspacing = 30\n', fonts, frame)
    ys = [op[2] for op in holes.ops]
    assert len(ys) == 10 and ys[0] - frame.y == pytest.approx(frame.bottom - ys[-1])


def _all(items: tuple[Item, ...]) -> list[Item]:
    out: list[Item] = []
    for item in items:
        inner = getattr(item, "items", None)
        out.extend(_all(inner) if isinstance(inner, tuple) else [item])
    return out


@pytest.mark.parametrize("size", [(500, 500), (440, 586), (1080, 1440)])
def test_coil_notebook_s_coil_runs_its_sheet_from_end_to_end(fonts, size) -> None:
    """The first ring sits as far below the sheet's top as the last above its foot, within
    one ring (the sheet is inset 18 px from the card)."""
    width, height = size
    options = layout.RenderOptions(width=width, height=height, mode="blue-mode", split="autoSplit")
    post = "# 标题\n\n" + "一段话写在这里。" * 400  # a full card: drawn at its size
    page = layout.layout_pages(post, themes.load("coil-notebook"), fonts, options)[0]
    [holes] = [
        item for item in _all(page.items) if isinstance(item, Shape) and item.ops[0][0] == "O"
    ]
    ys = [op[2] for op in holes.ops]
    zoom = page.fit.zoom if page.fit is not None else 1.0  # a large card is drawn zoomed
    top, foot = ys[0] - 18.0, height / zoom - 18.0 - ys[-1]
    assert abs(top - foot) < 2.0, (top, foot)


@pytest.mark.parametrize(("toml", "cause", "message"), DECORATION_ERRORS)
def test_decoration_mistakes_fail_at_load(toml: str, cause: type, message: str) -> None:
    with pytest.raises(ThemeError) as error:
        decoration(toml)
    assert message in str(error.value)
    assert cause is ThemeError or isinstance(error.value.__cause__, cause)


def test_a_theme_file_with_a_typo_fails_naming_the_file(tmp_path: Path) -> None:
    folder = tmp_path / "oops"
    folder.mkdir()
    (folder / "card.toml").write_text(THEME + '[[decorations]]\nkind = "rect"\nfil = "ink"\n')
    with pytest.raises(ThemeError) as error:
        themes.Catalogue(tmp_path)
    assert str(folder / "card.toml") in str(error.value)
    assert "unknown field `fil` - at `$.decorations[0]`" in str(error.value)


def test_apple_notes_icons_are_svg_path_data() -> None:
    icons = [d for d in themes.load("apple-notes").decorations if isinstance(d, Icon)]
    assert len(icons) == 4 and all(parse_svg_path(i.path) for i in icons)


def test_the_static_layer_is_recorded_once_for_cards_of_one_theme_and_size(fonts) -> None:
    clear_static_cache()
    theme = themes.load("apple-notes")
    post = "# 标题\n\n" + "很长的一段文字。" * 200
    options = layout.RenderOptions(split="autoSplit", scale=1, mode="dark-mode")
    first = layout.render(post, theme, fonts, options)
    assert len(first) >= 2
    stats = static_cache_stats()
    assert stats["recorded"] == 1 and stats["replayed"] == len(first) - 1
    again = layout.render(post, theme, fonts, options)
    assert again == first  # replaying the recording draws the same pixels
    assert static_cache_stats()["recorded"] == 1
    layout.render(post, theme, fonts, layout.RenderOptions(split="autoSplit", scale=1))
    assert static_cache_stats()["recorded"] == 2  # another mode is another layer


def test_static_layers_are_built_once_per_theme_mode_and_size(fonts) -> None:
    styles = resolve(themes.load("apple-notes"), None)
    one = static_layers(styles, fonts, 440, 586)
    assert static_layers(styles, fonts, 440, 586) is one
    assert static_layers(styles, fonts, 440, 600) is not one


def test_the_demo_theme_uses_every_kind_and_draws(fonts, tmp_path: Path) -> None:
    theme = decode_theme(DEMO.read_bytes(), source=str(DEMO))
    kinds = {type(d).__name__ for d in theme.decorations}
    assert len(kinds) == 13  # every decoration kind
    post = (
        "# Demo 主题\n\n## Kicker\n\n### Bar\n\nThe **ruled lines** sit on *these* "
        "[baselines](https://x.example).\n\n> 引用\n\n"
        "```python\nprint(1)\n```\n\n" + "更多文字。" * 60
    )
    pages = layout.layout_pages(post, theme, fonts, layout.RenderOptions(split="autoSplit"))
    items = flat(list(pages[0].items))
    assert any(isinstance(i, Segment) and i.dash == (5.0, 10.0) for i in items)
    pngs = layout.render(post, theme, fonts, layout.RenderOptions(split="autoSplit", scale=1))
    for n, png in enumerate(pngs):
        (tmp_path / f"demo-{n}.png").write_bytes(png)
    page = pages[0]
    pixels = encode.rasterize(
        draw.Painter(fonts.typefaces()).record(page), page.width, page.height, page.background, 1
    )
    assert pixels.shape == (586, 440, 3)
    top_left, bottom_right = pixels[2, 60].astype(int), pixels[583, 300].astype(int)
    assert top_left[0] > top_left[2] and bottom_right[2] > bottom_right[0]  # the 135° gradient
    stamp = np.all(np.abs(pixels.astype(int) - [225, 29, 72]) < 40, axis=2)
    assert stamp[480:586, 300:440].sum() > 200  # the red seal at the bottom right


def test_a_costly_static_layer_is_rasterized_once_per_scale_and_matches_replay(fonts) -> None:
    theme = decode_theme(DEMO.read_bytes())
    post = "# Demo\n\n" + "更多文字。" * 120
    options = layout.RenderOptions(split="autoSplit", scale=1)
    pages = layout.layout_pages(post, theme, fonts, options)
    assert len(pages) >= 2
    clear_static_cache()
    raster = draw.Painter(fonts.typefaces(), scale=1)
    fast = [encode.rasterize(raster.record(p), p.width, p.height, p.background, 1) for p in pages]
    assert static_cache_stats()["rasterized"] == 1  # the costly under layer, once
    replay = draw.Painter(fonts.typefaces())
    slow = [encode.rasterize(replay.record(p), p.width, p.height, p.background, 1) for p in pages]
    for a, b in zip(fast, slow, strict=True):
        difference = np.abs(a.astype(int) - b.astype(int))
        # gradient dither, and blurred shadows blended straight into surfaces of two pixel
        # formats (the cached layer's and the card's): +-1 over a few percent of pixels
        assert difference.mean() < 0.08 and difference.max() <= 4
