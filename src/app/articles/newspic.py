"""An image post (小绿书, ``article_type`` newspic) drawn from Markdown: the cards, rendered
by the card service as for ``POST /api/generate``, each uploaded as a permanent image of the
account in card order (the first is the post's cover), then ``draft/add``.

The post's title is the request's, else the Markdown's first heading or first line; its text
the request's description, else the first whole sentences of the Markdown's paragraphs. Both
are cut to the platform's limits. More cards than the platform takes is refused after the
render (the count is known only then) and before any upload.
"""

from __future__ import annotations

import logging

import layout
from app.articles import html as article
from app.articles.draftbody import auto_digest
from app.articles.placing import Publisher, placed_message
from app.articles.service import UNTITLED, cut_title, plural
from app.articles.threads import ArticleThreads
from app.articles.wechat import NewspicArticle
from app.cards.service import CardService
from app.errors import InvalidField, RenderFailed
from app.models import ImageRecord
from app.publish import (
    NEWSPIC_IMAGE_LIMIT,
    NEWSPIC_TEXT_LIMIT,
    NewspicData,
    NewspicRequest,
    NewspicResponse,
)

log = logging.getLogger("inkcard.articles")

IMAGE_MATERIAL_LIMIT = 10 * 1024 * 1024  # the platform's permanent image limit
NEWSPIC_COST = 3  # like an article draft


def post_text(request: NewspicRequest) -> tuple[str, str]:
    """The post's title and plain text, each cut to the platform's limit."""
    heading, body = article.outline(request.markdown)
    title = cut_title(request.title) or cut_title(heading) or UNTITLED
    text = " ".join(request.description.split()) or auto_digest(body, heading, NEWSPIC_TEXT_LIMIT)
    if len(text) > NEWSPIC_TEXT_LIMIT:
        text = text[: NEWSPIC_TEXT_LIMIT - 1].rstrip() + "…"
    return title, text or title


def too_many_cards(count: int) -> InvalidField:
    return InvalidField(
        f"the Markdown makes {plural(count, 'card')}; an image post takes at most"
        f" {NEWSPIC_IMAGE_LIMIT}: shorten it, or use larger cards; nothing was uploaded or"
        " charged",
        label="too_many_cards",
    )


async def newspic_draft(
    cards: CardService,
    threads: ArticleThreads,
    publisher: Publisher,
    request: NewspicRequest,
    key: object,
    timeout: float,
) -> NewspicResponse:
    """Render the cards, upload them in order, create the draft; the caller bounds the call."""
    job = cards.prepare(request.cards())
    records = await cards.generate(job, timeout=timeout, key=key)
    if len(records) > NEWSPIC_IMAGE_LIMIT:
        raise too_many_cards(len(records))
    title, text = await threads.run(post_text, request, timeout=timeout, key=key)
    images = await threads.run(_card_images, cards, records, timeout=timeout, key=key)
    target = await publisher.target(request.draftMediaId, request.draftMissing)
    media_ids: list[str] = []
    for number, (data, extension) in enumerate(images, 1):
        media_id = await publisher.material(
            data, f"card-{number}.{extension}", step=f"card {number}"
        )
        media_ids.append(media_id)
    post = NewspicArticle(title, text, tuple(media_ids))
    placed = await publisher.place(target, post)
    cards_sent = plural(len(media_ids), "card")
    done = "updated" if placed.updated else "created"
    appid = publisher.creds.appid
    log.info("newspic draft %s for appid %s with %s", done, appid, cards_sent)
    return NewspicResponse(
        success=True,
        message=placed_message(placed, f"image post “{title}”", cards_sent),
        data=NewspicData(media_id=placed.media_id, images=records, cost=NEWSPIC_COST),
    )


def _card_images(cards: CardService, records: list[ImageRecord]) -> list[tuple[bytes, str]]:
    """The stored cards' bytes and file extensions: the PNG as drawn (sharp text), re-encoded
    only when it is over the platform's limit."""
    out: list[tuple[bytes, str]] = []
    for record in records:
        data = cards.storage.read(record.fileName)
        if data is None:
            raise RenderFailed("a card left the storage before its upload; try again")
        if len(data) > IMAGE_MATERIAL_LIMIT:
            fitted = layout.fit_image(data, IMAGE_MATERIAL_LIMIT)
            data, extension = fitted.data, fitted.extension
        else:
            extension = "png"
        out.append((data, extension))
    return out
