"""How legible is italic Chinese? OCR of italic CJK text set oblique (before) and in Kai
(after, the clreq convention the engine now follows), as JSON.

Run: `.venv/bin/python benchmarks/bench_ocr_emphasis.py` (needs Debian's `tesseract-ocr`
and `tesseract-ocr-chi-sim`). Two samples from the corpus (tests/cases/posts):

- `italic_runs`: the text the corpus really sets in italic — blockquotes and `*em*` —
  where it contains Chinese;
- `all_paragraphs`: every Chinese paragraph of the corpus set in italic, a larger sample of
  the same glyphs (what a theme with italic body text or a long quote would show).

Each text is laid out by the engine (layout_text, 16 px, apple-notes quote grey on white,
400 px wide) with `cjk_italic` "oblique" or "kai", drawn at scale 2 and read by
`tesseract -l chi_sim --psm 6`. Character accuracy = 1 − edit distance / reference length,
whitespace ignored, summed over the sample. Upright sans is printed as a ceiling.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

import skia

from inkcard import layout
from inkcard.layout.base.boxes import Group
from inkcard.layout.draw import encode, png
from inkcard.layout.draw import painter as draw
from inkcard.layout.style.spanstyle import CjkItalic, Span, SpanStyle
from inkcard.layout.text.inline import layout_text
from inkcard.layout.text.linebox import line_metrics

ROOT = Path(__file__).resolve().parents[1]
POSTS = ROOT / "tests" / "cases" / "posts"
SCALE = 2.0
WIDTH = 400.0
SIZE = 16.0
INK = 0xFF666666  # apple-notes quote colour
PAPER = 0xFFFFFFFF
HAN = re.compile(r"[\u4e00-\u9fff]")
KANA = re.compile(r"[\u3040-\u30ff]")
EM = re.compile(r"(?<!\*)\*([^*\n]+)\*(?!\*)")
MARKUP = re.compile(r"\*\*|[*`#>\[\]]|\(https?://[^)]*\)|^\s*(?:[-+]|\d+\.)\s+")
VARIANTS: dict[str, tuple[bool, CjkItalic]] = {  # name → (italic, cjk_italic)
    "upright": (False, "kai"),
    "oblique": (True, "oblique"),
    "kai": (True, "kai"),
}


def chinese(text: str) -> bool:
    return bool(HAN.search(text)) and not KANA.search(text)


def plain(line: str) -> str:
    return MARKUP.sub("", line).strip()


def italic_runs(markdown: str) -> list[str]:
    quotes = [plain(line.lstrip("> ")) for line in markdown.splitlines() if line.startswith(">")]
    ems = [m.group(1) for m in EM.finditer(markdown)]
    return [t for t in quotes + ems if chinese(t)]


def paragraphs(markdown: str) -> list[str]:
    in_code = False
    out = []
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and chinese(line) and not line.startswith(("|", "#")):
            out.append(plain(line))
    return out


def draw_text(text: str, fonts: layout.FontBook, variant: tuple[bool, CjkItalic]) -> bytes:
    italic, cjk_italic = variant
    style = SpanStyle("sans", SIZE, bold=False, italic=italic, color=INK, cjk_italic=cjk_italic)
    metrics = line_metrics(fonts, "sans", False, SIZE, 1.75)
    lines = layout_text([Span(text, style)], fonts, x=8.0, width=WIDTH, metrics=metrics)
    height = sum(line.height for line in lines) + 16.0
    recorder = skia.PictureRecorder()
    canvas = recorder.beginRecording(skia.Rect.MakeWH(WIDTH + 16, height))
    painter = draw.Painter(fonts.typefaces())
    y = 8.0
    for line in lines:
        painter.paint(canvas, (Group(line.items, dy=y),))
        y += line.height
    picture = recorder.finishRecordingAsPicture()
    return png.encode_rgb(encode.rasterize(picture, WIDTH + 16, height, PAPER, SCALE))


def ocr(image: bytes, folder: Path) -> str:
    path = folder / "crop.png"
    path.write_bytes(image)
    out = subprocess.run(
        ["tesseract", str(path), "stdout", "-l", "chi_sim", "--psm", "6"],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout


def edit_distance(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ca != cb))
    return row[-1]


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def accuracy(
    texts: list[str], fonts: layout.FontBook, variant: tuple[bool, CjkItalic]
) -> dict[str, float]:
    errors = total = 0
    with tempfile.TemporaryDirectory() as folder:
        for text in texts:
            reference = squeeze(text)
            image = draw_text(text, fonts, variant)
            errors += edit_distance(reference, squeeze(ocr(image, Path(folder))))
            total += len(reference)
    return {"characters": total, "errors": errors, "accuracy": round(1 - errors / total, 4)}


def main() -> None:
    fonts = layout.FontBook.load()
    posts = sorted(POSTS.glob("*.md"))
    samples = {
        "italic_runs": [t for p in posts for t in italic_runs(p.read_text("utf-8"))],
        "all_paragraphs": [t for p in posts for t in paragraphs(p.read_text("utf-8"))],
    }
    report = {
        "ocr": "tesseract chi_sim --psm 6, scale 2, 16 px, 400 px wide",
        "samples": {
            name: {variant: accuracy(texts, fonts, knobs) for variant, knobs in VARIANTS.items()}
            for name, texts in samples.items()
        },
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
