"""A ``CoverSpec`` → cover PNGs drawn in a render worker → stored files and their records.

Covers go through the cards' render pool (its admission, queue, per-key limit and time limit)
and storage. Their files are named by the spec's digest, ``covers/<digest>-<n>.png``, so the
same request stores the same names again; a failed store removes what it wrote.
"""

from __future__ import annotations

import asyncio
import logging

import msgspec

from inkcard import layout
from inkcard.app.cards.coverrequest import CoverSpec, without_chrome
from inkcard.app.cards.service import CardService
from inkcard.app.errors import RenderTimeout, StorageError
from inkcard.app.render.messages import CoverJob
from inkcard.app.schema import ImageRecord
from inkcard.app.storage import Storage
from inkcard.layout.style import BrandKit

log = logging.getLogger("inkcard.covers")

FOLDER = "covers"


async def draw_covers(
    cards: CardService,
    spec: CoverSpec,
    timeout: float,
    key: object = None,
    brand: BrandKit | None = None,
) -> list[ImageRecord]:
    """Render ``spec``'s covers in a worker and store them; one record per cover. ``brand``:
    the kit whose marks and fonts they carry (its digest joins the files' names).

    Raises:
        ApiError: Any documented failure (over a pixel limit, busy, out of time, storage);
            nothing is left in storage when it is raised.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    theme = cards.catalogue.get(spec.theme)  # known: the spec was normalised with it
    options = spec.options(cards.budget.output_pixels)
    if brand is not None:
        options = msgspec.structs.replace(options, brand=brand)
    job = CoverJob(
        title=spec.title,
        keywords=spec.keywords,
        theme=theme if spec.chrome else without_chrome(theme),
        options=options,
        count=spec.count,
        wechat=spec.wechat,
    )
    rendered = await cards.pool.run(job, timeout=deadline - loop.time(), key=key)
    fingerprint = cards.catalogue.fingerprint(spec.theme)
    digest = spec.digest(fingerprint, cards.fonts_fingerprint, brand.digest() if brand else "")
    names = [f"{FOLDER}/{digest}-{n}.png" for n in range(1, len(rendered.files) + 1)]
    try:
        store = asyncio.to_thread(_store, cards.storage, names, rendered.files)
        await asyncio.wait_for(store, deadline - loop.time())
    except TimeoutError:
        raise RenderTimeout("storing the covers took longer than the time limit") from None
    return [
        ImageRecord(url=cards.storage.url(name), fileName=name, altText=alt)
        for name, alt in zip(names, rendered.alt_texts, strict=True)
    ]


def _store(storage: Storage, names: list[str], files: list[bytes]) -> None:
    """Write every cover; on any failure remove what was written and raise."""
    written: list[str] = []
    try:
        for name, data in zip(names, files, strict=True):
            storage.put(name, data, layout.MEDIA_TYPES["png"])
            written.append(name)
    except BaseException:
        for name in written:
            try:
                storage.delete(name)
            except StorageError:
                log.warning("could not remove %s after a failed request", name)
        raise
