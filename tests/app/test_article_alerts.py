"""GitHub alerts in articles: a themed callout with its label, never the `[!NOTE]` marker."""

from __future__ import annotations

import re

import pytest
from lxml import html as lxml_html

from inkcard import themes
from inkcard.app.articles.convert.html import to_article
from inkcard.layout.parse import ALERT_LABELS

KINDS = tuple(ALERT_LABELS)


@pytest.mark.parametrize("theme", themes.article_names())
@pytest.mark.parametrize("kind", KINDS)
def test_an_alert_is_a_callout_with_its_label_and_colour(theme: str, kind: str) -> None:
    article = to_article(f"前文。\n\n> [!{kind.upper()}]\n> 正文 **粗体**。", theme)
    assert "[!" not in article.html
    assert not re.search(r"<[^>]+\s(class|id)=", article.html)
    body = lxml_html.document_fromstring(article.html).find("body")[0]
    [box] = [s for s in body.iter("section") if "正文" in s.text_content()][-1:]
    title, text = box[0], box[1]
    assert title.text_content() == ALERT_LABELS[kind]
    assert "正文" in text.text_content()
    style = box.get("style", "")
    colour = re.search(r"border-left-color:\s*(#[0-9a-f]{6})", style)
    assert colour, style
    assert colour.group(1) in title.get("style", "")  # the title in the box's colour
    assert "background-color:" in style


def test_the_kinds_have_different_colours() -> None:
    colours = set()
    for kind in KINDS:
        html = to_article(f"> [!{kind}]\n> x", "brandA").html
        colours.add(re.search(r"border-left-color:\s*(#[0-9a-f]{6})", html).group(1))  # type: ignore[union-attr]
    assert len(colours) == len(KINDS)


def test_an_unknown_marker_stays_a_quote() -> None:
    html = to_article("> [!DANGER]\n> x", "brandA").html
    assert "<blockquote" in html and "[!DANGER]" in html


def test_a_raw_html_alert_class_cannot_style_other_tags() -> None:
    html = to_article('<div class="alert-title">x</div> <b class="alert">y</b>', "brandA").html
    assert "700" not in html  # neither the title's weight nor the box reached them
