"""Request and response records (``app.schema``) → the README's field tables; the error
cases of each operation (``app.schema.errors``) → its error table.

Each field table sits between ``<!-- fields:MODEL -->`` and ``<!-- /fields -->`` and lists the
model's fields with their type, default and description, all read from the model; each error
table sits between ``<!-- errors:OPERATION -->`` and ``<!-- /errors -->``. So the README says
what the OpenAPI document and the MCP tools say. ``python -m inkcard.app.schema.readme``
rewrites the tables of ``README.md`` (or of the file it is given); with ``--check`` it only
says whether they are current (exit code 1 when not).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, get_args

import msgspec

from inkcard.app import schema
from inkcard.app.schema.derive import json_schema, not_null
from inkcard.app.schema.errors import (
    ARTICLE,
    COVER,
    GENERATE,
    NEWSPIC,
    XHS_NOTE,
    ErrorCase,
)
from inkcard.app.schema.platformerrors import ACCOUNTS, DRAFT_BOX, PUBLISH

MODELS: dict[str, type] = {
    name: value
    for name, value in vars(schema).items()
    if isinstance(value, type)
    and issubclass(value, msgspec.Struct)
    and value.__module__.startswith(schema.__name__ + ".")
}
"""The models a README table may name."""

# A table's text stops at the next table's opening, so an opening never closed is read once
# and not again from every opening before it (CONTRIBUTING.md, "Patterns").
TABLE = re.compile(r"(<!-- fields:(\w+) -->\n)(?:(?!<!-- fields:).)*?(<!-- /fields -->)", re.S)
HEADER = "| field | type | default | description |\n|---|---|---|---|\n"
ERROR_TABLE = re.compile(
    r"(<!-- errors:(\w+) -->\n)(?:(?!<!-- errors:).)*?(<!-- /errors -->)", re.S
)
ERROR_HEADER = "| status | `error` | when |\n|---|---|---|\n"
# Markdown would read these as a cell border or as emphasis; "_" inside a word is plain.
_MARKUP = re.compile(r"[|*]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")

OPERATIONS: dict[str, tuple[ErrorCase, ...]] = {
    "generate": GENERATE,
    "article": ARTICLE,
    "newspic": NEWSPIC,
    "cover": COVER,
    "drafts": DRAFT_BOX,
    "publish": PUBLISH,
    "accounts": ACCOUNTS,
    "xhs-note": XHS_NOTE,
}
"""The error tables by the name a README table gives (``<!-- errors:NAME -->``)."""


def field_table(struct: type) -> str:
    """The Markdown table of ``struct``'s fields: field, type, default, description."""
    properties = json_schema(struct)["properties"]
    return HEADER + "".join(
        _row(field, properties[field.encode_name]) for field in msgspec.structs.fields(struct)
    )


def _row(field: msgspec.structs.FieldInfo, schema: dict[str, Any]) -> str:
    cells = (
        f"`{field.encode_name}`",
        _type(not_null(schema)),
        _default(field),
        _escape(schema.get("description", "")),
    )
    return f"| {' | '.join(cells)} |\n"


def _type(schema: dict[str, Any]) -> str:
    """The JSON type of a field's schema (an enum: the type of its values)."""
    if "type" in schema:
        return str(schema["type"])
    values = schema.get("enum", [])
    if values and all(isinstance(value, str) for value in values):
        return "string"
    choices = [_type(choice) for choice in schema.get("anyOf", [])]
    return " or ".join(choices) if choices else "any"  # aigc: boolean or object


def _default(field: msgspec.structs.FieldInfo) -> str:
    """A field's default as the README shows it: in the words the model gives it, if any
    (``None`` stands for one; a required field's placeholder is not one)."""
    value = field.default
    words = _default_in_words(field.type)
    if value is msgspec.NODEFAULT:
        return "required"
    if words is not None:
        return words
    if value is None:
        return "`null`"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f"`{value}`" if value else '`""`'
    return str(value)


def _default_in_words(annotation: Any) -> str | None:
    for meta in get_args(annotation)[1:]:
        if isinstance(meta, msgspec.Meta) and meta.extra and schema.DEFAULT_IN_WORDS in meta.extra:
            return str(meta.extra[schema.DEFAULT_IN_WORDS])
    return None


def _escape(text: str) -> str:
    return _MARKUP.sub(lambda match: "\\" + match.group(), text)


def error_table(cases: tuple[ErrorCase, ...]) -> str:
    """The Markdown table of an operation's error cases: statuses, labels, when."""
    return ERROR_HEADER + "".join(
        f"| {', '.join(map(str, case.statuses))} | {', '.join(f'`{x}`' for x in case.labels)}"
        f" | {case.when} |\n"
        for case in cases
    )


def render(text: str, known: Mapping[str, type] = MODELS) -> str:
    """``text`` with every field table rewritten from the model it names, and every error
    table from the operation it names.

    Raises:
        KeyError: A table names a model (or operation) that is not in ``known`` (or
            ``OPERATIONS``).
    """
    text = TABLE.sub(lambda m: m[1] + field_table(known[m[2]]) + m[3], text)
    return ERROR_TABLE.sub(lambda m: m[1] + error_table(OPERATIONS[m[2]]) + m[3], text)


def tables(text: str) -> list[str]:
    """The names of the models whose tables ``text`` holds, in order."""
    return [match[2] for match in (*TABLE.finditer(text), *ERROR_TABLE.finditer(text))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m inkcard.app.schema.readme", description="Rewrite the README's field tables."
    )
    parser.add_argument("readme", nargs="?", type=Path, default=Path("README.md"))
    parser.add_argument("--check", action="store_true", help="exit 1 if a table is stale")
    args = parser.parse_args(argv)
    text = args.readme.read_text("utf-8")
    current = render(text)
    if current == text:
        return 0
    if args.check:
        print(f"{args.readme}: a field table differs from its model", file=sys.stderr)
        return 1
    args.readme.write_text(current, "utf-8")
    print(f"{args.readme}: field tables rewritten ({', '.join(tables(text))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
