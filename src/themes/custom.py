"""Custom card themes: the files an operator puts in `INKCARD_THEMES_DIR`.

Three shapes are read: `<name>.toml` (a native theme file; its `name` field is the ID),
`<name>/card.toml` (as the built-in themes lie; the folder is the ID) and `*.css` (the CSS
subset of `themes.css`; the class name is the ID). Unlike the built-in themes, a broken custom
file never stops anything: it is logged with its path and reason and skipped, and what a CSS
file could not use is logged once, in one warning per file.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from inkcard.layout.style import Theme, ThemeError, decode_theme

from .css import TRANSLATOR_VERSION, Note, translate
from .files import THEME_FILE, card_files, digest

Format = Literal["toml", "css"]
log = logging.getLogger("inkcard.themes")

_THEME_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")
MAX_THEME_BYTES = 1024 * 1024  # a hundred times the largest built-in theme file


@dataclass(frozen=True, slots=True)
class ThemeFile:
    """One custom theme as read from its file."""

    name: str
    theme: Theme
    fingerprint: str  # SHA-256 (hex) of what the theme was made from: its bytes (and format)
    path: Path
    format: Format
    notes: tuple[Note, ...] = ()


def fingerprint(data: bytes, format: str) -> str:
    """A native file's fingerprint is the SHA-256 of its bytes (so a copy of a built-in
    theme names the built-in's cards); a CSS file's also covers the translator's version."""
    if format == "toml":
        return digest(data)
    return digest(f"css {TRANSLATOR_VERSION}\n".encode() + data)


def read_theme_file(path: Path) -> ThemeFile:
    """Reads one theme file (`.toml` or `.css`); raises `ThemeError` naming the file.

    At most `MAX_THEME_BYTES` are read (and one more, to tell), so a device or a huge file
    is refused without being read whole.
    """
    try:
        with path.open("rb") as file:
            data = file.read(MAX_THEME_BYTES + 1)
    except OSError as error:
        raise ThemeError(f"{path}: cannot read: {error.strerror or error}") from None
    if len(data) > MAX_THEME_BYTES:
        raise ThemeError(f"{path}: larger than {MAX_THEME_BYTES:,} bytes")
    try:
        return _decode_theme_file(path, data)
    except RecursionError:  # the TOML parser recurses once per level of nesting
        raise ThemeError(f"{path}: nested too deeply") from None


def _decode_theme_file(path: Path, data: bytes) -> ThemeFile:
    kind: Format
    if path.suffix.lower() == ".css":
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ThemeError(f"{path}: not UTF-8 text ({error.reason})") from None
        translation = translate(text, str(path))
        theme, notes, kind = translation.theme, translation.notes, "css"
    else:
        theme, notes, kind = decode_theme(data, source=str(path)), (), "toml"
    name = path.parent.name if path.name == THEME_FILE else theme.name
    if not _THEME_NAME.fullmatch(name):
        raise ThemeError(f"{path}: theme name {name!r} must be letters, digits, - and _")
    return ThemeFile(name, theme, fingerprint(data, kind), path, kind, notes)


def theme_files(folder: Path) -> list[Path]:
    """The theme files of a custom folder, in a stable order."""
    found = [*folder.glob("*.toml"), *folder.glob("*.css"), *card_files(folder)]
    return sorted(p for p in found if p.is_file())


def read_folder(folder: Path, builtin: set[str]) -> list[ThemeFile]:
    """Every readable theme of `folder`; broken files are logged and skipped. When two files
    name one theme, the first in file order is kept and the other logged."""
    if not folder.is_dir():
        log.error("INKCARD_THEMES_DIR %s is not a folder; no custom themes loaded", folder)
        return []
    loaded: dict[str, ThemeFile] = {}
    for path in theme_files(folder):
        try:
            found = read_theme_file(path)
        except ThemeError as error:
            log.error("custom theme skipped: %s", error)
            continue
        if found.name in loaded:
            log.error(
                "custom theme skipped: %s: theme %r is already defined by %s",
                path,
                found.name,
                loaded[found.name].path,
            )
            continue
        loaded[found.name] = found
        _announce(found, builtin)
    return list(loaded.values())


def _announce(found: ThemeFile, builtin: set[str]) -> None:
    if found.notes:
        log.warning(
            "custom theme %s (%s): %d unsupported, ignored: %s",
            found.name,
            found.path,
            len(found.notes),
            "; ".join(str(note) for note in found.notes),
        )
    if found.name in builtin:
        log.warning("custom theme %s (%s) replaces the built-in theme", found.name, found.path)
    else:
        log.info("custom theme %s loaded from %s", found.name, found.path)
