"""A title shown above the article is not said twice: a leading h1 that repeats the front
matter's (or the request's) title goes, in the HTML and in the draft; the title stays the
draft's title, and an h1 that says something else stays. Real service, fake WeChat."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from inkcard.app.articles.convert.html import to_article
from inkcard.app.articles.convert.titlehead import same_title
from tests.app import test_convert_and_draft as drafts
from tests.app.test_convert_and_draft import Service
from tests.app.test_drafts_done_right import made

start = drafts.start
service = drafts.service


def headings(markdown: str, title: str, theme: str = "brandA") -> list[str]:
    html = to_article(markdown, theme, title=title).html
    root = lxml_html.document_fromstring(html).find("body")[0]
    return [" ".join(h1.text_content().split()) for h1 in root.iter("h1")]


@pytest.mark.parametrize(
    ("h1", "title"),
    [
        ("早安，世界", "早安，世界"),  # equal
        ("早安，世界", "  早安，世界。 "),  # spaces around, a closing 。
        ("Hello   world", "hello world!"),  # spaces inside, Latin case, a closing !
        ("Ｈｅｌｌｏ World", "Hello World"),  # full-width letters
        ("一篇文章！", "一篇文章"),
    ],
)
def test_a_leading_h1_that_repeats_the_title_goes(h1: str, title: str) -> None:
    assert headings(f"# {h1}\n\n正文第一句。\n\n# 第二个一级标题\n", title) == ["第二个一级标题"]


@pytest.mark.parametrize(
    ("h1", "title"),
    [("早安，世界", "晚安，世界"), ("Chapter one", "My post"), ("Hello world", "Hello")],
)
def test_an_h1_that_says_something_else_stays(h1: str, title: str) -> None:
    assert headings(f"# {h1}\n\nText.\n", title) == [h1]


@pytest.mark.parametrize("theme", ["brandA", "japanese-magazine", "notebook"])
def test_only_a_leading_h1_goes_and_no_title_drops_nothing(theme: str) -> None:
    assert headings("Intro first.\n\n# Title\n", "Title", theme) == ["Title"]
    assert headings("# Title\n\nText.\n", "", theme) == ["Title"]
    assert "Text." in to_article("# Title\n\nText.\n", theme, title="Title").html


def test_titles_compare_by_words_not_by_punctuation_inside() -> None:
    assert same_title("A: b", "a: B.")
    assert not same_title("A, b", "A b")
    assert not same_title("", "")


FRONT = "---\ntitle: {title}\n---\n# {h1}\n\n正文第一句。\n"


def test_front_matter_title_drops_its_h1_from_the_html(service: Service) -> None:
    key, _ = service.key(10)
    body = {"markdown": FRONT.format(title="早安，世界", h1="早安，世界！")}
    response = service.post(key, body, draft=False)
    assert response.status_code == 200, response.text
    assert "<h1" not in response.json()["html"]
    kept = service.post(key, {**body, "keepTitleHeading": True}, draft=False)
    assert "<h1" in kept.json()["html"]


def test_front_matter_title_drops_its_h1_from_the_draft(service: Service) -> None:
    _, article = made(service, {"markdown": FRONT.format(title="Hello  World", h1="hello world")})
    assert article["title"] == "Hello World"  # the title field stays, cut to one line
    assert "<h1" not in article["content"] and "正文第一句" in article["content"]
    _, other = made(service, {"markdown": FRONT.format(title="My post", h1="Chapter one")})
    assert other["title"] == "My post"
    assert "<h1" in other["content"] and "Chapter one" in other["content"]
