"""An account and what to send → the WeChat platform's calls: image uploads, the cover, the draft.

``WeChatClient`` is the ``PlatformConnection`` (``app.articles.wechat.transport``: tokens,
timeouts, refusals as typed errors) with the business calls the service makes: an article
image (``media/uploadimg``), a permanent image or cover (``material/add_material``), a draft
added, looked up or updated (``draft/add``, ``draft/get``, ``draft/update``).
"""

from __future__ import annotations

from typing import Any

from inkcard.app.articles.wechat.errors import INVALID_MEDIA_ID, PlatformError, draft_not_found
from inkcard.app.articles.wechat.records import Credentials, Material, WireArticle
from inkcard.app.articles.wechat.tokens import TokenCache
from inkcard.app.articles.wechat.transport import JSON_HEADERS, PlatformConnection, json_body
from inkcard.app.settings import Settings


class WeChatClient(PlatformConnection):
    """Calls the platform at ``base_url``; one instance may serve many accounts at once."""

    @classmethod
    def from_settings(cls, settings: Settings) -> WeChatClient:
        """A client for ``INKCARD_WECHAT_API_BASE`` caching tokens in the service database."""
        return cls(
            settings.wechat_api_base,
            TokenCache(settings.database),
            timeout=settings.wechat_timeout,
        )

    async def upload_article_image(
        self, creds: Credentials, data: bytes, filename: str, *, source: str
    ) -> str:
        """Upload a JPEG/PNG under 1 MB for the article body (``media/uploadimg``).

        ``filename`` must carry the extension (``image.png``); ``source`` names the image in
        errors. Returns the platform's image URL, as https.
        """
        body = await self._call(
            creds,
            f"the upload of image {source}",
            lambda token: self._http.post(
                "/cgi-bin/media/uploadimg",
                params={"access_token": token},
                files={"media": (filename, data, _mime(filename))},
            ),
        )
        return _https(_string(body, "url"))

    async def add_cover(
        self, creds: Credentials, data: bytes, filename: str, *, source: str = "the cover"
    ) -> str:
        """Upload the cover as permanent image material; returns its ``media_id``."""
        material = await self.add_image(creds, data, filename, step=f"cover image {source}")
        return material.media_id

    async def add_image(
        self, creds: Credentials, data: bytes, filename: str, *, step: str
    ) -> Material:
        """Upload a permanent image (``material/add_material``, type image)."""
        body = await self._call(
            creds,
            f"the upload of {step}",
            lambda token: self._http.post(
                "/cgi-bin/material/add_material",
                params={"access_token": token, "type": "image"},
                files={"media": (filename, data, _mime(filename))},
            ),
        )
        return Material(_string(body, "media_id"), _https(str(body.get("url", ""))))

    async def update_draft(self, creds: Credentials, media_id: str, article: WireArticle) -> str:
        """Replace the first article of draft ``media_id`` (``draft/update``); returns the id.

        The platform answers 40007 both for a draft that is gone and for a media_id of the
        article it does not accept; ``draft/get`` tells the two apart.

        Raises:
            DraftNotFound: The account has no such draft.
            PlatformError: errcode 40007 for a media_id of the article, or another refusal.
        """
        payload = {"media_id": media_id, "index": 0, "articles": article.to_wire()}
        try:
            await self._to_its_answer("/cgi-bin/draft/update", payload, creds, "the draft update")
        except PlatformError as exc:
            if exc.errcode != INVALID_MEDIA_ID or await self.draft_exists(creds, media_id):
                raise
            raise draft_not_found(media_id) from None
        return media_id

    async def draft_exists(self, creds: Credentials, media_id: str) -> bool:
        """True when the account has draft ``media_id`` (``draft/get``; 40007: it has not)."""
        try:
            await self._call(
                creds,
                "the draft lookup",
                lambda token: self._http.post(
                    "/cgi-bin/draft/get",
                    params={"access_token": token},
                    content=json_body({"media_id": media_id}),
                    headers=JSON_HEADERS,
                ),
            )
        except PlatformError as exc:
            if exc.errcode == INVALID_MEDIA_ID:
                return False
            raise
        return True

    async def add_draft(self, creds: Credentials, article: WireArticle) -> str:
        """Create a draft holding ``article``; returns the draft's ``media_id``.

        Once sent, the call is awaited to its answer (its own timeout bounds it) even if the
        request is cancelled meanwhile (its client left, its deadline passed): the platform
        may make the draft whatever we do now, and a draft it made is answered and charged,
        so a retry replays it rather than making a second one.
        """
        payload = {"articles": [article.to_wire()]}
        answer = await self._to_its_answer("/cgi-bin/draft/add", payload, creds, "the draft")
        return _string(answer, "media_id")


def _string(body: dict[str, Any], name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value:
        raise PlatformError(f"the platform's answer held no {name}")
    return value


def _https(url: str) -> str:
    return "https://" + url.removeprefix("http://") if url.startswith("http://") else url


def _mime(filename: str) -> str:
    extension = filename.rsplit(".", 1)[-1].lower()
    return {"png": "image/png", "gif": "image/gif", "bmp": "image/bmp"}.get(extension, "image/jpeg")
