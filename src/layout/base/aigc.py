"""An AI-content label asked for → its visible text and its implicit (metadata) form.

China's labelling rules (the CAC Measures and the mandatory standard GB 45438-2025, in force
since 2025-09-01) ask for two labels on AI-generated content: an explicit one people see
("内容由AI生成") and an implicit one in the file's metadata. The standard's metadata label is
one `AIGC` record of seven fields (its annex; TC260-PG-20258A spells the XMP form, the
`TC260:AIGC` property of the namespace `XMP_NAMESPACE` holding the record as JSON):

    Label              1: the content is AI-generated (2: may be, 3: suspected)
    ContentProducer    who generated it (a provider's name or code)
    ProduceID          the producer's ID of this content
    ReservedCode1      reserved (a producer's signature)
    ContentPropagator  who spreads it (a platform)
    PropagateID        the propagator's ID of it
    ReservedCode2      reserved

The engine writes the record as it is told (`Aigc`); draw/aigcmeta.py puts it into each file
format, pages/marks/aigclabel.py draws the visible label. docs/decisions/engine.md, "AI labels".
"""

from __future__ import annotations

import json

import msgspec

LABEL_AI_GENERATED = "1"
CJK_LABEL = "内容由AI生成"
LATIN_LABEL = "AI-generated"
XMP_NAMESPACE = "http://www.tc260.org.cn/ns/AIGC/1.0/"
FIELDS = (
    "Label",
    "ContentProducer",
    "ProduceID",
    "ReservedCode1",
    "ContentPropagator",
    "PropagateID",
    "ReservedCode2",
)
# Share of a post's letters that must be CJK for its label to be Chinese: a Chinese post
# quoting English terms is still Chinese; an English post with one 中文 word is not.
CJK_SHARE = 0.2


class Aigc(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """An AI-content label: `producer` and `produce_id` fill the standard's ContentProducer
    and ProduceID; `text` the visible label, empty to choose it by the post's script
    (`visible_text`)."""

    producer: str = ""
    produce_id: str = ""
    text: str = ""


def visible_text(aigc: Aigc, post_text: str) -> str:
    """The visible label: `aigc.text`, else "内容由AI生成" for a post mostly in CJK script
    (`CJK_SHARE` of its letters) and "AI-generated" for any other."""
    if aigc.text:
        return aigc.text
    letters = [c for c in post_text if c.isalpha()]
    cjk = sum(1 for c in letters if _is_cjk(c))
    return CJK_LABEL if letters and cjk >= CJK_SHARE * len(letters) else LATIN_LABEL


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return (
        0x3040 <= code <= 0x30FF  # kana
        or 0x3400 <= code <= 0x9FFF  # CJK ideographs, extension A
        or 0xAC00 <= code <= 0xD7AF  # hangul
        or 0xF900 <= code <= 0xFAFF
        or 0x20000 <= code <= 0x3FFFF
    )


def record(aigc: Aigc) -> dict[str, str]:
    """The standard's seven fields, in its order (the ones we have no value for empty)."""
    values = {"Label": LABEL_AI_GENERATED}
    values["ContentProducer"] = aigc.producer
    values["ProduceID"] = aigc.produce_id
    return {name: values.get(name, "") for name in FIELDS}


def record_json(aigc: Aigc) -> str:
    """The record as the compact JSON the standard's metadata field holds."""
    return json.dumps(record(aigc), ensure_ascii=False, separators=(",", ":"))


def _xml_attribute_text(text: str) -> str:
    """`text` with &, <, > and " escaped, as `xml.sax.saxutils.escape(text, {'"': "&quot;"})`
    writes it: that module imports urllib.request (and with it http.client, ssl and email),
    ~10 % of a cold `inkcard render`'s imports, for four replacements."""
    text = text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
    return text.replace('"', "&quot;")


def xmp_packet(aigc: Aigc) -> bytes:
    """An XMP packet with the record as `TC260:AIGC` (UTF-8), for JPEG, WebP and PNG."""
    value = _xml_attribute_text(record_json(aigc))
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/">'
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        f'<rdf:Description rdf:about="" xmlns:TC260="{XMP_NAMESPACE}">'
        f"<TC260:AIGC>{value}</TC260:AIGC>"
        "</rdf:Description></rdf:RDF></x:xmpmeta>"
        '<?xpacket end="r"?>'
    ).encode()
