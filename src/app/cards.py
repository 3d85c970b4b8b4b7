"""Generate request → card PNGs (card engine) → stored files and their URLs.

A request is normalised into a ``CardJob``; its digest (with ``layout.ENGINE_VERSION`` and
fingerprints of the theme file and the fonts, and the hashes of the remote images fetched for
it by ``app.card_images``) names the files ``screenshots/<digest>-<n>.png``.
After every card, the manifest ``screenshots/<digest>.json`` (names and sizes) is written
atomically: a set is complete only when its manifest says so and every card it lists is there,
so a repeated request finds it and skips rendering, and a set with a card missing is rendered
again. Work is bounded before it starts: image and output pixel budgets (checked by the engine
from headers and sizes before decoding or drawing), at most ``renders_per_key`` renders in
flight per key (429), and a bounded thread pool that answers 503 at once instead of queueing
forever.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import msgspec

import layout
import themes
from app.card_images import RemoteImages
from app.errors import (
    CardTooLarge,
    ImageTooLarge,
    InvalidMdx,
    Overloaded,
    RateLimited,
    RenderFailed,
    RenderTimeout,
    StorageError,
    TooManyPages,
    TooManyPixels,
)
from app.models import ARTICLE_THEMES, GenerateRequest, ImageRecord, invalid
from app.storage import Storage, StorageProbe

log = logging.getLogger("inkcard.cards")

MAX_CARD_PIXELS = 1600 * 4000 * 4 * 4  # the largest fixed-size card the field limits allow
FOLDER = "screenshots"
RETRY_AFTER_SECONDS = 5
KEY_RETRY_AFTER_SECONDS = 2  # a typical render takes well under a second
LOSSY = ("jpeg", "webp")  # the formats `quality` applies to
T = TypeVar("T")


class CardJob(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A generate request after defaults, validation and normalisation: what the cards depend on.

    ``images`` (source, sha256 of its bytes) names the remote images fetched for it; left
    out of the digest when there are none, so cards without remote images keep their names.
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
    theme_data: str  # fingerprint of the theme file's bytes, read at start-up
    fonts: str  # fingerprint of the loaded font files and fallback chains
    images: tuple[tuple[str, str], ...] = ()
    # Output format (issue 16); the defaults are left out of the digest, so PNG names stay.
    format: layout.OutputFormat = "png"
    quality: int = layout.DEFAULT_QUALITY  # the default unless jpeg/webp, so it splits no PNG

    def digest(self) -> str:
        """32 hex characters naming this job's files; changes with the engine version, the
        theme file and the fonts, so an edited theme or a swapped font never serves old cards."""
        h = hashlib.sha256(f"inkcard-cards\n{layout.ENGINE_VERSION}\n".encode())
        h.update(msgspec.json.encode(self))
        return h.hexdigest()[:32]

    def prefix(self) -> str:
        """What every storage name of this job starts with."""
        return f"{FOLDER}/{self.digest()}-"

    def file_names(self, numbers: Iterable[int]) -> list[str]:
        """Storage names of the given card numbers (1-based)."""
        prefix = self.prefix()
        extension = layout.EXTENSIONS[self.format]
        return [f"{prefix}{n}.{extension}" for n in numbers]

    def manifest_name(self) -> str:
        """Storage name of the manifest that marks this job's set complete."""
        return f"{FOLDER}/{self.digest()}.json"


class StoredCard(msgspec.Struct, frozen=True):
    name: str
    size: int
    alt: str | None = None  # None: a set stored before alt text, rendered again


class Manifest(msgspec.Struct, frozen=True):
    """Written after every card of a set: which cards make it complete, and their sizes."""

    cards: list[StoredCard]


class Budget(msgspec.Struct, frozen=True, kw_only=True):
    """Pixel limits of one generate call (``INKCARD_MAX_*_PIXELS``)."""

    output_pixels: int
    image_pixels: int


class RenderPool:
    """At most ``threads`` renders at once and ``queue`` waiting; more is refused with 503.

    One key may hold at most ``per_key`` of those slots (429 above), so it cannot take them
    all. A slot is freed when its render really ends, not when its request gives up.
    """

    def __init__(self, threads: int, queue: int, per_key: int | None = None):
        self._executor = ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="inkcard-render"
        )
        self._slots = threading.BoundedSemaphore(threads + queue)
        self._per_key = per_key
        self._in_flight: dict[object, int] = {}
        self._lock = threading.Lock()

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float, key: object = None) -> T:
        """Run ``fn(*args)`` in a pool thread and await it for at most ``timeout`` seconds.

        Raises:
            RateLimited: ``key`` already has ``per_key`` renders in flight.
            Overloaded: Every slot is taken.
            RenderTimeout: The call did not finish in time (its thread finishes on its own).
        """
        self._take_key_slot(key)
        if not self._slots.acquire(blocking=False):
            self._free_key_slot(key)
            raise Overloaded(
                "the server is busy rendering other cards; retry shortly",
                headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
            )

        def free(_: object = None) -> None:
            self._slots.release()
            self._free_key_slot(key)

        try:
            future = self._executor.submit(contextvars.copy_context().run, fn, *args)
        except BaseException:
            free()
            raise
        future.add_done_callback(free)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except TimeoutError:
            raise RenderTimeout("rendering took longer than the time limit") from None

    def _take_key_slot(self, key: object) -> None:
        if key is None or self._per_key is None:
            return
        with self._lock:
            count = self._in_flight.get(key, 0)
            if count >= self._per_key:
                raise RateLimited(
                    f"this API key already has {count} renders in flight, the most one key may"
                    f" have at once; wait for one to finish, then retry",
                    headers={"Retry-After": str(KEY_RETRY_AFTER_SECONDS)},
                )
            self._in_flight[key] = count + 1

    def _free_key_slot(self, key: object) -> None:
        if key is None or self._per_key is None:
            return
        with self._lock:
            count = self._in_flight.pop(key) - 1
            if count:
                self._in_flight[key] = count

    def shutdown(self) -> None:
        """Stop accepting work; running renders finish in the background."""
        self._executor.shutdown(wait=False, cancel_futures=True)


class CardService:
    """Turns generate requests into stored cards. ``render_count`` counts engine calls."""

    def __init__(
        self,
        storage: Storage,
        pool: RenderPool,
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
        self.render_count = 0
        self._count_lock = threading.Lock()

    def load_fonts(self) -> None:
        """Load the FontBook (about 100 ms) and hash its files; called once at startup."""
        fonts = layout.FontBook.load(self.fonts_dir)
        self.fonts_fingerprint = fonts.fingerprint()
        self.fonts = fonts

    # Validation and normalisation

    def _theme(self, name: str) -> Any:
        try:
            return self.catalogue.get(name)
        except themes.UnknownTheme:
            raise invalid("theme", "one of " + ", ".join(self.catalogue.names())) from None

    def prepare(self, request: GenerateRequest) -> CardJob:
        """Apply defaults that depend on the theme and normalise the request.

        Raises:
            InvalidField: Unknown theme or theme mode.
        """
        modes = list(self._theme(request.theme).modes)
        mode = None
        if modes:
            mode = request.themeMode if request.themeMode is not None else modes[0]
            if mode not in modes:
                raise invalid("themeMode", f"one of {', '.join(modes)} for theme {request.theme}")
        split = request.splitMode
        return CardJob(
            markdown=request.markdown,
            theme=request.theme,
            mode=mode,
            width=round(request.width),
            height=round(request.height),
            split=split,
            mdx=request.mdxMode,
            overflow_hidden=layout.hides_overflow(split, request.overHiddenMode),
            scale=request.scale,
            theme_data=self.catalogue.fingerprint(request.theme),
            fonts=self.fonts_fingerprint,
            format=request.format,
            quality=request.quality if request.format in LOSSY else layout.DEFAULT_QUALITY,
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
        if any(card.alt is None for card in manifest.cards):
            return None
        stored = self.storage.sizes(job.prefix())
        if any(stored.get(card.name) != card.size for card in manifest.cards):
            log.warning("stored set %s is incomplete; rendering again", job.manifest_name())
            return None
        return manifest.cards

    def render(self, job: CardJob, images: Mapping[str, bytes] | None = None) -> layout.Rendered:
        """Call the card engine for ``job`` with the fetched ``images`` (one ``render_count``):
        its files in ``job.format`` and their alt texts.

        The engine reads image sizes from their headers before decoding any, and checks the
        cards against the pixel budgets after layout and before any pixel is drawn, so an
        oversized request is refused cheaply.

        Raises:
            TooManyPages: More than ``layout.MAX_CARDS`` cards would result.
            CardTooLarge: A card would exceed ``MAX_CARD_PIXELS``.
            TooManyPixels: The cards together would exceed ``budget.output_pixels``.
            ImageTooLarge: The distinct images would decode to more than ``budget.image_pixels``.
            RenderFailed: The engine failed.
        """
        with self._count_lock:
            self.render_count += 1
        options = layout.RenderOptions(
            width=job.width,
            height=job.height,
            scale=job.scale,
            split=job.split,
            overflow_hidden=job.overflow_hidden,
            mode=job.mode,
            mdx=job.mdx,
            max_pages=layout.MAX_CARDS,
            max_pixels=MAX_CARD_PIXELS,
            max_total_pixels=self.budget.output_pixels,
            max_image_pixels=self.budget.image_pixels,
            format=job.format,
            quality=job.quality,
        )
        theme = self._theme(job.theme)
        try:
            return layout.render_cards(job.markdown, theme, self.fonts, options, images or {})
        except layout.CardTooLarge as error:
            raise CardTooLarge(
                f"a card would be {error.width}x{error.height} pixels, more than the "
                f"{MAX_CARD_PIXELS:,}-pixel limit of one card; use splitMode autoSplit, "
                "overHiddenMode, a smaller scale or a wider card"
            ) from None
        except layout.TooManyPixels as error:
            raise TooManyPixels(
                f"the cards would have at least {error.pixels:,} pixels in all (width x height"
                f" x scale², summed over the cards), more than the {error.limit:,}-pixel limit"
                " of one request; use a smaller scale, smaller cards or fewer cards"
            ) from None
        except layout.ImagesTooLarge as error:
            raise ImageTooLarge(
                f"the images would decode to at least {error.pixels:,} pixels (width x height,"
                f" each distinct image counted once), more than the {error.limit:,}-pixel limit"
                " of one request; use fewer or smaller images"
            ) from None
        except layout.MdxError as error:
            raise InvalidMdx(f"mdxMode: {error}") from None
        except layout.TooManyPages:
            raise TooManyPages(
                f"the Markdown makes more than {layout.MAX_CARDS} cards;"
                " split it into several requests"
            ) from None
        except Exception:
            log.exception("card engine failed")
            raise RenderFailed("the card engine could not render this Markdown") from None

    def store(
        self, job: CardJob, rendered: layout.Rendered, cancelled: threading.Event
    ) -> list[StoredCard]:
        """Write every card, then the manifest; on any failure remove what was written and raise.

        The manifest goes last and atomically, so no reader ever sees a complete set that is not.
        """
        files = rendered.files
        names = job.file_names(range(1, len(files) + 1))
        stored = [
            StoredCard(name, len(data), alt)
            for name, data, alt in zip(names, files, rendered.alt_texts, strict=True)
        ]
        written: list[str] = []
        try:
            for name, data in zip(names, files, strict=True):
                if cancelled.is_set():
                    raise RenderTimeout("storing the cards took longer than the time limit")
                self.storage.put(name, data, layout.MEDIA_TYPES[job.format])
                written.append(name)
            if cancelled.is_set():
                raise RenderTimeout("storing the cards took longer than the time limit")
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
        images: dict[str, bytes] = {}
        if self.remote is not None:
            gathered = await self.remote.gather(
                layout.image_sources(job.markdown),
                max_pixels=self.budget.image_pixels,
                timeout=min(self.remote.timeout, deadline - loop.time()),
            )
            images = gathered.images
            job = msgspec.structs.replace(job, images=gathered.hashes())
        stored = await self._in_thread(self.find_stored, job, timeout=deadline - loop.time())
        if stored is None:
            rendered = await self.pool.run(
                self.render, job, images, timeout=deadline - loop.time(), key=key
            )
            cancelled = threading.Event()
            try:
                stored = await self._in_thread(
                    self.store, job, rendered, cancelled, timeout=deadline - loop.time()
                )
            except RenderTimeout:
                cancelled.set()
                raise
        return [
            ImageRecord(url=self.storage.url(card.name), fileName=card.name, altText=card.alt or "")
            for card in stored
        ]

    @staticmethod
    async def _in_thread(fn: Callable[..., T], *args: Any, timeout: float) -> T:
        try:
            return await asyncio.wait_for(asyncio.to_thread(fn, *args), timeout)
        except TimeoutError:
            raise RenderTimeout("the request took longer than the time limit") from None


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
    return {"cards": cards, "articles": [n for n in ARTICLE_THEMES if n in installed]}
