"""The ``aigc`` field every operation takes → the engine's AI-content label (``layout.draw.Aigc``).

``true`` asks for the labels China's rules (GB 45438-2025) ask of AI-generated content: the
visible one on every card (and a line in an article) and the implicit one in each file's
metadata; ``{"producer": …, "id": …}`` asks the same and fills the standard's
ContentProducer and ProduceID. Off by default. A field of the object we do not know is a
400, as every unknown field is. docs/aigc.md says what each output gets.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from inkcard.layout.draw import Aigc as EngineLabel

MAX_CHARS = 200  # a provider's name or code, or a content ID: short strings in the standard


class AigcLabel(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Who generated the content, for the implicit label."""

    producer: Annotated[
        str,
        msgspec.Meta(
            max_length=MAX_CHARS,
            description="The standard's ContentProducer: who generated the content (a"
            " provider's name or its code).",
        ),
    ] = ""
    id: Annotated[
        str,
        msgspec.Meta(
            max_length=MAX_CHARS,
            description="The standard's ProduceID: the producer's ID of this content.",
        ),
    ] = ""


Aigc = Annotated[
    bool | AigcLabel,
    msgspec.Meta(
        description="true (or {producer, id}): label the output as AI-generated (GB"
        " 45438-2025): a visible 内容由AI生成 / AI-generated in every card's footer (an"
        " article: a line at its end) and the standard's AIGC record in each file's metadata"
        " (PNG iTXt, JPEG/WebP XMP, PDF info and XMP); docs/aigc.md. false (the default): none."
    ),
]
ACCEPTED = (
    f"true, false or an object with producer and id (strings of at most {MAX_CHARS} characters)"
)


def engine_label(value: bool | AigcLabel) -> EngineLabel | None:
    """The engine's label for the field as sent (None: no label)."""
    if value is False:
        return None
    if value is True:
        return EngineLabel()
    return EngineLabel(producer=value.producer, produce_id=value.id)
