"""A cover request (``app.schema.cover``) → the one normalised ``CoverSpec`` its covers
depend on: the title's spaces folded, the keywords one each, the theme resolved to its ID
and mode as generate resolves them, the size in whole pixels. No size asked for is the
WeChat article cover (900 x 383, the title in the centred square); no theme asked for is the
default theme without its app chrome (apple-notes' Notes bar is drawn only when named).
"""

from __future__ import annotations

import hashlib
import re

import msgspec

from inkcard import layout
from inkcard.app.cards.request import ThemeLookup, resolve_theme
from inkcard.app.schema import DEFAULT_THEME, KEYWORD_CHARS, KEYWORDS, CoverRequest
from inkcard.app.schema.aigc import engine_label
from inkcard.layout.covers import WECHAT_COVER_SIZE
from inkcard.layout.draw import Aigc

COVER_SCALE = 2  # image pixels per CSS pixel, as generate's default: a 440 x 586 cover is 880 wide
KEYWORD_SEPARATORS = re.compile(r"[,，、]")  # ASCII and full-width commas, the enumeration comma


class CoverSpec(msgspec.Struct, frozen=True, kw_only=True):
    """A cover request after defaults and validation: what its covers depend on."""

    title: str
    keywords: tuple[str, ...]
    count: int
    theme: str  # the ID, whichever alias the request used
    mode: str | None
    width: int
    height: int
    wechat: bool = False  # no size asked for: the platform's 2.35:1 cover, title in the square
    chrome: bool = True  # the theme's static decorations; off when no theme was named
    aigc: Aigc | None = None  # an AI-content label on the covers and in their files

    def options(self, output_pixels: int) -> layout.RenderOptions:
        """The engine's options, held to the service's pixel budget (as generate's)."""
        return layout.RenderOptions(
            width=self.width,
            height=self.height,
            scale=COVER_SCALE,
            mode=self.mode,
            max_pixels=layout.MAX_CARD_PIXELS,
            max_total_pixels=output_pixels,
            aigc=self.aigc,
        )

    def digest(self, theme_data: str, fonts: str, brand: str = "") -> str:
        """32 hex characters naming these covers' files: the spec, the engine version and
        the fingerprints of the theme file and the fonts (and the brand kit's, if any)."""
        h = hashlib.sha256(f"inkcard-covers\n{layout.ENGINE_VERSION}\n".encode())
        spec = msgspec.structs.asdict(self)
        if spec["aigc"] is None:
            del spec["aigc"]  # the digest of an unlabelled cover as before the field
        h.update(msgspec.json.encode([spec, theme_data, fonts, *([brand] if brand else [])]))
        return h.hexdigest()[:32]


def keyword_list(keywords: list[str] | str) -> tuple[str, ...]:
    """The keywords as sent, one each, blanks and repeats dropped, at most ``KEYWORDS``."""
    words = KEYWORD_SEPARATORS.split(keywords) if isinstance(keywords, str) else keywords
    kept = dict.fromkeys(w.strip()[:KEYWORD_CHARS] for w in words if w.strip())
    return tuple(kept)[:KEYWORDS]


def normalise_cover(request: CoverRequest, lookup: ThemeLookup) -> CoverSpec:
    """The one normalised record of ``request``, its theme looked up with ``lookup``.

    Raises:
        InvalidField: Unknown theme or theme mode.
    """
    named = request.theme is not None
    name = DEFAULT_THEME if request.theme is None else request.theme
    theme, mode = resolve_theme(lookup, name, request.themeMode)
    wechat = request.width is None and request.height is None
    width, height = WECHAT_COVER_SIZE if wechat else (request.width, request.height)
    return CoverSpec(
        title=" ".join(request.text.split()),
        keywords=keyword_list(request.keywords),
        count=request.count,
        theme=theme.name,
        mode=mode,
        width=round(layout.DEFAULT_WIDTH if width is None else width),
        height=round(layout.DEFAULT_HEIGHT if height is None else height),
        wechat=wechat,
        chrome=named,
        aigc=engine_label(request.aigc),
    )


def without_chrome(theme: layout.Theme) -> layout.Theme:
    """``theme`` without its static decorations: the default theme's are an app's chrome
    (apple-notes' iOS Notes bar, ‹ 备忘录 and its icons), which a cover shows only when the
    theme is named; the page, colours and type stay."""
    return msgspec.structs.replace(theme, decorations=[])
