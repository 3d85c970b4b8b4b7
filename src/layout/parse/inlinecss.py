"""The inline HTML that cards and articles share: the tags raw HTML may use, the inline CSS
properties that pass, and the one colour parser (CSS Color 4, read by tinycss2).

Articles keep the allowed declarations as written (WeChat keeps inline `style`); cards draw
the ones they can (htmltags.py) and drop the rest. A declaration that could fetch, run or
leave the column (`url()`, `expression()`, `javascript:`, `position`, `behavior`) never
passes: its property is not on the list, or its value holds a function or word we refuse.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache

# Tags raw HTML may use in an article (everything else is dropped, its text kept); cards
# read the inline ones among them (htmltags.py).
HTML_TAGS = frozenset({
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em", "h1",
    "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "li", "mark", "ol",
    "p", "pre", "q", "s", "section", "small", "span", "strong", "sub", "sup", "table",
    "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul",
})  # fmt: skip
# Tags that may carry a `style` attribute.
STYLED_TAGS = frozenset({
    "b", "blockquote", "del", "div", "em", "h1", "h2", "h3", "h4", "h5", "h6", "i", "ins",
    "mark", "p", "s", "section", "small", "span", "strong", "sub", "sup", "td", "th", "u",
})  # fmt: skip
_SIDES = ("", "-top", "-right", "-bottom", "-left")
# Inline CSS that passes: text, colour and box looks; nothing that positions, fetches or runs.
STYLE_PROPERTIES = frozenset({
    "color", "background", "background-color", "font-size", "font-weight", "font-style",
    "font-family", "text-decoration", "text-align", "text-indent", "line-height",
    "letter-spacing", "border-radius", "border-color", "border-style", "border-width",
    *(f"border{side}" for side in _SIDES),
    *(f"padding{side}" for side in _SIDES),
    *(f"margin{side}" for side in _SIDES),
})  # fmt: skip
COLOR_PROPERTIES = frozenset({"color", "background-color", "border-color"})
# Functions that fetch, run or reach outside the declaration; words that run script.
_REFUSED_FUNCTIONS = frozenset({
    "url", "expression", "image", "image-set", "-webkit-image-set", "element", "cross-fade",
    "var", "env", "attr", "src",
})  # fmt: skip
_REFUSED_WORDS = ("javascript", "expression", "vbscript", "behavior", "binding")
MAX_STYLE = 2000  # characters of one `style` attribute; a longer one is dropped whole
_N = r"\d{1,3}"


def css_color(value: str) -> int | None:
    """A CSS colour (names, `#hex`, `rgb()`, `hsl()`, `hwb()`, `lab()`… in either syntax) as
    an ARGB int; None for anything else, `currentcolor` and colours sRGB cannot hold."""
    import tinycss2.color4  # here: a card without inline colours never loads the parser

    try:
        parsed = tinycss2.color4.parse_color(value.strip())
        if parsed is None or isinstance(parsed, str):
            return None
        channels = parsed.to("srgb").coordinates
    except (NotImplementedError, ValueError, TypeError):
        return None
    r, g, b = (_byte(c) for c in channels)
    return (_byte(float(parsed.alpha)) << 24) | (r << 16) | (g << 8) | b


def color_hex(value: str) -> str | None:
    """`value` as `#rrggbb` (`#rrggbbaa` when not opaque), or None when it is no colour."""
    argb = css_color(value)
    if argb is None:
        return None
    alpha = argb >> 24
    text = f"#{argb & 0xFFFFFF:06x}"
    return text if alpha == 255 else f"{text}{alpha:02x}"


@lru_cache(maxsize=512)  # a post repeats its few styles; a hostile one repeats one
def safe_declarations(style: str) -> tuple[tuple[str, str], ...]:
    """The allowed, safe declarations of a `style` attribute, (property, value) in order,
    property in lower case, value as written (`!important` dropped) or, when it is one
    colour, as `#hex`."""
    if len(style) > MAX_STYLE:
        return ()
    import tinycss2  # here: a card without inline styles never loads the parser

    kept: list[tuple[str, str]] = []
    for item in tinycss2.parse_blocks_contents(style, skip_comments=True, skip_whitespace=True):
        if item.type != "declaration":
            continue
        name = item.lower_name
        if name not in STYLE_PROPERTIES or not _safe(item.value):
            continue
        value = tinycss2.serialize(item.value).strip()
        color = color_hex(value) if value else None
        if not value or (name in COLOR_PROPERTIES and color is None):
            continue
        kept.append((name, color or value))  # colours as `#hex`: every reader knows it
    return tuple(kept)


def clean_style(style: str) -> str:
    """A `style` attribute reduced to its allowed, safe declarations ("" when none)."""
    return ";".join(f"{name}:{value}" for name, value in safe_declarations(style))


def color_pattern() -> str:
    """The colour forms a JSON schema can state: CSS Color 4's names, `#hex`, and
    space-separated `rgb()` and `hsl()`; `css_color` reads every CSS colour."""
    import tinycss2.color4

    names = "|".join(sorted(getattr(tinycss2.color4, "_COLOR_KEYWORDS", {})))
    hexes = "#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})"
    return f"^({hexes}|rgb\\({_N} {_N} {_N}\\)|hsl\\({_N} {_N}% {_N}%\\)|{names})$"


def _safe(tokens: Iterable[object]) -> bool:
    for token in _walk(tokens):
        kind = getattr(token, "type", "")
        # "error": a bad url(…) or an unclosed string, which would pass as "url([bad url])"
        if kind in ("url", "error", "at-keyword", "() block", "{} block", "[] block"):
            return False
        if kind == "function" and getattr(token, "lower_name", "") in _REFUSED_FUNCTIONS:
            return False
        if kind in ("ident", "string", "function"):
            text = str(getattr(token, "value", "") or getattr(token, "name", "")).lower()
            if any(word in text for word in _REFUSED_WORDS):
                return False
        if kind == "literal" and getattr(token, "value", "") in ("\\", "<", ">", "{", "}"):
            return False
    return True


def _walk(tokens: Iterable[object]) -> Iterator[object]:
    for token in tokens:
        yield token
        if getattr(token, "type", "") == "function":
            yield from _walk(getattr(token, "arguments", ()))


def _byte(channel: float) -> int:
    """A colour channel of 0..1 (clamped) as 0..255."""
    return round(max(0.0, min(1.0, channel)) * 255)
