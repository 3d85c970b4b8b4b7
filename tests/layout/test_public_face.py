"""`layout` itself is the engine's public face: what the service and the themes need is
importable from it, and the old submodule homes still name the same objects."""

from __future__ import annotations

import layout
from layout import limits
from layout.draw import imagecodec
from layout.parse import code
from layout.text import mathtex


def test_every_public_name_is_there() -> None:
    missing = [name for name in layout.__all__ if not hasattr(layout, name)]
    assert missing == []


def test_submodule_services_are_on_the_face() -> None:
    assert layout.highlight is code.highlight
    assert layout.typeset_math is mathtex.typeset
    assert layout.Formula is mathtex.Formula
    assert layout.probe_image is imagecodec.probe
    assert layout.fit_image is imagecodec.fit
    assert layout.EncodedImage is imagecodec.EncodedImage
    assert layout.ImageInfo is imagecodec.ImageInfo
    assert layout.ImageRejected is imagecodec.ImageRejected
    assert layout.ARTICLE_IMAGE_BYTES == imagecodec.ARTICLE_IMAGE_BYTES
    assert layout.COVER_IMAGE_BYTES == imagecodec.COVER_IMAGE_BYTES


def test_the_default_card_is_written_once() -> None:
    options = layout.RenderOptions()
    assert (options.width, options.height) == layout.DEFAULT_CARD_SIZE == (440, 586)
    assert (layout.DEFAULT_WIDTH, layout.DEFAULT_HEIGHT) == layout.DEFAULT_CARD_SIZE
    assert options.max_pages == layout.MAX_CARDS == limits.MAX_CARDS


def test_the_largest_card_follows_the_limits() -> None:
    width, height, scale = (layout.CARD_LIMITS[k][1] for k in ("width", "height", "scale"))
    assert layout.MAX_CARD_PIXELS == width * height * scale * scale == 1600 * 4000 * 4 * 4
