"""Something the engine cannot do with its input → one exception, all under `EngineError`.

Every error the engine raises on purpose (as opposed to a bug) is defined here, so a caller
can catch the whole family with `EngineError` or one member by name. Members that were
`ValueError`s keep that second base, so code that catches `ValueError` still sees them.
"""

from __future__ import annotations


class EngineError(Exception):
    """The base of every error the card engine raises on purpose."""


class ThemeError(EngineError, ValueError):
    """A theme file names an unknown role, token or colour, or a value out of range."""


class FontError(EngineError, ValueError):
    """A font file or family is missing."""


class PathError(EngineError, ValueError):
    """Path data that is not valid SVG path syntax."""


class ImageRejected(EngineError, ValueError):
    """The bytes are not an image we accept, or it is too large to decode safely."""


class ImagesTooLarge(EngineError):
    """The distinct images of one render would decode to more pixels than its budget."""

    def __init__(self, pixels: int, limit: int) -> None:
        super().__init__(f"the images would decode to {pixels:,} pixels, more than {limit:,}")
        self.pixels = pixels
        self.limit = limit


class SheetError(EngineError, ValueError):
    """A thumbnail could not be decoded, or there is nothing to lay out."""


class RenderError(EngineError):
    """The input cannot be rendered as asked (as opposed to a bug)."""


class MdxError(RenderError):
    """mdxMode text that is not valid for our component set (the API's `invalid_mdx`)."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


class TooManyPages(RenderError):
    """The content would make more cards than allowed (`at_least` `count`: layout stopped
    at the first card past the limit)."""

    def __init__(self, count: int, limit: int, *, at_least: bool = False) -> None:
        makes = f"at least {count}" if at_least else f"{count}"
        super().__init__(f"the content makes {makes} cards; at most {limit} are allowed")
        self.count = count
        self.limit = limit


class CardTooLarge(RenderError):
    """A card would have more pixels than the caller's budget."""

    def __init__(self, width: int, height: int, limit: int) -> None:
        super().__init__(f"a card would be {width}x{height} pixels, more than {limit:,}")
        self.width = width
        self.height = height
        self.limit = limit


class TooTallForFormat(RenderError):
    """A card is longer on one side than its file format can hold (WebP 16,383 px, JPEG
    65,535 px): refused before it is drawn, since the encoder would fail after drawing it."""

    def __init__(self, width: int, height: int, file_format: str, limit: int) -> None:
        super().__init__(
            f"a card would be {width}x{height} pixels, and {file_format} holds at most"
            f" {limit:,} pixels a side"
        )
        self.width = width
        self.height = height
        self.format = file_format
        self.limit = limit


class TooManyPixels(RenderError):
    """The cards of one render together would have more pixels than the caller's budget."""

    def __init__(self, pixels: int, limit: int) -> None:
        super().__init__(f"the cards would have {pixels:,} pixels in all, more than {limit:,}")
        self.pixels = pixels
        self.limit = limit


__all__ = [
    "CardTooLarge",
    "EngineError",
    "FontError",
    "ImageRejected",
    "ImagesTooLarge",
    "MdxError",
    "PathError",
    "RenderError",
    "SheetError",
    "ThemeError",
    "TooManyPages",
    "TooManyPixels",
]


class DiagramError(EngineError, ValueError):
    """Mermaid source we do not draw (a kind we lack, a syntax error, past a bound): the
    message is a one-line note for the reader, shown under the source."""
