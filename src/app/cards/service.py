"""Generate request → card PNGs (card engine) → stored files and their URLs.

A request is normalised (``app.cards.request``) into the ``card`` of a ``CardJob``; its digest
(with ``layout.ENGINE_VERSION`` and fingerprints of the theme file and the fonts, and the
hashes of the remote images fetched for it by ``app.cards.images``) names the files
``screenshots/<digest>-<n>.png``.
After every card, the manifest ``screenshots/<digest>.json`` (names and sizes) is written
atomically: a set is complete only when its manifest says so and every card it lists is there,
so a repeated request finds it and skips rendering, and a set with a card missing is rendered
again. Work is bounded before it starts: image and output pixel budgets (checked by the engine
from headers and sizes before decoding or drawing), at most ``renders_per_key`` renders in
flight per key (429), and a bounded queue in front of the render processes
(``app.render``) that answers 503 at once instead of queueing forever. Concurrent
requests for one digest render once.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any, TypeVar

import msgspec

from inkcard import layout, themes
from inkcard.app.cards.images import RemoteImages
from inkcard.app.cards.request import CardRequest, normalise
from inkcard.app.errors import (
    RenderTimeout,
    StorageError,
)
from inkcard.app.render.messages import RenderJob
from inkcard.app.render.pool import ProcessRenderPool
from inkcard.app.render.refusals import parse_post
from inkcard.app.render.singleflight import SingleFlight
from inkcard.app.schema import (
    ARTICLE_THEMES,
    CODE_THEMES,
    CardQuality,
    GenerateRequest,
    ImageRecord,
    card_quality,
)
from inkcard.app.storage import Storage, StorageProbe
from inkcard.layout.parse import may_name_images
from inkcard.layout.style import BrandKit

log = logging.getLogger("inkcard.cards")

FOLDER = "screenshots"
PARSE_THREADS = 1
"""A second parse thread doubled the event loop's longest wait (the threads and the loop take
turns on the interpreter lock) and parses no faster: they share that lock."""
HASH_ON_LOOP_BYTES = 256 * 1024
"""Fetched images up to this many bytes in all are hashed on the event loop (well under a
millisecond); more are hashed in a thread (hashlib lets go of the interpreter lock)."""
T = TypeVar("T")


class CardJob(msgspec.Struct, frozen=True, kw_only=True):
    """A normalised card request with what else its cards depend on: the fingerprints of the
    theme file and the fonts, and the remote images fetched for it.

    ``images`` (source, sha256 of its bytes) is left out of the digest when there are none,
    so cards without remote images keep their names; so is ``brand`` (the kit a request
    names, ``app.brands``), whose content digest joins it when there is one.
    """

    card: CardRequest
    theme_data: str  # fingerprint of the theme file's bytes, read at start-up
    fonts: str  # fingerprint of the loaded font files and fallback chains
    images: tuple[tuple[str, str], ...] = ()
    brand: BrandKit | None = None

    def key(self) -> dict[str, Any]:
        """What the digest hashes: the request's fields (defaults left out), with the
        fingerprints and images after ``scale`` and before ``format``. This order is the
        one stored cards were first named by, so it must not change."""
        fields = msgspec.to_builtins(self.card)
        tail = {name: fields.pop(name) for name in ("format", "quality") if name in fields}
        extra: dict[str, Any] = {"theme_data": self.theme_data, "fonts": self.fonts}
        if self.images:
            extra["images"] = self.images
        if self.brand is not None:
            extra["brand"] = self.brand.digest()
        return {**fields, **extra, **tail}

    def digest(self) -> str:
        """32 hex characters naming this job's files; changes with the engine version, the
        theme file and the fonts, so an edited theme or a swapped font never serves old cards."""
        h = hashlib.sha256(f"inkcard-cards\n{layout.ENGINE_VERSION}\n".encode())
        h.update(msgspec.json.encode(self.key()))
        return h.hexdigest()[:32]

    def prefix(self) -> str:
        """What every storage name of this job starts with."""
        return f"{FOLDER}/{self.digest()}-"

    def file_names(self, numbers: Iterable[int]) -> list[str]:
        """Storage names of the given card numbers (1-based)."""
        prefix = self.prefix()
        extension = layout.EXTENSIONS[self.card.format]
        return [f"{prefix}{n}.{extension}" for n in numbers]

    def manifest_name(self) -> str:
        """Storage name of the manifest that marks this job's set complete."""
        return f"{FOLDER}/{self.digest()}.json"


class StoredCard(msgspec.Struct, frozen=True):
    name: str
    size: int
    alt: str | None = None  # None: a set stored before alt text, rendered again
    quality: CardQuality | None = None  # None: a set stored before the report, drawn again


class Manifest(msgspec.Struct, frozen=True):
    """Written after every card of a set: which cards make it complete, and their sizes."""

    cards: list[StoredCard]


class Budget(msgspec.Struct, frozen=True, kw_only=True):
    """Pixel limits of one generate call (``INKCARD_MAX_*_PIXELS``)."""

    output_pixels: int
    image_pixels: int


class CardService:
    """Turns generate requests into stored cards, rendered in worker processes.

    Concurrent requests for the same cards (one digest) share one find-or-render-and-store.
    """

    def __init__(
        self,
        storage: Storage,
        pool: ProcessRenderPool,
        budget: Budget,
        fonts_dir: str = "",
        catalogue: themes.Catalogue | None = None,
        remote: RemoteImages | None = None,
    ):
        self.storage = storage
        self.remote = remote  # None: remote images are placeholders, nothing is fetched
        self.storage_probe = StorageProbe(storage, FOLDER)
        self.pool = pool
        self.budget = budget
        self.fonts_dir = Path(fonts_dir) if fonts_dir else Path(layout.DEFAULT_FONTS_DIR)
        self.fonts: Any = None
        self.fonts_fingerprint = ""
        self.catalogue = catalogue or themes.builtin()
        self._flights: SingleFlight[list[StoredCard]] = SingleFlight()
        # Its own few threads: long parses wait for each other, never for (or in front of)
        # the database and storage calls of other requests in the default executor.
        self._parsers = ThreadPoolExecutor(PARSE_THREADS, thread_name_prefix="inkcard-parse")

    @property
    def render_count(self) -> int:
        """Renders the worker processes have answered (refusals by the engine included)."""
        return self.pool.renders

    def load_fonts(self) -> None:
        """Load the FontBook (about 100 ms) and hash its files; called once at startup."""
        fonts = layout.FontBook.load(self.fonts_dir)
        self.fonts_fingerprint = fonts.fingerprint()
        self.fonts = fonts

    def prepare(self, request: GenerateRequest, brand: BrandKit | None = None) -> CardJob:
        """The normalised request (``app.cards.request.normalise``) with the fingerprints of
        its theme file and the fonts, and the brand kit it names (looked up by the caller).

        Raises:
            InvalidField: Unknown theme or theme mode.
        """
        card = normalise(request, self.catalogue.get)
        return CardJob(
            card=card,
            theme_data=self.catalogue.fingerprint(card.theme),
            fonts=self.fonts_fingerprint,
            brand=brand,
        )

    # Blocking steps (run in threads)

    def find_stored(self, job: CardJob) -> list[StoredCard] | None:
        """A complete stored set for ``job``, in card order, or None.

        Complete means: the manifest is there, names the job's cards 1..N with their alt
        texts, and every one of them is stored with the size it lists.
        """
        raw = self.storage.read(job.manifest_name())
        if raw is None:
            return None
        try:
            manifest = msgspec.json.decode(raw, type=Manifest)
        except msgspec.DecodeError:
            log.warning("unreadable manifest %s; rendering again", job.manifest_name())
            return None
        names = job.file_names(range(1, len(manifest.cards) + 1))
        if not names or [card.name for card in manifest.cards] != names:
            return None
        if any(card.alt is None or card.quality is None for card in manifest.cards):
            return None  # stored before alt text or the quality report: drawn again
        stored = self.storage.sizes(job.prefix())
        if any(stored.get(card.name) != card.size for card in manifest.cards):
            log.warning("stored set %s is incomplete; rendering again", job.manifest_name())
            return None
        return manifest.cards

    def render_job(
        self,
        job: CardJob,
        doc: layout.Doc | None = None,
        images: Mapping[str, bytes] | None = None,
    ) -> RenderJob:
        """What a render worker needs for ``job``: plain data, the decoded theme included.

        The engine reads image sizes from their headers before decoding any, and checks the
        cards against the pixel budgets after layout and before any pixel is drawn, so an
        oversized request is refused cheaply (in the worker, as the documented 400s).
        """
        card = job.card
        options = card.render_options(self.budget.output_pixels, self.budget.image_pixels)
        theme = self.catalogue.get(card.theme)  # known: ``prepare`` checked it
        if job.brand is not None:
            options = msgspec.structs.replace(options, brand=job.brand)
        return RenderJob(
            markdown=card.markdown,
            doc=doc,
            theme=theme,
            options=options,
            images=dict(images or {}),
        )

    def store(
        self, job: CardJob, rendered: layout.Rendered, cancelled: threading.Event
    ) -> list[StoredCard]:
        """Write every card, then the manifest; on any failure remove what was written and raise.

        The manifest goes last and atomically, so no reader ever sees a complete set that is not.
        """
        files = rendered.files
        names = job.file_names(range(1, len(files) + 1))
        qualities = rendered.qualities or [None] * len(files)
        stored = [
            StoredCard(name, len(data), alt, card_quality(quality))
            for name, data, alt, quality in zip(
                names, files, rendered.alt_texts, qualities, strict=True
            )
        ]
        written: list[str] = []
        try:
            for name, data in zip(names, files, strict=True):
                _stop_if(cancelled)
                self.storage.put(name, data, layout.MEDIA_TYPES[job.card.format])
                written.append(name)
            _stop_if(cancelled)
            manifest = msgspec.json.encode(Manifest(stored))
            self.storage.put(job.manifest_name(), manifest, "application/json")
        except BaseException:
            for name in written:
                try:
                    self.storage.delete(name)
                except StorageError:
                    log.warning("could not remove %s after a failed request", name)
            raise
        return stored

    # The whole call

    async def generate(self, job: CardJob, timeout: float, key: object = None) -> list[ImageRecord]:
        """Fetch the job's remote images, then find its stored cards or render and store
        them; one record per card. The fetched bytes' hashes join the job's digest, so a
        changed image is a new set of cards; an image that cannot be had is a placeholder.

        ``key`` (the API key's id) is held to ``renders_per_key`` renders in flight.

        Raises:
            ApiError: Any documented failure; nothing is left in storage when it is raised.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        # Parsed at most once: the image sources come from the parse and the worker lays out
        # the same Doc (a pickled Doc costs the worker a tenth of a parse). A post that cannot
        # name an image is parsed only when its cards must be drawn, by the render worker.
        doc = None
        if may_name_images(job.card.markdown):
            doc = await self._parse(job.card, deadline - loop.time())
        images: dict[str, bytes] = {}
        if self.remote is not None:
            gathered = await self.remote.gather(
                doc.images if doc is not None else (),
                max_pixels=self.budget.image_pixels,
                timeout=min(self.remote.timeout, deadline - loop.time()),
                key=key,
            )
            images = gathered.images
            hashes = (
                await self._in_thread(gathered.hashes, timeout=deadline - loop.time())
                if sum(map(len, images.values())) > HASH_ON_LOOP_BYTES
                else gathered.hashes()
            )
            job = msgspec.structs.replace(job, images=hashes)
        stored = await self._flights.run(
            job.digest(), lambda: self._find_or_render(job, doc, images, deadline, key)
        )
        return [
            ImageRecord(self.storage.url(card.name), card.name, card.alt or "", card.quality)
            for card in stored
        ]

    async def _find_or_render(
        self,
        job: CardJob,
        doc: layout.Doc | None,
        images: Mapping[str, bytes],
        deadline: float,
        key: object,
    ) -> list[StoredCard]:
        """The stored set's cards, rendering and storing it first if it is not complete
        (``doc``: the parse of the job's Markdown, if ``generate`` needed one; else the
        worker parses it)."""
        loop = asyncio.get_running_loop()
        stored = await self._in_thread(self.find_stored, job, timeout=deadline - loop.time())
        if stored is not None:
            return stored
        rendered = await self.pool.run(
            self.render_job(job, doc, images), timeout=deadline - loop.time(), key=key
        )
        cancelled = threading.Event()
        try:
            return await self._in_thread(
                self.store, job, rendered, cancelled, timeout=deadline - loop.time()
            )
        except RenderTimeout:
            cancelled.set()
            raise

    async def _parse(self, card: CardRequest, timeout: float) -> layout.Doc:
        """``parse_post`` of the card's Markdown in a parse thread, however short: no
        Markdown is parsed on the event loop (CONTRIBUTING.md, "Patterns"), so none holds
        the loop (and every other request) while it is read.

        Raises:
            InvalidMdx: With mdxMode, text the component set refuses.
            RenderTimeout: The parse did not end within ``timeout``.
        """
        future = asyncio.get_running_loop().run_in_executor(
            self._parsers, parse_post, card.markdown, card.mdx
        )
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise RenderTimeout("the request took longer than the time limit") from None

    @staticmethod
    async def _in_thread(fn: Callable[..., T], *args: Any, timeout: float) -> T:
        try:
            return await asyncio.wait_for(asyncio.to_thread(fn, *args), timeout)
        except TimeoutError:
            raise RenderTimeout("the request took longer than the time limit") from None


def _stop_if(cancelled: threading.Event) -> None:
    """Stop storing once the request has run out of time (its caller no longer waits)."""
    if cancelled.is_set():
        raise RenderTimeout("storing the cards took longer than the time limit")


class CardTheme(msgspec.Struct, frozen=True):
    """A card theme: its modes (the first is the default) and a preview of each."""

    id: Annotated[str, msgspec.Meta(description="The theme's ID, what theme takes.")]
    label: Annotated[str, msgspec.Meta(description="The theme's display name; theme takes it too.")]
    description: Annotated[str, msgspec.Meta(description="The theme's look in one line.")]
    modes: Annotated[
        list[str],
        msgspec.Meta(description="The theme's modes (themeMode); the first is the default."),
    ]
    preview: Annotated[
        str,
        msgspec.Meta(description="Path on this service of the sample card in the default mode."),
    ]
    previews: Annotated[
        dict[str, str],
        msgspec.Meta(
            description="Each mode's sample card path, by mode (empty for a theme without modes)."
        ),
    ]


class ThemesResponse(msgspec.Struct, frozen=True):
    """Body of ``GET /api/themes``."""

    cards: Annotated[list[CardTheme], msgspec.Meta(description="The card themes.")]
    articles: Annotated[
        list[str],
        msgspec.Meta(
            description="The article themes of convert-and-draft; the first is the default."
        ),
    ]
    codeThemes: Annotated[  # noqa: N815  # the JSON field name
        list[str],
        msgspec.Meta(
            description="The code themes of convert-and-draft's codeTheme (highlight colours"
            " of the code blocks; none: the article theme's own)."
        ),
    ] = []


def themes_listing(
    catalogue: themes.Catalogue, preview_url: Callable[[str, str | None], str]
) -> dict[str, Any]:
    """Card themes with label, description, modes and the URL of each mode's preview
    (``preview_url(theme, mode)``); the installed article themes, the default (brandA) first."""
    installed = set(themes.article_names())
    cards = []
    for name in catalogue.names():
        theme, modes = catalogue.get(name), catalogue.modes(name)
        cards.append(
            {
                "id": name,
                "label": theme.label,
                "description": theme.description,
                "modes": modes,
                "preview": preview_url(name, modes[0] if modes else None),
                "previews": {mode: preview_url(name, mode) for mode in modes},
            }
        )
    return {
        "cards": cards,
        "articles": [n for n in ARTICLE_THEMES if n in installed],
        "codeThemes": list(CODE_THEMES),
    }
