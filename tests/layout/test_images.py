"""The image guard: a file whose header claims more than MAX_PIXELS (or a side over
MAX_SIDE) is refused from its header alone, and the card shows the placeholder.

The bombs are real, valid PNGs: 1-bit grey, all black, a few kB of zlib that would
inflate to hundreds of MB of pixels if anything decoded them.
"""

from __future__ import annotations

import base64
import json
import struct
import subprocess
import sys
import textwrap
import tracemalloc
import zlib
from pathlib import Path

import numpy as np
import pytest

from inkcard import layout
from inkcard.layout.base import images
from inkcard.layout.base.boxes import Fill, Group, Item, Page, Picture
from tests import pngcodec

MB = 1 << 20


def one_bit_png(width: int, height: int) -> bytes:
    """A valid black 1-bit greyscale PNG, built row by row so the test stays small too."""
    row = b"\x00" * (1 + (width + 7) // 8)  # filter byte, then packed pixels
    squeezer = zlib.compressobj(9)
    idat = b"".join(squeezer.compress(row) for _ in range(height)) + squeezer.flush()
    head = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return pngcodec.SIGNATURE + b"".join(
        pngcodec._chunk(kind, data)  # the test codec's chunk framing: length, kind, CRC
        for kind, data in ((b"IHDR", head), (b"IDAT", idat), (b"IEND", b""))
    )


@pytest.fixture(scope="module")
def bomb() -> bytes:
    png = one_bit_png(8000, 8000)  # 64 M pixels: 64 MB even as 8-bit grey
    assert len(png) < 64 * 1024
    assert (pngcodec.header(png).width, pngcodec.header(png).height) == (8000, 8000)
    return png


def decode(data: bytes) -> object:
    """What draw makes of one image's bytes: None when refused (from the header)."""
    ref = images.image_ref(data)
    return images.Decoded({ref.key: data}).image(ref) if ref else None


def test_a_small_image_decodes_to_its_size() -> None:
    data = pngcodec.encode(np.full((2, 3, 3), 200, np.uint8))
    ref = images.image_ref(data)
    assert ref is not None
    assert (ref.width, ref.height) == (3, 2)
    decoded = images.Decoded({ref.key: data}).image(ref)
    assert (decoded.width(), decoded.height()) == (3, 2)


def test_the_bomb_is_refused_without_python_allocations(bomb: bytes) -> None:
    tracemalloc.start()
    try:
        decoded = decode(bomb)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert decoded is None
    assert peak < 2 * len(bomb) + 64 * 1024  # the copy of the file, nothing per pixel


@pytest.mark.parametrize(
    ("width", "height"),
    [(6401, 6250), (20_000, 2), (2, 16_385)],  # 40,006,250 pixels; a side over 16,384
)
def test_just_over_a_limit_is_refused(width: int, height: int) -> None:
    assert decode(one_bit_png(width, height)) is None


def test_the_limits_are_the_documented_ones() -> None:
    assert (images.MAX_PIXELS, images.MAX_SIDE) == (40_000_000, 16_384)


def walk(items: tuple[Item, ...]) -> list[Item]:
    out: list[Item] = []
    for item in items:
        out.extend(walk(item.items) if isinstance(item, Group) else [item])
    return out


def card(md: str, fonts: layout.FontBook, theme: layout.Theme, **found: bytes) -> Page:
    [page] = layout.layout_pages(md, theme, fonts, layout.RenderOptions(), found)
    return page


@pytest.mark.parametrize("how", ["mapping", "data-uri"])
def test_the_card_shows_the_placeholder_for_a_bomb(box_fonts, plain_theme, bomb, how) -> None:
    if how == "mapping":
        page = card("![big](big.png)", box_fonts, plain_theme, **{"big.png": bomb})
    else:
        uri = "data:image/png;base64," + base64.b64encode(bomb).decode()
        page = card(f"![big]({uri})", box_fonts, plain_theme)
    items = walk(page.items)
    assert not any(isinstance(item, Picture) for item in items)
    assert [placed.row.text for placed in page.rows] == ["[big]"]
    panel = next(item for item in items if isinstance(item, Fill) and item.rect.width == 400)
    assert panel.color == 0x1F7F7F7F  # placeholder_bg rgba(127,127,127,.12)


def test_a_good_image_is_a_picture_at_its_size(box_fonts, plain_theme) -> None:
    page = card("![ok](ok.png)", box_fonts, plain_theme, **{"ok.png": one_bit_png(40, 30)})
    [picture] = [item for item in walk(page.items) if isinstance(item, Picture)]
    assert (picture.rect.x, picture.rect.width, picture.rect.height) == (200.0, 40.0, 30.0)


MEASURE = textwrap.dedent(
    """
    import json, sys
    from inkcard.layout.base import images
    def peak():  # VmHWM: this process's peak resident size (ru_maxrss survives exec)
        status = open("/proc/self/status").read().split("VmHWM:")[1]
        return int(status.split()[0]) * 1024
    out = {}
    for name in sys.argv[1:]:
        data = open(name, "rb").read()
        before = peak()
        ref = images.image_ref(data)
        decoded = images.Decoded({ref.key: data}).image(ref) if ref else None
        out[name] = [peak() - before, decoded is not None]
    print(json.dumps(out))
    """
)


def test_the_bomb_allocates_no_pixels_where_a_real_image_does(bomb, tmp_path: Path) -> None:
    """Native memory (Skia's) is invisible to tracemalloc, so a fresh process reports its
    peak resident size around each call: the bomb first, then a 16 M pixel image under the
    limit that really is decoded (16 MB of grey), proving the measure can see a decode."""
    (tmp_path / "bomb.png").write_bytes(bomb)
    (tmp_path / "real.png").write_bytes(one_bit_png(4000, 4000))
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, "bomb.png", "real.png"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    grew = json.loads(result.stdout)
    assert grew["bomb.png"][1] is False
    assert grew["bomb.png"][0] < 8 * MB
    assert grew["real.png"][1] is True
    assert grew["real.png"][0] > 12 * MB, grew  # measured: ~17 MB
