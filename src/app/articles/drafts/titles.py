"""A request and its converted article → the draft's title, and whether its leading h1 goes.

The title is the request's, else the article's first heading or first line, on one line and
cut to the platform's ``TITLE_LIMIT``; the image post takes its title the same way.
"""

from __future__ import annotations

from inkcard.app.articles.convert import html as article
from inkcard.app.articles.wechat import TITLE_LIMIT
from inkcard.app.schema import ArticleRequest

UNTITLED = "Untitled"


def cut_title(title: str) -> str:
    """One line of at most ``TITLE_LIMIT`` characters (``…`` marks a cut)."""
    line = " ".join(title.split())
    return line if len(line) <= TITLE_LIMIT else line[: TITLE_LIMIT - 1] + "…"


def draft_title(request: ArticleRequest, converted: article.Article) -> str:
    """The given title, else the article's first heading or first line, cut to the limit."""
    return cut_title(request.title) or cut_title(converted.title) or UNTITLED


def drops_title_heading(request: ArticleRequest, converted: article.Article) -> bool:
    """The leading h1 goes when it became the title whole (not given, not cut, not kept)."""
    whole = " ".join(converted.title.split())
    return not (request.keepTitleHeading or request.title) and cut_title(whole) == whole
