"""The engine's refusals (``layout.CardTooLarge``, ``layout.MdxError``, ...) → the service's
errors (``ApiError``), with the messages a caller reads.

Raised in the worker processes around every render, and in the service's own process around
the one parse it does itself (``parse_post``), so a refusal reads the same wherever it
happened.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

from inkcard import layout
from inkcard.app.errors import (
    ApiError,
    CardTooLarge,
    ImageTooLarge,
    InvalidMdx,
    RenderFailed,
    TooManyPages,
    TooManyPixels,
)

log = logging.getLogger("inkcard.worker")

ENGINE_FAILED = "the card engine could not render this Markdown"  # a crash, in the worker or of it
MAX_CARD_PIXELS = layout.MAX_CARD_PIXELS
"""The pixels of the largest fixed-size card the field limits allow: no card may be bigger."""


def parse_post(markdown: str, mdx: bool) -> layout.Doc:
    """A card request's Markdown as the engine's ``Doc`` (``mdx``: its mdxMode).

    Raises:
        InvalidMdx: With mdxMode, text the component set refuses.
    """
    try:
        return layout.parse_post(markdown, mdx)
    except layout.MdxError as error:
        raise _invalid_mdx(error) from None


def over_limit(
    error: layout.CardTooLarge | layout.TooTallForFormat | layout.TooManyPixels,
    options: layout.RenderOptions,
) -> ApiError:
    """The service's answer to a render over the card or request pixel limits."""
    if isinstance(error, layout.CardTooLarge):
        other_formats = (
            f", or format png or jpeg ({MAX_CARD_PIXELS:,} pixels a card)"
            if error.limit < MAX_CARD_PIXELS
            else ""
        )
        return CardTooLarge(
            f"a card would be {error.width}x{error.height} pixels, more than the "
            f"{error.limit:,}-pixel limit of one {options.format} card; use splitMode "
            f"autoSplit, overHiddenMode, a smaller scale or a wider card{other_formats}"
        )
    if isinstance(error, layout.TooTallForFormat):
        return CardTooLarge(
            f"a card would be {error.width}x{error.height} pixels, and {error.format} holds at"
            f" most {error.limit:,} pixels a side; use format png or pdf, splitMode autoSplit,"
            " overHiddenMode or a smaller scale"
        )
    return TooManyPixels(
        f"the cards would have at least {error.pixels:,} pixels in all (width x height"
        f" x scale², summed over the cards), more than the {error.limit:,}-pixel limit"
        " of one request; use a smaller scale, smaller cards or fewer cards"
    )


def _invalid_mdx(error: layout.MdxError) -> InvalidMdx:
    return InvalidMdx(f"mdxMode: {error}")


@contextlib.contextmanager
def engine_refusals(options: layout.RenderOptions) -> Iterator[None]:
    """The engine's refusals inside, raised as the service's errors
    (``app.render.jobs.render_cards``)."""
    try:
        yield
    except (layout.CardTooLarge, layout.TooTallForFormat, layout.TooManyPixels) as error:
        raise over_limit(error, options) from None
    except layout.ImagesTooLarge as error:
        raise ImageTooLarge(
            f"the images would decode to at least {error.pixels:,} pixels (width x height,"
            f" each distinct image counted once), more than the {error.limit:,}-pixel limit"
            " of this request (the bigger the card, the less room for images); use fewer or"
            " smaller images, or a smaller card or scale"
        ) from None
    except layout.MdxError as error:
        raise _invalid_mdx(error) from None
    except layout.TooManyPages:
        raise TooManyPages(
            f"the Markdown makes more than {layout.MAX_CARDS} cards; split it into several requests"
        ) from None
    except MemoryError:
        raise  # over the address-space limit: answered by ``jobs.answer``, the worker replaced
    except Exception:
        log.exception("card engine failed")
        raise RenderFailed(ENGINE_FAILED) from None
