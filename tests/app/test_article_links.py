"""Bare addresses and references in articles: only real addresses link, one number each."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from inkcard.app.articles.convert.html import to_article


def _article(markdown: str) -> lxml_html.HtmlElement:
    return lxml_html.document_fromstring(to_article(markdown).html).find("body")[0]


def _linked(markdown: str) -> list[str]:
    """The texts styled as links (links become spans with the link look)."""
    paragraph = _article(markdown).find(".//p")
    return [span.text_content() for span in paragraph.iter("span")]


@pytest.mark.parametrize("name", ["README.md", "bench.py", "notes.txt", "main.rs", "example.com"])
def test_file_names_and_bare_domains_are_not_links(name: str) -> None:
    assert _linked(f"Open {name} first.") == []


@pytest.mark.parametrize("address", ["https://example.com/a", "http://x.org", "www.example.com"])
def test_addresses_are_links(address: str) -> None:
    assert _linked(f"See {address} now.") == [address]


def test_a_domain_in_a_footnote_prints_once() -> None:
    text = _article("Note[^1].\n\n[^1]: See mp.weixin.qq.com and www.example.com.").text_content()
    assert "See mp.weixin.qq.com and www.example.com." in text
    assert "http://" not in text


def test_a_linked_address_in_a_footnote_prints_once() -> None:
    text = _article("Note[^1].\n\n[^1]: [example.com](https://example.com/).").text_content()
    assert text.count("example.com") == 1


def test_the_same_url_linked_twice_gets_one_reference() -> None:
    body = _article(
        "[one](https://a.com/x) [two](https://A.com/x/) [three](https://a.com/%78) "
        "[four](https://b.com)"
    )
    marks = [sup.text for sup in body.iter("sup")]
    assert marks == ["[1]", "[1]", "[1]", "[2]"]
    assert body.text_content().count("https://a.com/x") == 1
