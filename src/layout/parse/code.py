"""Code text + language → per source line, (text, colour) tokens for the code panel.

Pygments lexes; its token types map onto the theme's few code colour tokens. Tabs
become four spaces (the panel keeps `white-space: pre-wrap`). Without a known
language the text is one plain token per line.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pygments.lexer import Lexer

TAB = "    "
# Most specific first: the first token type that contains the lexed type wins.
_TOKEN_COLORS = (
    ("Comment", "code_comment"),
    ("Literal.String", "code_string"),
    ("Literal.Number", "code_number"),
    ("Keyword.Type", "code_type"),
    ("Keyword.Constant", "code_builtin"),
    ("Keyword", "code_keyword"),
    ("Operator.Word", "code_keyword"),
    ("Name.Builtin", "code_builtin"),
    ("Name.Function", "code_function"),
    ("Name.Class", "code_function"),
    ("Name.Decorator", "code_function"),
    ("Name.Tag", "code_keyword"),
    ("Name.Attribute", "code_function"),
)


def highlight(
    code: str, lang: str, palette: dict[str, int], default: int
) -> list[list[tuple[str, int]]]:
    """Splits code into lines of coloured tokens (empty lines are empty lists)."""
    code = code.replace("\t", TAB)
    tokens = _lex(code, lang, palette, default) if lang else [(code, default)]
    lines: list[list[tuple[str, int]]] = [[]]
    for text, color in tokens:
        for i, piece in enumerate(text.split("\n")):
            if i:
                lines.append([])
            if piece:
                lines[-1].append((piece, color))
    return lines


def _lex(code: str, lang: str, palette: dict[str, int], default: int) -> list[tuple[str, int]]:
    from pygments.token import string_to_tokentype

    lexer = _lexer(lang)
    if lexer is None:
        return [(code, default)]
    table = [
        (string_to_tokentype(name), palette[key]) for name, key in _TOKEN_COLORS if key in palette
    ]
    colors: dict[object, int] = {}  # a block has a few dozen token types, each seen often
    out: list[tuple[str, int]] = []
    for ttype, text in lexer.get_tokens(code):
        color = colors.get(ttype)
        if color is None:
            lineage = ttype.split()  # the token type and its ancestors
            color = colors[ttype] = next((c for t, c in table if t in lineage), default)
        if out and out[-1][1] == color:
            out[-1] = (out[-1][0] + text, color)
        else:
            out.append((text, color))
    return out


@lru_cache(maxsize=64)  # a few languages per process; finding one takes 0.1 ms
def _lexer(lang: str) -> Lexer | None:
    """Pygments' lexer for `lang` (it keeps no state between texts), None if unknown."""
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(lang, stripnl=False, ensurenl=False, stripall=False)
    except ClassNotFound:
        return None
