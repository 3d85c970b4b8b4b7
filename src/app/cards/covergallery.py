"""The covers gallery: the cover designer's four layouts and the article cover in every card
theme and mode, as one contact sheet (``docs/gallery/covers.jpg``).

Run ``python -m app.cards.covergallery OUT.jpg``. Each row holds two theme-modes: their four
3:4 covers (440 x 586) and the 900 x 383 article cover with its square crop outlined.
"""

from __future__ import annotations

import sys
from pathlib import Path

import layout
import themes
from app.cards.gallery import Variant, caption, variants

SAMPLE_TITLE = "普通人也能学会的 AI 写作方法：三步写出爆款笔记"
SAMPLE_KEYWORDS = ("AI 写作", "爆款", "小红书")
COVER_SIZE = (440, 586)  # 小红书 3:4 at scale 1
TILE_WIDTH = 220
SHEET_MAX_BYTES = 3 << 20


def variant_tiles(
    catalogue: themes.Catalogue, fonts: layout.FontBook, variant: Variant
) -> list[layout.Tile]:
    """The four covers and the marked article cover of one theme-mode, captioned."""
    theme = catalogue.get(variant.theme)
    width, height = COVER_SIZE
    options = layout.RenderOptions(width=width, height=height, scale=1, mode=variant.mode)
    rendered = layout.render_covers(
        SAMPLE_TITLE, SAMPLE_KEYWORDS, theme, fonts, options, count=layout.MAX_COVERS
    )
    label = caption(catalogue, variant)
    tiles = [
        layout.Tile(png, (*label, name))
        for png, name in zip(rendered.files, layout.COVER_LAYOUTS, strict=True)
    ]
    png, _ = layout.render_wechat_cover(
        SAMPLE_TITLE, SAMPLE_KEYWORDS[:1], theme, fonts, variant.mode, mark_crop=True
    )
    return [*tiles, layout.Tile(png, (*label, "900×383, square crop dashed"))]


def covers_sheet(catalogue: themes.Catalogue, fonts: layout.FontBook) -> bytes:
    """Every theme-mode's covers, two theme-modes a row, as a JPEG."""
    tiles = [tile for v in variants(catalogue) for tile in variant_tiles(catalogue, fonts, v)]
    png = layout.contact_sheet(
        tiles,
        fonts,
        columns=2 * (layout.MAX_COVERS + 1),
        tile_width=TILE_WIDTH,
        title="Inkcard covers · 封面",
    )
    return layout.fit_image(png, SHEET_MAX_BYTES).data


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs/gallery/covers.jpg")
    fonts = layout.FontBook.load(layout.DEFAULT_FONTS_DIR)
    out.write_bytes(covers_sheet(themes.builtin(), fonts))
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
