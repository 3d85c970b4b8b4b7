"""The PNG writer, judged by an independent decoder (tests/pngcodec.py: zlib and numpy).

Skia draws the pixels, so Skia does not judge the file; layout.draw.png does not judge it
either. The decoder itself is first checked against files Skia's encoder wrote with all
five row filters.
"""

from __future__ import annotations

import math
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
import skia

from inkcard import layout
from inkcard.layout.base.boxes import Fill, Page, Rect
from inkcard.layout.draw.encode import encode_png, rasterize
from inkcard.layout.draw.painter import Painter
from inkcard.layout.draw.png import encode_rgb
from tests import pngcodec

CASES = Path(__file__).resolve().parents[1] / "cases"

SIZES = [(1, 1), (1, 7), (5, 3), (13, 17), (64, 33), (101, 2)]  # (width, height): odd widths


def noise(width: int, height: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_pixels_survive_the_round_trip(width: int, height: int) -> None:
    pixels = noise(width, height)
    decoded = pngcodec.decode(encode_rgb(pixels))
    assert decoded.shape == (height, width, 3)
    assert np.array_equal(decoded, pixels)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_header_says_8_bit_truecolour_of_the_right_size(width: int, height: int) -> None:
    png = encode_rgb(noise(width, height))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[8:16] == struct.pack(">I", 13) + b"IHDR"
    head = pngcodec.header(png)
    assert (head.width, head.height, head.bit_depth, head.colour_type) == (width, height, 8, 2)
    assert (head.compression, head.filter_method, head.interlace) == (0, 0, 0)


def test_chunks_are_ihdr_idat_iend_with_correct_crcs() -> None:
    png = encode_rgb(noise(13, 17))
    chunks = pngcodec.chunks(png)
    assert [c.kind for c in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    assert all(c.crc_ok for c in chunks)
    assert chunks[2].data == b""
    assert chunks[2].crc == 0xAE426082  # the CRC every empty IEND carries
    assert sum(12 + len(c.data) for c in chunks) + 8 == len(png)


def test_every_row_uses_filter_none_in_one_fast_zlib_stream() -> None:
    png = encode_rgb(noise(5, 3))
    idat = pngcodec.chunks(png)[1].data
    assert idat[0] == 0x78 and int.from_bytes(idat[:2]) % 31 == 0  # deflate, 32K window
    assert idat[1] >> 6 == 1  # FLEVEL "fast": ISA-L level 1, not a slow zlib level
    raw = zlib.decompress(idat)  # the standard inflater reads ISA-L's stream
    assert [raw[row * 16] for row in range(3)] == [0, 0, 0]  # 1 filter byte + 5 * 3 samples


def test_flat_colour_packs_small() -> None:
    """A card's flat background must cost almost nothing: the point of the fast deflater."""
    flat = np.zeros((1172, 880, 3), np.uint8)
    flat[:] = (250, 247, 240)
    flat[100:140, 50:830] = (30, 30, 30)
    png = encode_rgb(flat)
    assert np.array_equal(pngcodec.decode(png), flat)
    assert len(png) < flat.nbytes // 100


def test_a_corrupt_byte_is_caught_by_the_crc() -> None:
    png = bytearray(encode_rgb(noise(5, 3)))
    png[-20] ^= 0xFF  # inside IDAT
    with pytest.raises(pngcodec.PNGFormatError, match="CRC"):
        pngcodec.decode(bytes(png))


def page(width: float, height: float, background: int, *fills: Fill) -> Page:
    return Page(width=width, height=height, background=background, items=fills)


@pytest.mark.parametrize(("width", "height", "scale"), [(7, 5, 1), (33, 9, 1.5), (21, 4, 2)])
def test_a_card_decodes_to_exactly_the_rasterised_pixels(fonts, width, height, scale) -> None:
    card = page(width, height, 0xFFFFFFFF, Fill(Rect(1, 1, 3, 2), 0xFF336699))
    picture = Painter(fonts.typefaces()).record(card)
    expected = rasterize(picture, width, height, card.background, scale)
    decoded = pngcodec.decode(encode_png(picture, width, height, card.background, scale))
    assert decoded.shape == (math.ceil(height * scale), math.ceil(width * scale), 3)
    assert np.array_equal(decoded, expected)


def test_known_colours_land_on_known_pixels(fonts) -> None:
    card = page(
        6,
        4,
        0xFF102030,
        Fill(Rect(0, 0, 3, 4), 0xFFFF0000),  # opaque red, left half
        Fill(Rect(3, 0, 3, 2), 0x80FFFFFF),  # half-transparent white, top right
    )
    picture = Painter(fonts.typefaces()).record(card)
    pixels = pngcodec.decode(encode_png(picture, 6, 4, card.background, 1))
    assert pixels[:, :3].reshape(-1, 3).tolist() == [[255, 0, 0]] * 12
    assert pixels[2:, 3:].reshape(-1, 3).tolist() == [[0x10, 0x20, 0x30]] * 6
    # white at alpha 128/255 over the background: bg + (255 - bg) * 128 / 255, rounded
    blended = [round(c + (255 - c) * 128 / 255) for c in (0x10, 0x20, 0x30)]
    top_right = pixels[:2, 3:].reshape(-1, 3)
    assert np.abs(top_right - np.array(blended)).max() <= 1, top_right.tolist()


def test_a_translucent_card_background_is_drawn_opaque(fonts) -> None:
    card = page(3, 2, 0x40FF8000)
    picture = Painter(fonts.typefaces()).record(card)
    png = encode_png(picture, 3, 2, card.background, 1)
    assert pngcodec.header(png).colour_type == 2  # no alpha channel in a card
    assert pngcodec.decode(png).reshape(-1, 3).tolist() == [[255, 128, 0]] * 6


def test_rendered_cards_match_their_rasterised_pages(fonts, apple_notes) -> None:
    options = layout.RenderOptions(width=201, height=99, scale=1, mode="dark-mode")
    markdown = "# Odd *width*\n\nText with `code` and 中文."
    [png] = layout.render(markdown, apple_notes, fonts, options)
    [laid] = layout.layout_pages(markdown, apple_notes, fonts, options)
    picture = Painter(fonts.typefaces()).record(laid)
    expected = rasterize(picture, laid.width, laid.height, laid.background, 1)
    decoded = pngcodec.decode(png)
    assert decoded.shape == (math.ceil(laid.height), 201, 3)  # noSplit grows to fit
    assert np.array_equal(decoded, expected)
    assert len(np.unique(decoded.reshape(-1, 3), axis=0)) > 10  # text was drawn


@pytest.mark.parametrize("seed", [1, 2])
def test_the_test_decoder_reads_every_row_filter(seed: int) -> None:
    """Skia's encoder picks among all five filters; the test decoder must undo each."""
    rgba = np.random.default_rng(seed).integers(0, 256, (9, 7, 4), dtype=np.uint8)
    ramp = np.tile(np.arange(0, 252, 4, dtype=np.uint8), (9, 1))[:, :7]
    rgba[:, :, 0] = ramp  # smooth rows tempt Sub and Up, noise tempts Paeth
    rgba[:, :, 3] = 255
    png = bytes(
        skia.Image.fromarray(rgba, colorType=skia.kRGBA_8888_ColorType).encodeToData(skia.kPNG, 100)
    )
    head = pngcodec.header(png)
    stride = head.width * pngcodec.CHANNELS[head.colour_type] + 1
    raw = zlib.decompress(b"".join(c.data for c in pngcodec.chunks(png) if c.kind == b"IDAT"))
    assert len({raw[row * stride] for row in range(head.height)}) >= 2
    decoded = pngcodec.decode(png)
    assert np.array_equal(decoded, rgba[:, :, : decoded.shape[2]])


CARDS = [
    ("01-efficiency-zh", "apple-notes", None),
    ("01-efficiency-zh", "cyberpunk", None),
    ("02-python-tips-mixed", "watercolor", None),
    ("07-japanese-korean", "glassmorphism", None),
    ("03-english-notes", "apple-notes", "dark-mode"),
]


@pytest.mark.parametrize(("post", "theme", "mode"), CARDS)
def test_real_cards_decode_to_exactly_the_rendered_pixels(fonts, post, theme, mode) -> None:
    """Default size and scale, real themes: two independent decoders give back every pixel."""
    from inkcard import themes

    text = (CASES / "posts" / f"{post}.md").read_text("utf-8")
    options = layout.RenderOptions(mode=mode)
    [laid, *_] = layout.layout_pages(text, themes.load(theme), fonts, options)
    picture = Painter(fonts.typefaces(), scale=2).record(laid)
    expected = rasterize(picture, laid.width, laid.height, laid.background, 2)
    png = encode_rgb(expected)
    assert np.array_equal(pngcodec.decode(png), expected)
    by_skia = skia.Image.MakeFromEncoded(skia.Data.MakeWithCopy(png)).toarray(
        colorType=skia.kRGBA_8888_ColorType
    )
    assert np.array_equal(by_skia[:, :, :3], expected)
    assert len(np.unique(expected.reshape(-1, 3), axis=0)) > 10  # text was drawn


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("band_bytes", [1, 4 << 20])
def test_packing_rows_in_python_writes_the_bytes_pillow_writes(
    monkeypatch: pytest.MonkeyPatch, width: int, height: int, band_bytes: int
) -> None:
    """Pillow's rows (each followed by a zero, moved one byte on) and Python's slices give
    the same file, also when every band is one row; the alpha bytes never reach it."""
    from inkcard.layout.draw import png

    monkeypatch.setattr(png, "BAND_BYTES", band_bytes)
    pixels = noise(width, height, seed=width)
    alpha = np.random.default_rng(1).integers(0, 256, (height, width), dtype=np.uint8)
    rgba = bytearray(np.dstack((pixels, alpha)).tobytes())
    by_pillow = png.deflate_rgba(rgba, width, height).png()
    assert png.deflate_rgba(rgba, width, height, in_python=True).png() == by_pillow
    assert np.array_equal(pngcodec.decode(by_pillow), pixels)


NUMPY_FREE_RENDER = """
import sys
from pathlib import Path
from inkcard import layout, themes
from inkcard.layout import draw
if sys.argv[4] == "lean":
    draw.pack_rows_in_python()
text = Path(sys.argv[1]).read_text("utf-8")
fonts, options = layout.FontBook.load(), layout.RenderOptions()
[png] = layout.render(text, themes.load(sys.argv[2]), fonts, options)
Path(sys.argv[3]).write_bytes(png)
print("numpy" in sys.modules, "PIL" in sys.modules)
"""


NUMPY_FREE_CARDS = [("01-efficiency-zh", "apple-notes"), ("02-python-tips-mixed", "art-deco")]


@pytest.mark.parametrize(("post", "theme"), NUMPY_FREE_CARDS)
def test_a_process_without_numpy_writes_the_same_png(tmp_path, post, theme) -> None:
    """Neither process loads numpy (art-deco has gradients, which skia-python would
    convert through numpy); one that says it draws a card or two does not load Pillow
    either, and still writes, byte for byte, the PNG of a process that did not say so: that
    one, a library user who imported nothing, gets Pillow's packing all the same. Both are
    fresh processes: this one has drawn whatever the tests before it drew."""
    path = CASES / "posts" / f"{post}.md"
    lean, full = tmp_path / "lean.png", tmp_path / "full.png"
    lean_run = [sys.executable, "-c", NUMPY_FREE_RENDER, str(path), theme, str(lean), "lean"]
    full_run = [sys.executable, "-c", NUMPY_FREE_RENDER, str(path), theme, str(full), "library"]
    loaded = subprocess.run(lean_run, capture_output=True, text=True, check=True).stdout.split()
    assert loaded == ["False", "False"]
    loaded = subprocess.run(full_run, capture_output=True, text=True, check=True).stdout.split()
    assert loaded == ["False", "True"]
    assert lean.read_bytes() == full.read_bytes()
    assert pngcodec.decode(full.read_bytes()).shape[1] == 880


EVERY_THEME_RENDER = """
import sys
from inkcard import layout, themes
from inkcard.layout import draw
draw.load_row_packer()  # as a render worker does at start
catalogue, fonts = themes.builtin(), layout.FontBook.load()
text = "# 墨卡 Inkcard\\n\\n> a quote, a [link](https://example.com) and `code`\\n\\n- one\\n- two"
for name in catalogue.names():
    for mode in catalogue.modes(name) or [None]:
        layout.render(text, catalogue.get(name), fonts, layout.RenderOptions(mode=mode))
print("numpy" in sys.modules)
"""


def test_a_render_worker_drawing_every_theme_never_loads_numpy() -> None:
    """numpy costs a render worker 10-14 MB (benchmarks.md, "Memory"): rows are packed by
    Pillow, and every Skia call that would convert a `None` matrix through numpy (the grain
    tile's shader did, in typewriter and the other paper themes) is given an identity."""
    run = [sys.executable, "-c", EVERY_THEME_RENDER]
    assert subprocess.run(run, capture_output=True, text=True, check=True).stdout.split() == [
        "False"
    ]


SMALLER_RENDER = """
import sys
from pathlib import Path
from inkcard import layout, themes
from inkcard.layout import draw
if sys.argv[3] == "small":
    draw.smaller_pngs()
fonts, options = layout.FontBook.load(), layout.RenderOptions()
text = Path(sys.argv[1]).read_text("utf-8")
[png] = layout.render(text, themes.load("apple-notes"), fonts, options)
Path(sys.argv[2]).write_bytes(png)
"""


def test_an_operator_who_asks_for_small_pngs_gets_the_same_pixels_in_fewer_bytes(tmp_path) -> None:
    """INKCARD_PNG_COMPRESSION=small (the worker calls `draw.smaller_pngs`): zlib at 6, the
    benchmark card about a fifth smaller than ISA-L's, pixel for pixel the same."""
    post = CASES / "posts" / "01-efficiency-zh.md"
    files = {}
    for kind in ("fast", "small"):
        files[kind] = tmp_path / f"{kind}.png"
        run = [sys.executable, "-c", SMALLER_RENDER, str(post), str(files[kind]), kind]
        subprocess.run(run, check=True, capture_output=True)
    fast, small = files["fast"].read_bytes(), files["small"].read_bytes()
    assert np.array_equal(pngcodec.decode(fast), pngcodec.decode(small))
    assert len(small) < 0.9 * len(fast)
    assert pngcodec.chunks(small)[1].data[1] >> 6 == 2  # FLEVEL "default": zlib 6
