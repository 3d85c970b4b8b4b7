"""The WeChat platform, for one call of the service: its client and what it remembers.

``client`` makes the platform's calls (uploads, drafts) over ``transport`` (access tokens,
timeouts, redacted logs), whose refusals ``errors`` types and whose records ``records``
holds; ``tokens`` and ``mediacache`` keep the access tokens and the images each account
already has in the service database; ``placing`` sends one call's images and draft to one
account; ``draftbox`` lists, reads and deletes an account's drafts and publishes one. It may
import ``app.settings``, ``app.errors``, ``app.schema`` and ``app.ledger`` (the database),
never the rest of ``app.articles``. This face is what the other rooms use.
"""

from inkcard.app.articles.wechat.client import WeChatClient
from inkcard.app.articles.wechat.draftbox import PlatformApiUnauthorized, PublishNotFound
from inkcard.app.articles.wechat.errors import (
    INVALID_MEDIA_ID,
    DraftNotFound,
    ImageUploadFailed,
    InvalidPlatformCredentials,
    IpNotWhitelisted,
    PlatformError,
    PlatformRateLimited,
    PlatformTimeout,
    draft_not_found,
)
from inkcard.app.articles.wechat.records import (
    TITLE_LIMIT,
    Credentials,
    DraftArticle,
    Material,
    NewspicArticle,
    WireArticle,
)

__all__ = [
    "INVALID_MEDIA_ID",
    "TITLE_LIMIT",
    "Credentials",
    "DraftArticle",
    "DraftNotFound",
    "ImageUploadFailed",
    "InvalidPlatformCredentials",
    "IpNotWhitelisted",
    "Material",
    "NewspicArticle",
    "PlatformApiUnauthorized",
    "PlatformError",
    "PlatformRateLimited",
    "PlatformTimeout",
    "PublishNotFound",
    "WeChatClient",
    "WireArticle",
    "draft_not_found",
]
