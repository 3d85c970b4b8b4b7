"""The block vocabulary: bullet shapes, number badges, list panels, table outlines, grids
and stripes, rule lengths, dashes and ornaments, framed and tilted images.

With the box font one em equals the font size; the plain model's content box is 400 px
wide at x = 20, y = 20 on a 440x586 card, body text 16 px on 28 px lines.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from inkcard import layout
from inkcard.layout.base.boxes import (
    Fill,
    GlyphRun,
    Group,
    Item,
    Layer,
    Page,
    Picture,
    Rect,
    Segment,
    Shape,
    Stroke,
)
from inkcard.layout.blocks.marks import ImageFrame, bullet
from inkcard.layout.draw import encode
from inkcard.layout.draw import painter as draw
from tests import pngcodec

ROSE, INK = 0xFFE11D48, 0xFF1D4ED8


def theme(roles: str) -> layout.Theme:
    return layout.decode_theme(f'name = "t"\n{roles}')


def pages(md: str, fonts, toml: str, **found: bytes) -> list[Page]:
    options = layout.RenderOptions(split="autoSplit")
    return layout.layout_pages(md, theme(toml), fonts, options, found)


def flat(
    items: tuple[Item, ...], dx: float = 0.0, dy: float = 0.0
) -> list[tuple[Item, float, float]]:
    """Every leaf item with the translation its groups put it at."""
    out: list[tuple[Item, float, float]] = []
    for item in items:
        if isinstance(item, Group):
            out.extend(flat(item.items, dx + item.dx, dy + item.dy))
        elif isinstance(item, Layer):
            out.append((item, dx, dy))
            out.extend(flat(item.items, dx, dy))
        else:
            out.append((item, dx, dy))
    return out


def pixels(page: Page, fonts, images: dict[str, bytes] | None = None) -> np.ndarray:
    picture = draw.Painter(fonts.typefaces(), images=images).record(page)
    return encode.rasterize(picture, page.width, page.height, page.background, 1).astype(int)


def near(pixel: np.ndarray, argb: int, tolerance: int = 12) -> bool:
    rgb = [(argb >> 16) & 255, (argb >> 8) & 255, argb & 255]
    return bool(np.all(np.abs(pixel - rgb) <= tolerance))


# List markers ----------------------------------------------------------------


@pytest.mark.parametrize(
    "shape", ["disc", "circle", "square", "diamond", "star", "dash", "check", "arrow"]
)
def test_every_bullet_shape_stays_in_its_box(shape: str) -> None:
    items = bullet(shape, 50.0, 40.0, 10.0, ROSE)
    for item in items:
        if isinstance(item, Shape):
            points = [op[1:3] for op in item.ops if op[0] in ("M", "L")]
            reach = 5.0 * 1.15 + 0.01 if shape == "star" else 5.01
            assert all(abs(x - 50) <= reach and abs(y - 40) <= reach for x, y in points)
            assert ROSE in (item.fill, item.stroke)
        else:
            assert isinstance(item, Fill | Stroke) and item.color == ROSE
            assert item.rect.x >= 45 - 0.01 and item.rect.right <= 55 + 0.01


def test_a_star_marker_is_drawn_where_the_disc_was(box_fonts) -> None:
    toml = '[roles.list]\nmarker_shape = "star"\nmarker_color = "#e11d48"\nmarker_size = 10\n'
    [page] = pages("- 一\n  - 二", box_fonts, toml)
    first, nested = page.rows[0].row.items[0], page.rows[1].row.items[0]
    assert isinstance(first, Shape) and first.fill == ROSE
    xs = [op[1] for op in first.ops if op[0] in ("M", "L")]
    # left of the text (x 48) by the marker gap (8), 10 px across
    assert max(xs) == pytest.approx(40 - 5 + 5 * 1.15 * math.cos(math.radians(18)), abs=0.01)
    assert isinstance(nested, Stroke)  # the second level keeps the ring


def test_number_badges_sit_in_the_indent_with_the_number_centred(fonts) -> None:
    toml = (
        '[roles.list]\nnumber_style = "disc"\nnumber_background = "#1d4ed8"\n'
        'number_size = 24\nnumber_color = "#ffffff"\n'
    )
    [page] = pages("1. 一\n2. 二", fonts, toml)
    badge = page.rows[0].row.items[0]
    assert isinstance(badge, Fill) and badge.color == INK
    assert (badge.rect.width, badge.rect.height, badge.radius) == (24, 24, 12)
    # 24 px and the 8 px gap need more than the 28 px indent: the text moves to 20 + 32
    assert badge.rect.right == pytest.approx(20 + 32 - 8)
    text = [i for i, _, _ in flat(page.rows[0].row.items[2:]) if hasattr(i, "xs")]
    assert text[0].xs[0] == pytest.approx(20 + 32)
    image = pixels(page, fonts)
    y = round(page.rows[0].y + 20 + badge.rect.y + 12)
    x0 = round(badge.rect.x)
    assert near(image[y, x0 + 3], INK)  # the disc
    row = image[y - 6 : y + 6, x0 + 6 : x0 + 18]
    assert (row.min(axis=2) > 200).any()  # the white digit inside it


def _glyph_runs(items: tuple[Item, ...]) -> list[tuple[GlyphRun, float, float]]:
    return [(i, dx, dy) for i, dx, dy in flat(items) if isinstance(i, GlyphRun)]


def test_a_bullet_set_as_text_is_drawn_from_a_font_in_the_indent(fonts) -> None:
    """notebook's ✎, nature's 🍃, darktech's >: `marker_text` at `marker_size` px in the
    marker colour, right of the indent's edge by the gap, marked an ornament (no words)."""
    toml = '[roles.list]\nmarker_text = "✦"\nmarker_size = 14\nmarker_color = "#e11d48"\n'
    [page] = pages("- 一\n- 二", fonts, toml)
    marker = page.rows[0].row.items[0]
    assert isinstance(marker, Group) and marker.ornament
    [(run, dx, _)] = _glyph_runs((marker,))
    assert run.color == ROSE and run.size == 14
    text = _glyph_runs(page.rows[0].row.items[1:])[0]
    assert dx + run.xs[0] < text[0].xs[0] + text[1]  # in the indent, left of the item's text
    assert "✦" not in page.rows[0].row.text  # drawn, not read


def test_a_bullet_on_a_badge_takes_the_numbers_disc(fonts) -> None:
    """coil-notebook's ★ on the yellow disc its numbers sit on (`marker_badge`)."""
    toml = (
        '[roles.list]\nmarker_text = "★"\nmarker_badge = true\nnumber_style = "disc"\n'
        'number_size = 24\nnumber_background = "#1d4ed8"\n'
    )
    [page] = pages("- 一\n- 二", fonts, toml)
    disc, star = page.rows[0].row.items[:2]
    assert isinstance(disc, Fill) and disc.color == INK and disc.rect.width == 24
    assert isinstance(star, Group) and star.mark


def test_a_bullets_badge_stays_inside_its_list_box(fonts) -> None:
    """The ★ disc, 24 px wide in a list box with 6 px of padding and a 16 px indent, hung
    half over the box's left edge (coil-notebook, 16 sets rated down at 500x500): a badge
    widens the indent as a wide number does, so the disc starts inside the box."""
    toml = (
        '[roles.list]\nmarker_text = "★"\nmarker_badge = true\nnumber_style = "disc"\n'
        'number_size = 24\nmarker_gap = 10\nindent = 16\nbackground = "#eeeeee"\n'
        "padding = [12, 15, 12, 6]\n"
    )
    [page] = pages("- 一\n- 二", fonts, toml)
    disc = page.rows[0].row.items[0]
    [frame] = page.rows[0].row.frames
    assert isinstance(disc, Fill) and disc.rect.x >= frame.decor.x + 6 - 0.5


@pytest.mark.parametrize(
    ("form", "style", "shown"),
    [("1)", "plain", "1)"), ("01", "disc", "01"), ("01.", "plain", "01."), ("1.", "disc", "1")],
)
def test_a_number_reads_as_the_format_says(fonts, form: str, style: str, shown: str) -> None:
    """minimal's zero-padded 01 on its disc, typewriter's typed 1)."""
    toml = f'[roles.list]\nnumber_style = "{style}"\nnumber_format = "{form}"\n'
    [page] = pages("1. 一\n2. 二", fonts, toml)
    runs = _glyph_runs(page.rows[0].row.items)
    glyphs = sum(len(run.glyphs) for run, _, _ in runs)
    assert glyphs == len(shown) + 1  # the number as written, then the item's 一


def test_an_ornament_bullet_costs_the_card_no_contrast(fonts) -> None:
    """A pale ✧ bullet (fairytale's gold on white) is a shape drawn from a font: the
    quality report reads neither its size nor its contrast, as for a drawn star."""
    from inkcard.layout.pages.quality import measure

    pale = '[roles.list]\nmarker_text = "✧"\nmarker_size = 9\nmarker_color = "#fff3c0"\n'
    shape = '[roles.list]\nmarker_shape = "star"\nmarker_size = 9\nmarker_color = "#fff3c0"\n'
    [text] = pages("- 一\n- 二", fonts, pale)
    [drawn] = pages("- 一\n- 二", fonts, shape)
    assert measure(text) == measure(drawn)


def test_wide_numbers_widen_the_badge_and_the_indent_so_items_align(box_fonts) -> None:
    toml = '[roles.list]\nnumber_style = "square"\nnumber_size = 20\n'
    [page] = pages("100. 一\n101. 二", box_fonts, toml)
    badge = page.rows[0].row.items[0]
    # three 11 px digits (0.55 em of 20 px) and a quarter of the height each side
    assert badge.rect.width == pytest.approx(3 * 11 + 10)
    assert badge.radius == 5  # a rounded square
    texts = [i for i, _, _ in flat(page.rows[0].row.items[2:]) if hasattr(i, "xs")]
    assert texts[0].xs[0] == pytest.approx(20 + badge.rect.width + 8)  # indent widened
    seconds = [i for i, _, _ in flat(page.rows[1].row.items[2:]) if hasattr(i, "xs")]
    assert seconds[0].xs[0] == texts[0].xs[0]


def test_a_plain_number_too_wide_for_the_indent_widens_it_whole(box_fonts) -> None:
    """ "10." wrapped in the 20 px left of the gap and drew "1" alone (issue 41, the
    12 notes' last three items in apple-notes and typewriter)."""
    [page] = pages("99. 一\n100. 二", box_fonts, "")
    runs = [i for i, _, _ in flat(page.rows[1].row.items) if isinstance(i, GlyphRun)]
    text_x = max(run.xs[0] for run in runs)  # 二, right of its number
    number = [run for run in runs if run.xs[0] < text_x]
    assert sum(len(run.glyphs) for run in number) == 4  # "100." whole
    assert len({y for run in number for y in run.ys}) == 1  # on one line
    assert max(run.xs[-1] for run in number) + 16 <= text_x - 8 + 1e-6  # before the gap
    first = [i for i, _, _ in flat(page.rows[0].row.items) if isinstance(i, GlyphRun)]
    assert max(run.xs[0] for run in first) == text_x  # the items still align


# List panels -----------------------------------------------------------------


PANEL = (
    '[roles.list]\nbackground = "#eef2ff"\nradius = 8\npadding = [10, 12, 10, 6]\n'
    'border_color = "#1d4ed8"\nborder_width = 1\n'
)


def test_a_list_panel_pads_the_list_and_is_painted_under_it(box_fonts) -> None:
    [page] = pages("段\n\n- 一\n- 二\n\n段", box_fonts, PANEL)
    ys = [round(p.y, 2) for p in page.rows]
    # paragraph, margin 16, panel padding 10, two items 4 apart, padding 10, margin 16
    assert ys == [0, 54, 86, 140]
    text = [i for i, _, _ in flat(page.rows[1].row.items) if hasattr(i, "xs")]
    assert text[0].xs[0] == 20 + 6 + 28  # panel padding, then the list indent
    panel = [i for i in page.items if isinstance(i, Fill) and i.color == 0xFFEEF2FF]
    assert [(p.rect.y, p.rect.height, p.radius) for p in panel] == [(20 + 44, 10 + 60 + 10, 8)]
    assert any(isinstance(i, Stroke) and i.color == INK for i in page.items)


def test_a_split_list_panel_is_drawn_on_each_card(box_fonts) -> None:
    md = "\n".join(f"- 项{n}" for n in range(30))
    cards = pages(md, box_fonts, PANEL)
    assert len(cards) == 2
    for card in cards:
        [panel] = [i for i in card.items if isinstance(i, Fill) and i.color == 0xFFEEF2FF]
        last = card.rows[-1]
        assert panel.rect.y == 20 and panel.rect.bottom == pytest.approx(
            20 + last.y + last.row.height + 10
        )


def test_nested_lists_draw_no_panel_of_their_own(box_fonts) -> None:
    [page] = pages("- 一\n  - 二\n    - 三", box_fonts, PANEL)
    assert len([i for i in page.items if isinstance(i, Fill)]) == 1


# Tables ----------------------------------------------------------------------

TABLE = "| 甲 | 乙 |\n|---|---|\n| 一 | 二 |\n| 三 | 四 |\n| 五 | 六 |\n| 七 | 八 |"
FRAMED = (
    '[roles.table]\noutline_width = 2\noutline_color = "#1d4ed8"\nradius = 10\n'
    'header_background = "#bfdbfe"\nstripe_background = "#f1f5f9"\n'
)


def test_an_outline_is_a_frame_with_rounded_corners_and_padding(box_fonts) -> None:
    [page] = pages(TABLE, box_fonts, FRAMED)
    [outline] = [i for i in page.items if isinstance(i, Stroke)]
    assert outline.color == INK and outline.width == 2 and outline.radius == 9
    assert (outline.rect.x, outline.rect.width) == (21, 398)
    assert page.rows[0].y == 1  # the rows start inside the outline
    rows = page.rows
    assert outline.rect.bottom == pytest.approx(20 + rows[-1].y + rows[-1].row.height + 1)


def test_header_and_stripes_stay_inside_the_rounded_outline(box_fonts) -> None:
    [page] = pages(TABLE, box_fonts, FRAMED)
    header = page.rows[0].row.items[0]
    assert isinstance(header, Shape) and header.fill == 0xFFBFDBFE  # top corners rounded
    assert min(op[1] for op in header.ops if op[0] in "ML") == 22  # inside the 2 px outline
    stripes = [r.row.items[0] for r in page.rows[1:]]
    fills = [getattr(s, "fill", None) or getattr(s, "color", None) for s in stripes]
    assert fills[1] == fills[3] == 0xFFF1F5F9  # every other body row: the 2nd and 4th
    assert not isinstance(stripes[0], Fill | Shape)
    assert isinstance(stripes[3], Shape)  # the last row rounds its bottom corners


def test_rounded_header_leaves_the_outer_corner_unpainted(fonts) -> None:
    toml = '[roles.table]\nradius = 12\nheader_background = "#1d4ed8"\n'
    [page] = pages(TABLE, fonts, toml)
    image = pixels(page, fonts)
    top = round(page.rows[0].y) + 20
    assert near(image[top + 1, 21], 0xFFFFFFFF)  # outside the rounded corner
    assert near(image[top + 12, 40], INK)  # the header itself


@pytest.mark.parametrize(("grid", "rules"), [("none", 0), ("rows", 5), ("full", 5 + 1 + 5 * 3)])
def test_grid_rules(box_fonts, grid: str, rules: int) -> None:
    [page] = pages(TABLE, box_fonts, f'[roles.table]\ngrid = "{grid}"\n')
    segments = [i for p in page.rows for i, _, _ in flat(p.row.items) if isinstance(i, Segment)]
    assert len(segments) == rules
    if grid == "full":
        verticals = {s.x1 for s in segments if s.x1 == s.x2}
        assert verticals == {20.5, 220.0, 419.5}  # the edges and the column boundary


def test_with_an_outline_the_last_rule_and_the_outer_edges_are_the_outline(box_fonts) -> None:
    toml = '[roles.table]\ngrid = "full"\noutline_width = 2\n'
    [page] = pages(TABLE, box_fonts, toml)
    segments = [i for p in page.rows for i, _, _ in flat(p.row.items) if isinstance(i, Segment)]
    assert len(segments) == 4 + 5  # rules under all rows but the last, one inner edge a row
    assert {s.x1 for s in segments if s.x1 == s.x2} == {220.0}


def test_each_column_group_of_a_wide_table_gets_its_own_outline(box_fonts) -> None:
    header = "| " + " | ".join(f"列{n}" * 8 for n in range(8)) + " |"
    md = f"{header}\n|{'---|' * 8}\n| " + " | ".join(["值"] * 8) + " |"
    cards = pages(md, box_fonts, "[roles.table]\noutline_width = 1\n")
    strokes = [i for c in cards for i in c.items if isinstance(i, Stroke)]
    assert len(strokes) > 1


# Rules -----------------------------------------------------------------------


def test_a_short_dotted_gradient_rule_is_centred(box_fonts) -> None:
    toml = (
        "[roles.hr]\nlength = 0.3\ndash = [0, 6]\nborder_width = 3\n"
        'border_color = { kind = "linear", angle = 90, stops = ["#1d4ed8", "#e11d48"] }\n'
    )
    [page] = pages("段\n\n---\n\n段", box_fonts, toml)
    [rule] = page.rows[1].row.items
    assert isinstance(rule, Segment)
    assert (rule.x1, rule.x2) == pytest.approx((20 + 140, 20 + 260))
    assert rule.dash == (0, 6) and rule.round_cap and rule.width == 3
    assert not isinstance(rule.color, int)  # the gradient paint


def test_an_ornament_splits_the_rule_around_it(box_fonts) -> None:
    [page] = pages("---", box_fonts, '[roles.hr]\nornament = "***"\nsize = 20\n')
    row = page.rows[0].row
    left, right = [i for i in row.items if isinstance(i, Segment)]
    # three 20 px glyphs centred (190..250 of the box), half an em of air on each side
    assert (left.x1, left.x2, right.x1, right.x2) == pytest.approx((20, 180, 260, 420))
    assert row.height == 35  # the ornament's line: 20 px at line height 1.75
    assert left.y1 == row.height / 2 and row.text == "***"


# Images ----------------------------------------------------------------------


def photo(width: int, height: int) -> bytes:
    return pngcodec.encode(np.full((height, width, 3), (200, 30, 60), np.uint8))


def test_a_tilted_image_fits_its_bounding_box_in_the_content_box(box_fonts) -> None:
    toml = '[roles.image]\nrotate = 10\npadding = [8, 8, 24, 8]\nbackground = "#ffffff"\n'
    [page] = pages("![](p.png)\n\n段", box_fonts, toml, **{"p.png": photo(800, 400)})
    row = page.rows[0].row
    [layer] = row.items
    assert isinstance(layer, Layer) and layer.rotate == 10
    mat, picture = layer.items
    assert isinstance(mat, Fill) and isinstance(picture, Picture)
    frame = ImageFrame(padding=(8, 8, 24, 8), rotate=10)
    width, height = frame.bounds(picture.rect.width, picture.rect.height)
    assert width == pytest.approx(400)  # shrunk until the tilted box is as wide as the text
    assert row.height == pytest.approx(height)
    assert picture.rect.width / picture.rect.height == pytest.approx(2)
    corners = [
        (mat.rect.x + dx, mat.rect.y + dy)
        for dx in (0, mat.rect.width)
        for dy in (0, mat.rect.height)
    ]
    cx, cy = layer.pivot
    turn = math.radians(10)
    for x, y in corners:  # every corner, turned about the centre, stays in the row
        tx = cx + (x - cx) * math.cos(turn) - (y - cy) * math.sin(turn)
        ty = cy + (x - cx) * math.sin(turn) + (y - cy) * math.cos(turn)
        assert 20 - 1e-6 <= tx <= 420 + 1e-6 and -1e-6 <= ty <= row.height + 1e-6
    assert page.rows[1].y >= page.rows[0].y + row.height  # the next block starts below


def test_a_bordered_shadowed_image_draws_mat_border_and_shadow(fonts) -> None:
    toml = (
        '[roles.image]\npadding = [10, 10, 10, 10]\nbackground = "#ffffff"\nradius = 0\n'
        'border_width = 3\nborder_color = "#1d4ed8"\n'
        'effects = [{ kind = "shadow", dx = 0, dy = 6, blur = 0, color = "#000000" }]\n'
        '[roles.card]\nbackground = "#fde68a"\n'
    )
    options = layout.RenderOptions(split="autoSplit")
    laid = layout.layout_cards("![](p.png)", theme(toml), fonts, options, {"p.png": photo(100, 50)})
    [page] = laid.pages
    [layer] = page.rows[0].row.items
    assert isinstance(layer, Layer) and layer.effects
    mat, picture, border = layer.items
    assert isinstance(border, Stroke) and border.width == 3
    assert (picture.rect.width, picture.rect.height) == (100, 50)
    assert (mat.rect.width, mat.rect.height) == (126, 76)  # padding and border both sides
    assert page.rows[0].row.height == 76
    image = pixels(page, fonts, laid.images)
    x, y = round(mat.rect.x), round(page.rows[0].y + 20)
    assert near(image[y + 1, x + 40], INK)  # the border
    assert near(image[y + 6, x + 40], 0xFFFFFFFF)  # the mat
    assert near(image[y + 30, x + 40], 0xFFC81E3C)  # the picture
    assert near(image[y + 79, x + 40], 0xFF000000)  # the hard shadow below


def test_a_plain_image_is_unframed(box_fonts) -> None:
    [page] = pages("![](p.png)", box_fonts, "", **{"p.png": photo(100, 50)})
    [picture] = page.rows[0].row.items
    assert isinstance(picture, Picture) and picture.rect == Rect(170, 0, 100, 50)


def test_the_demo_theme_uses_the_block_vocabulary_and_draws(fonts) -> None:
    demo = Path(__file__).resolve().parents[1] / "cases" / "demo-theme.toml"
    post = (
        "- 星\n- 星\n\n1. 一\n2. 二\n\n---\n\n| 甲 | 乙 |\n|---|---|\n| 一 | 二 |\n| 三 | 四 |"
        "\n\n![p](p.png)"
    )
    options = layout.RenderOptions(split="autoSplit")
    theme = layout.decode_theme(demo.read_bytes(), source=str(demo))
    cards = layout.layout_pages(post, theme, fonts, options, {"p.png": photo(300, 200)})
    leaves = [i for c in cards for i, _, _ in flat(c.items)]
    assert any(isinstance(i, Shape) and len(i.ops) == 11 for i in leaves)  # a star bullet
    assert any(isinstance(i, Segment) and i.dash == (0, 6) for i in leaves)  # the dotted rule
    assert any(isinstance(i, Stroke) and i.width == 2 for i in leaves)  # the table outline
    assert any(isinstance(i, Layer) and i.rotate == -3 for i in leaves)  # the tilted photo
    pngs = layout.render(post, theme, fonts, layout.RenderOptions(split="autoSplit", scale=1))
    assert len(pngs) == len(cards)


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[roles.list]\nmarker_shape = "hexagon"\n', "$.roles.list.marker_shape"),
        ('[roles.table]\ngrid = "some"\n', "$.roles.table.grid"),
        ("[roles.hr]\ndash = [1]\n", "$.roles.hr.dash"),
        ('[roles.table]\nstripe_background = "nocolour"\n', "roles.table.stripe_background"),
    ],
)
def test_block_knob_mistakes_fail_at_load_naming_the_field(toml: str, message: str) -> None:
    with pytest.raises(layout.ThemeError, match=message.replace("$", r"\$")):
        theme(toml)


@pytest.mark.parametrize("title", ["零器械也能练出马甲线🔥", "🔥 开练", "Ready? 🚀"])
def test_a_headings_mark_stays_out_beside_the_authors_emoji(fonts, title: str) -> None:
    """nature's 🌿 after a title that ends with the author's 🔥 read as two ornaments (fourth
    look at 1080x1440): a `prefix` or `suffix` mark is left out beside the heading's own
    emoji, and drawn where the heading has none."""
    marked = '[roles.h1]\nprefix = "✿"\nsuffix = "🌿"\n'

    def glyphs(md: str, toml: str) -> int:
        [page] = pages(md, fonts, toml)
        return sum(len(run.glyphs) for p in page.rows[:1] for run, _, _ in _glyph_runs(p.row.items))

    # both marks, each with its no-break space, on a heading with no emoji of its own
    assert glyphs("# 普通标题", marked) - glyphs("# 普通标题", "") == 4
    # one mark fewer where the heading starts or ends with its own
    assert glyphs(f"# {title}", marked) - glyphs(f"# {title}", "") == 2
