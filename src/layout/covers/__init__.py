"""A title + keywords + a card theme → cover cards in big display type, and the WeChat cover.

`covers` lays out each cover layout and the platform's 900 x 383 cover with its square crop;
`coverinks` picks the colours by contrast on the ground the text sits on. May import:
`layout.pages` and everything below it.
"""

from .covers import LAYOUTS as COVER_LAYOUTS
from .covers import MAX_COVERS, CoverCrops, centred_crops
from .covers import MAX_KEYWORD_CHARS as MAX_COVER_KEYWORD_CHARS
from .covers import MAX_KEYWORDS as MAX_COVER_KEYWORDS
from .covers import MAX_TITLE_CHARS as MAX_COVER_TITLE_CHARS
from .covers import WECHAT_SIZE as WECHAT_COVER_SIZE

__all__ = [
    "COVER_LAYOUTS",
    "MAX_COVERS",
    "MAX_COVER_KEYWORDS",
    "MAX_COVER_KEYWORD_CHARS",
    "MAX_COVER_TITLE_CHARS",
    "WECHAT_COVER_SIZE",
    "CoverCrops",
    "centred_crops",
]
