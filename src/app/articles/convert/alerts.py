"""GitHub alerts (`> [!NOTE]` … `> [!CAUTION]`) in articles: markdown-it finds them (its
`alerts` option); these rules give them the cards' labels and the elements the theme CSS
styles: `<section class="alert alert-<kind>">` holding `<p class="alert-title">` and the
alert's blocks. The classes are gone after inlining, as every class is.

No markdown-it import here (html.py is its one door in the article path): the rules take
its token stream and renderer as they come.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from inkcard.layout.parse import ALERT_LABELS

KINDS = tuple(ALERT_LABELS)
CLASSES = frozenset({"alert", *(f"alert-{kind}" for kind in KINDS)})
TITLE_CLASS = "alert-title"


def label_titles(state: Any) -> None:
    """markdown-it core rule, before inlines are parsed: an alert's title is its label
    (备注 NOTE …), not the kind's English name markdown-it writes."""
    tokens = state.tokens
    for index, token in enumerate(tokens[:-1]):
        if token.type == "alert_title_open":
            kind = _kind(tokens, index)
            tokens[index + 1].content = ALERT_LABELS.get(kind, kind)


def _kind(tokens: Sequence[Any], index: int) -> str:
    """The kind of the alert whose title opens at `index` (its `alert_open` is just before)."""
    return str(tokens[index - 1].info).lower()


def _open(_renderer: Any, tokens: Sequence[Any], index: int, *_: Any) -> str:
    kind = escape(str(tokens[index].info).lower())
    return f'<section class="alert alert-{kind}">\n'


def _close(*_: Any) -> str:
    return "</section>\n"


def _title_open(*_: Any) -> str:
    return f'<p class="{TITLE_CLASS}">'


def _title_close(*_: Any) -> str:
    return "</p>\n"


RENDER_RULES: dict[str, Callable[..., str]] = {
    "alert_open": _open,
    "alert_close": _close,
    "alert_title_open": _title_open,
    "alert_title_close": _title_close,
}
