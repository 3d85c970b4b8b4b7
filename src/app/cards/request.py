"""A card request as sent (``GenerateRequest``) → the one normalised ``CardRequest``.

Every card request, whoever sends it, is decided here once: the theme is looked up, its mode
defaulted and checked, the size rounded, overflow and quality settled. The HTTP and MCP path
(``CardService.prepare``) and ``inkcard render`` both call ``normalise``; the render worker
gets ``CardRequest.render_options`` and decides nothing again. A bad theme or mode is one
``InvalidField`` with one message on every path.

This module imports neither the web framework nor storage clients, so the CLI stays light.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from inkcard import layout, themes
from inkcard.app.schema import GenerateRequest, invalid
from inkcard.app.schema.aigc import engine_label
from inkcard.layout.draw import Aigc

LOSSY = ("jpeg", "webp")  # the formats `quality` applies to

ThemeLookup = Callable[[str], layout.Theme]
"""A theme by its ID or an alias of it (``card-<id>``, its label), named by its ID, raising
``themes.UnknownTheme``: ``Catalogue.get`` (the service, and the CLI with custom themes) or
``themes.load_one`` (the CLI, which decodes only the theme it uses)."""


class CardRequest(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A card request after defaults, validation and normalisation: what its cards depend on.

    ``mode`` is a mode of the theme (its first by default), or None for a theme without modes.
    """

    markdown: str
    theme: str
    mode: str | None
    width: int
    height: int
    split: layout.SplitMode
    mdx: bool
    overflow_hidden: bool
    scale: int
    format: layout.OutputFormat = "png"
    quality: int = layout.DEFAULT_QUALITY  # the default unless jpeg/webp
    fit: layout.Fit = "none"
    aigc: Aigc | None = None  # an AI-content label on the cards and in their files

    def render_options(self, output_pixels: int, image_pixels: int) -> layout.RenderOptions:
        """The engine's options for these cards, held to the service's budgets: at most
        ``MAX_CARDS`` cards, none over ``MAX_CARD_PIXELS``, ``output_pixels`` in all and
        ``image_pixels`` of decoded images (the settings ``max_output_pixels`` and
        ``max_image_pixels``). The API and ``inkcard render`` both draw with these."""
        return layout.RenderOptions(
            width=self.width,
            height=self.height,
            scale=self.scale,
            split=self.split,
            overflow_hidden=self.overflow_hidden,
            mode=self.mode,
            mdx=self.mdx,
            format=self.format,
            quality=self.quality,
            fit=self.fit,
            aigc=self.aigc,
            max_pages=layout.MAX_CARDS,
            max_pixels=layout.MAX_CARD_PIXELS,
            max_total_pixels=output_pixels,
            max_image_pixels=image_pixels,
        )


def resolve_theme(
    lookup: ThemeLookup, name: str, mode: str | None
) -> tuple[layout.Theme, str | None]:
    """The theme ``name`` and the mode its cards are drawn in.

    A theme with modes takes ``mode`` or, when None, its first mode; a theme without modes
    has none (a requested mode is not used).

    Raises:
        InvalidField: ``invalid_theme`` (no such theme) or ``invalid_theme_mode``.
    """
    try:
        theme = lookup(name)
    except themes.UnknownTheme as error:
        valid: list[str] = error.args[1]
        raise invalid("theme", "one of " + ", ".join(valid)) from None
    modes = list(theme.modes)
    if not modes:
        return theme, None
    chosen = modes[0] if mode is None else mode
    if chosen not in modes:
        raise invalid("themeMode", f"one of {', '.join(modes)} for theme {name}")
    return theme, chosen


def normalise(request: GenerateRequest, lookup: ThemeLookup) -> CardRequest:
    """The one normalised record of ``request``, its theme looked up with ``lookup``.

    Raises:
        InvalidField: Unknown theme or theme mode.
    """
    theme, mode = resolve_theme(lookup, request.theme, request.themeMode)
    split = request.splitMode
    return CardRequest(
        markdown=request.markdown,
        theme=theme.name,  # the ID, whichever alias the request used
        mode=mode,
        width=round(request.width),
        height=round(request.height),
        split=split,
        mdx=request.mdxMode,
        overflow_hidden=layout.hides_overflow(split, request.overHiddenMode),
        scale=request.scale,
        format=request.format,
        quality=request.quality if request.format in LOSSY else layout.DEFAULT_QUALITY,
        fit=request.fit,
        aigc=engine_label(request.aigc),
    )
