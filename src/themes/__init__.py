"""Card themes: data files checked against the engine's style schema at load.

Each theme is a folder `<name>/` beside this file holding `card.toml`. Loading decodes it
with msgspec into `layout.Theme` and resolves every mode once, so a typo in a theme
fails at start-up, not in the middle of a render.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from layout import Theme, decode_theme

THEMES_DIR = Path(__file__).resolve().parent


class UnknownTheme(KeyError):
    """No card theme has this name."""

    def __str__(self) -> str:
        return f"unknown theme {self.args[0]!r}; valid themes: {', '.join(names())}"


@cache
def names() -> list[str]:
    """Card theme IDs, in a stable order."""
    return sorted(p.parent.name for p in THEMES_DIR.glob("*/card.toml"))


@cache
def load(name: str) -> Theme:
    path = THEMES_DIR / name / "card.toml"
    if name not in names() or not path.is_file():
        raise UnknownTheme(name)
    return decode_theme(path.read_bytes())


def modes(name: str) -> list[str]:
    """The theme's mode IDs ([] when it has none); the first is the default."""
    return list(load(name).modes)


# --- article themes: one `article.css` per theme folder, for the WeChat article path ---


@cache
def article_names() -> list[str]:
    """Article theme IDs, in a stable order."""
    return sorted(p.parent.name for p in THEMES_DIR.glob("*/article.css"))


@cache
def article_css(name: str) -> str:
    """The theme's article CSS; raises `KeyError` for a name that has none."""
    if name not in article_names():
        raise KeyError(name)
    return (THEMES_DIR / name / "article.css").read_text(encoding="utf-8")
