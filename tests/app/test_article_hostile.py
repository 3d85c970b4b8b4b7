"""Hostile Markdown: nothing that runs, navigates to a script, loads or restyles survives."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import pytest
from lxml import html as lxml_html

from inkcard.app.articles.convert.html import to_article

PAYLOADS = [
    "<script>alert(1)</script>",
    "<SCRIPT SRC=http://127.0.0.1:9/x.js></SCRIPT>",
    "before <script>alert('inline')</script> after",
    "[click](javascript:alert(1))",
    "[click](<javascript:alert(1)>)",
    "[click](JaVaScRiPt:alert(1))",
    "[click](&#106;avascript:alert(1))",
    "![img](javascript:alert(1))",
    '<a href="javascript:alert(1)">raw</a>',
    '<a href="  javascript:alert(1)">spaced</a>',
    '<a href="&#x6A;avascript:alert(1)">entity</a>',
    '<a href="vbscript:msgbox(1)">vb</a>',
    '<img src=x onerror="alert(1)">',
    '<img src="javascript:alert(1)">',
    '<p onclick="alert(1)" onmouseover="alert(2)">handlers</p>',
    "<b onmouseover=alert(1)>bold</b>",
    '<p style="position:fixed;top:0;background:url(javascript:alert(1))">styled</p>',
    '<span style="behavior:url(x.htc);width:expression(alert(1))">ie</span>',
    "<style>body{display:none}</style>",
    '<link rel="stylesheet" href="http://127.0.0.1:{port}/evil.css">',
    '<iframe src="https://evil.example/"></iframe>',
    '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
    '<svg onload="alert(1)"><script>alert(2)</script><circle r="4"/></svg>',
    '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
    "<math><mtext><script>alert(1)</script></mtext></math>",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    '<a href="data:text/html,<script>alert(1)</script>">raw data</a>',
    "![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+PC9zdmc+)",
    '<object data="x.swf"></object><embed src="x.swf">',
    '<form action="https://evil.example"><input name=q><button>go</button></form>',
    '<details open ontoggle="alert(1)"><summary>s</summary></details>',
    '<div id="x" class="footnotes evil">ids and classes</div>',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<base href="javascript:alert(1)//">',
    "<!-- <script>alert(1)</script> -->",
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
    '<input type="checkbox" onclick="alert(1)" checked>',
    "- [x] <img src=x onerror=alert(1)> task",
    "[^1]\n\n[^1]: <script>alert(1)</script>[js](javascript:alert(1))",
    '<table><tr><td style="text-align:left;position:fixed" background="javascript:x">c'
    "</td></tr></table>",
    "```html\n<script>alert(1)</script>\n```",
]

BAD_TAGS = {"script", "style", "iframe", "svg", "math", "object", "embed", "form", "input",
            "button", "link", "meta", "base", "details", "noscript", "div"}  # fmt: skip
HEAD_TAGS = {"meta", "title"}
KEPT_ATTRIBUTES = {"style", "src", "alt", "href", "colspan", "rowspan"}


class _CountingHandler(http.server.BaseHTTPRequestHandler):
    hits = 0

    def do_GET(self) -> None:
        type(self).hits += 1
        self.send_response(200)
        self.send_header("Content-Type", "text/css")
        self.end_headers()
        self.wfile.write(b"p { display: none }")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def css_server() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _CountingHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def assert_harmless(html: str) -> None:
    lowered = html.lower()
    for needle in ("<script", "<iframe", "<svg", "<style", "<object", "<embed", "onerror=",
                   "onclick=", "onload=", "expression(", "<link"):  # fmt: skip
        assert needle not in lowered, needle
    document = lxml_html.document_fromstring(html)
    body = document.find("body")
    assert len(body) == 1 and body[0].tag == "section"
    for el in body.iter():
        if not isinstance(el.tag, str):
            continue  # comments would be caught here: there are none
        assert el.tag not in BAD_TAGS, el.tag
        for name, value in el.attrib.items():
            assert name in KEPT_ATTRIBUTES, (el.tag, name)
            assert "javascript" not in value.lower() and "vbscript" not in value.lower()
            if name == "href":
                assert value.startswith("https://mp.weixin.qq.com/")
            if name == "src":
                assert value.startswith(("http://", "https://", "data:image/png"))
            if name == "style" and el.tag in ("p", "span", "b"):
                assert "position" not in value and "url(" not in value
        if el.tag in ("td", "th"):
            assert "position" not in el.get("style", "")
    for el in document.find("head"):
        assert el.tag in HEAD_TAGS


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("theme", ["brandA", "notebook"])
def test_payload_is_neutralised(payload: str, theme: str) -> None:
    assert_harmless(to_article(payload.replace("{port}", "9"), theme).html)


def test_all_payloads_at_once() -> None:
    article = to_article("\n\n".join(p.replace("{port}", "9") for p in PAYLOADS), "business")
    assert_harmless(article.html)
    assert all(
        not src.lower().startswith(("javascript", "data:image/svg")) for src in article.images
    )


def test_text_around_removed_markup_survives() -> None:
    root = lxml_html.document_fromstring(to_article(PAYLOADS[2], "brandA").html).find("body")
    assert " ".join(root.text_content().split()) == "before after"


def test_control_characters_are_dropped_not_a_crash() -> None:
    """Schemathesis found this one: lxml refuses control characters in text (was a 500)."""
    markdown = (
        "\u00ec\u0010\u001d_\u00a2\U000d4ee0 a\x00b\x7f\x85c\ufffe `d\x01e`\n\n```\nf\x02g\n```"
    )
    root = lxml_html.document_fromstring(to_article(markdown, "japanese-magazine").html)
    text = root.find("body").text_content()
    assert "ab" in text and "c" in text and "de" in text and "fg" in text
    assert not any(ord(ch) < 0x20 and ch not in "\t\n\r" for ch in text)


def test_code_about_scripts_is_shown_as_text() -> None:
    html = to_article(PAYLOADS[-1], "brandA").html
    assert "&lt;script&gt;" in html and "<script" not in html


def test_stylesheet_links_are_never_fetched(css_server: int) -> None:
    payload = PAYLOADS[19].replace("{port}", str(css_server))
    before = _CountingHandler.hits
    html = to_article(payload + "\n\ntext", "brandA").html
    assert _CountingHandler.hits == before
    assert "display:none" not in html.replace(" ", "")
