"""Every Mermaid case next to mermaid-js's own drawing of the same source: one picture per
case to look at, and a JSON line of figures per case on stdout.

Each post of tests/cases/mermaid/ is drawn five ways, all at device scale 2:

* mermaid-js (npm `mermaid@11`, its `mermaid.min.js`) in a 343-px column (a phone's
  article) and in a 440-px column (a card's width), in Debian's /usr/bin/chromium driven by
  Playwright (`executable_path`: no browser download), the page served on 127.0.0.1;
* Inkcard's article SVG (`layout.diagrams.diagram_svg`) in the same 343-px column;
* Inkcard's cards, 440x586 at scale 2 (autoSplit), in two themes (apple-notes, darktech).

Both browsers' pages use the repo's Noto Sans CJK (fonts/) under the name the article SVG
asks for, and mermaid-js is told that family too: the fonts are the same on both sides.
The picture (`--out`, one PNG per case) has mermaid-js 343 | Inkcard article 343 |
mermaid-js 440 on top, then each theme's cards, four to a row. The figures: the scale
each side's drawing is shown at in the 343-px column (its width over its natural width:
text under 1 is shrunk) and its median label size on screen in CSS px, the cards' count,
and mermaid-js's error when it refuses a source.

Set-up (once, outside the repo: the product never uses Node):
`mkdir -p /tmp/mmd && cd /tmp/mmd && npm install mermaid@11`. Run:
`.venv/bin/python benchmarks/compare_mermaid.py [--mermaid /tmp/mmd] [--out /tmp/mmd/pairs]
[--only 40,90]`. docs/decisions/diagrams-review-2026-12-03.md holds the verdicts.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import re
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / ".dev"))  # `inkcard`: src/ through the .dev/inkcard symlink

from inkcard import layout, themes  # noqa: E402 - the path above must come first
from inkcard.layout.diagrams import diagram_svg  # noqa: E402
from inkcard.layout.errors import DiagramError  # noqa: E402

CASES = ROOT / "tests" / "cases" / "mermaid"
FENCE = re.compile(r"```mermaid\n(.*?)```", re.S)
CHROMIUM = "/usr/bin/chromium"
ARTICLE, CARD, SCALE = 343, 440, 2  # px: a phone's article column, a card's width
THEMES = ("apple-notes", "darktech")
FAMILY = "Noto Sans CJK SC"  # the article SVG's own fallback name, given the repo's font
GAP = 24  # px between the pictures of a row
CARDS_A_ROW = 4  # a wider row would be shrunk past reading when looked at

PAGE = f"""<!doctype html><html><head><meta charset="utf-8"><style>
@font-face {{ font-family: "{FAMILY}"; src: url("/fonts/NotoSansCJKsc-Regular.otf"); }}
@font-face {{ font-family: "{FAMILY}"; src: url("/fonts/NotoSansCJKsc-Bold.otf");
  font-weight: 700; }}
html, body {{ margin: 0; background: #fff; font-family: "{FAMILY}", sans-serif; }}
#c {{ padding: 0; }}
</style><script src="/mermaid/node_modules/mermaid/dist/mermaid.min.js"></script></head>
<body><div id="c"></div></body></html>"""

TEXT_PX = """(el, scale) => {  // the median label size on screen: each text's font size x scale
  const sizes = [];
  for (const node of el.querySelectorAll('*')) {
    if ([...node.childNodes].some(c => c.nodeType === 3 && c.textContent.trim()))
      sizes.push(parseFloat(getComputedStyle(node).fontSize) * scale);
  }
  sizes.sort((a, b) => a - b);
  return sizes.length ? Math.round(sizes[sizes.length >> 1] * 10) / 10 : 0;
}"""

RENDER = (
    """async ([src, width, family]) => {
  await document.fonts.load('16px "' + family + '"', '中A');
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', fontFamily: family,
                       themeVariables: { fontFamily: family } });
  const box = document.getElementById('c');
  box.style.width = width + 'px';
  try {
    const { svg } = await mermaid.render('m' + Math.floor(Math.random() * 1e9), src);
    box.innerHTML = svg;
  } catch (e) {
    box.innerHTML = '<pre style="white-space:pre-wrap;color:#b00">' + e.message + '</pre>';
    return { error: String(e.message).split('\\n')[0] };
  }
  const el = box.querySelector('svg');
  const natural = el.viewBox.baseVal.width || el.getBoundingClientRect().width;
  const scale = el.getBoundingClientRect().width / natural;
  return { scale: scale, text_px: ("""
    + TEXT_PX
    + """)(el, scale) };
}"""
)

SHOW_SVG = (
    """([svg, width]) => {
  const box = document.getElementById('c');
  box.style.width = width + 'px';
  box.innerHTML = svg;
  const el = box.querySelector('svg');
  const scale = el.getBoundingClientRect().width / el.viewBox.baseVal.width;
  return { scale: scale, text_px: ("""
    + TEXT_PX
    + """)(el, scale) };
}"""
)


def _serve(mermaid_dir: Path) -> ThreadingHTTPServer:
    """A quiet static server on 127.0.0.1: the page, the fonts and mermaid's files."""

    class Handler(SimpleHTTPRequestHandler):
        def translate_path(self, path: str) -> str:
            if path.startswith("/fonts/"):
                return str(ROOT / "fonts" / path.removeprefix("/fonts/"))
            if path.startswith("/mermaid/"):
                return str(mermaid_dir / path.removeprefix("/mermaid/"))
            return str(Path("/nonexistent"))

        def do_GET(self) -> None:
            if self.path == "/":
                body = PAGE.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            super().do_GET()

        def log_message(self, *args: Any) -> None:  # one line per file would drown the JSON
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _shot(page: Page) -> Image.Image:
    return Image.open(io.BytesIO(page.locator("#c").screenshot())).convert("RGB")


def _row(pictures: list[Image.Image], captions: list[str]) -> Image.Image:
    """The pictures side by side on white, tops aligned, each with its caption above."""
    head = 36
    width = sum(p.width for p in pictures) + GAP * (len(pictures) + 1)
    height = max(p.height for p in pictures) + head + GAP
    row = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(row)
    x = GAP
    for picture, caption in zip(pictures, captions, strict=True):
        draw.text((x, 8), caption, fill="#c00000", font_size=24)
        row.paste(picture, (x, head))
        draw.rectangle((x - 1, head - 1, x + picture.width, head + picture.height), outline="#ccc")
        x += picture.width + GAP
    return row


def _stack(rows: list[Image.Image]) -> Image.Image:
    sheet = Image.new("RGB", (max(r.width for r in rows), sum(r.height for r in rows)), "white")
    y = 0
    for row in rows:
        sheet.paste(row, (0, y))
        y += row.height
    return sheet


def compare(page: Page, post: Path, fonts: layout.FontBook, out: Path) -> dict[str, Any]:
    """One case's picture written to `out`, and its figures."""
    text = post.read_text("utf-8")
    fence = FENCE.search(text)
    source = fence.group(1) if fence else ""
    figures: dict[str, Any] = {"case": post.stem}
    shots, captions = [], []
    for width in (ARTICLE, CARD):
        result = page.evaluate(RENDER, [source, width, FAMILY])
        figures[f"mermaid {width}"] = result
        shots.append(_shot(page))
        captions.append(f"mermaid-js {width}px")
        if width == ARTICLE:
            try:
                figures["inkcard article"] = page.evaluate(SHOW_SVG, [diagram_svg(source), width])
                shots.append(_shot(page))
            except DiagramError as error:
                figures["inkcard article"] = {"error": str(error)}
                shots.append(Image.new("RGB", (ARTICLE * SCALE, 80), "#fdd"))
            captions.append(f"inkcard article {width}px")
    rows = [_row(shots, captions)]
    for theme_id in THEMES:
        options = layout.RenderOptions(width=CARD, height=586, split="autoSplit", scale=SCALE)
        pngs = layout.render(text, themes.load(theme_id), fonts, options)
        figures[f"cards {theme_id}"] = len(pngs)
        cards = [Image.open(io.BytesIO(png)).convert("RGB") for png in pngs]
        labels = [f"{theme_id} {n + 1}/{len(pngs)}" for n in range(len(pngs))]
        for start in range(0, len(cards), CARDS_A_ROW):
            rows.append(
                _row(cards[start : start + CARDS_A_ROW], labels[start : start + CARDS_A_ROW])
            )
    _stack(rows).save(out / f"{post.stem}.png")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mermaid", type=Path, default=Path("/tmp/mmd"))
    parser.add_argument("--out", type=Path, default=Path("/tmp/mmd/pairs"))
    parser.add_argument("--only", default="", help="case numbers, comma-separated")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    only = tuple(f"{n}-" for n in args.only.split(",") if n)
    fonts = layout.FontBook.load()
    server = _serve(args.mermaid.resolve())
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            context = browser.new_context(device_scale_factor=SCALE)
            page = context.new_page()
            page.set_default_timeout(60_000)
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
            for post in sorted(CASES.glob("*.md")):
                if not only or post.stem.startswith(only):
                    print(json.dumps(compare(page, post, fonts, args.out), ensure_ascii=False))
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
