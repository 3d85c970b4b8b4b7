"""Request bytes → the fields a JSON body sends, each checked against a request struct.

The machinery every request parser shares (``app.schema.generate``, ``app.schema.article``,
``app.schema.publish``, ``app.schema.cover``): the body decoded as one UTF-8 JSON object (an
empty body is ``{}``), a field the operation does not read refused (400 ``unknown_field``,
naming the field it probably meant: a field we do not know is an error, not a default),
``null`` fields dropped (null means "the default"), the Markdown's front matter taken off and
filling the fields the request left out, each field converted so the first bad one is named
with what it accepts, and a Markdown with nothing in it refused (400 ``empty_markdown``).
Every check runs while the body is parsed, before any credit is held. The Markdown's bound
(``MAX_MARKDOWN_CHARS``, the ``Markdown`` field type) is here too: every body has one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, TypeVar

import msgspec

from inkcard.app import frontmatter
from inkcard.app.errors import (
    EmptyMarkdown,
    InvalidField,
    InvalidJson,
    PayloadTooLarge,
    UnknownField,
)

# A character ``str.strip`` keeps, spelt out: ``\S`` means other things in the document's
# regex dialect (ECMA-262 counts U+FEFF as a space and U+001C..U+001F as not), so a body the
# document calls valid would be refused here, or the reverse.
NOT_BLANK = r"[^\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
MAX_MARKDOWN_CHARS = 100_000
Markdown = Annotated[str, msgspec.Meta(max_length=MAX_MARKDOWN_CHARS)]
MARKDOWN_LIMIT = f"at most {MAX_MARKDOWN_CHARS:,} characters (longer: 413 payload_too_large)"
"""The Markdown bound, in the words of each request's ``markdown`` description."""
# Names other APIs and the front matter give our fields: an unknown one of them is answered
# with our name ("did you mean `markdown`?"), which no spelling rule would find; a name whose
# field the operation has not (a cover's `markdown`: its `text`) falls back to spelling.
SYNONYMS = {
    **{key: field for field, keys in frontmatter.ALIASES.items() for key in keys},
    "content": "markdown",
    "text": "markdown",
    "body": "markdown",
    "md": "markdown",
    "markdown": "text",  # the cover's title
}


def field_label(field: str) -> str:
    """The error label for a bad value of ``field``: ``splitMode`` → ``invalid_split_mode``."""
    snake = "".join("_" + c.lower() if c.isupper() else c for c in field)
    return "invalid_" + snake


S = TypeVar("S", bound=msgspec.Struct)
_UTF8_BOM = b"\xef\xbb\xbf"
# A \uD800-\uDFFF escape that is not half of a pair: msgspec calls it "truncated input".
_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])|(?<![0-9a-fA-F]{4})\\u[dD][c-fC-F]"
)
_JSON_KINDS = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}


def _not_utf8(body: bytes) -> str | None:
    """Why ``body`` is not UTF-8 text, if a cheap look says so (UTF-16/32 have BOMs or NULs)."""
    if body[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in body[:4]:
        return "it looks like UTF-16 or UTF-32"
    return None


def _bad_utf8(body: bytes) -> str:
    """Where ``body`` stops being UTF-8 (msgspec's own offset counts inside one string)."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"byte 0x{body[exc.start]:02x} at offset {exc.start} is not UTF-8"
    return "it is not UTF-8"


def _decode_json(body: bytes) -> Any:
    """``body`` decoded as JSON; every way it can fail becomes ``InvalidJson``."""
    why = _not_utf8(body)
    if why:
        raise InvalidJson(f"request body must be JSON encoded as UTF-8 ({why})")
    try:
        return msgspec.json.decode(body.removeprefix(_UTF8_BOM))
    except UnicodeDecodeError:
        raise InvalidJson(
            f"request body must be JSON encoded as UTF-8 ({_bad_utf8(body)})"
        ) from None
    except RecursionError:
        # msgspec recurses once per array/object level; a request never needs more than two.
        raise InvalidJson("request body is not valid JSON (nested too deeply)") from None
    except msgspec.DecodeError as exc:
        reason = str(exc)
        if _LONE_SURROGATE.search(body):
            reason = "a \\u escape names half of a surrogate pair"
        raise InvalidJson(f"request body is not valid JSON ({reason})") from None


def decode_object(
    body: bytes, accepted: Mapping[str, str], hints: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The fields ``body`` sends, null ones left out (null is the default).

    Raises:
        InvalidJson: The body is not one JSON object in UTF-8.
        UnknownField: The first field (in the body's order) that is not one of ``accepted``;
            ``hints`` say where some such fields belong instead (a header).
    """
    if not body:  # no body at all is all defaults; whitespace alone is not JSON
        return {}
    value = _decode_json(body)
    if not isinstance(value, dict):
        kind = _JSON_KINDS.get(type(value), "a number")
        raise InvalidJson(f"request body must be a JSON object, not {kind}")
    for name in value:
        if name not in accepted:
            hint, meant = (hints or {}).get(name), SYNONYMS.get(name)
            raise UnknownField.naming(name, accepted, hint=hint, meant=meant)
    return {k: v for k, v in value.items() if v is not None}


def convert_fields(fields: dict[str, Any], struct: type[S], accepted: Mapping[str, str]) -> S:
    """``fields`` as a ``struct``: the first bad field is ``InvalidField``, then a Markdown
    over ``MAX_MARKDOWN_CHARS`` is ``PayloadTooLarge`` (413, not 400: the body is too big)."""
    too_long = None
    for name, value in fields.items():
        try:
            msgspec.convert({name: value}, struct)
        except msgspec.ValidationError:
            if name == "markdown" and isinstance(value, str):
                too_long = value  # a string fails only its length
                continue
            raise InvalidField(
                f"{name} must be {accepted[name]}", label=field_label(name)
            ) from None
    if too_long is not None:
        raise PayloadTooLarge(
            f"markdown must be at most {MAX_MARKDOWN_CHARS:,} characters (got {len(too_long):,})"
        )
    return msgspec.convert(fields, struct)


def whole_numbers(fields: dict[str, Any], *names: str) -> dict[str, Any]:
    """``fields`` with each of ``names`` that is a whole float an int: JSON Schema, the
    OpenAPI document's language, counts 2.0 as the integer 2."""
    for name in names:
        value = fields.get(name)
        if isinstance(value, float) and value.is_integer():
            fields[name] = int(value)
    return fields


def with_front_matter(
    fields: dict[str, Any],
    struct: type[msgspec.Struct],
    accepted: Mapping[str, str],
    fills: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """``fields`` with the Markdown's front matter taken off and its values filling the
    fields the request left out (a request field wins; a request's theme, the front matter's
    mode too); each value checked as the field. ``fills``: the front matter's field (as
    ``frontmatter.split`` names it) → the request field it fills; by default each field of
    ``accepted`` a front matter key stands for fills itself. A key that is a near miss of
    one of these is ``unknown_field`` (``frontmatter.split``)."""
    markdown = fields.get("markdown")
    if not isinstance(markdown, str):
        return fields
    if fills is None:
        fills = {name: name for name in accepted if name in frontmatter.ALIASES}
    found, body = frontmatter.split(markdown, fills.keys())
    merged = {**fields, "markdown": body}
    for key, value in found.items():
        name = fills.get(key)
        if name is None or name in fields:
            continue
        if name == "themeMode" and "theme" in fields:
            continue  # a mode is one of its theme's: the request's theme brings its own
        try:
            msgspec.convert({name: value}, struct)
        except msgspec.ValidationError:
            raise InvalidField(
                f"{name} from the front matter must be {accepted[name]}",
                label=field_label(name),
            ) from None
        merged[name] = value
    return merged


def require_markdown(sent: Mapping[str, Any], markdown: str, doing: str, *, required: bool) -> None:
    """Refuse a request whose Markdown holds nothing to ``doing`` (draw, convert): sent empty
    or only whitespace (``str.strip``'s), or nothing but its front matter. ``markdown`` is the
    request's, its front matter taken off; ``sent`` the body's fields. Without a Markdown the
    field's default applies, unless it is ``required`` (its default is empty).

    Raises:
        EmptyMarkdown: ``empty_markdown`` (400), before anything is charged.
    """
    if markdown.strip():
        return
    given = sent.get("markdown")
    if not isinstance(given, str):
        if required:
            raise EmptyMarkdown(f"markdown is missing: there is nothing to {doing}")
        return
    if given.strip():
        raise EmptyMarkdown(f"markdown holds only its front matter: there is nothing to {doing}")
    blank = "empty" if not given else "only whitespace"
    raise EmptyMarkdown(f"markdown is {blank}: there is nothing to {doing}")
