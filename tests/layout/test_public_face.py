"""`layout` itself is the engine's public face: the cards' entry points, fonts, the theme
schema, the records and the errors. The article path's helpers (CSS colours, sanitising,
highlighting, math, diagrams as SVG, image re-encoding, WeChat cover crops) are reached through
their stages' own faces, and those still name the objects of their modules."""

from __future__ import annotations

from inkcard import layout
from inkcard.layout import covers, diagrams, draw, limits, parse, style, text
from inkcard.layout.draw import (
    ARTICLE_IMAGE_BYTES,
    COVER_IMAGE_BYTES,
    EncodedImage,
    ImageInfo,
    fit_image,
    imagecodec,
    probe_image,
)
from inkcard.layout.parse import code, highlight
from inkcard.layout.text import Formula, typeset_math
from inkcard.layout.text.formula import mathtex


def test_every_public_name_is_there() -> None:
    missing = [name for name in layout.__all__ if not hasattr(layout, name)]
    assert missing == []


ARTICLE_HELPERS = {
    "css_color",
    "relative_luminance",
    "clean_style",
    "clean_text",
    "valid_link",
    "highlight",
    "typeset_math",
    "diagram_svg",
    "fit_image",
    "probe_image",
    "centred_crops",
}


def test_the_face_is_short_and_the_article_helpers_are_the_stages() -> None:
    assert len(layout.__all__) <= 60
    assert ARTICLE_HELPERS.isdisjoint(layout.__all__)
    faces = [parse, style, text, diagrams, draw, covers]
    on_a_stage_face = {name for face in faces for name in face.__all__}
    assert on_a_stage_face >= ARTICLE_HELPERS


def test_stage_faces_name_their_modules_objects() -> None:
    assert highlight is code.highlight
    assert typeset_math is mathtex.typeset
    assert Formula is mathtex.Formula
    assert probe_image is imagecodec.probe
    assert fit_image is imagecodec.fit
    assert EncodedImage is imagecodec.EncodedImage
    assert ImageInfo is imagecodec.ImageInfo
    assert layout.ImageRejected is imagecodec.ImageRejected  # an error: on the face
    assert ARTICLE_IMAGE_BYTES == imagecodec.ARTICLE_IMAGE_BYTES
    assert COVER_IMAGE_BYTES == imagecodec.COVER_IMAGE_BYTES


def test_the_default_card_is_written_once() -> None:
    options = layout.RenderOptions()
    assert (options.width, options.height) == layout.DEFAULT_CARD_SIZE == (440, 586)
    assert (layout.DEFAULT_WIDTH, layout.DEFAULT_HEIGHT) == layout.DEFAULT_CARD_SIZE
    assert options.max_pages == layout.MAX_CARDS == limits.MAX_CARDS


def test_the_largest_card_follows_the_limits() -> None:
    width, height, scale = (layout.CARD_LIMITS[k][1] for k in ("width", "height", "scale"))
    assert layout.MAX_CARD_PIXELS == width * height * scale * scale == 1600 * 4000 * 4 * 4
