"""An account and a draft's articles → the records the platform's calls take and answer.

``Credentials`` name the account; ``DraftArticle`` (a news article) and ``NewspicArticle``
(an image post) are what ``draft/add`` and ``draft/update`` send, each written out by its
``to_wire``; ``Material`` is a permanent image of the account's library.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Protocol

TITLE_LIMIT = 32  # characters; the platform answers 45003 above


class WireArticle(Protocol):
    def to_wire(self) -> dict[str, Any]: ...

    def with_media(self, new_ids: dict[str, str]) -> WireArticle:
        """The article with its permanent images' media_ids replaced as ``new_ids`` says."""
        ...


@dataclass(frozen=True, slots=True)
class Credentials:
    """One account's AppID and AppSecret; the secret is left out of ``repr``."""

    appid: str
    secret: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class DraftArticle:
    """One article of ``draft/add``. Empty optional fields are left out of the request."""

    title: str
    content: str
    thumb_media_id: str
    author: str = ""
    digest: str = ""
    content_source_url: str = ""
    need_open_comment: bool = False
    only_fans_can_comment: bool = False
    pic_crop_235_1: str = ""  # X1_Y1_X2_Y2 fractions of the cover: the feed's 2.35:1 crop
    pic_crop_1_1: str = ""  # ... and the square thumbnail's

    def to_wire(self) -> dict[str, Any]:
        """The article object of the request body; the comment flags always, as 0 or 1."""
        article: dict[str, Any] = {
            "article_type": "news",
            "title": self.title,
            "content": self.content,
            "thumb_media_id": self.thumb_media_id,
            "need_open_comment": int(self.need_open_comment),
            "only_fans_can_comment": int(self.only_fans_can_comment),
        }
        for name in ("author", "digest", "content_source_url", "pic_crop_235_1", "pic_crop_1_1"):
            if value := getattr(self, name):
                article[name] = value
        return article

    def with_media(self, new_ids: dict[str, str]) -> DraftArticle:
        thumb = new_ids.get(self.thumb_media_id, self.thumb_media_id)
        return dataclasses.replace(self, thumb_media_id=thumb)


@dataclass(frozen=True, slots=True)
class NewspicArticle:
    """The image post (``article_type`` newspic) of ``draft/add``: plain text and permanent
    images in order, the first the cover."""

    title: str
    content: str
    image_media_ids: tuple[str, ...]

    def to_wire(self) -> dict[str, Any]:
        images = [{"image_media_id": media_id} for media_id in self.image_media_ids]
        return {
            "article_type": "newspic",
            "title": self.title,
            "content": self.content,
            "image_info": {"image_list": images},
        }

    def with_media(self, new_ids: dict[str, str]) -> NewspicArticle:
        ids = tuple(new_ids.get(media_id, media_id) for media_id in self.image_media_ids)
        return dataclasses.replace(self, image_media_ids=ids)


@dataclass(frozen=True, slots=True)
class Material:
    """A permanent image of the account's library: its ``media_id`` and its URL."""

    media_id: str
    url: str
