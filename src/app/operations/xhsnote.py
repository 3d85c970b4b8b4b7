"""An ``XhsNoteRequest`` of an authenticated key → a Xiaohongshu note: its cards (the
generate operation's, drawn by the card service from the same fields), a cover card (the
cover operation's designer, the note's title in the cards' theme and size), the note's text
(``app.articles.xhs``), the warnings of Xiaohongshu's limits and the text to paste; charged
once, ``Prices.xhs_note``, a generate call's price. A failed call charges nothing.
"""

from __future__ import annotations

import asyncio

import msgspec

from inkcard.app.articles.xhs.note import (
    NoteText,
    copy_text,
    cover_request,
    note_of,
    warnings_of,
)
from inkcard.app.cards.coverrequest import normalise_cover
from inkcard.app.cards.covers import draw_covers
from inkcard.app.errors import RenderTimeout
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.operations.generate import brand_kit, render_paid
from inkcard.app.render.refusals import parse_post
from inkcard.app.schema import (
    ImageRecord,
    XhsNoteRequest,
    XhsNoteResponse,
)
from inkcard.app.services import Services

OPERATION = "xhs-note"  # in the ledger and the metrics


def answer(
    text: NoteText, cover: ImageRecord, cards: list[ImageRecord], cost: int
) -> XhsNoteResponse:
    """The note's answer: its cards, cover, text, warnings (the cover among the images)."""
    note = text.note
    return XhsNoteResponse(
        success=True,
        images=cards,
        cover=cover,
        note=note,
        copy=copy_text(note),
        cost=cost,
        warnings=warnings_of(note, len(cards) + 1),
    )


async def create_xhs_note(
    services: Services,
    key: KeyInfo,
    body: XhsNoteRequest,
    request_id: str | None,
    gone: asyncio.Event | None = None,
) -> XhsNoteResponse:
    """The xhs-note operation (HTTP, MCP alike).

    Validate everything first (the card fields as generate does, the Markdown's parse, the
    cover's fields) so a bad request is a 400 with nothing held; then on the one paid path
    (``render_paid``: claim, limit, hold, run, commit, undo) draw the cards exactly as
    generate does, then the cover, within one time limit. A retry gets the first call's files.
    ``brand`` names the key's kit for both, as on generate and cover (an unknown one is a 400
    before anything is held).
    """
    cards = services.cards
    settings = services.settings
    kit = await brand_kit(services, key, body.brand)  # unknown: a 400 before any hold
    job = cards.prepare(body.cards(), kit)
    doc = await asyncio.to_thread(parse_post, body.markdown, body.mdxMode)
    text = await asyncio.to_thread(note_of, body, doc)
    spec = normalise_cover(cover_request(body, text), cards.catalogue.get)

    async def draw() -> list[ImageRecord]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + settings.timeout
        drawn = await cards.generate(job, timeout=settings.timeout, key=key.id)
        left = deadline - loop.time()
        if left <= 0:
            raise RenderTimeout("the request took longer than the time limit")
        covers = await draw_covers(cards, spec, timeout=left, key=key.id, brand=kit)
        return [*covers, *drawn]

    images, cost = await render_paid(
        services,
        key,
        OPERATION,
        settings.prices.xhs_note,
        # an edited kit is another request: a retry of the same body does not replay it
        msgspec.json.encode([body, kit.digest()] if kit else body),
        draw,
        request_id,
        gone,
    )
    return answer(text, images[0], images[1:], cost)
