"""What the service does, whoever asks: the operations the HTTP routes, the MCP tools and the
CLI adapt. Each is a plain async function over the ``Services`` record of ``app.services``.

- ``authenticate``: an API key → its live ``KeyInfo`` (401 otherwise).
- ``generate_cards``: a ``GenerateRequest`` → stored card images.
- ``convert_article``: an ``ArticleRequest`` → article HTML or a WeChat draft.
- ``generate_cover``: a ``CoverRequest`` → stored cover images (priced as generate).
- ``create_newspic``: a ``NewspicRequest`` → an image-post draft of its cards.
- ``create_xhs_note``: an ``XhsNoteRequest`` → a Xiaohongshu note: cards, cover, text
  (priced as generate).

Each paid one runs its work on the one paid path (``app.operations.paid``: claim, limit,
hold, run, commit, undo), at its price in ``Settings.prices`` (``app.prices``). They may
import ``app.services`` and every row below it; the adapters above them (``app.mcp``,
``app.server``, ``app.cli``) import them, never the other way round.
"""

from inkcard.app.operations.article import ArticleAnswer, convert_article, credentials_from
from inkcard.app.operations.cover import generate_cover
from inkcard.app.operations.generate import generate_cards
from inkcard.app.operations.keys import authenticate
from inkcard.app.operations.newspic import create_newspic
from inkcard.app.operations.xhsnote import create_xhs_note

__all__ = [
    "ArticleAnswer",
    "authenticate",
    "convert_article",
    "create_newspic",
    "create_xhs_note",
    "credentials_from",
    "generate_cards",
    "generate_cover",
]
