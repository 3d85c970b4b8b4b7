"""Lossless PNG candidates on our own cards: encode time and size, as JSON.

Run: `.venv/bin/python benchmarks/bench_png.py [--runs 9] [--themes all|NAME,...]
[--benchmark-card] [--only SUBSTRING]`.
Renders the corpus's Chinese post (and the mixed-script one) in each theme at the default
size and scale (440x586 @2x, noSplit, so the card grows to fit), then encodes every card
with each candidate: zlib / zlib-ng / ISA-L / libdeflate deflaters at several levels, each
with the PNG row filters None, Sub, Up and Paeth (numpy, vectorised) and a filter chosen per
row as libpng does ("adaptive"), strips deflated in
parallel threads, fpng, Skia's own encoder, and `layout.draw.png.encode_rgb` as shipped. Every
output is decoded by the tests' independent reader and compared with the pixels before its
time counts. Prints one JSON object: per candidate the median ms per card (median of
`--runs` over each card, summed over cards / cards) and the total bytes, sorted by time, and
each card's distinct colours (an indexed PNG needs ≤ 256). `--benchmark-card` measures only
bench_browser's card (the first post, apple-notes), whose Chromium PNG is the size to beat.
Optional candidates whose package is missing are listed under "skipped".
"""

from __future__ import annotations

import argparse
import json
import statistics
import struct
import sys
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from inkcard import layout, themes
from inkcard.layout.draw import png

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
import pngcodec  # noqa: E402  (the tests' own reader, importable once tests/ is on the path)

POSTS = [
    ROOT / "tests/cases/posts/01-efficiency-zh.md",
    ROOT / "tests/cases/posts/02-python-tips-mixed.md",
]
Encoder = Callable[[np.ndarray], bytes]
ADAPTIVE = -1  # a filter per row, chosen as libpng does (`adaptive_rows`)


# --- row filters, whole image at once (filter byte per row, then the filtered bytes) -----------


def filter_rows(rgb: np.ndarray, kind: int) -> np.ndarray:
    """(h, w*3+1) bytes: every row filtered with `kind` (0 None, 1 Sub, 2 Up, 4 Paeth)."""
    h, w, _ = rgb.shape
    cur = contiguous(rgb).reshape(h, w * 3)
    out = np.empty((h, w * 3 + 1), np.uint8)
    out[:, 0] = kind
    body = out[:, 1:]
    if kind == 0:
        body[:] = cur
    elif kind == 1:
        body[:, :3] = cur[:, :3]
        np.subtract(cur[:, 3:], cur[:, :-3], out=body[:, 3:])
    elif kind == 2:
        body[0] = cur[0]
        np.subtract(cur[1:], cur[:-1], out=body[1:])
    else:
        body[:] = cur - _paeth_predictor(cur)
    return out


def contiguous(rgb: np.ndarray) -> np.ndarray:
    """A packed copy of an RGBA view's RGB, a plane at a time (as layout/draw/png.py does)."""
    out = np.empty(rgb.shape, np.uint8)
    for channel in range(3):
        out[:, :, channel] = rgb[:, :, channel]
    return out


def _paeth_predictor(cur: np.ndarray) -> np.ndarray:
    a = np.zeros_like(cur, np.int16)
    a[:, 3:] = cur[:, :-3]
    b = np.zeros_like(cur, np.int16)
    b[1:] = cur[:-1]
    c = np.zeros_like(cur, np.int16)
    c[1:, 3:] = cur[:-1, :-3]
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c)).astype(np.uint8)


def adaptive_rows(rgb: np.ndarray) -> np.ndarray:
    """Each row filtered with whichever of None, Sub and Up gives the smallest sum of
    absolute (signed) bytes: libpng's heuristic, Paeth left out (88+ ms in numpy)."""
    tried = np.stack([filter_rows(rgb, kind) for kind in (0, 1, 2)])
    cost = np.abs(tried[:, :, 1:].view(np.int8).astype(np.int16)).sum(axis=2)
    best = cost.argmin(axis=0)
    return tried[best, np.arange(tried.shape[1])]


def wrap_png(rgb: np.ndarray, idat: bytes) -> bytes:
    h, w, _ = rgb.shape
    return png.Deflated(w, h, [idat]).png()


def zlib_style(compress: Callable[[bytes], bytes], kind: int) -> Encoder:
    if kind == ADAPTIVE:
        return lambda rgb: wrap_png(rgb, compress(adaptive_rows(rgb).data))
    return lambda rgb: wrap_png(rgb, compress(filter_rows(rgb, kind).data))


def parallel_strips(level: int, kind: int, strips: int, pool: ThreadPoolExecutor) -> Encoder:
    """pigz's trick: raw deflate per strip, each but the last ended by a sync flush."""

    def strip(data: memoryview, last: bool) -> bytes:
        deflater = zlib.compressobj(level, zlib.DEFLATED, -15)
        return deflater.compress(data) + deflater.flush(
            zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH
        )

    def encode(rgb: np.ndarray) -> bytes:
        raw = filter_rows(rgb, kind)
        rows = np.array_split(np.arange(raw.shape[0]), strips)
        parts = [raw[r[0] : r[-1] + 1].data for r in rows]
        bodies = pool.map(strip, parts, [i == len(parts) - 1 for i in range(len(parts))])
        adler = struct.pack(">I", zlib.adler32(raw.data))
        return wrap_png(rgb, b"\x78\x01" + b"".join(bodies) + adler)

    return encode


def candidates(pool: ThreadPoolExecutor) -> tuple[dict[str, Encoder], list[str]]:
    found: dict[str, Encoder] = {"shipped layout.draw.png.encode_rgb": png.encode_rgb}
    skipped: list[str] = []
    filters = {"none": 0, "sub": 1, "up": 2, "paeth": 4, "adaptive": ADAPTIVE}
    deflaters: dict[str, Callable[[int], Callable[[bytes], bytes]]] = {
        "zlib": lambda lv: lambda d: zlib.compress(d, lv)
    }
    found["zlib-1 rle/up"] = zlib_style(
        lambda d: (lambda c: c.compress(d) + c.flush())(zlib.compressobj(1, strategy=zlib.Z_RLE)), 2
    )
    try:
        from zlib_ng import zlib_ng

        deflaters["zlib-ng"] = lambda lv: lambda d: zlib_ng.compress(d, lv)
    except ImportError:
        skipped.append("zlib-ng")
    try:
        from isal import isal_zlib

        deflaters["isal"] = lambda lv: lambda d: isal_zlib.compress(d, lv)
    except ImportError:
        skipped.append("isal")
    try:
        import deflate

        deflaters["libdeflate"] = lambda lv: lambda d: deflate.zlib_compress(d, lv)
    except ImportError:
        skipped.append("libdeflate (deflate)")
    levels = {
        "zlib": (1, 6),
        "zlib-ng": (1, 2, 3, 4, 6),
        "isal": (0, 1, 2),
        "libdeflate": (1, 2, 3, 6),
    }
    for name, make in deflaters.items():
        for level in levels[name]:
            for fname, kind in filters.items():
                found[f"{name}-{level}/{fname}"] = zlib_style(make(level), kind)
    for strips in (2, 4):
        found[f"zlib-1/up x{strips} strips in threads"] = parallel_strips(1, 2, strips, pool)
    try:
        import fpng

        found["fpng"] = lambda rgb: fpng.from_ndarray(contiguous(rgb))
    except ImportError:
        skipped.append("fpng")
    import skia

    def skia_png(rgb: np.ndarray) -> bytes:
        rgba = rgb.base if rgb.base is not None and rgb.base.shape[2] == 4 else None
        if rgba is None:
            rgba = np.dstack((rgb, np.full(rgb.shape[:2], 255, np.uint8)))
        image = skia.Image.fromarray(rgba, colorType=skia.kRGBA_8888_ColorType)
        return bytes(image.encodeToData(skia.kPNG, 100))

    found["skia (all filters, zlib 6)"] = skia_png
    return found, skipped


def render_cards(theme_names: list[str], posts: list[Path]) -> list[tuple[str, np.ndarray]]:
    from inkcard.layout.draw import encode
    from inkcard.layout.draw import painter as draw

    fonts = layout.FontBook.load()
    painter = draw.Painter(fonts.typefaces(), scale=2)
    cards = []
    for post in posts:
        text = post.read_text("utf-8")
        for name in theme_names:
            [page, *_] = layout.layout_pages(text, themes.load(name), fonts, layout.RenderOptions())
            picture = painter.record(page)
            pixels = encode.rasterize(picture, page.width, page.height, page.background, 2)
            cards.append((f"{post.stem}/{name}", pixels))  # a view of RGBA, as encoded
    return cards


def colours(rgb: np.ndarray) -> int:
    """Distinct colours of a card (an indexed PNG could hold it exactly if ≤ 256)."""
    packed = contiguous(rgb).astype(np.uint32)
    return len(np.unique(packed[:, :, 0] << 16 | packed[:, :, 1] << 8 | packed[:, :, 2]))


def measure(encode: Encoder, cards: list[tuple[str, np.ndarray]], runs: int) -> dict[str, object]:
    per_card, size = [], 0
    for label, rgb in cards:
        out = encode(rgb)
        decoded = pngcodec.decode(out)
        if not np.array_equal(decoded[:, :, :3], rgb):
            raise AssertionError(f"{label}: decoded pixels differ")
        size += len(out)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            encode(rgb)
            times.append((time.perf_counter() - start) * 1000)
        per_card.append(statistics.median(times))
    return {"ms_per_card": round(sum(per_card) / len(per_card), 2), "bytes": size}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--themes", default="apple-notes,cyberpunk,watercolor,glassmorphism")
    parser.add_argument("--only", default="", help="substring: measure matching candidates only")
    parser.add_argument(
        "--benchmark-card",
        action="store_true",
        help="only bench_browser's card: the first post in apple-notes (overrides --themes)",
    )
    args = parser.parse_args()
    names = themes.names() if args.themes == "all" else args.themes.split(",")
    if args.benchmark_card:
        cards = render_cards(["apple-notes"], POSTS[:1])
    else:
        cards = render_cards([n for n in names if n in themes.names()], POSTS)
    with ThreadPoolExecutor(4) as pool:
        encoders, skipped = candidates(pool)
        results = {
            name: measure(encode, cards, args.runs)
            for name, encode in encoders.items()
            if args.only in name
        }
    ranked = dict(sorted(results.items(), key=lambda kv: kv[1]["ms_per_card"]))
    print(
        json.dumps(
            {
                "cards": [label for label, _ in cards],
                "pixels_per_card": round(
                    sum(rgb.shape[0] * rgb.shape[1] for _, rgb in cards) / len(cards)
                ),
                "runs": args.runs,
                # a palette (indexed) PNG holds at most 256 colours: how far each card is
                "colours": {label: colours(rgb) for label, rgb in cards},
                "candidates": ranked,
                "skipped": skipped,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
