"""The WeChat client against the fake platform over real HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from inkcard.app.articles.wechat import (
    Credentials,
    DraftArticle,
    ImageUploadFailed,
    InvalidPlatformCredentials,
    IpNotWhitelisted,
    PlatformError,
    PlatformRateLimited,
    PlatformTimeout,
    WeChatClient,
)
from inkcard.app.articles.wechat.tokens import TokenCache, _Keys, seal, unseal
from tests.app.apphelpers import free_port
from tests.fakewechat import FakeWeChat

APPID = "wx5f1d2c3b4a596870"
SECRET = "0123456789abcdef0123456789abcdef"
CREDS = Credentials(APPID, SECRET)
PNG = b"\x89PNG\r\n\x1a\n" + bytes(200)  # the fake sniffs magic bytes only
JPEG = b"\xff\xd8\xff\xe0" + bytes(200)
WEBP = b"RIFF\x00\x01\x00\x00WEBPVP8 " + bytes(200)

T = TypeVar("T")


def run(coro: Awaitable[T]) -> T:
    async def main() -> T:
        return await coro

    return asyncio.run(main())


@pytest.fixture
def platform() -> Iterator[FakeWeChat]:
    with FakeWeChat({APPID: SECRET}) as fake:
        yield fake


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "inkcard.db"


def client_for(url: str, database: Path, timeout: float = 10.0) -> WeChatClient:
    return WeChatClient(url, TokenCache(database), timeout=timeout)


def call(
    platform: FakeWeChat,
    database: Path,
    action: Callable[[WeChatClient], Awaitable[T]],
    timeout: float = 10.0,
) -> T:
    async def go() -> T:
        async with client_for(platform.url, database, timeout) as client:
            return await action(client)

    return run(go())


def upload(creds: Credentials = CREDS, data: bytes = PNG, name: str = "a.png") -> Any:
    return lambda client: client.upload_article_image(creds, data, name, source="pic/a.png")


async def full_draft(client: WeChatClient, title: str = "早安，世界") -> str:
    url = await client.upload_article_image(CREDS, PNG, "a.png", source="a.png")
    cover = await client.add_cover(CREDS, JPEG, "cover.jpg")
    article = DraftArticle(
        title=title,
        content=f'<section><p>你好</p><img src="{url}"></section>',
        thumb_media_id=cover,
        author="Ink",
    )
    return await client.add_draft(CREDS, article)


# The happy path


def test_a_draft_is_created_with_uploaded_image_and_cover(
    platform: FakeWeChat, database: Path
) -> None:
    media_id = call(platform, database, full_draft)
    (article,) = platform.draft(media_id)
    assert article["title"] == "早安，世界"
    assert article["author"] == "Ink"
    assert "digest" not in article  # left out: the platform writes its own
    assert article["thumb_media_id"] in platform.materials
    src = article["content"].split('src="')[1].split('"')[0]
    assert src.startswith("https://mmbiz.qpic.cn/")  # http:// answers are rewritten to https
    assert "http" + src.removeprefix("https") in platform.images
    draft_body = platform.bodies[-1]
    assert "早安，世界".encode() in draft_body  # raw UTF-8, never \uXXXX escapes
    assert b"\\u" not in draft_body


def test_the_upload_names_the_media_field_with_an_extension(
    platform: FakeWeChat, database: Path
) -> None:
    with pytest.raises(ImageUploadFailed) as failed:
        call(platform, database, upload(name="noextension"))
    assert failed.value.errcode == 40005


# Tokens


def test_two_clients_on_one_database_share_the_token(platform: FakeWeChat, database: Path) -> None:
    call(platform, database, upload())
    call(platform, database, upload())  # a new client instance, as another worker would be
    assert platform.hits["/cgi-bin/stable_token"] == 1
    assert platform.hits["/cgi-bin/media/uploadimg"] == 2


def test_a_different_secret_never_rides_on_the_cached_token(
    platform: FakeWeChat, database: Path
) -> None:
    call(platform, database, upload())
    with pytest.raises(InvalidPlatformCredentials) as refused:
        call(platform, database, upload(Credentials(APPID, "f" * 32)))
    assert refused.value.errcode == 40125
    assert platform.hits["/cgi-bin/stable_token"] == 2
    assert platform.hits["/cgi-bin/media/uploadimg"] == 1

    platform.accounts[APPID] = "e" * 32  # the secret was reset: its own token, fetched anew
    call(platform, database, upload(Credentials(APPID, "e" * 32)))
    assert platform.hits["/cgi-bin/stable_token"] == 3


@pytest.mark.parametrize(("spoil", "errcode"), [("supersede", 40001), ("expire", 42001)])
def test_a_stale_token_is_refreshed_once(
    platform: FakeWeChat, database: Path, spoil: str, errcode: int
) -> None:
    call(platform, database, upload())
    platform.supersede_tokens() if spoil == "supersede" else platform.expire_tokens()
    url = call(platform, database, upload())
    assert url.startswith("https://mmbiz.qpic.cn/")
    assert platform.hits["/cgi-bin/stable_token"] == 2
    assert platform.hits["/cgi-bin/media/uploadimg"] == 3  # ok, stale, retried


def test_a_token_refused_twice_is_a_credentials_error(platform: FakeWeChat, database: Path) -> None:
    platform.force(40001, "/cgi-bin/draft/add")
    with pytest.raises(InvalidPlatformCredentials) as refused:
        call(platform, database, full_draft)
    assert refused.value.label == "invalid_platform_credentials"
    assert platform.hits["/cgi-bin/draft/add"] == 2  # one retry, not a loop
    assert platform.hits["/cgi-bin/stable_token"] == 2


def test_the_cache_expires_before_the_platform_does(tmp_path: Path) -> None:
    now = [1000.0]
    cache = TokenCache(tmp_path / "t.db", margin=300, clock=lambda: now[0])
    cache.put(APPID, SECRET, "TOKEN-A", 7200)
    now[0] += 7200 - 301
    assert cache.get(APPID, SECRET) == "TOKEN-A"
    now[0] += 2
    assert cache.get(APPID, SECRET) is None
    cache.put(APPID, SECRET, "TOKEN-B", 60)  # short lives keep half their time
    now[0] += 29
    assert cache.get(APPID, SECRET) == "TOKEN-B"


def test_drop_leaves_a_token_another_worker_already_replaced(tmp_path: Path) -> None:
    cache = TokenCache(tmp_path / "t.db")
    cache.put(APPID, SECRET, "NEW", 7200)
    cache.drop(APPID, SECRET, "OLD")
    assert cache.get(APPID, SECRET) == "NEW"
    cache.drop(APPID, SECRET, "NEW")
    assert cache.get(APPID, SECRET) is None


def test_a_sealed_token_opens_only_with_its_secret() -> None:
    sealed = seal(_Keys(APPID, SECRET), "TOKEN-XYZ")
    assert b"TOKEN-XYZ" not in sealed
    assert unseal(_Keys(APPID, SECRET), sealed) == "TOKEN-XYZ"
    assert unseal(_Keys(APPID, "x" + SECRET[1:]), sealed) is None
    assert unseal(_Keys("wx0000", SECRET), sealed) is None
    tampered = sealed[:-1] + bytes([sealed[-1] ^ 1])
    assert unseal(_Keys(APPID, SECRET), tampered) is None


# Errors


def test_an_address_off_the_whitelist_is_named(database: Path) -> None:
    platform = FakeWeChat({APPID: SECRET}, allowed_ips={"203.0.113.9"})
    with platform, pytest.raises(IpNotWhitelisted) as refused:
        call(platform, database, upload())
    error = refused.value
    assert (error.status, error.label, error.errcode, error.ip) == (
        502,
        "ip_not_whitelisted",
        40164,
        "127.0.0.1",
    )
    assert "127.0.0.1" in error.message and APPID in error.message
    assert "IP白名单" in error.message and "IP whitelist" in error.message


def test_61004_is_a_whitelist_error_too(platform: FakeWeChat, database: Path) -> None:
    platform.force(61004, "/cgi-bin/stable_token")
    with pytest.raises(IpNotWhitelisted) as refused:
        call(platform, database, upload())
    assert refused.value.ip is None
    assert "IP whitelist" in refused.value.message


@pytest.mark.parametrize(
    ("accounts", "errcode"), [({APPID: "wrong" * 6}, 40125), ({"wxother": SECRET}, 40013)]
)
def test_wrong_credentials(database: Path, accounts: dict[str, str], errcode: int) -> None:
    with FakeWeChat(accounts) as platform, pytest.raises(InvalidPlatformCredentials) as refused:
        call(platform, database, upload())
    assert (refused.value.status, refused.value.errcode) == (502, errcode)


@pytest.mark.parametrize(
    ("errcode", "kind", "label"),
    [
        (-1, PlatformError, "platform_error"),
        (45009, PlatformRateLimited, "platform_rate_limited"),
        (45011, PlatformRateLimited, "platform_rate_limited"),
        (48001, PlatformError, "platform_error"),
    ],
)
def test_forced_platform_errors(
    platform: FakeWeChat, database: Path, errcode: int, kind: type[PlatformError], label: str
) -> None:
    platform.force(errcode, "/cgi-bin/draft/add")
    with pytest.raises(kind) as refused:
        call(platform, database, full_draft)
    error = refused.value
    assert (error.status, error.label, error.errcode) == (502, label, errcode)
    assert f"errcode {errcode}" in error.message and error.errmsg.split(" rid:")[0] in error.message
    assert platform.hits["/cgi-bin/draft/add"] == 1  # no retry on anything but a stale token


def test_a_forced_error_on_the_token_request(platform: FakeWeChat, database: Path) -> None:
    platform.force(45009, "/cgi-bin/stable_token")
    with pytest.raises(PlatformRateLimited):
        call(platform, database, upload())


def test_a_stalled_platform_is_a_timeout(platform: FakeWeChat, database: Path) -> None:
    platform.stall("/cgi-bin/draft/add")
    with pytest.raises(PlatformTimeout) as timed_out:
        call(platform, database, full_draft, timeout=0.5)
    assert (timed_out.value.status, timed_out.value.label) == (504, "platform_timeout")


def test_an_unreachable_platform_is_a_platform_error(database: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(PlatformError) as failed:
        run(client_for(url, database).stable_token(CREDS))
    assert failed.value.label == "platform_error"
    assert "could not reach" in failed.value.message


@pytest.mark.parametrize(
    ("data", "errcode"),
    [(WEBP, 40005), (b"GIF89a" + bytes(100), 40005), (PNG + bytes(1024 * 1024), 40009)],
)
def test_article_images_the_platform_refuses(
    platform: FakeWeChat, database: Path, data: bytes, errcode: int
) -> None:
    with pytest.raises(ImageUploadFailed) as refused:
        call(platform, database, upload(data=data))
    error = refused.value
    assert (error.label, error.errcode) == ("image_upload_failed", errcode)
    assert "pic/a.png" in error.message  # names the image


def test_a_webp_cover_is_refused(platform: FakeWeChat, database: Path) -> None:
    with pytest.raises(ImageUploadFailed) as refused:
        call(platform, database, lambda c: c.add_cover(CREDS, WEBP, "c.webp", source="c.webp"))
    assert refused.value.errcode == 40005
    assert "c.webp" in refused.value.message


@pytest.mark.parametrize(
    ("change", "errcode"),
    [
        ({"title": "标" * 33}, 45003),
        ({"author": "a" * 17}, 45003),
        ({"digest": "d" * 129}, 45004),
        ({"content_source_url": "https://e.com/" + "x" * 1024}, 45005),
        ({"thumb_media_id": "not-a-material"}, 40007),
        ({"content": '<img src="https://example.com/x.png">'}, 45166),
    ],
)
def test_draft_field_limits(
    platform: FakeWeChat, database: Path, change: dict[str, str], errcode: int
) -> None:
    async def draft(client: WeChatClient) -> str:
        cover = await client.add_cover(CREDS, JPEG, "cover.jpg")
        fields = {"title": "t", "content": "<p>x</p>", "thumb_media_id": cover} | change
        return await client.add_draft(CREDS, DraftArticle(**fields))

    with pytest.raises(PlatformError) as refused:
        call(platform, database, draft)
    assert (refused.value.label, refused.value.errcode) == ("platform_error", errcode)


# Secrets


def test_secrets_and_tokens_reach_no_log_error_or_database(
    platform: FakeWeChat, database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    messages: list[str] = []
    call(platform, database, full_draft)
    platform.supersede_tokens()  # a refresh, with its own log lines
    call(platform, database, full_draft)
    platform.force(40001, "/cgi-bin/draft/add")
    with pytest.raises(PlatformError) as refused:
        call(platform, database, full_draft)
    messages.append(str(refused.value))
    platform.clear()
    with pytest.raises(PlatformError) as refused:
        call(platform, database, upload(data=WEBP))
    messages.append(str(refused.value))

    tokens = list(platform.tokens)
    assert len(tokens) == 2
    logged = caplog.text + "\n".join(r.getMessage() for r in caplog.records)
    assert "access_token=[redacted]" in logged  # httpx's request lines were seen, masked
    stored = b"".join(p.read_bytes() for p in database.parent.glob(database.name + "*"))
    for secret in [SECRET, *tokens]:
        assert secret not in logged
        assert secret.encode() not in stored
        assert all(secret not in message for message in messages)
    assert SECRET not in repr(CREDS)


def test_converted_images_pass_the_platform_checks(platform: FakeWeChat, database: Path) -> None:
    import skia

    from inkcard.layout.draw.imagecodec import ARTICLE_IMAGE_BYTES, COVER_IMAGE_BYTES, fit

    surface = skia.Surface(64, 48)
    surface.getCanvas().clear(skia.ColorBLUE)
    webp = bytes(surface.makeImageSnapshot().encodeToData(skia.EncodedImageFormat.kWEBP, 80))

    async def upload_both(client: WeChatClient) -> tuple[str, str]:
        body = fit(webp, ARTICLE_IMAGE_BYTES)
        cover = fit(webp, COVER_IMAGE_BYTES)
        url = await client.upload_article_image(
            CREDS, body.data, f"image.{body.extension}", source="x.webp"
        )
        return url, await client.add_cover(CREDS, cover.data, f"cover.{cover.extension}")

    url, media_id = call(platform, database, upload_both)
    assert url.startswith("https://mmbiz.qpic.cn/") and media_id in platform.materials
