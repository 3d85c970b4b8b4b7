"""A draft's ``draft/add`` fields as a record, and a dry run's answer: what the draft would
hold, for ``dryRun`` (``ArticleService.dry_run``), which calls no platform."""

from __future__ import annotations

import base64

from inkcard.app.articles.drafts.checks import Warnings
from inkcard.app.articles.drafts.draftbody import Digest
from inkcard.app.articles.wechat import DraftArticle
from inkcard.app.fetch import describe
from inkcard.app.schema import ArticleRequest, DraftImage, DraftPreview, DraftPreviewResponse
from inkcard.layout.covers import CoverCrops

GENERATED_COVER = "generated"  # a dry run's cover source when the cover is drawn


def draft_article(
    request: ArticleRequest,
    title: str,
    content: str,
    digest: Digest,
    thumb: str,
    crops: CoverCrops,
) -> DraftArticle:
    """The draft's article: the request's fields, ``digest`` where it gives none, the
    cover's centred crops."""
    return DraftArticle(
        title=title,
        content=content,
        thumb_media_id=thumb,
        author=request.author,
        digest=request.digest or digest.text,
        content_source_url=request.content_source_url,
        # followers-only comments are open comments, limited
        need_open_comment=request.needOpenComment or request.onlyFansCanComment,
        only_fans_can_comment=request.onlyFansCanComment,
        pic_crop_235_1=crops.crop_235_1,
        pic_crop_1_1=crops.crop_1_1,
    )


def cover_data_uri(cover_source: str, cover: bytes) -> str:
    """A drawn cover (no ``cover_source``) as a ``data:`` URI, so a dry run shows the very
    PNG a draft would upload; empty for a cover that is an image the answer names."""
    if cover_source:
        return ""
    return "data:image/png;base64," + base64.b64encode(cover).decode("ascii")


def preview(
    draft: DraftArticle,
    cover_source: str,
    cover: bytes,
    word_count: int,
    images: list[DraftImage],
    warnings: Warnings,
    cost: int,
) -> DraftPreviewResponse:
    """A dry run's answer: the draft's fields as ``draft/add`` would get them (the content
    with the images' own sources), the cover's source (a drawn one as a ``data:`` URI too),
    each image's outcome, the warnings."""
    wire = draft.to_wire()
    return DraftPreviewResponse(
        success=True,
        message=f"dry run: draft “{draft.title}” checked; nothing was sent to the platform",
        data=DraftPreview(
            title=draft.title,
            author=draft.author,
            digest=draft.digest,
            content=draft.content,
            content_source_url=draft.content_source_url,
            cover=describe(cover_source) if cover_source else GENERATED_COVER,
            coverImage=cover_data_uri(cover_source, cover),
            pic_crop_235_1=draft.pic_crop_235_1,
            pic_crop_1_1=draft.pic_crop_1_1,
            need_open_comment=wire["need_open_comment"],
            only_fans_can_comment=wire["only_fans_can_comment"],
            images=images,
            wordCount=word_count,
            cost=cost,
        ),
        warnings=warnings.items,
    )
