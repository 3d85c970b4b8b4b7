"""An article's math is typeset in a card render worker, under the article's math budget:
never in a thread of the server, which nothing could stop, and never behind one lock for the
whole request. Hostile formulas are shown as source at once: a hostile article's convert is
timed against an ordinary one's timed beside it (`seconds_of`), so a loaded machine slows
both alike."""

from __future__ import annotations

import time

from litestar import Litestar
from litestar.testing import TestClient
from lxml import html as lxml_html

from inkcard.layout.text import typeset_math
from inkcard.layout.text.formula.mathtex import POST_FORMULAS
from tests.app.apphelpers import wait_warm
from tests.app.conftest import shared_app
from tests.cpu import at_most
from tests.layout.test_math_budget import NESTINGS, nested

pytestmark = shared_app  # each test counts the pool's renders from where it found them

Client = TestClient[Litestar]
PATH = "/api/platform/convert-and-draft"


def convert(client: Client, key: str, markdown: str) -> lxml_html.HtmlElement:
    answer = client.post(PATH, headers={"x-api-key": key}, json={"markdown": markdown})
    assert answer.status_code == 200, answer.text
    return lxml_html.document_fromstring(answer.json()["html"])


def seconds_of(client: Client, key: str, markdown: str) -> tuple[float, lxml_html.HtmlElement]:
    """The wall seconds of one convert (its work is in a render process: not this thread's
    CPU) and its HTML."""
    started = time.perf_counter()
    root = convert(client, key, markdown)
    return time.perf_counter() - started, root


def test_article_math_is_typeset_in_a_worker_not_in_the_server(client: Client, key: str) -> None:
    typeset_math.cache_clear()
    renders = client.app.state.services.render_pool.renders
    root = convert(client, key, "设 $\\frac{a}{b}$ 与 $$\\sum_{i=1}^{n} i$$ 和 $\\frac{a}{b}$")
    assert len(list(root.iter("svg"))) == 3
    assert typeset_math.cache_info().currsize == 0  # this process typeset nothing
    assert client.app.state.services.render_pool.renders == renders + 1  # one job, all three


def test_an_article_without_math_costs_no_worker(client: Client, key: str) -> None:
    renders = client.app.state.services.render_pool.renders
    convert(client, key, "# Prices\n\n$5 and $10, no math here.")
    assert client.app.state.services.render_pool.renders == renders


def test_nested_latex_in_an_article_is_source_at_once(client: Client, key: str) -> None:
    """Two such calls held convert for minutes. Compared with an article of as many
    ordinary formulas, all typeset, timed beside it: 0.2-0.3 times it today (0.05-0.08 s
    against 0.24-0.29 s)."""
    markdown = "\n\n".join(f"$${nested(pattern, 17)}$$" for pattern in NESTINGS)
    ordinary = "\n\n".join(f"$$\\frac{{a_{{{n}}}}}{{b}}$$" for n in range(len(NESTINGS)))
    wait_warm(client)  # the time is the article's own, not a render process's start
    reference, _ = seconds_of(client, key, ordinary + "\n\n$y^2$")
    spent, root = seconds_of(client, key, markdown + "\n\n$x^2$")
    at_most(spent, reference, 1, 1.0, "the article of nested formulas")
    assert len(list(root.iter("svg"))) == 1  # only x²; the rest are underlined source
    assert nested(NESTINGS[0], 17) in root.text_content()


def test_thousands_of_formulas_stop_at_the_articles_budget(client: Client, key: str) -> None:
    """8,000 formulas took 18.6 s before. Compared with an article of as many formulas as the
    budget typesets, timed beside it: 0.8-1.1 times it today (2.6 s against 2.3-3.1 s);
    typesetting all 3,000 would be some 5 times it."""
    markdown = " ".join(f"$x_{{{i}}}+\\sqrt{{y_{{{i}}}}}$" for i in range(3000))
    budget = " ".join(f"$a_{{{i}}}+\\sqrt{{b_{{{i}}}}}$" for i in range(POST_FORMULAS))
    wait_warm(client)  # the time is the article's own, not a render process's start
    reference, _ = seconds_of(client, key, budget)
    spent, root = seconds_of(client, key, markdown)
    at_most(spent, reference, 3, 1.0, "the article of 3,000 formulas")
    svgs = len(list(root.iter("svg")))
    assert 0 < svgs <= POST_FORMULAS
