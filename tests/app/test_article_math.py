"""LaTeX math in articles: inline SVG of plain paths (what the WeChat editor keeps),
baseline-aligned, display math centred; bad LaTeX stays as underlined code."""

from __future__ import annotations

from lxml import html as lxml_html

from inkcard.app.articles.convert.formulas import COLUMN
from inkcard.app.articles.convert.html import draft_content, to_article


def section(markdown: str) -> lxml_html.HtmlElement:
    return lxml_html.fragment_fromstring(draft_content(to_article(markdown).html))


def test_inline_math_is_an_svg_of_paths_without_ids_defs_or_use() -> None:
    root = section("设 $\\frac{a}{b}$ 为")
    [svg] = root.iter("svg")
    assert [child.tag for child in svg] == ["path"]
    assert svg[0].get("fill") == "currentColor" and svg[0].get("d", "").startswith("M ")
    assert not root.xpath("//*[@id or @class] | //defs | //use")
    assert float(svg.get("width")) > 0 and "vertical-align:-" in svg.get("style")
    assert svg.get("aria-label") == "\\frac{a}{b}"
    assert "设" in root.text_content() and "为" in root.text_content()


def test_display_math_is_centred_on_its_own_line_and_fits_the_column() -> None:
    wide = " + ".join(f"a_{{{i}}} x^{{{i}}}" for i in range(40))
    root = section(f"$$\n\\sum_{{i=1}}^n i\n$$\n\n$$\n{wide}\n$$")
    svgs = list(root.iter("svg"))
    assert len(svgs) == 2
    for svg in svgs:
        assert "text-align:center" in svg.getparent().get("style")
    assert float(svgs[1].get("width")) <= COLUMN


def test_bad_latex_is_its_source_in_code_style_with_a_red_underline() -> None:
    root = section("错 $\\frac{1}{$ 了")
    assert not list(root.iter("svg"))
    [span] = [s for s in root.iter("span") if s.text == "\\frac{1}{"]
    assert "border-bottom:1px solid #e5484d" in span.get("style")


def test_prices_and_raw_html_svg_are_not_math() -> None:
    root = section("价格 $5 和 $10 <svg><script>alert(1)</script></svg>")
    assert not list(root.iter("svg")) and not list(root.iter("script"))
    assert "$5 和 $10" in root.text_content()
