"""The same posts laid out as cards by headless Chromium, read back as lines for the
page-break report (benchmarks/bench_pagination.py, `--chromium`).

Method. For one theme-mode and card size, every post becomes a fixed-height multi-column
box whose column is the card's content box (`cardface.content_box`): `columns: 1`, a fixed
`height`, `column-fill: auto`, so each overflow column to the right is one more card. Fonts
are the repository's files (fonts/families.toml) through @font-face file:// URLs, so the same
faces measure; each role's family, size, weight, line height, letter spacing, text
transform, top and bottom margins, list indent and item gap, quote and code padding come
from the resolved theme styles (`layout.style.resolver.resolve`), approximately (no decorations,
no per-theme chrome). On top goes a book designer's best CSS (`DESIGNER_CSS`): orphans and
widows 2, `text-wrap: pretty` on paragraphs and items, `text-wrap: balance` and no
hyphenation on headings kept with what follows, `break-inside: avoid` on code, tables,
figures, quotes and list items, `hyphens: auto` on paragraphs with `lang` set per post.
The Markdown is turned into HTML by markdown-it-py (CommonMark with tables and
strikethrough); each block element carries its kind and a number, as `Row.source` does.

Read-back, in the page (`READ_LINES`): every character's box (`Range.getClientRects`)
is grouped into lines (a new line when a character's middle leaves the current line's
band or the column changes); the column is the card, tops and bottoms are the
characters' boxes from the column's top (not the line boxes: a line's half-leading is
left out of heights). A thematic break is a line with no text. A break inside a Latin
word of an element with `hyphens: auto` is read as a hyphenated line (the DOM does not
hold the hyphen the browser draws). The lines then go through the very counters Inkcard's
pages go through (`bench_pagination.count`).

One browser for the run (Debian's /usr/bin/chromium through Playwright's
`executable_path`; nothing downloaded), one page load per theme-mode and size with every
post in it. What is not comparable is listed in `NOT_COMPARABLE` and in the report.
"""

from __future__ import annotations

import html
import sys
import tomllib
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from markdown_it import MarkdownIt
from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
FONTS = ROOT / "fonts"
CHROMIUM = "/usr/bin/chromium"
COLUMN_GAP = 40.0  # px between cards (columns); only needs to tell them apart
POST_GAP = 60.0  # px between the posts stacked in one page
TIMEOUT_MS = 120_000  # a ceiling for one page's read-back on a busy machine

KIND = {  # markdown-it's opening token → the block kind Inkcard names in `Row.source`
    "paragraph_open": "Paragraph",
    "heading_open": "Heading",
    "bullet_list_open": "ListBlock",
    "ordered_list_open": "ListBlock",
    "list_item_open": "ListItem",
    "blockquote_open": "Quote",
    "table_open": "Table",
    "fence": "CodeBlock",
    "code_block": "CodeBlock",
    "hr": "Rule",
}

DESIGNER_CSS = """
p, li { orphans: 2; widows: 2; text-wrap: pretty; }
p { hyphens: auto; }
h1, h2, h3, h4, h5, h6 { break-after: avoid; break-inside: avoid; text-wrap: balance;
  hyphens: manual; }
pre, table, figure, blockquote, li { break-inside: avoid; }
"""

NO_DICTIONARY = (
    "hyphens: auto does nothing: this Chromium has no hyphenation dictionary (headless Linux "
    "builds download none), so paragraphs wrap at spaces only while Inkcard hyphenates"
)
NOT_COMPARABLE = [
    "cjk_heading_word_split: Chromium breaks CJK headings by character (no word "
    "segmenter), counted with the same rjieba words as Inkcard's",
    "hyphenated_heading: headings have `hyphens: manual` and no soft hyphens, so Chromium "
    "can only break a heading's word by overflow, which is not read as a hyphen; 0 by design",
    "dangling_rule: CSS cannot keep an <hr> off a column's top or bottom (no break rule "
    "for an empty element); Chromium's count is what it does unasked",
    "heights: line tops and bottoms are the characters' boxes, not the line boxes; "
    "split_paragraph_that_fits and stub use them",
    "styles: the theme's decorations, card chrome, heading boxes and bars are left out; "
    "tables, images, math and MDX components are approximate or absent",
]

# Every text node's characters grouped into lines; <hr> as a line with no text.
READ_LINES = """
([gap, hyphenation]) => {
  const out = {};
  const CJK = /[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]/u;
  for (const post of document.querySelectorAll('div.post')) {
    const box = post.getBoundingClientRect();
    const width = post.clientWidth;
    const lines = [];
    let line = null, lastChar = null, leaf = null;
    const pathOf = (node) => {
      const path = [];
      for (let el = node.parentElement; el && el !== post; el = el.parentElement) {
        if (el.dataset.b) path.unshift(el.dataset.b);
      }
      return path;
    };
    const leafOf = (node) => {
      for (let el = node.parentElement; el && el !== post; el = el.parentElement) {
        if (el.dataset.b) return el;
      }
      return post;
    };
    const open = (path, card, r, el) => {
      const first = el !== leaf;
      leaf = el;
      const gap = first ? parseFloat(getComputedStyle(el).marginTop) || 0 : 0;
      line = {path, card, text: '', top: r.top - box.top, bottom: r.bottom - box.top, gap};
      lines.push(line);
    };
    const cardOf = (r) => Math.floor((r.left - box.left + gap / 2) / (width + gap)) + 1;
    const walker = document.createTreeWalker(post, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === 1) {
        if (node.tagName === 'HR') {
          const r = node.getBoundingClientRect();
          open(pathOf(node.firstChild || {parentElement: node}), cardOf(r), r, node);
          line = null;
        }
        continue;
      }
      const path = pathOf(node), el = leafOf(node), key = path.join('/');
      const hyphens = hyphenation && getComputedStyle(el).hyphens === 'auto';
      const text = node.data;
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = [...range.getClientRects()].find((q) => q.width > 0);
        const ch = text[i];
        if (!r) { if (line && line.key === key) line.text += ch; continue; }
        const mid = (r.top + r.bottom) / 2 - box.top, card = cardOf(r);
        const away = mid > (line ? line.bottom : 0) || mid < (line ? line.top : 0);
        if (!line || line.key !== key || card !== line.card || away) {
          const inWord = line && line.key === key && lastChar && /\\p{L}/u.test(lastChar)
            && /\\p{L}/u.test(ch) && !CJK.test(ch);
          if (inWord && hyphens) line.text += '-';
          open(path, card, r, el);
          line.key = key;
        }
        line.text += ch;
        line.top = Math.min(line.top, r.top - box.top);
        line.bottom = Math.max(line.bottom, r.bottom - box.top);
        lastChar = /\\s/.test(ch) ? null : ch;
      }
      lastChar = /\\s$/.test(text) ? null : lastChar;
    }
    out[post.dataset.stem] = lines.map(({path, card, text, top, bottom, gap}) =>
      ({path, card, text, top, bottom, gap}));
  }
  return out;
}
"""

# A long English word in a narrow box with `hyphens: auto`: split only with a dictionary.
HYPHENATION_PROBE = """
() => {
  const d = document.createElement('div');
  d.lang = 'en';
  d.style.cssText = 'width: 6em; hyphens: auto; font: 16px sans-serif';
  d.textContent = 'internationalization';
  document.body.append(d);
  const tall = d.getBoundingClientRect().height > 30;
  d.remove();
  return tall;
}
"""


@dataclass(frozen=True, slots=True)
class Box:
    """A card's content box: where the rows (the columns' text) go."""

    width: float
    height: float


def _families() -> dict[str, Any]:
    return tomllib.loads((FONTS / "families.toml").read_text("utf-8"))


def font_faces() -> str:
    """@font-face rules for every family of fonts/families.toml and the shared fallbacks."""
    data = _families()
    faces = {f"f-{name}": files for name, files in data["families"].items()}
    faces["f-cjk"] = data["cjk"]
    faces["f-emoji"] = {"regular": data["emoji"]}
    for n, file in enumerate(data["symbols"]):
        faces[f"f-sym{n}"] = {"regular": file}
    rules = []
    for family, files in faces.items():
        for weight, key in (("100 550", "regular"), ("551 900", "bold")):
            file = files.get(key) or files["regular"]
            url = (FONTS / file).as_uri()
            rules.append(
                f'@font-face {{ font-family: "{family}"; src: url("{url}"); '
                f"font-weight: {weight}; }}"
            )
    return "\n".join(rules)


def family_stack(family: str) -> str:
    """A theme's family name → its faces, then the fallback chain every family shares."""
    data = _families()
    known = data["families"]
    name = family if family in known else "sans"
    stack = [f"f-{name}"]
    if "cjk" in known[name]:
        stack.append(f"f-{known[name]['cjk']}")
    stack += ["f-cjk", "f-emoji", *(f"f-sym{n}" for n in range(len(data["symbols"])))]
    return ", ".join(f'"{f}"' for f in stack)


def _role_css(selector: str, style: Any) -> str:
    return (
        f"{selector} {{ font-family: {family_stack(style.family)}; font-size: {style.size}px; "
        f"font-weight: {style.weight}; line-height: {style.line_height}; "
        f"letter-spacing: {style.letter_spacing}px; text-transform: {style.text_transform}; "
        f"margin: {style.margin_top}px 0 {style.margin_bottom}px; }}"
    )


def _sides(padding: tuple[float, ...]) -> str:
    return " ".join(f"{side}px" for side in padding)


def theme_css(styles: Any) -> str:
    """The resolved theme's roles as CSS, approximately (sizes, faces, gaps, paddings)."""
    parts = [_role_css("div.post", styles["body"]), _role_css("p", styles["body"])]
    parts += [_role_css(f"h{n}", styles[f"h{n}"]) for n in range(1, 7)]
    code, quote, lists = styles["code_block"], styles["quote"], styles["list"]
    parts += [
        _role_css("pre", code),
        "pre { white-space: pre-wrap; overflow-wrap: anywhere; }",
        f"pre {{ padding: {_sides(code.padding)}; }}",
        "pre code { font: inherit; }",
        _role_css("blockquote", quote),
        f"blockquote {{ padding: {_sides(quote.padding)}; }}",
        "blockquote > :first-child { margin-top: 0; }",
        _role_css("ul, ol", lists),
        f"ul, ol {{ padding-left: {lists.indent}px; }}",
        f"li + li {{ margin-top: {lists.item_gap}px; }}",
        "li > p, li > ul, li > ol { margin-top: 0; }",
        _role_css("table", styles["table"]),
        "table { border-collapse: collapse; }",
        f"th, td {{ padding: {_sides(styles['table'].padding)}; }}",
        f"hr {{ margin: {styles['hr'].margin_top}px 0 {styles['hr'].margin_bottom}px; "
        "border: 0; border-top: 1px solid #999; height: 0; }",
        "div.post > :first-child { margin-top: 0; }",
    ]
    return "\n".join(parts)


def post_html(markdown: str) -> str:
    """The post's blocks as HTML, each block element tagged `data-b="Kind:n"`."""
    parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    tokens = parser.parse(markdown)
    for n, token in enumerate(tokens):
        if token.type in KIND:
            token.attrSet("data-b", f"{KIND[token.type]}:{n}")
        if token.type == "image":  # no image files in a layout-only report
            token.attrSet("src", "data:,")
    return parser.renderer.render(tokens, parser.options, {})


def language(text: str) -> str:
    """The `lang` of a post, from its letters: kana → ja, hangul → ko, Han → zh, else en."""
    names = [unicodedata.name(c, "") for c in text if unicodedata.category(c)[0] == "L"]
    if any("HIRAGANA" in n or "KATAKANA" in n for n in names):
        return "ja"
    if any("HANGUL" in n for n in names):
        return "ko"
    han = sum("CJK" in n for n in names)
    return "zh" if han * 3 > len(names) else "en"


def page_html(posts: dict[str, str], styles: Any, box: Box) -> str:
    """Every post as a column box of cards, one under the other, in one page."""
    body = "".join(
        f'<div class="post" data-stem="{html.escape(stem)}" lang="{language(text)}">'
        f"{post_html(text)}</div>"
        for stem, text in posts.items()
    )
    css = (
        f"{font_faces()}\nbody {{ margin: 0; }}\n"
        f"div.post {{ width: {box.width}px; height: {box.height}px; columns: 1; "
        f"column-gap: {COLUMN_GAP}px; column-fill: auto; margin-bottom: {POST_GAP}px; }}\n"
        f"{theme_css(styles)}\n{DESIGNER_CSS}"
    )
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><style>{css}</style></head>'
        f"<body>{body}</body></html>"
    )


def _path(names: list[str]) -> tuple[tuple[str, int], ...]:
    """`["ListBlock:3", "ListItem:4"]` → source tuples; an item's own text is its paragraph."""
    path = tuple((kind, int(n)) for kind, n in (name.split(":") for name in names))
    if path and path[-1][0] == "ListItem":
        path += (("Paragraph", -path[-1][1]),)
    return path


class Session:
    """One headless Chromium for the run, with one tab reused for every page."""

    def __init__(self, browser: Browser, folder: Path) -> None:
        self.page = browser.new_page(viewport={"width": 1200, "height": 800})
        self.page.set_default_timeout(TIMEOUT_MS)
        self.folder = folder
        self.version = browser.version
        self.page.set_content("<!doctype html><body></body>")
        self.hyphenation = bool(self.page.evaluate(HYPHENATION_PROBE))

    def lay_out(self, posts: dict[str, str], styles: Any, box: Box) -> dict[str, list[Any]]:
        """Each post's lines, as `bench_pagination.Line` fields (path, card, text, ...)."""
        file = self.folder / "page.html"
        file.write_text(page_html(posts, styles, box), "utf-8")
        self.page.goto(file.as_uri())
        self.page.evaluate("document.fonts.ready.then(() => 1)")
        read: dict[str, list[dict[str, Any]]] = self.page.evaluate(
            READ_LINES, [COLUMN_GAP, self.hyphenation]
        )
        return {
            stem: [
                (_path(r["path"]), r["card"], r["text"], r["top"], r["bottom"], r["gap"])
                for r in rows
            ]
            for stem, rows in read.items()
        }


@contextmanager
def session() -> Iterator[Session]:
    """Launches Debian's Chromium (fonts from the repository's files through fontconfig too,
    so a fallback the CSS does not name still finds them)."""
    with TemporaryDirectory(prefix="inkcard-chromium-") as tmp:
        folder = Path(tmp)
        conf = folder / "fonts.conf"
        conf.write_text(
            '<?xml version="1.0"?><fontconfig>'
            '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
            f"<dir>{FONTS}</dir><cachedir>{folder / 'cache'}</cachedir></fontconfig>",
            "utf-8",
        )
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, env={"FONTCONFIG_FILE": str(conf)}
            )
            try:
                yield Session(browser, folder)
            finally:
                browser.close()


if __name__ == "__main__":  # a quick look: one post's lines at one size
    from inkcard import themes
    from inkcard.layout.style.resolver import resolve

    text = Path(sys.argv[1]).read_text("utf-8")
    with session() as chromium:
        styles = resolve(themes.load(sys.argv[2] if len(sys.argv) > 2 else "apple-notes"), None)
        for row in chromium.lay_out({"post": text}, styles, Box(400, 500))["post"]:
            print(row)
