"""A cover request (``app.schema.cover``) → the one normalised ``CoverSpec`` its covers
depend on: the title's spaces folded, the keywords one each, the theme resolved to its ID
and mode as generate resolves them, the size in whole pixels.
"""

from __future__ import annotations

import hashlib
import re

import msgspec

from inkcard import layout
from inkcard.app.cards.request import ThemeLookup, resolve_theme
from inkcard.app.schema import KEYWORD_CHARS, KEYWORDS, CoverRequest

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

    def options(self, output_pixels: int) -> layout.RenderOptions:
        """The engine's options, held to the service's pixel budget (as generate's)."""
        return layout.RenderOptions(
            width=self.width,
            height=self.height,
            scale=COVER_SCALE,
            mode=self.mode,
            max_pixels=layout.MAX_CARD_PIXELS,
            max_total_pixels=output_pixels,
        )

    def digest(self, theme_data: str, fonts: str) -> str:
        """32 hex characters naming these covers' files: the spec, the engine version and
        the fingerprints of the theme file and the fonts."""
        h = hashlib.sha256(f"inkcard-covers\n{layout.ENGINE_VERSION}\n".encode())
        h.update(msgspec.json.encode([self, theme_data, fonts]))
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
    theme, mode = resolve_theme(lookup, request.theme, request.themeMode)
    return CoverSpec(
        title=" ".join(request.text.split()),
        keywords=keyword_list(request.keywords),
        count=request.count,
        theme=theme.name,
        mode=mode,
        width=round(request.width),
        height=round(request.height),
    )
