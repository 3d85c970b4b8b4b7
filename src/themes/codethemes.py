"""The code themes an article may ask for (``codeTheme``): well-known highlight themes as
data, each the colours of a code block's panel and of the seven token kinds the article's
highlighter marks (``tok-comment`` … ``tok-function``, from Pygments' token types).

Written as data, not read from Pygments at request time: the article path lexes with the
card engine's own token map, and a theme is a dozen colours. They are Pygments 2.21's styles
of the same name (its ``style_for_token`` of each token kind, its ``background_color``),
except ``github``, which Pygments does not ship: GitHub's light code colours (Primer).
A kind the style leaves uncoloured takes the text colour.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CodeTheme:
    """A code block's colours: panel, text, and each token kind (``italic``/``bold`` name
    the kinds the style sets so)."""

    background: str
    text: str
    border: str
    comment: str
    keyword: str
    string: str
    number: str
    type: str
    builtin: str
    function: str
    italic: tuple[str, ...] = ()
    bold: tuple[str, ...] = ()
    dark: bool = False


TOKEN_KINDS = ("comment", "keyword", "string", "number", "type", "builtin", "function")
"""The token kinds the article's highlighter marks (``tok-<kind>`` classes)."""

CODE_THEMES: dict[str, CodeTheme] = {
    "github": CodeTheme(
        "#f6f8fa", "#1f2328", "#d0d7de",
        comment="#6e7781", keyword="#cf222e", string="#0a3069", number="#0550ae",
        type="#953800", builtin="#0550ae", function="#8250df",
    ),
    "github-dark": CodeTheme(
        "#0d1117", "#e6edf3", "#30363d",
        comment="#8b949e", keyword="#ff7b72", string="#a5d6ff", number="#a5d6ff",
        type="#ff7b72", builtin="#e6edf3", function="#d2a8ff",
        italic=("comment",), bold=("function",), dark=True,
    ),
    "monokai": CodeTheme(
        "#272822", "#f8f8f2", "#272822",
        comment="#959077", keyword="#66d9ef", string="#e6db74", number="#ae81ff",
        type="#66d9ef", builtin="#a6e22e", function="#a6e22e", dark=True,
    ),
    "dracula": CodeTheme(
        "#282a36", "#f8f8f2", "#282a36",
        comment="#6272a4", keyword="#ff79c6", string="#bd93f9", number="#ffb86c",
        type="#8be9fd", builtin="#8be9fd", function="#50fa7b",
        italic=("builtin",), dark=True,
    ),
    "one-dark": CodeTheme(
        "#282c34", "#abb2bf", "#282c34",
        comment="#7f848e", keyword="#c678dd", string="#98c379", number="#d19a66",
        type="#e5c07b", builtin="#e5c07b", function="#61afef",
        bold=("function",), dark=True,
    ),
    "solarized-light": CodeTheme(
        "#fdf6e3", "#657b83", "#eee8d5",
        comment="#93a1a1", keyword="#859900", string="#2aa198", number="#2aa198",
        type="#b58900", builtin="#268bd2", function="#268bd2", italic=("comment",),
    ),
    "solarized-dark": CodeTheme(
        "#002b36", "#839496", "#073642",
        comment="#586e75", keyword="#859900", string="#2aa198", number="#2aa198",
        type="#b58900", builtin="#268bd2", function="#268bd2",
        italic=("comment",), dark=True,
    ),
    "nord": CodeTheme(
        "#2e3440", "#d8dee9", "#3b4252",
        comment="#616e87", keyword="#81a1c1", string="#a3be8c", number="#b48ead",
        type="#81a1c1", builtin="#81a1c1", function="#88c0d0",
        italic=("comment",), bold=("keyword",), dark=True,
    ),
    "vs": CodeTheme(
        "#ffffff", "#000000", "#e5e5e5",
        comment="#008000", keyword="#0000ff", string="#a31515", number="#000000",
        type="#2b91af", builtin="#000000", function="#000000",
    ),
    "xcode": CodeTheme(
        "#ffffff", "#000000", "#e5e5e5",
        comment="#177500", keyword="#a90d91", string="#c41a16", number="#1c01ce",
        type="#a90d91", builtin="#a90d91", function="#000000",
    ),
}  # fmt: skip


def code_theme_names() -> list[str]:
    """The code themes' names, in the order ``GET /api/themes`` lists them."""
    return list(CODE_THEMES)
