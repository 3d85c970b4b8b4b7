"""Mermaid diagrams in articles: inline SVG drawn by the card engine (`diagram_svg`).

The parser renders a ```mermaid fence as `<pre><code class="language-mermaid">`;
`take_diagrams` swaps each for an empty placeholder before the theme is inlined and the
code highlighted, and `place_diagrams` fills the placeholders last, after every pass that
strips attributes, so nothing touches the SVG (as `formulas` does for math). The SVG is
paths and texts with inline attributes only: no ids, classes, `<defs>`, markers or
`<style>`, which the WeChat editor strips (docs/decisions/articles.md, "Mermaid diagrams").
A diagram the engine does not draw stays a code block with a one-line note under it.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree
from lxml import html as lxml_html

from inkcard import layout
from inkcard.app.articles.convert.formulas import COLUMN
from inkcard.layout.diagrams import DiagramBudget, diagram_svg

MERMAID = "language-mermaid"
PLATE_CLASS = "diagram"  # a theme's `section.diagram` rule styles the drawn diagram's block
PLACED_STYLE = "margin:16px 0;text-align:center"
NOTE_STYLE = "font-size:12px;color:#888888;margin:4px 0 16px;text-align:left"


@dataclass(frozen=True, slots=True)
class Pending:
    element: lxml_html.HtmlElement  # a placeholder to fill, or a note to style
    svg: str | None  # None: a note


def take_diagrams(root: lxml_html.HtmlElement, accent: str | None = None) -> list[Pending]:
    """Every mermaid code block drawn now, in `accent` (the theme's brand colour): the ones
    drawn become bare placeholders that `place_diagrams` fills; the others stay code, with
    a note after them."""
    pending = []
    budget = DiagramBudget()
    for code in root.xpath("//pre/code[@class]"):
        if code.get("class") != MERMAID or code.getparent().getparent() is None:
            continue
        pre = code.getparent()
        try:
            svg = diagram_svg(code.text_content(), budget, accent)
        except layout.DiagramError as error:
            note = lxml_html.Element("p")
            note.text = f"Mermaid diagram not drawn: {error}"
            note.tail = pre.tail
            pre.tail = None
            pre.addnext(note)
            pending.append(Pending(note, None))
            continue
        # a block (the svg is one), of the class a theme may style (a dark theme's light plate)
        placeholder = lxml_html.Element("section", {"class": PLATE_CLASS})
        placeholder.tail = pre.tail
        pre.getparent().replace(pre, placeholder)
        pending.append(Pending(placeholder, svg))
    return pending


def place_diagrams(pending: list[Pending]) -> None:
    """Each placeholder becomes its SVG, centred with room around it, and keeps what the
    theme's `section.diagram` rule gave it (a dark theme's light plate: diagrams are drawn
    for a white page); notes get their small grey style (after the theme, which would
    restyle them as body text)."""
    for item in pending:
        plate = item.element.get("style", "").strip().rstrip(";")
        item.element.attrib.clear()
        if item.svg is None:
            item.element.set("style", NOTE_STYLE)
            continue
        item.element.set("style", ";".join(filter(None, (PLACED_STYLE, plate))))
        item.element.append(_html_svg(item.svg))


def _html_svg(svg: str) -> lxml_html.HtmlElement:
    """The SVG as elements of the HTML tree, its attributes' case kept (`viewBox`: the
    HTML parser would lower it)."""
    parsed = etree.fromstring(svg)
    attrs = dict(parsed.attrib)
    width, height = float(attrs["width"]), float(attrs["height"])
    if width > COLUMN:  # explicit px, capped at the column: the editor may drop max-width
        attrs["width"], attrs["height"] = f"{COLUMN:.0f}", f"{height * COLUMN / width:.0f}"
    out = lxml_html.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", **attrs})
    for child in parsed:
        element = etree.SubElement(out, etree.QName(child).localname, dict(child.attrib))
        element.text = child.text
    return out
