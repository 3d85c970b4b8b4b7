"""The covers gallery: the cover designer's four layouts and the article cover in every card
theme and mode, as two contact sheets (``docs/gallery/covers.jpg`` and
``docs/gallery/covers-wechat.jpg``).

Run ``python -m inkcard.app.cards.covergallery [OUT_DIR]``. The first sheet holds two theme-modes a
row, their four 3:4 covers (440 x 586) each; the second three theme-modes a row, their
900 x 383 article cover with the square crop outlined.
"""

from __future__ import annotations

import sys
from pathlib import Path

from inkcard import layout, themes
from inkcard.app.cards.gallery import Variant, caption, variants
from inkcard.layout.covers import COVER_LAYOUTS, MAX_COVERS
from inkcard.layout.draw import Tile, contact_sheet, fit_image

SAMPLE_TITLE = "普通人也能学会的 AI 写作方法：三步写出爆款笔记"
SAMPLE_KEYWORDS = ("AI 写作", "爆款", "小红书")
COVER_SIZE = (440, 586)  # 小红书 3:4 at scale 1
TILE_WIDTH = 220
WECHAT_TILE_WIDTH = 450
WECHAT_COLUMNS = 3
SHEET_MAX_BYTES = 1400 << 10  # each sheet, so the docs stay light


def variant_tiles(
    catalogue: themes.Catalogue, fonts: layout.FontBook, variant: Variant
) -> list[Tile]:
    """The four 3:4 covers of one theme-mode, captioned."""
    theme = catalogue.get(variant.theme)
    width, height = COVER_SIZE
    options = layout.RenderOptions(width=width, height=height, scale=1, mode=variant.mode)
    rendered = layout.render_covers(
        SAMPLE_TITLE, SAMPLE_KEYWORDS, theme, fonts, options, count=MAX_COVERS
    )
    label = caption(catalogue, variant)
    return [
        Tile(png, (*label, name)) for png, name in zip(rendered.files, COVER_LAYOUTS, strict=True)
    ]


def wechat_tile(catalogue: themes.Catalogue, fonts: layout.FontBook, variant: Variant) -> Tile:
    """The 900 x 383 article cover of one theme-mode, its square crop outlined."""
    theme = catalogue.get(variant.theme)
    png, _ = layout.render_wechat_cover(
        SAMPLE_TITLE, SAMPLE_KEYWORDS, theme, fonts, variant.mode, mark_crop=True
    )
    return Tile(png, (*caption(catalogue, variant), "900×383, square crop dashed"))


def covers_sheet(catalogue: themes.Catalogue, fonts: layout.FontBook) -> bytes:
    """Every theme-mode's 3:4 covers, two theme-modes a row, as a JPEG."""
    tiles = [tile for v in variants(catalogue) for tile in variant_tiles(catalogue, fonts, v)]
    png = contact_sheet(
        tiles,
        fonts,
        columns=2 * MAX_COVERS,
        tile_width=TILE_WIDTH,
        title="Inkcard covers · 封面 3:4",
    )
    return fit_image(png, SHEET_MAX_BYTES).data


def wechat_sheet(catalogue: themes.Catalogue, fonts: layout.FontBook) -> bytes:
    """Every theme-mode's article cover (900 x 383, square crop marked), as a JPEG."""
    tiles = [wechat_tile(catalogue, fonts, v) for v in variants(catalogue)]
    png = contact_sheet(
        tiles,
        fonts,
        columns=WECHAT_COLUMNS,
        tile_width=WECHAT_TILE_WIDTH,
        title="Inkcard article covers · 公众号封面 900×383",
    )
    return fit_image(png, SHEET_MAX_BYTES).data


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs/gallery")
    fonts = layout.FontBook.load(layout.DEFAULT_FONTS_DIR)
    catalogue = themes.builtin()
    for name, sheet in (("covers.jpg", covers_sheet), ("covers-wechat.jpg", wechat_sheet)):
        (out / name).write_bytes(sheet(catalogue, fonts))
        print(out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
