"""Laid-out pages → pixels → encoded files (PNG, JPEG, WebP, PDF). Paints; never measures.

`painter` records a `Page` as a Skia picture and draws it at a scale (`shaders` turns paints
and effects into Skia's); `png` encodes RGB rows; `aigcmeta` adds an AI-content label's
record (`Aigc`, what `RenderOptions.aigc` takes) to an encoded file; `imagecodec` re-encodes
an image under a byte limit (the article path's images and covers); `sheet` draws a contact
sheet of cards.
May import: `layout.base`, `layout.text` (fonts, lines for captions), `layout.style`,
`layout.errors`, `layout.limits`.
"""

from ..base.aigc import Aigc
from .encode import load_row_packer, pack_rows_in_python, smaller_pngs
from .imagecodec import ARTICLE_IMAGE_BYTES, COVER_IMAGE_BYTES, EncodedImage, ImageInfo
from .imagecodec import fit as fit_image
from .imagecodec import mean_colour as image_mean_colour
from .imagecodec import probe as probe_image
from .imagecodec import tones as image_tones
from .sheet import Tile, contact_sheet

__all__ = [
    "ARTICLE_IMAGE_BYTES",
    "COVER_IMAGE_BYTES",
    "Aigc",
    "EncodedImage",
    "ImageInfo",
    "Tile",
    "contact_sheet",
    "fit_image",
    "image_mean_colour",
    "image_tones",
    "load_row_packer",
    "pack_rows_in_python",
    "probe_image",
    "smaller_pngs",
]
