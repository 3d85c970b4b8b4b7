"""Raw HTML in articles keeps the inline styles cards read too, and nothing dangerous."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from inkcard.app.articles.convert.html import to_article


def _body(markdown: str) -> lxml_html.HtmlElement:
    return lxml_html.document_fromstring(to_article(markdown).html).find("body")[0]


def _styles(el: lxml_html.HtmlElement) -> dict[str, str]:
    pairs = (part.partition(":") for part in (el.get("style") or "").split(";"))
    return {name.strip(): value.strip() for name, _, value in pairs if name.strip()}


def test_a_dashed_box_keeps_its_border_and_padding() -> None:
    body = _body('<div style="border:1px dashed #999;padding:8px">a box</div>')
    [box] = [el for el in body.iter("section") if el.text == "a box"]
    assert _styles(box)["border"] == "1px dashed #999"
    assert _styles(box)["padding"] == "8px"


@pytest.mark.parametrize(
    ("css", "expected"),
    [
        ("color:green", "#008000"),
        ("color: hsl(120 50% 40%)", "#339933"),
        ("color: rgb(255 0 0)", "#ff0000"),
        ("color: rebeccapurple", "#663399"),
    ],
)
def test_a_coloured_span_keeps_its_colour(css: str, expected: str) -> None:
    body = _body(f'Some <span style="{css}">coloured</span> text')
    [span] = [el for el in body.iter("span") if el.text == "coloured"]
    assert _styles(span)["color"] == expected


@pytest.mark.parametrize(
    "css",
    [
        "position:fixed;top:0",
        "background:url(https://example.com/x.png)",
        "background-image:url(javascript:alert(1))",
        "width:expression(alert(1))",
        "color:expression(alert(1))",
        "behavior:url(x.htc)",
        "-moz-binding:url(x)",
        "font-family:javascript",
    ],
)
def test_dangerous_declarations_are_dropped(css: str) -> None:
    html = to_article(f'<span style="{css};color:red">x</span>').html.lower()
    assert "url(" not in html and "expression" not in html and "javascript" not in html
    assert "position" not in html and "binding" not in html and "behavior" not in html
    assert "color:#ff0000" in html.replace(" ", "")
