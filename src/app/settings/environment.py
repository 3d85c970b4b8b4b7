"""The environment → ``Settings``: the only module of the service that reads (or, for the
worker processes it starts, writes) ``os.environ``. Each ``INKCARD_*`` variable's text is
parsed as its field's type, the data home filled in, and the whole checked (``checks``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal, get_args, get_origin

import msgspec

from .checks import INT64, check, refusal, whole_number_range
from .record import PREFIX, Settings, SettingsError, variable

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _parse_bool(name: str, raw: str) -> bool:
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise refusal(name, raw, "1 or 0 (or true/false, yes/no, on/off)")


def _parse(name: str, kind: object, raw: str) -> object:
    """The text of ``INKCARD_<NAME>`` as the field's type; a refusal names what it takes."""
    if kind is bool:
        return _parse_bool(name, raw)
    if kind is int:
        try:
            number = int(raw.strip())
        except ValueError:
            raise refusal(name, raw, whole_number_range(name)) from None
        if not -INT64 <= number < INT64:
            raise refusal(name, raw, whole_number_range(name))
        return number
    if kind is float:
        try:
            return float(raw.strip())
        except ValueError:
            raise refusal(name, raw, "a number") from None
    if get_origin(kind) is Literal:
        choices = get_args(kind)
        if raw not in choices:
            raise refusal(name, raw, "one of " + ", ".join(choices))
    return raw


def load_settings(environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
    """Read ``INKCARD_*`` variables once and return the settings.

    Args:
        environ: The environment to read; ``os.environ`` when omitted.
        **overrides: Field values that win over the environment (used by the CLI and tests).

    Raises:
        SettingsError: A variable has a value of the wrong type or out of range; its one-line
            message names the variable, the value given and what it takes.
    """
    env = os.environ if environ is None else environ
    raw: dict[str, object] = {}
    for field in msgspec.structs.fields(Settings):
        value = env.get(variable(field.name))
        if value is not None:
            raw[field.name] = _parse(field.name, field.type, value)
    raw.update(overrides)
    try:
        settings = msgspec.convert(raw, Settings, strict=False)
    except msgspec.ValidationError as exc:  # an override of the wrong type: a caller's bug
        raise SettingsError(f"invalid INKCARD_* setting: {exc}") from None
    settings = _in_home(settings, env)
    check(settings)
    return settings


def default_home(env: Mapping[str, str]) -> Path:
    """The XDG rule: ``$XDG_DATA_HOME/inkcard`` when that is an absolute path, else
    ``~/.local/share/inkcard`` (the user's home from ``HOME``, or the password database)."""
    xdg = env.get("XDG_DATA_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "inkcard"
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home / ".local" / "share" / "inkcard"


def _in_home(settings: Settings, env: Mapping[str, str]) -> Settings:
    """``settings`` with the data directory, and the database and files in it, filled in."""
    home = Path(settings.home).expanduser() if settings.home else default_home(env)
    return msgspec.structs.replace(
        settings,
        home=str(home),
        database=settings.database or str(home / "inkcard.db"),
        storage_dir=settings.storage_dir or str(home / "files"),
    )


MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"
"""Where prometheus_client keeps each worker's values when several workers share them."""


def metrics_dir() -> Path | None:
    """The folder the workers' metric values are shared in, or None: one process counts."""
    value = os.environ.get(MULTIPROC_DIR, "")
    return Path(value) if value else None


def share_metrics_in(folder: Path | None) -> None:
    """Point (or, with None, stop pointing) prometheus_client at ``folder`` for the workers
    started after this; it reads the variable once, when first imported."""
    os.environ.pop(MULTIPROC_DIR.lower(), None)  # the old spelling it still honours
    if folder is None:
        os.environ.pop(MULTIPROC_DIR, None)
    else:
        os.environ[MULTIPROC_DIR] = str(folder)


def export_for_workers(settings: Settings) -> None:
    """Write the CLI's overrides back to the environment so uvicorn worker processes see them."""
    os.environ[PREFIX + "HOST"] = settings.host
    os.environ[PREFIX + "PORT"] = str(settings.port)
