"""Brand knobs of the article themes: a primary colour and a base font size."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from lxml import html as lxml_html

from inkcard import themes
from inkcard.app.articles.convert.brand import Brand, apply_brand, readable_on, readable_on_white
from inkcard.app.articles.convert.html import to_article
from inkcard.app.schema import ARTICLE_THEMES, ArticleToolArguments, parse_article, tool_schema
from inkcard.layout.parse import css_color
from inkcard.layout.style import relative_luminance
from tests.app.test_convert_and_draft import Service, assert_error, service, start

__all__ = ["service", "start"]  # the HTTP service fixtures, shared

THEMES = tuple(sorted(ARTICLE_THEMES))
POST = (
    "# Title\n\n## Part\n\n### Sub\n\nText with a [link](https://example.com) and a note[^1].\n\n"
    "> A quote\n\n- one\n- two\n\n1. first\n\n---\n\n[^1]: The note."
)


def _contrast(hex_colour: str) -> float:
    argb = css_color(hex_colour)
    assert argb is not None
    return 1.05 / (relative_luminance(argb) + 0.05)


def _colours(html: str) -> set[str]:
    return {c.lower() for c in re.findall(r"#[0-9a-fA-F]{6}\b", html)}


@pytest.mark.parametrize("theme", THEMES)
def test_the_primary_colour_reaches_headings_quotes_links_and_markers(theme: str) -> None:
    html = to_article(POST, theme, brand=Brand("#7b2d8e")).html
    body = lxml_html.document_fromstring(html).find("body")[0]
    styled = {
        name: " ".join(el.get("style") or "" for el in body.iter(name)) for name in ("h2", "h3")
    }
    # a dark theme's panel (its --ground): the colour is lightened until it reads there
    ground = re.search(r"--ground:\s*(#[0-9a-f]{6})", themes.article_css(theme))
    expected = readable_on("#7b2d8e", ground.group(1) if ground else None)
    assert expected == "#7b2d8e" or ground
    assert expected in html.lower()
    assert expected in (styled["h2"] + styled["h3"]).lower()  # a heading carries it
    default = to_article(POST, theme).html
    theme_only = _colours(default) - _colours(html)
    assert theme_only, "the theme's own brand colours are replaced"


@pytest.mark.parametrize("theme", THEMES)
def test_without_knobs_a_theme_is_unchanged_and_declares_its_knobs(theme: str) -> None:
    css = themes.article_css(theme)
    assert ":root" in css and "--font-size: 16px" in css
    plain = apply_brand(css, Brand())
    assert "var(" not in plain and ":root" not in plain


@pytest.mark.parametrize("colour", ["#ffd700", "yellow", "hsl(60 100% 80%)", "#e0f7fa"])
def test_a_colour_too_light_for_text_on_white_is_darkened_to_read(colour: str) -> None:
    darker = readable_on_white(colour)
    assert _contrast(darker) >= 4.5
    html = to_article(POST, "brandA", brand=Brand(colour)).html.lower()
    assert darker in html


def test_a_dark_enough_colour_is_kept_as_it_is() -> None:
    assert readable_on_white("rgb(7 100 60)") == "#07643c"


@pytest.mark.parametrize("theme", THEMES)
def test_the_base_size_scales_body_and_everything_relative_to_it(theme: str) -> None:
    def sizes(size: int | None) -> list[float]:
        html = to_article(POST, theme, brand=Brand(font_size=size)).html
        return [float(v) for v in re.findall(r"font-size:\s*([\d.]+)px", html)]

    base, large, small = sizes(None), sizes(18), sizes(14)
    assert len(base) == len(large) == len(small) and 16 in base and 18 in large
    for b, big, little in zip(base, large, small, strict=True):
        assert big == pytest.approx(b * 18 / 16, abs=0.06)
        assert little == pytest.approx(b * 14 / 16, abs=0.06)


BAD: list[tuple[dict[str, Any], str]] = [
    ({"primaryColor": "not-a-colour"}, "invalid_primary_color"),
    ({"primaryColor": "url(http://x/y)"}, "invalid_primary_color"),
    ({"primaryColor": 5}, "invalid_primary_color"),
    ({"primaryColor": "#" + "0" * 200}, "invalid_primary_color"),
    ({"fontSize": 13}, "invalid_font_size"),
    ({"fontSize": 40}, "invalid_font_size"),
    ({"fontSize": "16px"}, "invalid_font_size"),
]


@pytest.mark.parametrize(("body", "label"), BAD)
def test_bad_knobs_are_400_free(service: Service, body: dict[str, Any], label: str) -> None:
    key, prefix = service.key(10)
    assert_error(service.post(key, {"markdown": "# Hi", **body}, draft=False), 400, label)
    assert service.balance(prefix) == 10


def test_the_knobs_reach_the_article_over_http(service: Service) -> None:
    key, _ = service.key(10)
    body = {"markdown": POST, "primaryColor": "hsl(280 52% 37%)", "fontSize": 18}
    response = service.post(key, body, draft=False)
    assert response.status_code == 200, response.text
    html = response.json()["html"].lower()
    assert "#6f2d8f" in html  # hsl(280 52% 37%), dark enough to keep
    assert "font-size:18px" in html.replace(" ", "")


def test_the_mcp_tool_takes_the_same_knobs() -> None:
    properties = tool_schema(ArticleToolArguments, ARTICLE_THEMES)["properties"]
    assert properties["fontSize"]["minimum"] == 14 and properties["fontSize"]["maximum"] == 18
    assert "pattern" in properties["primaryColor"]
    request = parse_article(b'{"markdown": "x", "primaryColor": "rgb(7 193 96)", "fontSize": 17.0}')
    assert (request.primaryColor, request.fontSize) == ("rgb(7 193 96)", 17)


def test_formulas_scale_with_the_base_size() -> None:
    def height(size: int | None) -> float:
        html = to_article("x $a^2+b$ y", brand=Brand(font_size=size)).html
        found = re.search(r'<svg[^>]*\sheight="([\d.]+)"', html)
        assert found is not None
        return float(found.group(1))

    assert height(18) == pytest.approx(height(None) * 18 / 16, rel=0.02)


def test_formulas_typeset_by_the_service_scale_too(start: Callable[..., Service]) -> None:
    service = start()  # with its render process: the formulas are typeset there
    key, _ = service.key(10)

    def height(extra: dict[str, Any]) -> float:
        body = {"markdown": "x $a^2+b$ y", **extra}
        html = service.post(key, body, draft=False).json()["html"]
        found = re.search(r'<svg[^>]*\sheight="([\d.]+)"', html)
        assert found is not None
        return float(found.group(1))

    assert height({"fontSize": 18}) == pytest.approx(height({}) * 18 / 16, rel=0.02)
