"""Checks before publishing: the ``warnings`` of convert-and-draft and newspic-draft, end to end
against the fake WeChat platform and a loopback image server (over real HTTP), and every
documented warning code produced by one of the cases here."""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from inkcard.app.articles.drafts.checks import WARNING_CODES, Warnings
from inkcard.app.articles.newspic import post_text
from inkcard.app.schema import NEWSPIC_TEXT_LIMIT, NewspicRequest
from tests.app.apphelpers import png_size
from tests.app.test_convert_and_draft import APPID, SECRET, Service, start
from tests.app.test_mcp import Stdio, run, stdio, text_of

__all__ = ["start", "stdio"]  # fixtures shared with the convert-and-draft, MCP tests


@pytest.fixture
def service(start: Callable[..., Service]) -> Service:
    """The service with its render process: a newspic draft draws its cards."""
    return start()


NEWSPIC = "/api/platform/newspic-draft"
LONG_SENTENCE = "This opening sentence " + "goes on and on " * 10 + "until it ends."
LONG_TITLE = "A title that runs on well past the platform's thirty-two characters"
OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"


def codes(answer: httpx.Response) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [warning["code"] for warning in answer.json()["warnings"]]


def newspic(service: Service, key: str, body: dict[str, Any]) -> httpx.Response:
    headers = {"x-api-key": key, "Platform-Appid": APPID, "Platform-App-Secret": SECRET}
    return httpx.post(service.base + NEWSPIC, json=body, headers=headers, timeout=120)


def article_cases(service: Service) -> list[tuple[str, dict[str, Any], bool, set[str]]]:
    """(name, body, draft?, the codes its answer must carry)."""
    url = service.images.url
    busy = (
        f"# Heading\n\n{LONG_SENTENCE}\n\nSee [the docs](https://example.com/docs).\n\n"
        f"![webp]({url('/b.webp')})\n\n![big]({url('/big.png')})\n\n![gone]({url('/gone.png')})\n"
    )
    return [
        (
            "busy draft",
            {"markdown": busy, "title": LONG_TITLE, "imagePolicy": "skip"},
            True,
            {"title_cut", "digest_cut", "links_to_references", "image_converted", "image_skipped"},
        ),
        ("no image", {"markdown": "# Plain\n\nNo pictures here."}, True, {"cover_generated"}),
        ("long html", {"markdown": "word " * 4_300}, False, {"content_too_large"}),
        ("own css", {"markdown": "# Hi", "css": "p { position: fixed }"}, True, {"css_refused"}),
    ]


def test_every_warning_code_is_produced_and_documented(service: Service) -> None:
    key, _ = service.key(100)
    produced: set[str] = set()
    for name, body, draft, expected in article_cases(service):
        found = codes(service.post(key, body, draft=draft))
        assert expected <= set(found), (name, found)
        produced |= set(found)
    parts = "\n\n---\n\n".join(f"Part {n}" for n in range(19))
    post = {
        "markdown": parts,
        "splitMode": "hrSplit",
        "scale": 1,
        "title": LONG_TITLE,
        "description": "Words. " * 200,
    }
    found = codes(newspic(service, key, post))
    assert set(found) == {
        "title_cut",
        "description_cut",
        "xiaohongshu_title_too_long",
        "xiaohongshu_text_too_long",
        "xiaohongshu_too_many_images",
    }
    produced |= set(found)
    xhs_note_only = {"xiaohongshu_too_many_tags"}  # tests/app/test_xhs_note.py makes it
    assert produced == set(WARNING_CODES) - xhs_note_only


def test_the_operators_guide_lists_every_code() -> None:
    rows = [line for line in OPERATIONS.read_text("utf-8").splitlines() if line.startswith("| `")]
    listed = {line.split("`")[1] for line in rows}
    assert set(WARNING_CODES) <= listed


def test_the_busy_drafts_warnings_name_what_happened(service: Service) -> None:
    key, _ = service.key(10)
    _, body, _, _ = article_cases(service)[0]
    answer = service.post(key, body)
    warnings = answer.json()["warnings"]
    by_code: dict[str, list[str]] = {}
    for warning in warnings:
        by_code.setdefault(warning["code"], []).append(warning["message"])
    converted = by_code["image_converted"]
    assert any("/b.webp" in m and "was WEBP: sent as JPEG, 300×180" in m for m in converted)
    assert any("/big.png" in m and "over the platform's 1,000,000" in m for m in converted)
    assert len(converted) == 2
    (skipped,) = by_code["image_skipped"]
    assert "/gone.png" in skipped and "404" in skipped
    assert by_code["links_to_references"] == [
        "1 link address outside WeChat moved to the references at the end (they do not open"
        " in WeChat)"
    ]
    assert "cover_generated" not in by_code  # the first usable image is the cover


def test_a_clean_article_and_post_have_no_warnings(service: Service) -> None:
    key, _ = service.key(20)
    markdown = f"# Short\n\nA sentence.\n\n![a]({service.images.url('/a.png')})\n"
    assert codes(service.post(key, {"markdown": markdown})) == []
    assert codes(service.post(key, {"markdown": markdown}, draft=False)) == []
    assert codes(newspic(service, key, {"markdown": "# Short\n\nA sentence.", "scale": 1})) == []


def test_an_image_posts_text_drawn_from_a_long_first_sentence_is_cut() -> None:
    warnings = Warnings()
    sentence = "A sentence " + "that keeps going " * 80 + "to its end."
    title, text = post_text(NewspicRequest(markdown=f"# Title\n\n{sentence}"), warnings)
    assert title == "Title" and len(text) == NEWSPIC_TEXT_LIMIT and text.endswith("…")
    assert [w.code for w in warnings.items] == ["digest_cut"]


# Dry runs


def test_an_article_dry_run_calls_no_platform_and_costs_one(service: Service) -> None:
    key, prefix = service.key(10)
    picture = service.images.url("/b.webp")
    markdown = f"# Dry\n\nA first sentence.\n\n![pic]({picture})\n\n[docs](https://example.com)\n"
    body = {"markdown": markdown, "dryRun": True, "author": "Me", "needOpenComment": True}
    for draft in (True, False):  # with the account's headers or without: nothing is sent
        answer = service.post(key, body, draft=draft)
        assert answer.status_code == 200, answer.text
        sent = answer.json()
        data = sent["data"]
        assert data["title"] == "Dry" and data["author"] == "Me"
        assert data["digest"] == "A first sentence."
        assert data["need_open_comment"] == 1 and data["only_fans_can_comment"] == 0
        assert data["cover"] == picture and data["cost"] == 1
        assert data["coverImage"] == ""  # the cover is the image named by cover
        assert data["images"] == [{"source": picture, "status": "ready", "reason": ""}]
        assert f'src="{picture}"' in data["content"] and "<h1" not in data["content"]
        assert [w["code"] for w in sent["warnings"]] == ["links_to_references", "image_converted"]
        assert "dry run" in sent["message"]
    assert not service.platform.hits  # no token, no upload, no draft
    assert service.images.hits["/b.webp"] == 2  # the images were fetched and converted
    assert service.balance(prefix) == 8


def test_an_article_dry_run_draws_the_cover_and_refuses_as_a_draft_would(
    service: Service,
) -> None:
    key, prefix = service.key(10)
    answer = service.post(key, {"markdown": "# Plain\n\nText.", "dryRun": True}, draft=False)
    assert answer.json()["data"]["cover"] == "generated"
    shown = answer.json()["data"]["coverImage"]  # the drawn cover itself, not just its name
    assert shown.startswith("data:image/png;base64,")
    assert png_size(base64.b64decode(shown.split(",", 1)[1])) == (900, 383)
    assert [w["code"] for w in answer.json()["warnings"]] == ["cover_generated"]
    empty = service.post(key, {"markdown": " ", "dryRun": True}, draft=False)
    assert empty.status_code == 400 and empty.json()["error"] == "empty_markdown"
    gone = {"markdown": f"![x]({service.images.url('/gone.png')})", "dryRun": True}
    missing = service.post(key, gone, draft=False)
    assert missing.status_code == 502 and missing.json()["cost"] == 0
    assert service.balance(prefix) == 9
    assert not service.platform.hits


def test_an_image_post_dry_run_draws_the_cards_and_sends_nothing(service: Service) -> None:
    key, prefix = service.key(10)
    body = {"markdown": "# Kyoto\n\nMaple leaves.\n\n---\n\nPart two", "splitMode": "hrSplit"}
    headers = {"x-api-key": key}  # no account: a dry run needs none
    answer = httpx.post(
        service.base + NEWSPIC, json=body | {"scale": 1, "dryRun": True}, headers=headers
    )
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    assert (data["title"], data["description"], data["cost"]) == ("Kyoto", "Maple leaves.", 1)
    assert len(data["images"]) == 2
    assert all(httpx.get(image["url"]).status_code == 200 for image in data["images"])
    assert answer.json()["warnings"] == []
    assert not service.platform.hits
    assert service.balance(prefix) == 9


def test_the_mcp_tools_dry_runs_send_nothing(stdio: Stdio) -> None:
    async def scenario() -> None:
        async with stdio.session() as session:
            post = await session.call_tool(
                "create_newspic_draft", {"markdown": "# Post\n\nText.", "dryRun": True}
            )
            article = await session.call_tool(
                "convert_article",
                {"markdown": "# Article\n\nText.", "dryRun": True}
                | {"platformAppid": APPID, "platformAppSecret": SECRET},
            )
        assert not post.is_error and not article.is_error
        assert text_of(post)["data"]["title"] == "Post"
        assert text_of(article)["data"]["cover"] == "generated"
        assert text_of(article)["warnings"][0]["code"] == "cover_generated"

    run(scenario)
    assert not stdio.platform.hits
    assert stdio.balance() == 100 - 2


def test_a_dry_runs_cover_is_the_png_the_draft_uploads(service: Service) -> None:
    key, _ = service.key(10)
    body = {"markdown": "# Same cover\n\nText."}
    shown = service.post(key, body | {"dryRun": True}, draft=False).json()["data"]
    answer = service.post(key, body)
    assert answer.status_code == 200, answer.text
    sent = service.stored(answer.json()["data"]["media_id"])
    uploaded = service.platform.materials[sent["thumb_media_id"]][1]
    assert base64.b64decode(shown["coverImage"].split(",", 1)[1]) == uploaded
    assert (shown["pic_crop_235_1"], shown["pic_crop_1_1"]) == (
        sent["pic_crop_235_1"],
        sent["pic_crop_1_1"],
    )
