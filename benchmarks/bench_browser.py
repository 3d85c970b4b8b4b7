"""Inkcard against the browser, in one run: warm per card and cold start, as JSON on stdout.

The same post (tests/cases/posts/01-efficiency-zh.md), the same fonts (fonts/) and the
apple-notes styling, 440 px wide at scale 2, one card (noSplit), drawn three ways:

* inkcard: ``layout.render`` warm in one process; cold: ``inkcard render`` spawned to first PNG;
* Chromium: the post as HTML/CSS (markdown-it-py, @font-face on the repo's font files by
  file:// URL) screenshotted by Debian's /usr/bin/chromium through Playwright's
  ``executable_path``; warm: one loaded page (fonts in memory) whose card is swapped in again
  and again and screenshotted; cold: a fresh Python process that launches the browser, to
  first PNG written;
* Satori + resvg (npm, run by /usr/bin/node): the same blocks as a Satori element tree, fonts
  from the same files; warm in one Node process; cold: node spawned to first PNG written.

Set-up once: ``benchmarks/setup.sh``. Run: ``.venv/bin/python benchmarks/bench_browser.py
[--runs 15] [--spawns 3] [--out DIR]``. Bounded: every child process has a time limit.
Not collected by pytest. docs/decisions/engine.md, "Browser baseline", says why
the HTML is a fair baseline.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

ROOT = Path(__file__).resolve().parents[1]
POST = ROOT / "tests" / "cases" / "posts" / "01-efficiency-zh.md"
FONTS = ROOT / "fonts"
NODE_DIR = ROOT / "benchmarks" / "node"
CHROMIUM = "/usr/bin/chromium"
NODE = "/usr/bin/node"
WIDTH, SCALE = 440, 2
CHILD_LIMIT_S = 300  # no child process may run longer

# apple-notes (src/themes/apple-notes/card.toml) on the base style (src/layout/style/schema.py)
YELLOW, TEXT, QUOTE, BORDER = "#F8C744", "#333333", "#666666", "rgba(0,0,0,.1)"
CHEVRON = "M15 19 L8 12 L15 5"
SHARE = (
    "M8 9 L6 9 Q4 9 4 11 L4 20 Q4 22 6 22 L18 22 Q20 22 20 20 L20 11 Q20 9 18 9 L16 9 "
    "M12 2 L12 15 M8 6 L12 2 L16 6"
)
RING = "M22 12 A10 10 0 1 1 2 12 A10 10 0 1 1 22 12 Z"
DOTS = "".join(  # the three filled dots in the ring
    f"M{x + 1.4} 12 A1.4 1.4 0 1 1 {x - 1.4} 12 A1.4 1.4 0 1 1 {x + 1.4} 12 Z "
    for x in (7.5, 12, 16.5)
)
FACES = [  # (CSS family, file, weight, style)
    ("Sans", "NotoSansCJKsc-Regular.otf", 400, "normal"),
    ("Sans", "NotoSansCJKsc-Bold.otf", 700, "normal"),
    ("Kai", "InkcardKai-Regular.ttf", 400, "normal"),
    ("Emoji", "NotoColorEmoji.ttf", 400, "normal"),
]

CSS = f"""
{
    "".join(
        f'@font-face {{ font-family: "{fam}"; src: url("{(FONTS / file).as_uri()}");'
        f" font-weight: {w}; font-style: {st}; }}"
        for fam, file, w, st in FACES
    )
}
html, body {{ margin: 0; background: #fff; }}
.card {{ width: {WIDTH}px; box-sizing: border-box; padding: 20px 20px 50px; background: #fff;
  color: {TEXT}; font: 16px/1.75 "Sans", "Emoji", sans-serif; }}
.bar {{ height: 40px; position: relative; color: {YELLOW}; font-size: 16px; line-height: 1; }}
.bar svg {{ position: absolute; top: 3px; width: 24px; height: 24px; fill: none;
  stroke: {YELLOW}; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }}
.bar span {{ position: absolute; left: 22px; top: 5px; }}
h1, h2, h3 {{ font-weight: 700; line-height: 1.25; margin: 16px 0 0; }}
h1 {{ font-size: 24px; margin-top: 0; }} h2 {{ font-size: 20px; }} h3 {{ font-size: 16px; }}
p {{ margin: 16px 0 0; }}
em {{ font-style: normal; font-family: "Kai", "Sans", "Emoji"; }}
ul, ol {{ margin: 16px 0 0; padding-left: 24px; }} li + li {{ margin-top: 8px; }}
li::marker {{ color: {TEXT}; }}
blockquote {{ margin: 16px 0 0; padding: 6px 0 6px 16px; color: {QUOTE};
  border-left: 3px solid {BORDER}; }}
blockquote p {{ margin: 0; }}
"""


def _icon(path: str, side: str, dots: str = "") -> str:
    filled = f'<path d="{dots}" style="fill:{YELLOW};stroke:none"/>' if dots else ""
    return f'<svg viewBox="0 0 24 24" style="{side}"><path d="{path}"/>{filled}</svg>'


def card_html(markdown: str) -> str:
    """The post as one HTML page: the Notes bar, then the Markdown's blocks."""
    body = MarkdownIt("commonmark").render(markdown)
    bar = (
        _icon(CHEVRON, "left:-6px")
        + "<span>备忘录</span>"
        + _icon(RING, "right:0", DOTS)
        + _icon(SHARE, "right:44px")
    )
    return (
        f'<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><style>{CSS}</style>'
        f'</head><body><div class="card"><div class="bar">{bar}</div>{body}</div></body></html>'
    )


# Satori has no inline formatting context: every element with more than one child is a flex
# box, so a paragraph is a wrapping row of same-style runs (the layout a Satori user writes).
BLOCK_STYLE: dict[str, dict[str, Any]] = {
    "heading1": {"fontSize": 24, "fontWeight": 700, "lineHeight": 1.25},
    "heading2": {"fontSize": 20, "fontWeight": 700, "lineHeight": 1.25, "marginTop": 16},
    "heading3": {"fontSize": 16, "fontWeight": 700, "lineHeight": 1.25, "marginTop": 16},
    "paragraph": {"marginTop": 16},
    "blockquote": {
        "marginTop": 16,
        "padding": "6px 0 6px 16px",
        "color": QUOTE,
        "borderLeft": f"3px solid {BORDER}",
    },
}


def _el(tag: str, style: dict[str, Any], children: list[Any]) -> dict[str, Any]:
    return {"type": tag, "props": {"style": style, "children": children}}


def _inline(node: SyntaxTreeNode, style: dict[str, Any]) -> list[Any]:
    runs: list[Any] = []
    for child in node.children:
        if child.type == "text" and child.content:
            runs.append(_el("span", style, [child.content]) if style else child.content)
        elif child.type == "strong":
            runs += _inline(child, {**style, "fontWeight": 700})
        elif child.type == "em":
            runs += _inline(child, {**style, "fontFamily": "Kai"})
        elif child.type in ("softbreak", "hardbreak"):
            runs.append(" ")
        else:
            runs += _inline(child, style)
    return runs


def _row(runs: list[Any], style: dict[str, Any]) -> dict[str, Any]:
    return _el("div", {"display": "flex", "flexWrap": "wrap", **style}, runs)


def _block(node: SyntaxTreeNode) -> dict[str, Any]:
    kind = f"heading{node.tag[1]}" if node.type == "heading" else node.type
    style = dict(BLOCK_STYLE.get(kind, {}))
    if node.type in ("heading", "paragraph"):
        return _row(_inline(node.children[0], {}), style)
    if node.type == "blockquote":
        inner = [_block(c) for c in node.children]
        inner[0]["props"]["style"]["marginTop"] = 0
        return _el("div", {"display": "flex", "flexDirection": "column", **style}, inner)
    items = []
    for n, item in enumerate(node.children, 1):
        marker = f"{n}." if node.type == "ordered_list" else "•"
        text = _inline(item.children[0].children[0], {})
        items.append(
            _el(
                "div",
                {"display": "flex", "marginTop": 8 if n > 1 else 0},
                [_el("div", {"width": 24}, [marker]), _row(text, {"flex": 1})],
            )
        )
    return _el("div", {"display": "flex", "flexDirection": "column", "marginTop": 16}, items)


def _svg_icon(path: str, left: int, dots: str = "") -> dict[str, Any]:
    stroke = {"fill": "none", "stroke": YELLOW, "strokeWidth": 2, "strokeLinecap": "round"}
    paths = [{"type": "path", "props": {"d": path, **stroke}}]
    if dots:
        paths.append({"type": "path", "props": {"d": dots, "fill": YELLOW}})
    return {
        "type": "svg",
        "props": {
            "viewBox": "0 0 24 24",
            "width": 24,
            "height": 24,
            "style": {"position": "absolute", "left": left, "top": 3},
            "children": paths,
        },
    }


def satori_tree(markdown: str) -> dict[str, Any]:
    """The same card as a Satori element tree (plain objects, as JSX compiles to)."""
    doc = SyntaxTreeNode(MarkdownIt("commonmark").parse(markdown))
    label = _el("div", {"position": "absolute", "left": 22, "top": 5, "lineHeight": 1}, ["备忘录"])
    bar = _el(
        "div",
        {"display": "flex", "position": "relative", "height": 40, "color": YELLOW},
        [_svg_icon(CHEVRON, -6), label, _svg_icon(SHARE, 332), _svg_icon(RING, 376, DOTS)],
    )
    card_style = {
        "display": "flex",
        "flexDirection": "column",
        "width": WIDTH,
        "padding": "20px 20px 50px",
        "background": "#fff",
        "color": TEXT,
        "fontFamily": "Sans",
        "fontSize": 16,
        "lineHeight": 1.75,
    }
    return _el("div", card_style, [bar, *(_block(c) for c in doc.children)])


INKCARD_WARM = r"""
import json, statistics, sys, time
from inkcard import layout, themes
from inkcard.layout.draw import load_row_packer
text, runs = open(sys.argv[1], encoding="utf-8").read(), int(sys.argv[2])
fonts, theme, options = layout.FontBook.load(), themes.load("apple-notes"), layout.RenderOptions()
load_row_packer()  # as every render worker does at warm-up (png.py packs rows with it)
layout.render(text, theme, fonts, options)  # the cold render warms caches
times = []
for _ in range(runs):
    t0 = time.perf_counter(); pngs = layout.render(text, theme, fonts, options)
    times.append((time.perf_counter() - t0) * 1000)
print(json.dumps({"ms": times, "bytes": len(pngs[0])}))
"""

CHROMIUM_RUN = r"""
import json, sys, time
from playwright.sync_api import sync_playwright
page_url, out = sys.argv[1], sys.argv[2]
runs, width, scale = (int(a) for a in sys.argv[3:6])
body = open(sys.argv[6], encoding="utf-8").read()
def shot(page):
    return page.locator(".card").screenshot(type="png")
def swap(page):  # a warm browser service keeps its page and fonts, and swaps the card in
    page.evaluate("b => { document.body.innerHTML = b; return document.fonts.ready.then(() => 1) }",
                  body)
    return shot(page)
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium")
    page = browser.new_page(viewport={"width": width, "height": 586}, device_scale_factor=scale)
    page.goto(page_url)
    page.evaluate("document.fonts.ready.then(() => 1)")
    first = shot(page)
    open(out, "wb").write(first)
    first_png_at = time.monotonic()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter(); png = swap(page)
        times.append((time.perf_counter() - t0) * 1000)
    browser.close()
print(json.dumps({"firstPngAt": first_png_at, "bytes": len(first), "ms": times}))
"""


def _child(cmd: list[str], cwd: Path = ROOT, report: bool = True) -> tuple[float, dict[str, Any]]:
    """Run a child to its end; return the seconds from spawn to the first PNG it wrote.

    A child with a ``report`` prints JSON last, with ``firstPngAt`` on the monotonic clock
    (shared by every process on Linux) when it measured a cold start; without, its exit is
    the moment its PNG was written."""
    start = time.monotonic()
    out = subprocess.run(
        cmd, check=True, capture_output=True, text=True, cwd=cwd, timeout=CHILD_LIMIT_S
    )
    ended = time.monotonic()
    printed = json.loads(out.stdout.strip().splitlines()[-1]) if report else {}
    return printed.get("firstPngAt", ended) - start, printed


def _summary(ms: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(ms), 1), "min_ms": round(min(ms), 1)}


def _cold(seconds: list[float]) -> dict[str, float]:
    return {"median_s": round(statistics.median(seconds), 3), "min_s": round(min(seconds), 3)}


def measure_inkcard(runs: int, spawns: int, out: Path) -> dict[str, Any]:
    _, warm = _child([sys.executable, "-c", INKCARD_WARM, str(POST), str(runs)])
    cold = []
    for n in range(spawns):  # `inkcard render` exits right after writing: exit is first PNG
        target = out / f"inkcard-{n}"
        cmd = [sys.executable, "-m", "inkcard.app.cli", "render", str(POST), "-o", str(target)]
        cold.append(_child(cmd, report=False)[0])
    return {"warm": _summary(warm["ms"]), "cold": _cold(cold), "png_bytes": warm["bytes"]}


def measure_chromium(runs: int, spawns: int, out: Path) -> dict[str, Any]:
    page, body = out / "card.html", out / "card-body.html"
    html = card_html(POST.read_text("utf-8"))
    page.write_text(html, "utf-8")
    body.write_text(html[html.index("<body>") + 6 : html.index("</body>")], "utf-8")

    def run(n: int) -> tuple[float, dict[str, Any]]:
        args = [page.as_uri(), str(out / "chromium.png"), str(n), str(WIDTH), str(SCALE)]
        return _child([sys.executable, "-c", CHROMIUM_RUN, *args, str(body)])

    _, warm = run(runs)
    cold = [run(0)[0] for _ in range(spawns)]
    return {"warm": _summary(warm["ms"]), "cold": _cold(cold), "png_bytes": warm["bytes"]}


def measure_satori(runs: int, spawns: int, out: Path) -> dict[str, Any]:
    spec = {
        "tree": satori_tree(POST.read_text("utf-8")),
        "width": WIDTH,
        "scale": SCALE,
        "fonts": [
            {"name": fam, "path": str(FONTS / file), "weight": w, "style": st}
            for fam, file, w, st in FACES
            if fam != "Emoji"  # opentype.js cannot read colour bitmap (CBDT) glyphs
        ],
        "out": str(out / "satori.png"),
    }

    def run(n: int) -> tuple[float, dict[str, Any]]:
        spec_file = out / "satori.json"
        spec_file.write_text(json.dumps({**spec, "runs": n}, ensure_ascii=False), "utf-8")
        return _child([NODE, "satori_card.mjs", str(spec_file)], cwd=NODE_DIR)

    _, warm = run(runs)
    cold = [run(0)[0] for _ in range(spawns)]
    parts = {k: _summary([r[k] for r in warm["warm"]]) for k in ("satori", "resvg")}
    total = _summary([r["total"] for r in warm["warm"]])
    return {"warm": total, "warm_parts": parts, "cold": _cold(cold), "png_bytes": warm["bytes"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="warm cards per renderer (max 200)")
    parser.add_argument("--spawns", type=int, default=3, help="cold starts per renderer (max 10)")
    parser.add_argument("--out", type=Path, help="keep the PNGs and the HTML in this folder")
    args = parser.parse_args()
    runs, spawns = min(max(args.runs, 3), 200), min(max(args.spawns, 1), 10)
    with tempfile.TemporaryDirectory(prefix="inkcard-browser-") as tmp:
        out = args.out or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        results = {
            "inkcard": measure_inkcard(runs, spawns, out),
            "chromium": measure_chromium(runs, spawns, out),
            "satori_resvg": measure_satori(runs, spawns, out),
        }
    ink = results["inkcard"]
    ratios = {
        f"{peer}_{kind}_over_inkcard": round(results[peer][kind][key] / ink[kind][key], 1)
        for peer in ("chromium", "satori_resvg")
        for kind, key in (("warm", "median_ms"), ("cold", "median_s"))
    }
    report = {
        "benchmark": "browser_baseline",
        "card": f"{POST.name}, {WIDTH} px wide @{SCALE}x, apple-notes light, noSplit",
        "runs": runs,
        "spawns": spawns,
        **results,
        "ratios": ratios,
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
