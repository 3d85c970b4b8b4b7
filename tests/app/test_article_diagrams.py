"""Mermaid diagrams in articles: inline SVG of plain paths and texts (what the WeChat
editor keeps), no ids, classes, defs, markers or style elements; a diagram not drawn
stays code with a one-line note."""

from __future__ import annotations

import colorsys
from pathlib import Path

from lxml import html as lxml_html

from inkcard.app.articles.convert.formulas import COLUMN
from inkcard.app.articles.convert.html import draft_content, to_article

CASES = Path(__file__).parents[1] / "cases" / "mermaid"


def section(markdown: str) -> lxml_html.HtmlElement:
    return lxml_html.fragment_fromstring(draft_content(to_article(markdown).html))


def test_each_case_is_an_svg_of_paths_and_texts_only() -> None:
    for case in sorted(CASES.glob("*.md")):
        html = to_article(case.read_text()).html
        assert 'viewBox="' in html  # its case kept: lower case would not scale in the editor
        root = section(case.read_text())
        svgs = list(root.iter("svg"))
        assert len(svgs) == 1, case.name
        [svg] = svgs
        assert {child.tag for child in svg} <= {"path", "text"}
        assert float(svg.get("width")) > 0
        assert not root.xpath("//*[@id or @class] | //defs | //use | //marker | //style")
        texts = " ".join(t.text_content() for t in svg.iter("text"))
        assert "-->" not in texts and "mermaid" not in texts.lower()
        for element in svg.iter():
            assert not any(name.startswith("on") for name in element.attrib)


def test_labels_are_texts_with_inline_font_attributes() -> None:
    root = section("```mermaid\ngraph LR\n  A[写大纲] -->|然后| B((发布))\n```")
    [svg] = root.iter("svg")
    texts = {t.text_content(): t for t in svg.iter("text")}
    assert set(texts) == {"写大纲", "然后", "发布"}
    for text in texts.values():
        assert text.get("font-size") and text.get("fill")
    assert "PingFang SC" in svg.get("font-family")  # said once, inherited by the texts
    assert svg.get("aria-label") == "写大纲 / 发布 / 然后"
    heads = [
        p
        for p in svg.iter("path")
        if p.get("fill") not in (None, "none") and p.get("stroke") is None
    ]
    assert heads  # arrowheads are filled paths, not markers


def test_an_unsupported_diagram_is_code_with_a_note() -> None:
    root = section("```mermaid\nrequirementDiagram\n  Animal - satisfies -> Duck\n```\n\nafter")
    assert not list(root.iter("svg"))
    assert "Animal" in root.xpath("//pre")[0].text_content()
    note = root.xpath("//pre/following-sibling::p[1]")[0]
    assert note.text_content().startswith("Mermaid diagram not drawn:")
    assert "font-size:12px" in note.get("style")
    assert root.text_content().rstrip().endswith("after")


def test_a_hostile_diagram_is_bounded() -> None:
    edges = "\n".join(f"n{i} --> n{i + 1}" for i in range(199))
    fan = "\n".join(f"n0 --> n{i}" for i in range(2, 199))
    root = section(f"```mermaid\ngraph TD\n{edges}\n{fan}\n```")
    assert "Mermaid diagram not drawn" in root.text_content()


def test_a_wide_diagram_is_capped_at_the_column_in_px() -> None:
    fan = "\n".join(f"root[起点] --> step{i}[第 {i} 步]" for i in range(12))  # wide top-down
    [svg] = section(f"```mermaid\ngraph TD\n{fan}\n```").iter("svg")
    assert float(svg.get("width")) == COLUMN and float(svg.get("height")) > 0


def _svg_colours(markdown: str, theme: str, primary: str = "") -> set[str]:
    from inkcard.app.articles.convert.brand import Brand

    html = to_article(markdown, theme, brand=Brand(primary=primary)).html
    root = lxml_html.fragment_fromstring(draft_content(html))
    [svg] = root.iter("svg")
    return {e.get(a, "") for e in svg.iter() for a in ("fill", "stroke")} - {"", "none"}


MIND = (CASES / "05-mindmap-study.md").read_text()


def test_a_diagram_wears_the_article_theme_brand_colour() -> None:
    """The mind map's root and first branch are brandB's orange, business's blue; a
    request's primaryColor recolours them as it does the headings. Business's blue stands
    in for the default's calm blue, which would echo it."""
    orange = _svg_colours(MIND, "brandB")
    blue = _svg_colours(MIND, "business")
    green = _svg_colours(MIND, "brandB", "#07c160")
    assert "#ff6a00" in orange and "#3b82f6" in blue
    assert "#ff6a00" not in green and any(c.startswith("#0") and c != "#000000" for c in green)
    # the calm blue's hue follows brandB's orange among the series (at a series' lightness,
    # `palette.series_colours`), never business's blue, which it would echo
    assert any(_hue_of(c, "#3a7bd5") for c in orange) and "#3a7bd5" not in blue


def _hue_of(colour: str, like: str) -> bool:
    """Whether `colour` is a saturated, not tinted, colour of `like`'s hue (within 15°)."""
    hues = []
    for value in (colour, like):
        rgb = [int(value[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        hue, light, saturation = colorsys.rgb_to_hls(*rgb)
        hues.append(hue)
        if value == colour and (saturation < 0.3 or light > 0.8):
            return False
    gap = abs(hues[0] - hues[1]) % 1.0
    return min(gap, 1.0 - gap) < 1 / 24
