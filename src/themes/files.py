"""A themes folder → its theme files, and a theme file's bytes → their fingerprint.

Built-in and custom themes lie alike (`<name>/card.toml`, and for the article path
`<name>/article.css`) and a native theme file is fingerprinted alike (the SHA-256 of its
bytes), so a custom copy of a built-in theme names the built-in's cards.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

THEME_FILE = "card.toml"
ARTICLE_FILE = "article.css"
ARTICLE_COMMON = "shared/article-common.css"  # read before every theme's ARTICLE_FILE


def card_files(folder: Path) -> list[Path]:
    """The `<name>/card.toml` files of a folder, in a stable order."""
    return sorted(folder.glob(f"*/{THEME_FILE}"))


def digest(data: bytes) -> str:
    """SHA-256 (hex) of a theme file's bytes: a native file's fingerprint."""
    return hashlib.sha256(data).hexdigest()
