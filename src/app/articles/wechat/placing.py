"""Where a draft goes: a new one (``draft/add``), or in place of the draft ``draftMediaId``
names (``draft/update``, its first article).

The named draft is looked up (``draft/get``) before anything is uploaded, so a draft that is
gone is refused (404 ``draft_not_found``) with no library item made and nothing charged, or,
with ``draftMissing`` create, becomes a new draft that the answer's message announces. A draft
deleted between the look-up and the update is caught by the update itself, the same way.

A ``Publisher`` sends one call's images and draft to one account: each image is looked up in
the account's ``MediaCache`` first and uploaded only when the account lacks it. When the draft
is refused for a media_id (40007) and some came from the cache, those entries are dropped,
their images uploaded again once, and the draft sent once more.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from inkcard.app.articles.wechat.client import WeChatClient
from inkcard.app.articles.wechat.errors import (
    INVALID_MEDIA_ID,
    DraftNotFound,
    PlatformError,
    draft_not_found,
)
from inkcard.app.articles.wechat.mediacache import Hosted, MediaCache, MediaKind, digest_of
from inkcard.app.articles.wechat.records import Credentials, WireArticle
from inkcard.app.schema import DraftMissing


@dataclass(frozen=True, slots=True)
class Target:
    """The draft a call writes: ``media_id`` to update, or empty for a new one; ``gone``
    the draftMediaId that no longer exists when a new draft replaces it."""

    media_id: str = ""
    gone: str = ""
    missing: DraftMissing = "fail"


@dataclass(frozen=True, slots=True)
class Placed:
    """The draft written: its media_id, and whether it was updated in place."""

    media_id: str
    updated: bool
    gone: str = ""  # the draftMediaId that was gone, when a new draft was made instead


async def find_target(
    wechat: WeChatClient, creds: Credentials, media_id: str, missing: DraftMissing
) -> Target:
    """The draft to write, checked before anything is uploaded.

    Raises:
        DraftNotFound: ``media_id`` names no draft of the account and ``missing`` is fail.
    """
    if not media_id:
        return Target()
    if await wechat.draft_exists(creds, media_id):
        return Target(media_id, missing=missing)
    if missing == "create":
        return Target(gone=media_id)
    raise draft_not_found(media_id)


async def place(
    wechat: WeChatClient, creds: Credentials, target: Target, article: WireArticle
) -> Placed:
    """Write ``article`` to the target: update the draft, else make a new one."""
    if target.media_id:
        try:
            return Placed(await wechat.update_draft(creds, target.media_id, article), True)
        except DraftNotFound:
            if target.missing != "create":
                raise
            target = Target(gone=target.media_id)
    return Placed(await wechat.add_draft(creds, article), False, target.gone)


def placed_message(placed: Placed, what: str, details: str) -> str:
    """The answer's message: ``what`` (the draft and its title) created or updated."""
    if placed.updated:
        return f"{what} updated in place in the account's draft box ({details})"
    made = f"{what} created in the account's draft box ({details})"
    if placed.gone:
        return f"draft {placed.gone} no longer exists, so a new one was made: {made}"
    return made


@dataclass(frozen=True, slots=True)
class _Sent:
    """A permanent image of this call taken from the cache, kept to upload it again."""

    digest: str
    data: bytes
    filename: str
    step: str


class Publisher:
    """One call's uploads and draft for one account, through the account's media cache."""

    def __init__(self, wechat: WeChatClient, cache: MediaCache, creds: Credentials):
        self.wechat = wechat
        self.cache = cache
        self.creds = creds
        self._cached: dict[str, _Sent] = {}  # media_id from the cache → its image
        self.reused: set[str] = set()  # article images' sources the account already had

    async def target(self, media_id: str, missing: DraftMissing) -> Target:
        """``find_target`` for this account."""
        return await find_target(self.wechat, self.creds, media_id, missing)

    async def article_image(self, data: bytes, filename: str, *, source: str) -> str:
        """The platform's URL of an image for an article's body (``uploadimg`` once); one
        the account already had is noted in ``reused`` by its ``source``."""
        digest = digest_of(data)
        found = await self._find(digest, "article-image")
        if found is not None:
            self.reused.add(source)
            return found.url
        url = await self.wechat.upload_article_image(self.creds, data, filename, source=source)
        await self._put(digest, "article-image", Hosted("", url))
        return url

    async def material(self, data: bytes, filename: str, *, step: str) -> str:
        """The media_id of a permanent image of the account (``add_material`` once)."""
        digest = digest_of(data)
        found = await self._find(digest, "material")
        if found is not None:
            self._cached[found.media_id] = _Sent(digest, data, filename, step)
            return found.media_id
        return await self._upload(_Sent(digest, data, filename, step))

    async def place(self, target: Target, article: WireArticle) -> Placed:
        """``place`` the draft; refused for a media_id the cache gave, once more with those
        images uploaded again."""
        try:
            return await place(self.wechat, self.creds, target, article)
        except PlatformError as exc:
            stale = exc.errcode == INVALID_MEDIA_ID and not isinstance(exc, DraftNotFound)
            if not (stale and self._cached):
                raise
        new_ids = {}
        for media_id, sent in self._cached.items():
            await asyncio.to_thread(self.cache.drop, self.creds.appid, sent.digest, "material")
            new_ids[media_id] = await self._upload(sent)
        self._cached.clear()
        return await place(self.wechat, self.creds, target, article.with_media(new_ids))

    async def _upload(self, sent: _Sent) -> str:
        material = await self.wechat.add_image(self.creds, sent.data, sent.filename, step=sent.step)
        await self._put(sent.digest, "material", Hosted(material.media_id, material.url))
        return material.media_id

    async def _find(self, digest: str, kind: MediaKind) -> Hosted | None:
        return await asyncio.to_thread(self.cache.find, self.creds.appid, digest, kind)

    async def _put(self, digest: str, kind: MediaKind, hosted: Hosted) -> None:
        await asyncio.to_thread(self.cache.put, self.creds.appid, digest, kind, hosted)
