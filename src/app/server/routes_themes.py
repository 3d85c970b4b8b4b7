"""``GET /api/themes`` and the sample-card previews it links to (public, like the list).

A preview is the gallery's sample post in one theme-mode at half scale (220 x 293 px),
rendered by a render process on its first request (once, however many ask at once) and then
kept in memory; the catalogue bounds how many there are. Its ETag hashes the engine version,
the theme file, the fonts and the sample post, so a client revalidates with ``If-None-Match``
and gets 304.
"""

# No `from __future__ import annotations`: Litestar reads the preview parameter's annotation,
# which names the catalogue's previews, at registration, outside this module's namespace.
from typing import Annotated, Any

import msgspec
from litestar import Request, Response, get
from litestar.datastructures import CacheControlHeader
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Parameter

from inkcard import themes
from inkcard.app.cards import gallery
from inkcard.app.cards.service import CardService, ThemesResponse, themes_listing
from inkcard.app.errors import NotFound
from inkcard.app.render.messages import RenderJob
from inkcard.app.render.singleflight import SingleFlight
from inkcard.app.schema import ErrorBody, errors
from inkcard.app.server.openapi import error_responses
from inkcard.app.services import Services

# Revalidated daily: a preview changes only when the service restarts with other themes,
# fonts or engine, and then its ETag changes too.
PREVIEW_CACHE = CacheControlHeader(public=True, max_age=86_400)


def theme_routes(catalogue: themes.Catalogue) -> list[HTTPRouteHandler]:
    """The theme list and the previews of ``catalogue``'s theme-modes."""
    previews = gallery.Previews(catalogue)

    def preview_url(theme: str, mode: str | None) -> str:
        return f"{gallery.PREVIEWS_PATH}/{previews.name(theme, mode)}"

    listing = msgspec.convert(themes_listing(catalogue, preview_url), ThemesResponse)
    rendering: SingleFlight[gallery.Preview] = SingleFlight()  # one render per preview

    async def render(name: str, cards: CardService, timeout: float) -> gallery.Preview:
        theme, options = previews.sample(name)
        job = RenderJob(markdown=gallery.SAMPLE_POST, theme=theme, options=options)
        [png] = (await cards.pool.run(job, timeout=timeout)).files
        return previews.keep(name, png, cards.fonts_fingerprint)

    @get("/api/themes", summary="Card and article themes")
    async def list_themes() -> ThemesResponse:
        """Card themes with label, one-line description, modes (the first is the default) and
        the path of a small preview card of each mode; article themes (the first is the
        default of convert-and-draft)."""
        return listing

    @get(
        f"{gallery.PREVIEWS_PATH}/{{name:str}}",
        summary="A theme's sample card, small",
        media_type="image/png",
        cache_control=PREVIEW_CACHE,
        responses={
            200: ResponseSpec(
                data_container=bytes,
                media_type="image/png",
                description="PNG, 220 x 293 px",
                generate_examples=False,
            ),
            304: ResponseSpec(None, description="Not modified (If-None-Match had the ETag)"),
            **error_responses(ErrorBody, errors.PREVIEW),
        },
    )
    async def preview(
        request: Request[Any, Any, Any],
        services: NamedDependency[Services],
        name: Annotated[
            str,
            Parameter(
                description="`<theme>[-<mode>].png`, as GET /api/themes lists them",
                schema_extra={"enum": list(previews.variants)},
            ),
        ],
    ) -> Response[bytes]:
        """The gallery's sample post as a small card of one theme-mode; public, cacheable."""
        if name not in previews.variants:
            raise NotFound("no theme preview has this name; GET /api/themes lists them")
        cards = services.cards
        settings = services.settings
        etag = previews.etag(name, cards.fonts_fingerprint)
        headers = {"ETag": etag}
        if _etags(request.headers.get("if-none-match", "")) & {etag, "*"}:
            return Response(b"", status_code=304, headers=headers)
        found = previews.cached(name)
        if found is None:
            found = await rendering.run(name, lambda: render(name, cards, settings.timeout))
        return Response(found.png, media_type="image/png", headers=headers)

    return [list_themes, preview]


def _etags(header: str) -> set[str]:
    """The entity tags of an If-None-Match header (``*`` matches any)."""
    return {tag.strip().removeprefix("W/") for tag in header.split(",")}
