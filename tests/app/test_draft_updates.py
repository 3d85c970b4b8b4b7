"""draftMediaId: convert-and-draft and newspic-draft update a draft in place, end to end
against the fake WeChat platform (tests/fakewechat.py), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.app.conftest import both_engines
from tests.app.test_convert_and_draft import APPID, SECRET, Service, srcs, start
from tests.app.test_mcp import Stdio, run, stdio, text_of

__all__ = ["start", "stdio"]  # fixtures shared with the convert-and-draft tests


@pytest.fixture
def service(start: Callable[..., Service]) -> Service:
    """The service with its render process: a newspic draft draws its cards."""
    return start()


pytestmark = both_engines

NEWSPIC = "/api/platform/newspic-draft"
UPDATE = "/cgi-bin/draft/update"
ADD = "/cgi-bin/draft/add"
UPLOADS = ("/cgi-bin/media/uploadimg", "/cgi-bin/material/add_material")


def post_newspic(service: Service, key: str, body: Any) -> httpx.Response:
    sent = {"x-api-key": key, "Platform-Appid": APPID, "Platform-App-Secret": SECRET}
    return httpx.post(service.base + NEWSPIC, json=body, headers=sent, timeout=60)


def uploads(service: Service) -> int:
    return sum(service.platform.hits[path] for path in UPLOADS)


# Updates in place


def test_an_article_is_updated_in_place(service: Service) -> None:
    key, prefix = service.key(10)
    first = service.post(key, {"markdown": "# Plans\n\nThe first version."})
    media_id = first.json()["data"]["media_id"]
    second = service.post(
        key, {"markdown": "# Plans\n\nThe second version.", "draftMediaId": media_id}
    )
    assert second.status_code == 200, second.text
    body = second.json()
    assert body["data"]["media_id"] == media_id
    assert "updated in place" in body["message"]
    assert list(service.platform.drafts) == [media_id]  # one draft, two versions
    assert service.platform.versions[media_id] == 2
    stored = service.stored(media_id)
    assert "The second version." in stored["content"]
    assert "The first version." not in stored["content"]
    assert service.platform.hits[ADD] == 1 and service.platform.hits[UPDATE] == 1
    assert service.balance(prefix) == 10 - 3 - 3


def test_an_image_post_is_updated_in_place(service: Service) -> None:
    key, prefix = service.key(10)
    first = post_newspic(service, key, {"markdown": "# One\n\nFirst.", "scale": 1})
    media_id = first.json()["data"]["media_id"]
    markdown = "# Two\n\nSecond.\n\n---\n\nMore"
    second = post_newspic(
        service,
        key,
        {"markdown": markdown, "splitMode": "hrSplit", "scale": 1, "draftMediaId": media_id},
    )
    assert second.status_code == 200, second.text
    assert second.json()["data"]["media_id"] == media_id
    assert "updated in place" in second.json()["message"]
    (article,) = service.platform.draft(media_id)
    assert (article["title"], article["content"]) == ("Two", "Second.")
    assert len(article["image_info"]["image_list"]) == 2
    assert list(service.platform.drafts) == [media_id]
    assert service.balance(prefix) == 10 - 3 - 3


# A draft that is gone


def test_a_draft_that_is_gone_is_404_uploading_and_charging_nothing(service: Service) -> None:
    key, prefix = service.key(10)
    media_id = service.post(key, {"markdown": "# Plans\n\nText."}).json()["data"]["media_id"]
    service.platform.delete_draft(media_id)  # published meanwhile
    before = uploads(service)
    markdown = f"# Plans\n\n![new]({service.images.url('/a.png')})\n\nText."
    for answer in (
        service.post(key, {"markdown": markdown, "draftMediaId": media_id}),
        post_newspic(service, key, {"markdown": "# Plans", "draftMediaId": media_id}),
    ):
        assert answer.status_code == 404, answer.text
        body = answer.json()
        assert (body["error"], body["cost"], body["success"]) == ("draft_not_found", 0, False)
        assert media_id in body["message"] and "draftMissing" in body["message"]
    assert uploads(service) == before  # nothing half-written
    assert service.platform.hits[ADD] == 1 and service.platform.hits[UPDATE] == 0
    assert service.balance(prefix) == 10 - 3


def test_draft_missing_create_makes_a_new_draft_and_says_so(service: Service) -> None:
    key, prefix = service.key(10)
    gone = "a-draft-that-never-was"
    answer = service.post(
        key, {"markdown": "# Plans\n\nText.", "draftMediaId": gone, "draftMissing": "create"}
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    media_id = body["data"]["media_id"]
    assert media_id != gone and media_id in service.platform.drafts
    assert f"draft {gone} no longer exists" in body["message"]
    assert "created" in body["message"]
    picture = post_newspic(
        service, key, {"markdown": "# Pic", "draftMediaId": gone, "draftMissing": "create"}
    )
    assert picture.status_code == 200, picture.text
    assert "no longer exists" in picture.json()["message"]
    assert service.balance(prefix) == 10 - 3 - 3


def test_a_draft_deleted_during_the_call_is_found_gone_by_the_update(service: Service) -> None:
    """The look-up found it, the update did not: 404 as well, nothing charged."""
    key, prefix = service.key(10)
    media_id = service.post(key, {"markdown": "# Plans\n\nText."}).json()["data"]["media_id"]
    service.platform.delete_before_update(media_id)
    answer = service.post(key, {"markdown": "# Plans\n\nNew.", "draftMediaId": media_id})
    assert answer.status_code == 404, answer.text
    assert answer.json()["error"] == "draft_not_found"
    assert service.platform.hits[UPDATE] == 1
    assert service.balance(prefix) == 10 - 3


def test_draft_media_id_is_checked(service: Service) -> None:
    key, prefix = service.key(10)
    for value in ("x" * 129, "has space", 12):
        answer = service.post(key, {"markdown": "# A", "draftMediaId": value})
        assert answer.status_code == 400, value
        assert answer.json()["error"] == "invalid_draft_media_id"
    answer = service.post(key, {"markdown": "# A", "draftMissing": "maybe"})
    assert answer.json()["error"] == "invalid_draft_missing"
    answer = service.post(key, {"markdown": "# A", "draftMediaId": "abc"}, draft=False)
    assert answer.status_code == 200 and "html" in answer.json()  # HTML only: ignored
    answer = post_newspic(service, key, {"markdown": "# A", "draftMediaId": "x" * 129})
    assert answer.json()["error"] == "invalid_draft_media_id"
    assert service.balance(prefix) == 10 - 1


def test_the_mcp_tools_update_in_place(stdio: Stdio) -> None:
    async def scenario() -> None:
        account = {"platformAppid": APPID, "platformAppSecret": SECRET}
        async with stdio.session() as session:
            made = await session.call_tool("convert_article", {"markdown": "# A\n\nOne."} | account)
            media_id = text_of(made)["data"]["media_id"]
            again = await session.call_tool(
                "convert_article", {"markdown": "# A\n\nTwo.", "draftMediaId": media_id} | account
            )
            picture = await session.call_tool("create_newspic_draft", {"markdown": "# P"} | account)
            pic_id = text_of(picture)["data"]["media_id"]
            pic_again = await session.call_tool(
                "create_newspic_draft", {"markdown": "# Q", "draftMediaId": pic_id} | account
            )
        assert text_of(again)["data"]["media_id"] == media_id
        assert "Two." in stdio.platform.draft(media_id)[0]["content"]
        assert text_of(pic_again)["data"]["media_id"] == pic_id
        assert stdio.platform.draft(pic_id)[0]["title"] == "Q"

    run(scenario)


# Images uploaded once per account


def article_with_image(service: Service, text: str) -> dict[str, Any]:
    return {"markdown": f"# Trip\n\n![a]({service.images.url('/a.png')})\n\n{text}"}


def test_the_same_images_sent_twice_are_uploaded_once(service: Service) -> None:
    key, _ = service.key(20)
    first = service.post(key, article_with_image(service, "One."))
    second = service.post(key, article_with_image(service, "Two."))
    assert first.status_code == second.status_code == 200, second.text
    one, two = (service.stored(a.json()["data"]["media_id"]) for a in (first, second))
    assert service.platform.hits["/cgi-bin/media/uploadimg"] == 1  # the body's image
    assert service.platform.hits["/cgi-bin/material/add_material"] == 1  # the cover
    assert one["thumb_media_id"] == two["thumb_media_id"]
    assert srcs(one["content"]) == srcs(two["content"])
    # the second draft sent no image: each says it was reused, the message counts them apart
    assert first.json()["data"]["images"][0]["status"] == "uploaded"
    assert first.json()["message"].endswith("(1 image uploaded)")
    assert second.json()["data"]["images"][0]["status"] == "reused"
    assert second.json()["message"].endswith("(0 images uploaded, 1 image reused)")

    markdown = "# Cards\n\nFirst.\n\n---\n\nSecond"
    body = {"markdown": markdown, "splitMode": "hrSplit", "scale": 1}
    ids = []
    for title in ("First post", "Second post"):  # not identical: no replay of the first
        answer = post_newspic(service, key, body | {"title": title})
        assert answer.status_code == 200, answer.text
        (article,) = service.platform.draft(answer.json()["data"]["media_id"])
        ids.append([image["image_media_id"] for image in article["image_info"]["image_list"]])
    assert ids[0] == ids[1] and len(set(ids[0])) == 2
    assert service.platform.hits["/cgi-bin/material/add_material"] == 1 + 2
    with service.app.state.services.articles.media.store.read() as db:
        rows = db.execute("SELECT * FROM platform_media").fetchall()
    assert len(rows) == 1 + 1 + 2  # the body's image, the cover, two cards
    stored = repr(rows)
    assert SECRET not in stored and "access_token" not in stored and "ACCESS_" not in stored


def test_each_account_uploads_its_own_copy(service: Service) -> None:
    key, _ = service.key(20)
    other = {"Platform-Appid": "wx0000000000000002", "Platform-App-Secret": "f" * 32}
    service.platform.accounts[other["Platform-Appid"]] = other["Platform-App-Secret"]
    assert service.post(key, article_with_image(service, "One.")).status_code == 200
    answer = service.post(key, article_with_image(service, "One."), headers=other)
    assert answer.status_code == 200, answer.text
    assert service.platform.hits["/cgi-bin/media/uploadimg"] == 2
    assert service.platform.hits["/cgi-bin/material/add_material"] == 2


def test_a_cached_image_the_platform_refuses_is_uploaded_again_once(service: Service) -> None:
    key, prefix = service.key(20)
    first = service.post(key, article_with_image(service, "One."))
    media_id = first.json()["data"]["media_id"]
    old_cover = service.stored(media_id)["thumb_media_id"]
    del service.platform.materials[old_cover]  # deleted from the account's library
    again = service.post(key, article_with_image(service, "Two.") | {"draftMediaId": media_id})
    assert again.status_code == 200, again.text
    new_cover = service.stored(media_id)["thumb_media_id"]
    assert new_cover != old_cover and new_cover in service.platform.materials
    assert service.platform.hits["/cgi-bin/material/add_material"] == 2  # uploaded again once
    assert service.platform.hits[UPDATE] == 2  # refused, then sent again
    third = service.post(key, article_with_image(service, "Three."))
    assert service.stored(third.json()["data"]["media_id"])["thumb_media_id"] == new_cover
    assert service.platform.hits["/cgi-bin/material/add_material"] == 2  # the new copy reused
    assert service.balance(prefix) == 20 - 3 * 3


def test_a_refused_image_post_card_is_uploaded_again_once(service: Service) -> None:
    key, _ = service.key(20)
    body = {"markdown": "# Cards\n\nFirst.", "scale": 1}
    first = post_newspic(service, key, body)
    (article,) = service.platform.draft(first.json()["data"]["media_id"])
    (card,) = article["image_info"]["image_list"]
    del service.platform.materials[card["image_media_id"]]
    again = post_newspic(service, key, body | {"title": "Again"})
    assert again.status_code == 200, again.text
    assert service.platform.hits[ADD] == 3  # the first post, the refused one, its retry
    assert service.platform.hits["/cgi-bin/material/add_material"] == 2


def test_a_refusal_after_the_retry_is_the_platforms_error_uncharged(service: Service) -> None:
    key, prefix = service.key(20)
    service.post(key, article_with_image(service, "One."))
    service.platform.force(40007, ADD)  # every draft refused for its media_id
    answer = service.post(key, article_with_image(service, "Two."))
    assert answer.status_code == 502 and answer.json()["cost"] == 0
    assert service.platform.hits[ADD] == 1 + 2  # one retry only
    assert service.balance(prefix) == 20 - 3
