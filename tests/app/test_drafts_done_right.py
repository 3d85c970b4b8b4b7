"""Drafts end to end against the fake WeChat platform: the title's heading, the automatic
digest, the comment flags, the image policy and its per-image outcome, the message's plurals,
and a front matter's fields (a request field wins). Real service on 127.0.0.1, real HTTP."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.app import test_convert_and_draft as drafts
from tests.app import test_mcp as mcp
from tests.app.conftest import both_engines
from tests.app.test_convert_and_draft import Service, assert_error, srcs

pytestmark = both_engines
start = drafts.start  # the service against a fresh fake platform and image server
service = drafts.service
stdio = mcp.stdio  # the MCP server on stdio with a fake platform


def made(
    service: Service, body: dict[str, Any], credits: int = 10
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the answer, the draft's article as the platform stored it)."""
    key, _ = service.key(credits)
    response = service.post(key, body)
    assert response.status_code == 200, response.text
    answer = response.json()
    return answer, service.stored(answer["data"]["media_id"])


# The title's heading


def test_the_leading_h1_is_the_title_and_leaves_the_content(service: Service) -> None:
    _, article = made(service, {"markdown": "# 早安，世界\n\n正文第一句。"})
    assert article["title"] == "早安，世界"
    assert "<h1" not in article["content"] and "早安，世界" not in article["content"]
    assert "正文第一句" in article["content"]


def test_keep_title_heading_keeps_it(service: Service) -> None:
    _, article = made(service, {"markdown": "# 早安\n\n正文。", "keepTitleHeading": True})
    assert article["title"] == "早安" and "<h1" in article["content"]


def test_a_given_title_leaves_the_h1_where_it_is(service: Service) -> None:
    _, article = made(service, {"markdown": "# Chapter one\n\nText.", "title": "My post"})
    assert article["title"] == "My post"
    assert re.search(r"<h1[^>]*>Chapter one<", article["content"])


def test_a_title_cut_to_the_limit_keeps_its_whole_heading(service: Service) -> None:
    heading = "A heading well over thirty-two characters, so the title is cut"
    _, article = made(service, {"markdown": f"# {heading}\n\nText."})
    assert article["title"].endswith("…") and heading in article["content"]


# The digest


def test_the_digest_is_the_first_whole_sentences_without_glyphs(service: Service) -> None:
    markdown = (
        "# 标题\n\n> 引用不进摘要 😀\n\n标题\n\n"
        "🎉 第一句话，说明这篇文章。第二句“补充”一下！" + "第三句很长" * 30 + "。\n\n- 列表项\n"
    )
    _, article = made(service, {"markdown": markdown})
    assert article["digest"] == "第一句话，说明这篇文章。第二句补充一下！"


def test_a_long_first_sentence_is_cut_to_128_characters(service: Service) -> None:
    _, article = made(service, {"markdown": "# T\n\n" + "word " * 60})
    assert len(article["digest"]) == 128 and article["digest"].endswith("…")


def test_a_given_digest_is_sent_as_it_is(service: Service) -> None:
    _, article = made(service, {"markdown": "# T\n\nBody.", "digest": "“Mine” 😀"})
    assert article["digest"] == "“Mine” 😀"


# Comments


@pytest.mark.parametrize(
    ("flags", "wire"),
    [
        ({}, (0, 0)),
        ({"needOpenComment": True}, (1, 0)),
        ({"needOpenComment": True, "onlyFansCanComment": True}, (1, 1)),
        ({"onlyFansCanComment": True}, (1, 1)),  # followers-only comments are open comments
    ],
)
def test_comment_flags_reach_the_wire(
    service: Service, flags: dict[str, bool], wire: tuple[int, int]
) -> None:
    _, article = made(service, {"markdown": "# T\n\nBody.", **flags})
    assert (article["need_open_comment"], article["only_fans_can_comment"]) == wire


# Images


def bad_images(service: Service) -> str:
    u = service.images.url
    return (
        f"# Pictures\n\n![ok]({u('/a.png')})\n\n![gone]({u('/missing.png')})\n\n"
        f"![text]({u('/text.png')})\n\n![nowhere](relative.png)\n\nThe end.\n"
    )


def test_skip_makes_the_draft_without_the_bad_images_and_lists_them(service: Service) -> None:
    key, prefix = service.key(10)
    response = service.post(key, {"markdown": bad_images(service), "imagePolicy": "skip"})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert service.balance(prefix) == 7
    outcome = {image["source"]: image for image in answer["data"]["images"]}
    u = service.images.url
    assert outcome[u("/a.png")] == {"source": u("/a.png"), "status": "uploaded", "reason": ""}
    assert outcome[u("/missing.png")]["status"] == "skipped"
    assert "404" in outcome[u("/missing.png")]["reason"]
    assert outcome[u("/text.png")]["status"] == "skipped"
    assert outcome["image 4 (alt text “nowhere”)"]["status"] == "skipped"
    assert len(outcome) == 4
    assert "(1 image uploaded, 3 images skipped)" in answer["message"]
    article = service.stored(answer["data"]["media_id"])
    (only,) = srcs(article["content"])
    assert only.startswith("https://mmbiz.qpic.cn/")
    assert "gone" not in article["content"] and "127.0.0.1" not in article["content"]
    assert service.platform.hits["/cgi-bin/media/uploadimg"] == 1


def test_skip_takes_an_image_the_platform_refuses_out_too(service: Service) -> None:
    service.platform.force(40005, "/cgi-bin/media/uploadimg", times=1)  # the first upload
    key, _ = service.key(10)
    u = service.images.url
    markdown = f"# P\n\n![one]({u('/a.png')})\n\n![two]({u('/cover.jpg')})\n"
    response = service.post(key, {"markdown": markdown, "imagePolicy": "skip"})
    assert response.status_code == 200, response.text
    statuses = [image["status"] for image in response.json()["data"]["images"]]
    assert statuses == ["skipped", "uploaded"]
    article = service.stored(response.json()["data"]["media_id"])
    assert len(srcs(article["content"])) == 1


def test_fail_the_default_refuses_the_draft_and_charges_nothing(service: Service) -> None:
    key, prefix = service.key(10)
    response = service.post(key, {"markdown": bad_images(service)})
    assert_error(response, 400, "invalid_image")
    assert service.balance(prefix) == 10
    assert not service.platform.hits and not service.platform.drafts


def test_one_uploaded_image_is_one_image(service: Service) -> None:
    u = service.images.url
    answer, _ = made(service, {"markdown": f"# P\n\n![a]({u('/a.png')})"})
    assert answer["message"].endswith("(1 image uploaded)")
    answer, _ = made(service, {"markdown": "# P\n\nNo pictures."})
    assert answer["message"].endswith("(0 images uploaded)")


# Front matter


FRONT = """---
title: From the front matter
author: Ink
digest: A summary of my own.
cover: {cover}
source_url: https://example.com/original
theme: business
tags: [a, b]
---
# Heading

Body text.
"""


def test_front_matter_fills_the_draft_and_is_never_rendered(service: Service) -> None:
    markdown = FRONT.format(cover=service.images.url("/cover.jpg"))
    _, article = made(service, {"markdown": markdown})
    assert article["title"] == "From the front matter"
    assert article["author"] == "Ink" and article["digest"] == "A summary of my own."
    assert article["content_source_url"] == "https://example.com/original"
    assert service.images.hits["/cover.jpg"] == 1
    assert "front matter" not in article["content"] and "tags" not in article["content"]
    assert "Heading</h1>" in article["content"]  # the title was given: the h1 stays


def test_request_fields_win_over_front_matter(service: Service) -> None:
    markdown = FRONT.format(cover=service.images.url("/cover.jpg"))
    _, article = made(service, {"markdown": markdown, "title": "Mine", "author": "Me"})
    assert article["title"] == "Mine" and article["author"] == "Me"
    assert article["digest"] == "A summary of my own."


def test_front_matter_theme_and_request_theme_in_html(service: Service) -> None:
    key, _ = service.key(10)
    front = "---\ntheme: japanese-magazine\n---\n## Part\n"

    def html(body: dict[str, Any]) -> str:
        response = service.post(key, body, draft=False)
        assert response.status_code == 200, response.text
        return str(response.json()["html"])

    from_front = html({"markdown": front})
    assert from_front == html({"markdown": "## Part\n", "theme": "japanese-magazine"})
    assert html({"markdown": front, "theme": "brandA"}) == html({"markdown": "## Part\n"})
    assert "theme:" not in from_front


@pytest.mark.parametrize(
    ("front", "message"),
    [
        ("title: &a x\nauthor: *a", "alias"),
        ("title: [1, 2]", "single value"),
        ("title: a\n- b", "not valid YAML"),
        ("theme: nope", "theme from the front matter"),
        ("cover: ftp://example.com/a.png", "coverImageUrl from the front matter"),
        ("title: " + "x" * 9000, "at most 8,192"),
        ("title: " + "[" * 4000, "nesting depth"),
    ],
)
def test_hostile_front_matter_is_a_clear_400_free(
    service: Service, front: str, message: str
) -> None:
    key, prefix = service.key(10)
    response = service.post(key, {"markdown": f"---\n{front}\n---\nBody"})
    assert response.status_code == 400, response.text
    assert message in response.json()["message"]
    assert service.balance(prefix) == 10 and not service.platform.hits


def test_a_billion_laughs_is_refused_quickly(service: Service) -> None:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    lines += [
        f"{c}: &{c} [{','.join(['*' + p] * 9)}]"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    ]
    key, _ = service.key(10)
    markdown = "---\ntitle: t\n" + "\n".join(lines) + "\n---\nBody"
    response = httpx.post(
        service.base + "/api/platform/convert-and-draft",
        json={"markdown": markdown},
        headers={"x-api-key": key},
        timeout=30,
    )
    assert response.status_code == 400 and "alias" in response.json()["message"]


# The MCP tool: the same fields, the same front matter


def test_the_mcp_tool_reads_front_matter_and_takes_the_new_fields(stdio: mcp.Stdio) -> None:
    markdown = "---\ntitle: 来自前言\nauthor: Ink\n---\n# 标题\n\n正文第一句。"

    async def scenario() -> None:
        async with stdio.session() as session:
            result = await session.call_tool(
                "convert_article",
                {
                    "markdown": markdown,
                    "needOpenComment": True,
                    "imagePolicy": "skip",
                    "platformAppid": mcp.APPID,
                    "platformAppSecret": mcp.SECRET,
                },
            )
        answer = mcp.text_of(result)
        assert answer["data"]["images"] == [] and "(0 images uploaded)" in answer["message"]
        [article] = stdio.platform.draft(answer["data"]["media_id"])
        assert (article["title"], article["author"]) == ("来自前言", "Ink")
        assert article["need_open_comment"] == 1 and article["digest"] == "正文第一句。"
        assert "author:" not in article["content"]

    mcp.run(scenario)
