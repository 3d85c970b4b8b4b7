"""Request records → the JSON Schemas the OpenAPI document and the MCP tools show of them.

Both are derived from the same msgspec model, so a field's description, default and
constraints (``maxLength`` included) are the model's and written once. The two differ only
where their readers do: the OpenAPI document says every field may be null (our parsers read
null as "the default"), while a tool's schema offers the plain type an agent should send.
``theme`` is restricted to the themes the caller names (the catalogue's, or the article
themes) in both, and a colour field (``primaryColor``) to the colour forms a pattern can
state (``color_pattern()``; the parser reads any CSS colour), worked out here so a
card render never loads the CSS parser. Both say what the parsers refuse besides: a field
not in the schema (``additionalProperties``: false, 400 ``unknown_field``) and a Markdown
without a character that is not whitespace (400 ``empty_markdown``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from inkcard.app.schema.wire import NOT_BLANK
from inkcard.layout.parse import color_pattern

COLOR_FIELDS = ("primaryColor",)
NULL = {"type": "null"}
REF_PREFIX = "#/components/schemas/"


def json_schema(struct: type) -> dict[str, Any]:
    """The JSON Schema msgspec writes for ``struct`` (its fields under ``properties``)."""
    (_, components) = msgspec.json.schema_components([struct], ref_template=REF_PREFIX + "{name}")
    schema: dict[str, Any] = _inlined(components[struct.__name__], components)
    return schema


def _inlined(schema: Any, components: dict[str, Any]) -> Any:
    """``schema`` with each reference to a nested record (``aigc``'s ``AigcLabel``) replaced
    by that record's schema: a tool's reader, and the OpenAPI document, get it whole."""
    if isinstance(schema, list):
        return [_inlined(item, components) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(REF_PREFIX):
        return _inlined(components[ref.removeprefix(REF_PREFIX)], components)
    return {key: _inlined(value, components) for key, value in schema.items()}


def field_descriptions(struct: type) -> dict[str, str]:
    """Each field of ``struct`` and its description (fields without one left out)."""
    fields = json_schema(struct)["properties"]
    return {name: field["description"] for name, field in fields.items() if "description" in field}


def _fields(schema: dict[str, Any], themes: Sequence[str]) -> dict[str, Any]:
    """The ``properties`` of a request schema, its ``theme`` (if it has one) one of ``themes``."""
    fields: dict[str, Any] = schema["properties"]
    if "theme" in fields:
        fields["theme"]["enum"] = list(themes)
    for name in COLOR_FIELDS:
        if name in fields:
            fields[name]["pattern"] = f"^$|{color_pattern()}"
    if "markdown" in fields:
        fields["markdown"]["pattern"] = NOT_BLANK  # else empty_markdown
    return fields


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or null, with its description and default kept outside the choice."""
    outer: dict[str, Any] = {k: schema.pop(k) for k in ("description", "default") if k in schema}
    if NULL in schema.get("anyOf", []):
        return {**outer, **schema}
    return {**outer, "anyOf": [schema, NULL]}


def not_null(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` without null: ``X | None = None`` becomes plain X with no default."""
    choices = schema.get("anyOf", [])
    if NULL not in choices:
        return schema
    rest = [choice for choice in choices if choice != NULL]
    plain = {k: v for k, v in schema.items() if k != "anyOf"}
    if plain.get("default", ...) is None:
        del plain["default"]
    return {**plain, **rest[0]} if len(rest) == 1 else {**plain, "anyOf": rest}


def required_field(schema: dict[str, Any]) -> dict[str, Any]:
    """A field's ``schema`` for a field that must be sent: never null, no default."""
    plain = not_null(schema)
    plain.pop("default", None)
    return plain


def request_schema(
    struct: type, themes: Sequence[str], required: Sequence[str] = ()
) -> dict[str, Any]:
    """The OpenAPI request schema of ``struct``: every field may be null (the default) but
    the ``required`` ones; no other field."""
    schema = json_schema(struct)
    fields = _fields(schema, themes)
    schema["properties"] = {
        name: required_field(field) if name in required else nullable(field)
        for name, field in fields.items()
    }
    schema["type"] = "object"  # an empty body is all defaults; a null one is invalid_json
    schema["additionalProperties"] = False
    if required:
        schema["required"] = list(required)
    return schema


def tool_schema(
    struct: type, themes: Sequence[str], required: Sequence[str] = ()
) -> dict[str, Any]:
    """The MCP input schema of ``struct``: its fields, each of its plain type, the
    ``required`` ones without a default; no other argument."""
    fields = _fields(json_schema(struct), themes)
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            n: required_field(f) if n in required else not_null(f) for n, f in fields.items()
        },
        "additionalProperties": False,
    }
    if required:
        schema["required"] = list(required)
    return schema
