"""A writer's own look for one article, laid over its theme: ``css`` (their own rules,
sanitised: ``usercss``), ``codeTheme`` (a well-known highlight theme's colours on the code
blocks), ``indent`` and ``justify`` (body paragraphs). ``apply`` writes them inline after the
theme's CSS is inlined, so they win over it; a style written inline in the Markdown still
wins over them, as an inline style wins over any stylesheet.
"""

from inkcard.app.articles.convert.style.apply import (
    Styling,
    UnknownCodeTheme,
    apply_styling,
    authored_styles,
)

__all__ = ["Styling", "UnknownCodeTheme", "apply_styling", "authored_styles"]
