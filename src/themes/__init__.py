"""Card themes: data files checked against the engine's style schema at load.

Each theme is a folder `<name>/` holding `card.toml`, beside this file for the built-in
themes. A `Catalogue` reads one such folder once: it decodes every theme with msgspec into
`layout.Theme` and resolves every mode, so a typo in a theme fails at start-up, not in the
middle of a render, and it keeps a fingerprint of the exact bytes each theme came from, so
cards named after a theme change when its file does.

`Catalogue.with_custom` lays an operator's folder of custom themes (`custom.py`: native
`.toml` files and the CSS subset of the `css` package) over the built-in ones; a custom theme
of a built-in's name replaces it. `files.py` holds what both kinds share: where a theme's file
lies and how its bytes are fingerprinted.
"""

from __future__ import annotations

import copy
import tomllib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from inkcard.layout import Theme, decode_theme

from .files import ARTICLE_COMMON, ARTICLE_FILE, THEME_FILE, card_files, digest

if TYPE_CHECKING:  # custom.py pulls in the CSS parser: imported when custom themes are read
    from .custom import ThemeFile

THEMES_DIR = Path(__file__).resolve().parent
CLASS_PREFIX = "card-"  # the original service's class of theme `<id>` is `card-<id>`


def theme_id(name: str, ids: list[str], labels: dict[str, str]) -> str | None:
    """The theme ID ``name`` stands for, or None: the ID itself, the ID with or without
    ``card-`` (the original service's class names), or a theme's label (`苹果备忘录`)."""
    if name in ids:
        return name
    bare = name.removeprefix(CLASS_PREFIX)
    for candidate in (bare, CLASS_PREFIX + name):
        if candidate in ids:
            return candidate
    return labels.get(name.strip())


def _named(theme: Theme, name: str) -> Theme:
    """The theme carrying its ID as its name, so a theme looked up by an alias names it."""
    return theme if theme.name == name else msgspec.structs.replace(theme, name=name)


class UnknownTheme(KeyError):
    """No card theme has this name."""

    def __init__(self, name: str, valid: list[str]):
        super().__init__(name, valid)

    def __str__(self) -> str:
        name, valid = self.args
        return f"unknown theme {name!r}; valid themes: {', '.join(valid)}"


class Catalogue:
    """The card themes of one folder, read once: decoded, with a fingerprint of each file."""

    def __init__(self, folder: Path | str = THEMES_DIR):
        self.folder = Path(folder)
        self._themes: dict[str, Theme] = {}
        self._fingerprints: dict[str, str] = {}
        self.custom: dict[str, ThemeFile] = {}  # the custom themes, by name
        for path in card_files(self.folder):
            data = path.read_bytes()  # decoded and hashed from the same bytes
            name = path.parent.name
            self._themes[name] = _named(decode_theme(data, source=str(path)), name)
            self._fingerprints[name] = digest(data)
        if not self._themes:
            raise FileNotFoundError(f"no <theme>/{THEME_FILE} in {self.folder}")

    def with_custom(self, folder: Path | str) -> Catalogue:
        """A new catalogue: these themes and the readable custom themes of ``folder`` (broken
        ones are logged and skipped). A custom theme of a built-in name wins."""
        from .custom import read_folder

        merged = copy.copy(self)
        merged._themes = dict(self._themes)
        merged._fingerprints = dict(self._fingerprints)
        merged.custom = dict(self.custom)
        for found in read_folder(Path(folder), set(self._themes)):
            merged._themes[found.name] = _named(found.theme, found.name)
            merged._fingerprints[found.name] = found.fingerprint
            merged.custom[found.name] = found
        return merged

    def names(self) -> list[str]:
        """Card theme IDs, in a stable order."""
        return list(self._themes)

    def accepted_names(self) -> list[str]:
        """The names a request schema offers: each ID, then its label (a schema that
        lists the IDs alone would have a client refuse `苹果备忘录`, which `resolve` takes)."""
        return [alias for name in self.names() for alias in self.aliases(name)]

    def aliases(self, name: str) -> list[str]:
        """The theme's ID and its label, if it has one."""
        label = self._themes[name].label
        return [name, label] if label and label != name else [name]

    def _labels(self) -> dict[str, str]:
        return {theme.label: key for key, theme in self._themes.items()}

    def resolve(self, name: str) -> str:
        """The ID of the theme ``name`` stands for (`theme_id`); raises ``UnknownTheme``."""
        found = theme_id(name, self.names(), self._labels())
        if found is None:
            raise UnknownTheme(name, self.names())
        return found

    def get(self, name: str) -> Theme:
        """The decoded theme ``name`` (an ID or an alias: `resolve`), named by its ID;
        raises ``UnknownTheme``."""
        return self._themes[self.resolve(name)]

    def modes(self, name: str) -> list[str]:
        """The theme's mode IDs ([] when it has none); the first is the default."""
        return list(self.get(name).modes)

    def fingerprint(self, name: str) -> str:
        """SHA-256 (hex) of the theme file's bytes as they were read."""
        return self._fingerprints[self.resolve(name)]


@cache
def builtin() -> Catalogue:
    """The themes shipped beside this file, read on first use."""
    return Catalogue(THEMES_DIR)


def names() -> list[str]:
    """Built-in card theme IDs, in a stable order."""
    return builtin().names()


def load(name: str) -> Theme:
    """The built-in theme ``name``; raises ``UnknownTheme``."""
    return builtin().get(name)


@cache
def load_one(name: str) -> Theme:
    """The built-in theme ``name`` decoded from its own file alone, as `load` gives it.

    For a one-shot command (`inkcard render`): decoding every theme, as the service does
    at start-up to catch a typo early, would cost it a large share of its cold start.
    Raises ``UnknownTheme``.
    """
    found = sorted(p.parent.name for p in card_files(THEMES_DIR))
    # Only an ID of this list is used as a path, which keeps a name like "../x" inside.
    theme = theme_id(name, found, {}) or theme_id(name, found, _builtin_labels())
    if theme is None:
        raise UnknownTheme(name, found)
    path = THEMES_DIR / theme / THEME_FILE
    return _named(decode_theme(path.read_bytes(), source=str(path)), theme)


@cache
def _builtin_labels() -> dict[str, str]:
    """Each built-in theme's label → its ID, read from the files' top-level `label` alone
    (decoding every theme would cost `load_one` what it saves)."""
    labels = {}
    for path in card_files(THEMES_DIR):
        with path.open("rb") as file:
            labels[str(tomllib.load(file).get("label", ""))] = path.parent.name
    return labels


def modes(name: str) -> list[str]:
    """The built-in theme's mode IDs ([] when it has none); the first is the default."""
    return builtin().modes(name)


# --- article themes: one `article.css` per theme folder, for the WeChat article path ---


@cache
def article_names() -> list[str]:
    """Article theme IDs, in a stable order."""
    return sorted(p.parent.name for p in THEMES_DIR.glob(f"*/{ARTICLE_FILE}"))


@cache
def article_css(name: str) -> str:
    """The theme's article CSS after the rules every article theme shares (its own come
    later and win); raises `KeyError` for a name that has none."""
    if name not in article_names():
        raise KeyError(name)
    shared = (THEMES_DIR / ARTICLE_COMMON).read_text(encoding="utf-8")
    return shared + (THEMES_DIR / name / ARTICLE_FILE).read_text(encoding="utf-8")
