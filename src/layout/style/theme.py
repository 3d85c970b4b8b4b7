"""A `card.toml` → a checked `Theme`: decoded against the schema, every colour resolved.

`decode_theme` decodes a theme file against the schema (schema.py) and names the field of
any error; `check_theme` checks a theme however it was built (from a file, or from CSS):
known roles only, and every colour resolves in every mode (resolver.py)."""

from __future__ import annotations

from typing import Any

import msgspec

from ..errors import ThemeError
from .resolver import resolve
from .schema import BASE_ROLES, Role, Theme


def decode_theme(data: bytes | str, source: str = "card theme") -> Theme:
    """Decodes and checks a `card.toml`; every colour must resolve in every mode.

    Errors start with `source` (the file's path, when the caller knows it) and name the
    field: msgspec's `$.path` for a wrong type or unknown field, `roles.<role>.<knob>` or
    `decorations[i].<field>` for a colour that does not resolve.
    """
    try:
        theme = msgspec.toml.decode(data, type=Theme)
    except msgspec.ValidationError as error:  # unknown knob, bad type, bad kind
        raise ThemeError(f"{source}: {_name_keys(data, error)}") from error
    except msgspec.DecodeError as error:  # not TOML at all
        raise ThemeError(f"{source}: {error}") from error
    return check_theme(theme, source)


def check_theme(theme: Theme, source: str = "card theme") -> Theme:
    """Checks a decoded theme (from a file or built from other data, such as CSS): known
    roles only, and every colour resolves in every mode. Returns it unchanged."""
    unknown = (set(theme.roles) | set(theme.slide)) - set(BASE_ROLES)
    if unknown:
        raise ThemeError(f"{source}: {theme.name}: unknown roles {sorted(unknown)}")
    modes: list[str | None] = [*theme.modes] or [None]
    for mode in modes:
        try:
            resolve(theme, mode)
        except ThemeError as error:
            raise ThemeError(f"{source}: {theme.name} ({mode or 'no mode'}): {error}") from error
    return theme


_TABLES: dict[str, Any] = {"roles": Role, "slide": Role, "colors": dict[str, str]}


def _name_keys(data: bytes | str, error: msgspec.ValidationError) -> str:
    """msgspec's message with the role or mode it elides as `[...]` put back in its path."""
    message = str(error)
    raw = msgspec.toml.decode(data)
    for table, kind in _TABLES.items():
        if f"$.{table}[...]" not in message or not isinstance(raw.get(table), dict):
            continue
        for key, value in raw[table].items():
            try:
                msgspec.convert(value, kind)
            except msgspec.ValidationError:
                return message.replace(f"$.{table}[...]", f"$.{table}.{key}")
    return message
