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

from inkcard.app.articles.convert import html as article
from inkcard.app.articles.drafts.checks import Warnings, check_title, check_xiaohongshu, one_line
from inkcard.app.articles.drafts.draftbody import digest_of
from inkcard.app.articles.drafts.titles import UNTITLED, cut_title
from inkcard.app.articles.threads import ArticleThreads
from inkcard.app.articles.wechat import TITLE_LIMIT, NewspicArticle
from inkcard.app.articles.wechat.placing import Publisher, placed_message
from inkcard.app.cards.service import CardService
from inkcard.app.errors import InvalidField, RenderFailed, plural
from inkcard.app.schema import (
    NEWSPIC_IMAGE_LIMIT,
    NEWSPIC_TEXT_LIMIT,
    ImageRecord,
    NewspicData,
    NewspicPreview,
    NewspicPreviewResponse,
    NewspicRequest,
    NewspicResponse,
)
from inkcard.layout.draw import fit_image
from inkcard.layout.style import BrandKit

log = logging.getLogger("inkcard.articles")

IMAGE_MATERIAL_LIMIT = 10 * 1024 * 1024  # the platform's permanent image limit


def post_text(request: NewspicRequest, warnings: Warnings) -> tuple[str, str]:
    """The post's title and plain text, each cut to the platform's limit (noted in
    ``warnings``, with the Xiaohongshu limits of the uncut title and text)."""
    heading, body = article.outline(request.markdown)
    given = request.title if request.title.strip() else heading
    title = cut_title(given) or UNTITLED
    check_title(given, TITLE_LIMIT, warnings)
    text = one_line(request.description)
    if not text:
        digest = digest_of(body, heading, NEWSPIC_TEXT_LIMIT)
        text = digest.text
        if digest.cut:
            warnings.add(
                "digest_cut",
                f"the Markdown's first sentence is longer than the post's {NEWSPIC_TEXT_LIMIT:,}"
                " characters: it was cut; give a description to choose the text",
            )
    check_xiaohongshu(warnings, title=one_line(given) or title, text=text)
    if len(text) > NEWSPIC_TEXT_LIMIT:
        warnings.add(
            "description_cut",
            f"the description has {len(text):,} characters; it was cut to {NEWSPIC_TEXT_LIMIT:,}",
        )
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
    price: int,
    brand: BrandKit | None = None,
) -> NewspicResponse:
    """Render the cards (with ``brand``'s marks), upload them in order, create the draft
    (costing ``price``); the caller bounds the call."""
    warnings = Warnings()
    records, title, text, images = await _post(
        cards, threads, request, warnings, key, timeout, brand
    )
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
        data=NewspicData(media_id=placed.media_id, images=records, cost=price),
        warnings=warnings.items,
    )


async def newspic_dry_run(
    cards: CardService,
    threads: ArticleThreads,
    request: NewspicRequest,
    key: object,
    timeout: float,
    price: int,
    brand: BrandKit | None = None,
) -> NewspicPreviewResponse:
    """Everything ``newspic_draft`` does but the platform's calls: the cards drawn and stored
    (as generate's), the text and checks; what the draft would hold (costing ``price``)."""
    warnings = Warnings()
    records, title, text, _ = await _post(cards, threads, request, warnings, key, timeout, brand)
    return NewspicPreviewResponse(
        success=True,
        message=f"dry run: image post “{title}” checked ({plural(len(records), 'card')});"
        " nothing was sent to the platform",
        data=NewspicPreview(title=title, description=text, images=records, cost=price),
        warnings=warnings.items,
    )


async def _post(
    cards: CardService,
    threads: ArticleThreads,
    request: NewspicRequest,
    warnings: Warnings,
    key: object,
    timeout: float,
    brand: BrandKit | None,
) -> tuple[list[ImageRecord], str, str, list[tuple[bytes, str]]]:
    """The post's cards (records, and bytes as they would be uploaded), title and text."""
    job = cards.prepare(request.cards(), brand)
    records = await cards.generate(job, timeout=timeout, key=key)
    if len(records) > NEWSPIC_IMAGE_LIMIT:
        raise too_many_cards(len(records))
    title, text = await threads.run(post_text, request, warnings, timeout=timeout, key=key)
    check_xiaohongshu(warnings, images=len(records))
    images = await threads.run(_card_images, cards, records, timeout=timeout, key=key)
    return records, title, text, images


def _card_images(cards: CardService, records: list[ImageRecord]) -> list[tuple[bytes, str]]:
    """The stored cards' bytes and file extensions: the PNG as drawn (sharp text), re-encoded
    only when it is over the platform's limit."""
    out: list[tuple[bytes, str]] = []
    for record in records:
        data = cards.storage.read(record.fileName)
        if data is None:
            raise RenderFailed("a card left the storage before its upload; try again")
        if len(data) > IMAGE_MATERIAL_LIMIT:
            fitted = fit_image(data, IMAGE_MATERIAL_LIMIT)
            data, extension = fitted.data, fitted.extension
        else:
            extension = "png"
        out.append((data, extension))
    return out
