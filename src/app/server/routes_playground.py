"""The playground at ``/``: one HTML page and its script and styles, served from memory.

Plain files in ``app/server/static`` (no build step, no CDN), read once when the app is built. The
page needs no key to load (the browser sends the user's own key with each API call), so it is
public and cacheable like the previews: every file has a strong ETag from its bytes and
``If-None-Match`` answers 304. The page names its assets with ``?v=<their tag>``, so an asset
asked for with its current tag is cached for a year; the page itself is revalidated after
five minutes. None of these routes is in the OpenAPI document: they are not the API.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litestar import Request, Response, get
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath

from app.errors import NotFound
from app.models import MAX_MARKDOWN_CHARS

STATIC_DIR = Path(__file__).parent / "static"
STATIC_PATH = "/static"
PAGE = "index.html"
ASSETS = {
    "playground.css": "text/css",
    "playground.js": "text/javascript",
    "icon.svg": "image/svg+xml",
}
PAGE_CACHE = "public, max-age=300"
ASSET_CACHE = "public, max-age=31536000, immutable"
UNVERSIONED_CACHE = "public, no-cache"
# The key lives in this page's localStorage, so only its own scripts may run. Images may come
# from any storage URL (a bucket or CDN) and so may the card downloads; article previews show
# the platform's inline styles in a sandboxed frame.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline';"
        " img-src * data: blob:; connect-src *; frame-src 'self'; object-src 'none';"
        " base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@dataclass(frozen=True)
class StaticFile:
    """One served file: its bytes, media type and strong entity tag."""

    body: bytes
    media_type: str
    etag: str

    @classmethod
    def of(cls, body: bytes, media_type: str) -> StaticFile:
        return cls(body, media_type, f'"{hashlib.sha256(body).hexdigest()[:32]}"')

    @property
    def version(self) -> str:
        return self.etag.strip('"')[:12]


def load_files() -> tuple[StaticFile, dict[str, StaticFile]]:
    """The page (its asset links versioned by their tags, the Markdown limit filled in) and
    the assets by name."""
    assets = {
        name: StaticFile.of((STATIC_DIR / name).read_bytes(), media_type)
        for name, media_type in ASSETS.items()
    }
    html = (STATIC_DIR / PAGE).read_text("utf-8")
    for name, asset in assets.items():
        html = html.replace(f"{{{{{name}}}}}", f"{STATIC_PATH}/{name}?v={asset.version}")
    html = html.replace("{{max-markdown-chars}}", str(MAX_MARKDOWN_CHARS))  # the page's counter
    return StaticFile.of(html.encode("utf-8"), "text/html"), assets


def _answer(
    request: Request[Any, Any, Any], file: StaticFile, cache: str, extra: dict[str, str]
) -> Response[bytes]:
    """``file`` with its tag, or 304 when the client already holds this tag."""
    headers = {"ETag": file.etag, "Cache-Control": cache, **extra}
    held = {
        t.strip().removeprefix("W/") for t in request.headers.get("if-none-match", "").split(",")
    }
    if held & {file.etag, "*"}:
        return Response(b"", status_code=304, headers=headers)
    return Response(file.body, media_type=file.media_type, headers=headers)


def playground_routes() -> list[HTTPRouteHandler]:
    """``GET /`` (the page) and ``GET /static/<name>`` (its script, styles and icon)."""
    page, assets = load_files()

    @get("/", include_in_schema=False)
    async def playground(request: Request[Any, Any, Any]) -> Response[bytes]:
        return _answer(request, page, PAGE_CACHE, SECURITY_HEADERS)

    @get(f"{STATIC_PATH}/{{name:str}}", include_in_schema=False)
    async def static_asset(request: Request[Any, Any, Any], name: FromPath[str]) -> Response[bytes]:
        asset = assets.get(name)
        if asset is None:
            raise NotFound("nothing is stored under this name")
        current = request.query_params.get("v") == asset.version
        cache = ASSET_CACHE if current else UNVERSIONED_CACHE
        return _answer(request, asset, cache, {"X-Content-Type-Options": "nosniff"})

    return [playground, static_asset]
