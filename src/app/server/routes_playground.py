"""The playground at ``/``: one HTML page and its script and styles, served from memory.

Plain files in ``app/server/static`` (no build step, no CDN), read once when the app is built. The
page needs no key to load (the browser sends the user's own key with each API call), so it is
public and cacheable like the previews: every file has a strong ETag from its bytes and
``If-None-Match`` answers 304. The page names its assets with ``?v=<their tag>``, so an asset
asked for with its current tag is cached for a year; the page itself is revalidated after
five minutes. None of these routes is in the OpenAPI document: they are not the API.

The page's own CJK labels are drawn with our fonts, not the visitor's: ``ui-cjk.woff`` is the
CJK sans cut down to the CJK characters of the page's files and of the theme list it shows
(the card themes' labels, such as 苹果备忘录): a few kilobytes, made on its
first request (about a second, in a thread) and kept in memory; its tag comes from the
characters and the font file, so it is known before the cut.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litestar import Request, Response, get
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath

from inkcard import layout, themes
from inkcard.app.errors import NotFound
from inkcard.app.prices import PRICES, Prices, credits
from inkcard.app.schema import MAX_MARKDOWN_CHARS

STATIC_DIR = Path(__file__).parent / "static"
STATIC_PATH = "/static"
PAGE = "index.html"
ASSETS = {
    "playground.css": "text/css",
    "playground.js": "text/javascript",
    "controls.js": "text/javascript",
    "zip.js": "text/javascript",
    "icon.svg": "image/svg+xml",
}
UI_FONT = "ui-cjk.woff"
UI_FONT_SOURCE = "NotoSansCJKsc-Regular.otf"  # the cards' CJK sans
FIRST_CJK = 0x2E80  # CJK radicals; everything the page's Latin labels use lies below
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


class UiFont:
    """The CJK subset for the page's labels: cut once, on first request, then kept."""

    def __init__(self, source: Path, text: str):
        self.source = source
        self.text = text
        stamp = f"{source.name}:{source.stat().st_size if source.is_file() else 0}:{text}"
        self.version = hashlib.sha256(stamp.encode()).hexdigest()[:12]
        self._file: StaticFile | None = None
        self._lock = asyncio.Lock()

    async def file(self) -> StaticFile | None:
        """The subset (None when the font is missing: the page falls back to system fonts)."""
        async with self._lock:
            if self._file is None and self.source.is_file():
                body = await asyncio.to_thread(layout.subset_font, self.source, self.text)
                self._file = StaticFile.of(body, "font/woff")
            return self._file


def cjk_characters(texts: list[str]) -> str:
    """The distinct CJK characters (and full-width forms) of ``texts``, sorted."""
    return "".join(sorted({c for text in texts for c in text if ord(c) >= FIRST_CJK}))


def theme_labels(catalogue: themes.Catalogue) -> str:
    """The card themes' labels, as the page shows them on its theme button and picker."""
    return " ".join(catalogue.get(name).label for name in catalogue.names())


def price_marks(prices: Prices) -> dict[str, str]:
    """The price marks of the page and its scripts (``{{html-price}}``) → the prices in words."""
    return {"{{html-price}}": credits(prices.html), "{{draft-price}}": credits(prices.draft)}


def _read(name: str, marks: dict[str, str]) -> bytes:
    """A static file's bytes; a script's and the page's with the ``marks`` filled in."""
    if not name.endswith((".js", ".html")):
        return (STATIC_DIR / name).read_bytes()
    text = (STATIC_DIR / name).read_text("utf-8")
    for mark, value in marks.items():
        text = text.replace(mark, value)
    return text.encode("utf-8")


def load_files(
    fonts_dir: Path = layout.DEFAULT_FONTS_DIR, shown: str = "", prices: Prices = PRICES
) -> tuple[StaticFile, dict[str, StaticFile], UiFont]:
    """The page (its asset links versioned by their tags, the Markdown limit and the prices
    filled in), the assets by name, and the CJK subset its labels and ``shown`` (text it
    fetches) need."""
    marks = price_marks(prices)
    assets = {
        name: StaticFile.of(_read(name, marks), media_type) for name, media_type in ASSETS.items()
    }
    html = _read(PAGE, marks).decode("utf-8")
    texts = [html, shown] + [
        (STATIC_DIR / name).read_text("utf-8") for name in ASSETS if name.endswith(".js")
    ]
    font = UiFont(fonts_dir / UI_FONT_SOURCE, cjk_characters(texts))
    html = html.replace(f"{{{{{UI_FONT}}}}}", f"{STATIC_PATH}/{UI_FONT}?v={font.version}")
    for name, asset in assets.items():
        html = html.replace(f"{{{{{name}}}}}", f"{STATIC_PATH}/{name}?v={asset.version}")
    html = html.replace("{{max-markdown-chars}}", str(MAX_MARKDOWN_CHARS))  # the page's counter
    return StaticFile.of(html.encode("utf-8"), "text/html"), assets, font


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


def playground_routes(
    fonts_dir: str = "", shown: str = "", prices: Prices = PRICES
) -> list[HTTPRouteHandler]:
    """``GET /`` (the page) and ``GET /static/<name>`` (its scripts, styles, icon and the CJK
    subset of ``fonts_dir``'s sans, by default the repository's fonts, for the page's own
    labels and the labels in ``shown``); the page and its scripts name ``prices``."""
    source = Path(fonts_dir) if fonts_dir else layout.DEFAULT_FONTS_DIR
    page, assets, font = load_files(source, shown, prices)

    @get("/", include_in_schema=False)
    async def playground(request: Request[Any, Any, Any]) -> Response[bytes]:
        return _answer(request, page, PAGE_CACHE, SECURITY_HEADERS)

    @get(f"{STATIC_PATH}/{{name:str}}", include_in_schema=False)
    async def static_asset(request: Request[Any, Any, Any], name: FromPath[str]) -> Response[bytes]:
        asset = assets.get(name)
        version = asset.version if asset is not None else font.version
        if asset is None and name == UI_FONT:
            asset = await font.file()
        if asset is None:
            raise NotFound("nothing is stored under this name")
        current = request.query_params.get("v") == version
        cache = ASSET_CACHE if current else UNVERSIONED_CACHE
        return _answer(request, asset, cache, {"X-Content-Type-Options": "nosniff"})

    return [playground, static_asset]
