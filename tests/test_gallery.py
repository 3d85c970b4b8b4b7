"""`inkcard gallery` and the contact sheet: one card per theme-mode and a grid of them all."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from inkcard import layout, themes
from inkcard.app.cards import gallery
from inkcard.layout.draw import Tile, contact_sheet, sheet
from tests import pngcodec


def run_gallery(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inkcard.app.cli", "gallery", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def expected_names() -> list[str]:
    names = []
    for theme in themes.names():
        modes = themes.modes(theme)
        names += [f"{theme}-{mode}.png" for mode in modes] if modes else [f"{theme}.png"]
    return names


def sheet_size(tiles: int, tile_height: float, caption_lines: int, title: bool) -> tuple[int, int]:
    """The contact sheet's pixel size, from its layout constants."""
    columns = min(gallery.SHEET_COLUMNS, tiles)
    rows = math.ceil(tiles / columns)
    width = 2 * sheet.MARGIN + columns * gallery.THUMBNAIL_WIDTH + (columns - 1) * sheet.GAP_X
    line = sheet.CAPTION_SIZE * sheet.CAPTION_LINE_HEIGHT
    cell = math.ceil(tile_height + sheet.CAPTION_GAP + caption_lines * line)
    title_height = math.ceil(sheet.TITLE_SIZE * sheet.CAPTION_LINE_HEIGHT) + sheet.GAP_Y
    top = sheet.MARGIN + (title_height if title else 0)
    height = top + rows * cell + (rows - 1) * sheet.GAP_Y + sheet.MARGIN
    return math.ceil(width), math.ceil(height)


def test_gallery_writes_every_theme_mode_and_a_contact_sheet(tmp_path: Path) -> None:
    result = run_gallery("-o", str(tmp_path), "--scale", "0.25")
    assert result.returncode == 0, result.stderr
    names = expected_names()
    assert len(names) == sum(max(1, len(themes.modes(t))) for t in themes.names())
    assert result.stdout.split() == [str(tmp_path / n) for n in [*names, "contact-sheet.png"]]
    cards = {name: pngcodec.decode((tmp_path / name).read_bytes()) for name in names}
    for name, pixels in cards.items():
        assert pixels.shape[:2] == (math.ceil(586 * 0.25), 440 * 0.25), name
    # every theme-mode looks different from every other (no mode silently ignored)
    flat = [pixels.tobytes() for pixels in cards.values()]
    assert len(set(flat)) == len(flat)

    contact = pngcodec.decode((tmp_path / "contact-sheet.png").read_bytes())
    tile_height = round(586 * gallery.THUMBNAIL_WIDTH / 440)
    width, height = sheet_size(len(names), tile_height, caption_lines=2, title=True)
    assert contact.shape[:2] == (height, width)
    assert (tmp_path / "contact-sheet.png").stat().st_size < 1_500_000


def test_the_sheet_holds_each_thumbnail_at_its_place(fonts: layout.FontBook) -> None:
    catalogue = themes.builtin()
    variants = gallery.variants(catalogue)
    contact = pngcodec.decode(gallery.contact_sheet(catalogue, fonts))
    scale = gallery.THUMBNAIL_WIDTH / gallery.CARD_WIDTH
    top = sheet.MARGIN + math.ceil(sheet.TITLE_SIZE * sheet.CAPTION_LINE_HEIGHT) + sheet.GAP_Y
    rows = math.ceil(len(variants) / gallery.SHEET_COLUMNS)
    pitch_y = (contact.shape[0] - top - sheet.MARGIN + sheet.GAP_Y) / rows
    for index in (0, len(variants) - 1):  # the first tile and the last, on the last row
        thumb = pngcodec.decode(gallery.render_sample(catalogue, fonts, variants[index], scale))
        x = round(sheet.MARGIN + (index % gallery.SHEET_COLUMNS) * (180 + sheet.GAP_X))
        y = round(top + (index // gallery.SHEET_COLUMNS) * pitch_y)
        h, w = thumb.shape[:2]
        placed = contact[y : y + h, x : x + w, :3].astype(int)
        assert np.abs(placed - thumb[:, :, :3].astype(int)).max() <= 2, variants[index].name


@pytest.mark.parametrize("theme", themes.names())
def test_the_sample_post_fits_one_card_in_every_theme(fonts: layout.FontBook, theme: str) -> None:
    for mode in themes.modes(theme) or [None]:
        options = layout.RenderOptions(width=440, height=586, mode=mode)  # noSplit grows
        [page] = layout.layout_pages(gallery.SAMPLE_POST, themes.load(theme), fonts, options)
        assert page.height == 586, (theme, mode)
        text = "".join(placed.row.text for placed in page.rows)
        for words in ("卡片笔记", "English", "300", "then write", "显影", "Hello"):
            assert words in text, (theme, mode, words)


def test_contact_sheet_lays_out_thirty_one_tiles_in_six_columns(fonts: layout.FontBook) -> None:
    tile = pngcodec.encode(np.full((40, 30, 3), 200, np.uint8))
    tiles = [Tile(tile, (f"theme-{n}", "主题")) for n in range(31)]
    png = contact_sheet(tiles, fonts, columns=6, tile_width=60)
    pixels = pngcodec.decode(png)
    width = 2 * sheet.MARGIN + 6 * 60 + 5 * sheet.GAP_X
    cell = math.ceil(80 + sheet.CAPTION_GAP + 2 * sheet.CAPTION_SIZE * sheet.CAPTION_LINE_HEIGHT)
    height = 2 * sheet.MARGIN + 6 * cell + 5 * sheet.GAP_Y  # 31 tiles: six rows
    assert pixels.shape[:2] == (math.ceil(height), math.ceil(width))
    # the 31st tile starts the sixth row; nothing is drawn right of it
    last_y = round(sheet.MARGIN + 5 * (cell + sheet.GAP_Y))
    assert tuple(pixels[last_y + 40, round(sheet.MARGIN) + 30, :3]) == (200, 200, 200)
    beside = pixels[last_y : last_y + 80, round(sheet.MARGIN + 60 + sheet.GAP_X) :, :3]
    assert (beside == (0xF4, 0xF4, 0xF2)).all()


def test_contact_sheet_refuses_nothing_and_unreadable_tiles(fonts: layout.FontBook) -> None:
    with pytest.raises(layout.SheetError):
        contact_sheet([], fonts)
    with pytest.raises(layout.SheetError):
        contact_sheet([Tile(b"not a png", ("x",))], fonts)


def test_gallery_takes_another_post(tmp_path: Path) -> None:
    post = tmp_path / "post.md"
    post.write_text("# Only a title\n\n" + "A long line of text. " * 400, "utf-8")
    out = tmp_path / "out"
    result = run_gallery("-o", str(out), "--post", str(post), "--scale", "0.25")
    assert result.returncode == 0, result.stderr
    card = pngcodec.decode((out / "brandA.png").read_bytes())
    assert card.shape[:2] == (147, 110)  # a long post is cut to one card, not grown
    sample = subprocess.run(
        [
            sys.executable,
            "-m",
            "inkcard.app.cli",
            "gallery",
            "-o",
            str(tmp_path / "s"),
            "--scale",
            "0.25",
        ],
        capture_output=True,
        check=True,
    )
    assert sample.returncode == 0
    assert (out / "brandA.png").read_bytes() != (tmp_path / "s" / "brandA.png").read_bytes()


def test_sheet_only_writes_just_the_contact_sheet(tmp_path: Path) -> None:
    result = run_gallery("-o", str(tmp_path), "--sheet-only")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(tmp_path / "contact-sheet.png")]
    assert [p.name for p in tmp_path.iterdir()] == ["contact-sheet.png"]
    assert pngcodec.decode((tmp_path / "contact-sheet.png").read_bytes()).shape[1] == 1236


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--post", "/nonexistent/post.md"], "cannot read /nonexistent/post.md"),
        (["--scale", "9"], "is not a number between"),
    ],
)
def test_gallery_says_in_one_line_what_is_wrong(
    tmp_path: Path, args: list[str], message: str
) -> None:
    result = run_gallery("-o", str(tmp_path / "out"), *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert not (tmp_path / "out").exists()
