"""A fake WeChat platform: a real HTTP server on 127.0.0.1 speaking the platform's wire format.

Like the real one it answers HTTP 200 with ``{"errcode": N, "errmsg": "... rid: ..."}`` on
failure; checks the IP allow-list when a token is requested (40164 with the real message);
issues tokens that expire; sniffs uploads by their magic bytes and checks their size;
enforces the draft field limits (news and newspic, whose ``image_info`` must name permanent
images of the account); stores drafts for ``draft/get`` and replaces them on ``draft/update``;
pages them (``draft/batchget``), deletes them (``draft/delete``) and publishes them
(``freepublish/submit``, then ``freepublish/get`` says the job's ``publish_status``).
Switches force an errcode (-1, 45009, 48001, ...), a stall (for timeouts) or a delay before a
normal answer on any path.

Use it as a context manager::

    with FakeWeChat({"wx123": "secret"}) as platform:
        client = WeChatClient(platform.url, ...)
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

UPLOADIMG_LIMIT = 1024 * 1024  # "under 1 MB"
IMAGE_MATERIAL_LIMIT = 10 * 1024 * 1024
THUMB_LIMIT = 64 * 1024
TITLE_LIMIT = 32
AUTHOR_LIMIT = 16
DIGEST_LIMIT = 128
SOURCE_URL_LIMIT = 1024
CONTENT_BYTES_LIMIT = 1024 * 1024
CONTENT_TEXT_LIMIT = 20_000
NEWSPIC_IMAGE_LIMIT = 20

ERRMSG = {
    -1: "system error",
    40001: "invalid credential, access_token is invalid or not latest",
    40002: "invalid grant_type",
    40004: "invalid media type",
    40005: "invalid file type",
    40007: "invalid media_id",
    40009: "invalid image size",
    40013: "invalid appid",
    40125: "invalid appsecret",
    41001: "access_token missing",
    41002: "appid missing",
    41004: "appsecret missing",
    41005: "media data missing",
    42001: "access_token expired",
    43002: "require POST method",
    44003: "empty news data",
    45002: "content size out of limit",
    45003: "title size out of limit",
    45004: "description size out of limit",
    45005: "url size out of limit",
    45009: "reach max api daily quota limit",
    45166: "invalid content hint",
    47001: "data format error",
    48001: "api unauthorized",
}


def sniff(data: bytes) -> str | None:
    """The upload's real format by magic bytes, as the platform checks it."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if data.startswith(b"BM"):
        return "bmp"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


class Refused(Exception):
    """Ends a request with an errcode answer."""

    def __init__(self, errcode: int, errmsg: str | None = None):
        super().__init__(errcode)
        self.errcode = errcode
        self.errmsg = errmsg or ERRMSG.get(errcode, "error")


@dataclass
class Token:
    appid: str
    expires_at: float
    latest: bool = True


@dataclass
class Forced:
    errcode: int
    times: int | None  # None: until cleared


@dataclass
class FakeWeChat:
    """The fake platform. ``accounts`` maps AppID → AppSecret."""

    accounts: dict[str, str]
    allowed_ips: set[str] | None = None  # None: every caller is whitelisted
    expires_in: int = 7200
    strict_content: bool = True  # 45166 for <script> or images not hosted by the platform
    tokens: dict[str, Token] = field(default_factory=dict)
    materials: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # media_id → appid
    images: dict[str, bytes] = field(default_factory=dict)  # uploadimg URL → bytes
    drafts: dict[str, tuple[str, list[dict[str, Any]]]] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)  # draft media_id → updates + 1
    update_times: dict[str, int] = field(default_factory=dict)  # draft media_id → Unix seconds
    publications: dict[str, dict[str, Any]] = field(default_factory=dict)  # publish_id → job
    publish_status: int = 0  # what freepublish/get says of a new job (0 published, 1 running…)
    hits: Counter[str] = field(default_factory=Counter)
    bodies: list[bytes] = field(default_factory=list)  # raw request bodies, in order
    _forced: dict[str, Forced] = field(default_factory=dict)
    _stalled: set[str] = field(default_factory=set)
    _delays: dict[str, float] = field(default_factory=dict)
    _vanishing: set[str] = field(default_factory=set)
    _release: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None

    # Lifecycle

    def __enter__(self) -> FakeWeChat:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def __exit__(self, *_: object) -> None:
        self._release.set()
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    # Switches

    def force(self, errcode: int, path: str = "*", times: int | None = None) -> None:
        """Answer ``errcode`` on ``path`` (``*``: every path), ``times`` times or until cleared."""
        self._forced[path] = Forced(errcode, times)

    def clear(self) -> None:
        """Undo ``force``, ``stall`` and ``slow``."""
        self._forced.clear()
        self._stalled.clear()
        self._delays.clear()

    def slow(self, path: str, seconds: float) -> None:
        """Answer requests to ``path`` normally, but only after ``seconds`` (the work is done
        after the wait, so a caller that gave up meanwhile still made it happen)."""
        self._delays[path] = seconds

    def stall(self, path: str = "*") -> None:
        """Hold requests to ``path`` unanswered until the server stops (for client timeouts)."""
        self._stalled.add(path)

    def expire_tokens(self) -> None:
        """Every issued token is past its expiry (business calls answer 42001)."""
        for token in self.tokens.values():
            token.expires_at = 0.0

    def supersede_tokens(self) -> None:
        """Someone else refreshed: issued tokens are "not latest" (40001); new ones get issued."""
        for token in self.tokens.values():
            token.latest = False

    def draft(self, media_id: str) -> list[dict[str, Any]]:
        """The stored articles of a draft."""
        return self.drafts[media_id][1]

    # Request handling

    def answer(
        self, method: str, path: str, query: dict[str, str], body: bytes, ctype: str, ip: str
    ) -> dict[str, Any]:
        self.hits[path] += 1
        self.bodies.append(body)
        self._hold(path)
        try:
            self._apply_forced(path)
            route = _ROUTES.get(path)
            if route is None:
                raise Refused(404, "invalid url domain")
            return route(self, method, query, body, ctype, ip)
        except Refused as refused:
            rid = "-".join(secrets.token_hex(4) for _ in range(3))
            return {"errcode": refused.errcode, "errmsg": f"{refused.errmsg} rid: {rid}"}

    def _hold(self, path: str) -> None:
        if path in self._stalled or "*" in self._stalled:
            self._release.wait(30)
        if path in self._delays:
            self._release.wait(self._delays[path])

    def _apply_forced(self, path: str) -> None:
        with self._lock:
            forced = self._forced.get(path) or self._forced.get("*")
            if forced is None:
                return
            if forced.times is not None:
                forced.times -= 1
                if forced.times <= 0:
                    self._forced = {k: v for k, v in self._forced.items() if v is not forced}
        raise Refused(forced.errcode)

    # Tokens

    def _check_ip(self, ip: str) -> None:
        if self.allowed_ips is not None and ip not in self.allowed_ips:
            raise Refused(40164, f"invalid ip {ip} ipv6 ::ffff:{ip}, not in whitelist")

    def _check_account(self, appid: str, secret: str, grant_type: str) -> None:
        if grant_type != "client_credential":
            raise Refused(40002)
        if not appid:
            raise Refused(41002)
        if not secret:
            raise Refused(41004)
        if appid not in self.accounts:
            raise Refused(40013)
        if not secrets.compare_digest(self.accounts[appid], secret):
            raise Refused(40125)

    def _issue(self, appid: str) -> dict[str, Any]:
        token = "ACCESS_" + secrets.token_urlsafe(96)  # real ones are long; keep 512 chars of room
        self.tokens[token] = Token(appid, time.time() + self.expires_in)
        return {"access_token": token, "expires_in": self.expires_in}

    def stable_token(
        self, method: str, query: dict[str, str], body: bytes, ctype: str, ip: str
    ) -> dict[str, Any]:
        if method != "POST":
            raise Refused(43002)
        payload = _json_body(body)
        self._check_ip(ip)
        appid, secret = str(payload.get("appid", "")), str(payload.get("secret", ""))
        self._check_account(appid, secret, str(payload.get("grant_type", "")))
        now = time.time()
        with self._lock:
            if not payload.get("force_refresh"):  # normal mode: the same token while it lives
                for value, token in self.tokens.items():
                    if token.appid == appid and token.latest and token.expires_at > now:
                        return {"access_token": value, "expires_in": int(token.expires_at - now)}
            for token in self.tokens.values():
                if token.appid == appid:
                    token.latest = False
            return self._issue(appid)

    def classic_token(
        self, method: str, query: dict[str, str], body: bytes, ctype: str, ip: str
    ) -> dict[str, Any]:
        self._check_ip(ip)
        appid, secret = query.get("appid", ""), query.get("secret", "")
        self._check_account(appid, secret, query.get("grant_type", ""))
        with self._lock:
            for token in self.tokens.values():  # every call invalidates the previous token
                if token.appid == appid:
                    token.latest = False
            return self._issue(appid)

    def _appid_for(self, query: dict[str, str]) -> str:
        value = query.get("access_token")
        if not value:
            raise Refused(41001)
        token = self.tokens.get(value)
        if token is None or not token.latest:
            raise Refused(40001)
        if token.expires_at <= time.time():
            raise Refused(42001)
        return token.appid

    # Uploads

    def uploadimg(
        self, method: str, query: dict[str, str], body: bytes, ctype: str, ip: str
    ) -> dict[str, Any]:
        self._appid_for(query)
        filename, data = _media(body, ctype)
        kind = sniff(data)
        if "." not in filename or kind not in ("jpeg", "png"):
            raise Refused(40005)
        if len(data) > UPLOADIMG_LIMIT:
            raise Refused(40009)
        ext = "jpg" if kind == "jpeg" else "png"
        url = f"http://mmbiz.qpic.cn/mmbiz_{ext}/{secrets.token_hex(12)}/0?wx_fmt={kind}"
        self.images[url] = data
        return {"url": url, "errcode": 0, "errmsg": "ok"}

    def add_material(
        self, method: str, query: dict[str, str], body: bytes, ctype: str, ip: str
    ) -> dict[str, Any]:
        appid = self._appid_for(query)
        kind_of_material = query.get("type", "")
        if kind_of_material not in ("image", "thumb", "voice", "video"):
            raise Refused(40004)
        filename, data = _media(body, ctype)
        kind = sniff(data)
        if kind_of_material == "thumb":
            allowed, limit = {"jpeg"}, THUMB_LIMIT
        elif kind_of_material == "image":
            allowed, limit = {"jpeg", "png", "gif", "bmp"}, IMAGE_MATERIAL_LIMIT
        else:
            raise Refused(40005)  # voice and video are not imitated
        if "." not in filename or kind not in allowed:
            raise Refused(40005)
        if len(data) > limit:
            raise Refused(40009)
        media_id = secrets.token_urlsafe(32)
        self.materials[media_id] = (appid, data)
        url = f"http://mmbiz.qpic.cn/mmbiz_{kind}/{secrets.token_hex(12)}/0?wx_fmt={kind}"
        return {"media_id": media_id, "url": url, "item": []}

    # Drafts

    def draft_add(
        self, method: str, query: dict[str, str], body: bytes, ctype: str, ip: str
    ) -> dict[str, Any]:
        appid = self._appid_for(query)
        articles = _json_body(body).get("articles")
        if not isinstance(articles, list) or not articles:
            raise Refused(44003)
        for article in articles:
            self._check_article(appid, article)
        return {"media_id": self.store_draft(appid, articles)}

    def store_draft(self, appid: str, articles: list[dict[str, Any]]) -> str:
        """A draft of ``appid`` holding ``articles`` (as ``draft/add`` stores one); its id."""
        media_id = secrets.token_urlsafe(48)
        with self._lock:
            self.drafts[media_id] = (appid, articles)
            self.update_times[media_id] = int(time.time()) + len(self.update_times)  # in order
        return media_id

    def _check_article(self, appid: str, article: Any) -> None:
        if not isinstance(article, dict):
            raise Refused(44003)
        title, content = str(article.get("title", "")), str(article.get("content", ""))
        if not title or len(title) > TITLE_LIMIT:
            raise Refused(45003)
        if len(str(article.get("author", ""))) > AUTHOR_LIMIT:
            # the code for author is an assumption (the platform documents no code for it)
            raise Refused(45003)
        if len(str(article.get("digest", ""))) > DIGEST_LIMIT:
            raise Refused(45004)
        if len(str(article.get("content_source_url", "")).encode()) > SOURCE_URL_LIMIT:
            raise Refused(45005)
        for crop in ("pic_crop_235_1", "pic_crop_1_1"):
            if crop in article and not _crop_box(article[crop]):
                raise Refused(47001)
        for flag in ("need_open_comment", "only_fans_can_comment"):
            if article.get(flag, 0) not in (0, 1) or isinstance(article.get(flag), bool):
                raise Refused(47001)  # the platform's fields are numbers, 0 or 1
        if article.get("article_type", "news") == "news":
            self._check_material(appid, article.get("thumb_media_id"))
        elif article.get("article_type") == "newspic":
            self._check_image_info(appid, article.get("image_info"))
        else:
            raise Refused(47001)
        text = re.sub(r"<[^>]*>", "", content)
        if (
            not content
            or len(content.encode()) > CONTENT_BYTES_LIMIT
            or len(text) > CONTENT_TEXT_LIMIT
        ):
            raise Refused(45002)
        if self.strict_content and _rejected_html(content):
            raise Refused(45166)

    def _check_material(self, appid: str, media_id: object) -> None:
        material = self.materials.get(str(media_id or ""))
        if material is None or material[0] != appid:
            raise Refused(40007)

    def _check_image_info(self, appid: str, info: Any) -> None:
        """A newspic's ``image_info.image_list``: 1 to ``NEWSPIC_IMAGE_LIMIT`` permanent images."""
        images = info.get("image_list") if isinstance(info, dict) else None
        if not isinstance(images, list) or not images or len(images) > NEWSPIC_IMAGE_LIMIT:
            raise Refused(47001)
        for image in images:
            if not isinstance(image, dict):
                raise Refused(47001)
            self._check_material(appid, image.get("image_media_id"))

    def draft_update(
        self, method: str, query: dict[str, str], body: bytes, ctype: str, ip: str
    ) -> dict[str, Any]:
        """Replaces article ``index`` of a stored draft; 40007 for a draft that is gone."""
        appid = self._appid_for(query)
        payload = _json_body(body)
        media_id, index = str(payload.get("media_id", "")), payload.get("index", 0)
        article = payload.get("articles")
        if media_id in self._vanishing:
            self._vanishing.discard(media_id)
            self.drafts.pop(media_id, None)
        stored = self.drafts.get(media_id)
        if stored is None or stored[0] != appid:
            raise Refused(40007)
        if not isinstance(index, int) or not 0 <= index < len(stored[1]):
            raise Refused(47001)
        self._check_article(appid, article)
        stored[1][index] = article
        self.versions[media_id] = self.versions.get(media_id, 1) + 1
        return {"errcode": 0, "errmsg": "ok"}

    def delete_draft(self, media_id: str) -> None:
        """The draft is gone (published, or deleted in the editor)."""
        del self.drafts[media_id]

    def delete_before_update(self, media_id: str) -> None:
        """The draft goes just before the next ``draft/update`` of it arrives (published while
        the caller was uploading)."""
        self._vanishing.add(media_id)

    def draft_get(
        self, method: str, query: dict[str, str], body: bytes, ctype: str, ip: str
    ) -> dict[str, Any]:
        appid = self._appid_for(query)
        media_id = str(_json_body(body).get("media_id", ""))
        stored = self.drafts.get(media_id)
        if stored is None or stored[0] != appid:
            raise Refused(40007)
        return {"news_item": stored[1]}

    # The draft box and publishing

    def _shown(self, media_id: str, article: dict[str, Any], content: bool) -> dict[str, Any]:
        """A stored article as draft/get and draft/batchget answer it: with the preview link
        the platform adds, without ``content`` when asked for none."""
        shown = {k: v for k, v in article.items() if content or k != "content"}
        shown["url"] = f"http://mp.weixin.qq.com/s?__biz=MzA&tempkey={media_id[:16]}"
        return shown

    def draft_batchget(
        self, method: str, query: dict[str, str], body: bytes, ctype: str, ip: str
    ) -> dict[str, Any]:
        """A page of the account's drafts, newest first: ``offset`` ≥ 0, ``count`` 1..20."""
        appid = self._appid_for(query)
        payload = _json_body(body)
        offset, count = payload.get("offset"), payload.get("count")
        if not isinstance(offset, int) or offset < 0 or not isinstance(count, int):
            raise Refused(47001)
        if not 1 <= count <= 20:
            raise Refused(47001)
        content = not payload.get("no_content", 0)
        mine = sorted(
            (media_id for media_id, (owner, _) in self.drafts.items() if owner == appid),
            key=lambda media_id: -self.update_times.get(media_id, 0),
        )
        page = mine[offset : offset + count]
        items = [
            {
                "media_id": media_id,
                "content": {
                    "news_item": [self._shown(media_id, a, content) for a in self.draft(media_id)],
                    "create_time": self.update_times.get(media_id, 0),
                    "update_time": self.update_times.get(media_id, 0),
                },
                "update_time": self.update_times.get(media_id, 0),
            }
            for media_id in page
        ]
        return {"total_count": len(mine), "item_count": len(items), "item": items}

    def draft_delete(
        self, method: str, query: dict[str, str], body: bytes, ctype: str, ip: str
    ) -> dict[str, Any]:
        appid = self._appid_for(query)
        media_id = str(_json_body(body).get("media_id", ""))
        stored = self.drafts.get(media_id)
        if stored is None or stored[0] != appid:
            raise Refused(40007)
        del self.drafts[media_id]
        return {"errcode": 0, "errmsg": "ok"}

    def freepublish_submit(
        self, method: str, query: dict[str, str], body: bytes, ctype: str, ip: str
    ) -> dict[str, Any]:
        """Publishes a draft: it leaves the draft box; the job's state is ``publish_status``."""
        appid = self._appid_for(query)
        media_id = str(_json_body(body).get("media_id", ""))
        stored = self.drafts.get(media_id)
        if stored is None or stored[0] != appid:
            raise Refused(40007)
        del self.drafts[media_id]
        publish_id = str(2_247_483_000 + len(self.publications))
        self.publications[publish_id] = {
            "appid": appid,
            "articles": stored[1],
            "status": self.publish_status,
        }
        return {"errcode": 0, "errmsg": "ok", "publish_id": publish_id, "msg_data_id": 2247483647}

    def freepublish_get(
        self, method: str, query: dict[str, str], body: bytes, ctype: str, ip: str
    ) -> dict[str, Any]:
        """A job's state as the platform words it; 40007 for a job of no such id (an
        assumption: the documentation names no code for it)."""
        appid = self._appid_for(query)
        publish_id = str(_json_body(body).get("publish_id", ""))
        job = self.publications.get(publish_id)
        if job is None or job["appid"] != appid:
            raise Refused(40007)
        status = job["status"]
        answer: dict[str, Any] = {"publish_id": publish_id, "publish_status": status}
        if status in (0, 5, 6):
            answer["article_id"] = f"article-{publish_id}"
            answer["article_detail"] = {
                "count": len(job["articles"]),
                "item": [
                    {"idx": index, "article_url": f"https://mp.weixin.qq.com/s/{publish_id}{index}"}
                    for index in range(1, len(job["articles"]) + 1)
                ],
            }
        answer["fail_idx"] = [1] if status in (2, 3, 4) else []
        return answer


_ROUTES = {
    "/cgi-bin/stable_token": FakeWeChat.stable_token,
    "/cgi-bin/token": FakeWeChat.classic_token,
    "/cgi-bin/media/uploadimg": FakeWeChat.uploadimg,
    "/cgi-bin/material/add_material": FakeWeChat.add_material,
    "/cgi-bin/draft/add": FakeWeChat.draft_add,
    "/cgi-bin/draft/get": FakeWeChat.draft_get,
    "/cgi-bin/draft/update": FakeWeChat.draft_update,
    "/cgi-bin/draft/batchget": FakeWeChat.draft_batchget,
    "/cgi-bin/draft/delete": FakeWeChat.draft_delete,
    "/cgi-bin/freepublish/submit": FakeWeChat.freepublish_submit,
    "/cgi-bin/freepublish/get": FakeWeChat.freepublish_get,
}


def _rejected_html(content: str) -> bool:
    if re.search(r"<script", content, re.IGNORECASE):
        return True
    sources = re.findall(r"<img[^>]*\ssrc=[\"']([^\"']*)", content, re.IGNORECASE)
    return any(not re.match(r"https?://mmbiz\.qpic\.cn/", src) for src in sources)


def _json_body(body: bytes) -> dict[str, Any]:
    try:
        payload = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise Refused(47001) from None
    if not isinstance(payload, dict):
        raise Refused(47001)
    return payload


def _media(body: bytes, ctype: str) -> tuple[str, bytes]:
    """The filename and bytes of the multipart field ``media`` (41005 when absent)."""
    found = re.search(r'boundary="?([^";]+)"?', ctype)
    if not ctype.startswith("multipart/form-data") or found is None:
        raise Refused(41005)
    delimiter = b"--" + found.group(1).encode()
    for part in body.split(delimiter)[1:]:
        if part.startswith(b"--"):
            break
        head, _, data = part.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        name = re.search(rb'\bname="([^"]*)"', head)
        filename = re.search(rb'\bfilename="([^"]*)"', head)
        if name and name.group(1) == b"media":
            if not data.removesuffix(b"\r\n"):
                raise Refused(41005)
            return (filename.group(1).decode() if filename else ""), data.removesuffix(b"\r\n")
    raise Refused(41005)


def _handler_for(platform: FakeWeChat) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self) -> None:
            split = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(split.query).items()}
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            ctype = self.headers.get("Content-Type", "")
            answer = platform.answer(
                self.command, split.path, query, body, ctype, self.client_address[0]
            )
            payload = json.dumps(answer, ensure_ascii=False).encode()
            self.send_response(200)  # the platform says 200 even when it refuses
            self.send_header("Content-Type", "application/json; encoding=utf-8")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = _serve  # noqa: N815 -- http.server dispatches on these names

        def log_message(self, format: str, *args: Any) -> None:
            pass  # request lines carry access tokens; the real platform's logs are not ours either

    return Handler


def _crop_box(value: object) -> bool:
    """Whether a ``pic_crop_*`` value is the platform's ``X1_Y1_X2_Y2``: four fractions 0..1
    of at most 6 decimals, the second corner below and right of the first."""
    parts = str(value).split("_")
    if len(parts) != 4 or not all(re.fullmatch(r"[01](\.\d{1,6})?|0?\.\d{1,6}", p) for p in parts):
        return False
    x1, y1, x2, y2 = (float(p) for p in parts)
    return 0 <= x1 < x2 <= 1 and 0 <= y1 < y2 <= 1
