"""A theme's resolved styles + whether the post is Chinese → the chrome in the post's
language.

A label or page number a theme writes in Chinese reads as a fault on an English or Japanese
post (notebook's 第 1 页 · 共 2 页 under English text, apple-notes' 备忘录 over a Japanese
café guide: the fourth and fifth looks). A theme may give the Latin form beside the Chinese
one, a label's `text_latin` and the page number's `format_latin`; `for_post` sets them on
a post that is not Chinese. A theme that gives none keeps its one form (business's
bilingual 商务简报 · BRIEFING reads as a masthead in either).
"""

from __future__ import annotations

from dataclasses import replace

import msgspec

from .decorations import Decoration, Label
from .resolver import Styles

LATIN = "latin"  # the static layers of the Latin chrome are cached apart from the Chinese


def for_post(styles: Styles, chinese: bool) -> Styles:
    """`styles` with the Latin forms of its chrome where the post is not `chinese`."""
    if chinese or not has_latin(styles):
        return styles
    number = styles["page_number"]
    roles = dict(styles.roles)
    if number.format_latin:
        roles["page_number"] = replace(number, format=number.format_latin)
    slide = for_post(styles.slide, chinese) if styles.slide is not None else None
    return replace(
        styles,
        roles=roles,
        decorations=tuple(_latin(deco) for deco in styles.decorations),
        key=(styles.key[0], f"{styles.key[1]}|{LATIN}"),
        slide=slide,
    )


def has_latin(styles: Styles) -> bool:
    """Whether the theme gives any of its chrome a Latin form (else `for_post` is a no-op:
    the caller need not read the post's language)."""
    labels = any(isinstance(d, Label) and d.text_latin for d in styles.decorations)
    return labels or bool(styles["page_number"].format_latin)


def _latin(deco: Decoration) -> Decoration:
    if isinstance(deco, Label) and deco.text_latin:
        return msgspec.structs.replace(deco, text=deco.text_latin)
    return deco
