"""The engine's work budgets: image sizes read from headers before decoding, each distinct
image decoded once per render, and output pixels checked before drawing."""

from __future__ import annotations

import base64
import hashlib
import struct
import subprocess
import sys
import textwrap
import zlib

import numpy as np
import pytest
import skia

from inkcard import layout
from inkcard.layout.base import images as images_module
from inkcard.layout.base.boxes import Group, Item, Page, Picture
from inkcard.layout.base.images import Decoded, Images, header_size, image_ref


def png_1bit(width: int, height: int) -> bytes:
    """A black 1-bit PNG: a few KB on the wire however many pixels it declares."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    rows = (b"\x00" + bytes((width + 7) // 8)) * height
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def data_uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


def gif_header(width: int, height: int) -> bytes:
    """A GIF whose screen and first frame declare ``width`` x ``height`` (pixels left empty)."""
    screen = struct.pack("<HHBBB", width, height, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff"
    frame = b"," + struct.pack("<HHHHB", 0, 0, width, height, 0) + b"\x02\x02\x4c\x01\x00"
    return b"GIF89a" + screen + frame + b";"


def pictures(items: tuple[Item, ...]) -> list[Picture]:
    found: list[Picture] = []
    for item in items:
        if isinstance(item, Picture):
            found.append(item)
        elif isinstance(item, Group):
            found.extend(pictures(item.items))
    return found


def page_pictures(pages: list[Page]) -> list[Picture]:
    return [p for page in pages for p in pictures(page.items)]


@pytest.mark.parametrize("kind", [skia.kPNG, skia.kJPEG, skia.kWEBP])
def test_header_size_of_encoded_formats(kind: object) -> None:
    pixels = np.zeros((200, 300, 4), np.uint8)
    pixels[..., 3] = 255
    data = bytes(skia.Image.fromarray(pixels).encodeToData(kind, 80))
    assert header_size(data) == (300, 200)


def test_header_size_of_gif_and_of_junk() -> None:
    assert header_size(gif_header(300, 200)) == (300, 200)
    assert header_size(b"not an image") is None
    assert header_size(b"\x89PNG\r\n\x1a\n") is None


def test_header_size_decodes_nothing() -> None:
    # 16,000 x 16,000 would be 256 MB even as 8-bit gray; reading the header must not grow
    # the process by more than the few KB the file itself has.
    script = textwrap.dedent(
        """
        import resource, sys
        sys.path[:0] = sys.argv[1:]
        from tests.layout.test_image_budget import png_1bit
        from inkcard.layout.base.images import header_size
        data = png_1bit(16_000, 16_000)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        size = header_size(data)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(size, (after - before) // 1024)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script, ".dev", "."], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[:2] == ["(16000,", "16000)"]
    assert int(out[2]) < 32, f"reading a header grew the process by {out[2]} MB"


def test_each_distinct_image_is_decoded_once(
    fonts: layout.FontBook, apple_notes: layout.Theme, monkeypatch: pytest.MonkeyPatch
) -> None:
    uri = data_uri(png_1bit(800, 600))
    other = data_uri(png_1bit(300, 200))
    md = "![][a]\n\n" * 12 + f"![]({other})\n\n![][a]\n\n[a]: {uri}\n"
    decodes: list[int] = []

    def counted(data: bytes) -> object:
        decodes.append(len(data))
        return real_decode(data)

    real_decode = images_module._decode
    monkeypatch.setattr(images_module, "_decode", counted)  # the real decode, counted
    laid = layout.layout_cards(md, apple_notes, fonts, layout.RenderOptions(scale=0.25))
    found = page_pictures(laid.pages)
    assert len(found) == 14
    assert len({p.image.key for p in found}) == 2
    assert decodes == []  # layout read headers only
    layout.draw_cards(laid.pages, laid.images, fonts, layout.RenderOptions(scale=0.25))
    assert len(decodes) == 2


def test_images_name_each_source_once_by_its_bytes() -> None:
    data = png_1bit(40, 30)
    images = Images({"a.png": data, "b.png": data})
    first = images.ref(data_uri(data))
    assert first is not None and (first.width, first.height) == (40, 30)
    assert first.key == hashlib.sha256(data).hexdigest()
    assert images.ref("a.png") == images.ref("b.png") == first
    assert images.pixels == 40 * 30  # one image, however many sources name it
    assert images.blobs == {first.key: data}


def test_draw_decodes_a_key_once_and_refuses_bytes_layout_did_not_measure() -> None:
    data = png_1bit(40, 30)
    ref = image_ref(data)
    assert ref is not None
    decoded = Decoded({ref.key: data})
    image = decoded.image(ref)
    assert (image.width(), image.height()) == (40, 30)
    assert decoded.image(ref) is image
    liar = Decoded({ref.key: png_1bit(4000, 3000)})  # same key, other bytes: not decoded
    assert liar.image(ref) is None
    assert Decoded({}).image(ref) is None


def test_image_budget_counts_distinct_images_before_decoding(
    fonts: layout.FontBook, apple_notes: layout.Theme
) -> None:
    a, b = data_uri(png_1bit(1000, 1000)), data_uri(png_1bit(1000, 999))
    md = f"![]({a})\n\n![]({a})\n\n![]({b})\n"
    options = layout.RenderOptions(max_image_pixels=1_999_000)
    assert len(page_pictures(layout.layout_pages(md, apple_notes, fonts, options))) == 3
    with pytest.raises(layout.ImagesTooLarge) as refused:
        layout.render(md, apple_notes, fonts, layout.RenderOptions(max_image_pixels=1_998_999))
    assert (refused.value.pixels, refused.value.limit) == (1_999_000, 1_998_999)


def test_the_image_over_budget_is_never_decoded() -> None:
    small, big = data_uri(png_1bit(10, 10)), data_uri(png_1bit(3000, 3000))
    images = Images({}, max_pixels=1_000_000)
    with pytest.raises(layout.ImagesTooLarge):
        images.admit([small, big])
    assert images.ref(small) is not None
    with pytest.raises(layout.ImagesTooLarge):
        images.ref(big)  # refused again from its header; never decoded
    big_ref = image_ref(png_1bit(3000, 3000))
    assert big_ref is not None
    drawn = Decoded({big_ref.key: png_1bit(3000, 3000)}, max_pixels=1_000_000)
    with pytest.raises(layout.ImagesTooLarge):
        drawn.image(big_ref)  # draw holds the same budget, also before decoding


def test_image_over_the_per_image_limit_is_a_placeholder_outside_the_budget(
    fonts: layout.FontBook, apple_notes: layout.Theme
) -> None:
    huge = data_uri(png_1bit(8000, 8000))  # 64 MP: over the 40 MP per-image limit
    options = layout.RenderOptions(max_image_pixels=1)
    pages = layout.layout_pages(f"![huge]({huge})\n", apple_notes, fonts, options)
    assert page_pictures(pages) == []
    assert any("huge" in placed.row.text for placed in pages[0].rows)


THREE = "one\n\n---\n\ntwo\n\n---\n\nthree\n"
CARD = 440 * 586  # one default card at scale 1


def test_output_budget_sums_every_card(fonts: layout.FontBook, apple_notes: layout.Theme) -> None:
    def render(limit: int) -> list[bytes]:
        options = layout.RenderOptions(split="hrSplit", scale=1, max_total_pixels=limit)
        return layout.render(THREE, apple_notes, fonts, options)

    assert len(render(3 * CARD)) == 3
    with pytest.raises(layout.TooManyPixels) as refused:
        render(3 * CARD - 1)
    assert (refused.value.pixels, refused.value.limit) == (3 * CARD, 3 * CARD - 1)


def test_one_card_over_the_output_budget_is_refused_before_layout(
    apple_notes: layout.Theme,
) -> None:
    options = layout.RenderOptions(width=1600, height=4000, scale=4, max_total_pixels=10**8)
    # No font book at all: laying out would fail, so the refusal came before layout.
    with pytest.raises(layout.TooManyPixels) as refused:
        layout.render("# hi", apple_notes, None, options)  # type: ignore[arg-type]  # see above
    assert refused.value.pixels == 6400 * 16000
