"""The inline HTML subset, read from text without ever building an HTML tree.

`<br>`, the inline tags of `PLAIN_TAGS` (`<u>`, `<b>`, `<mark>`, `<kbd>`, …), `<span
style>` and `<font size color face>` (and, in mdxMode, `<Badge>`) become inline *marks*:
strings in a `Text`'s mark set, so they ride along with the Markdown roles (`strong`, `em`,
…). A valued mark is `key:value` (`color:#ff0000ff`, `size:1.5`); an inner tag's value
replaces an outer one's. Styles pass the allow-list articles use too (inlinecss.py); a
card draws the declarations it can (colour, background, size, weight, italic, underline,
strike, family) and leaves the others out; another tag of that list (`<div>`, `<p>`, …)
keeps its text and draws its style the same way. Anything else — an unknown tag, a
malformed or overlong tag — stays literal text.

The scanner is linear: it looks for `<`, then reads one bounded tag with plain string
operations (no backtracking patterns), so hostile text costs its length and no more.
"""

from __future__ import annotations

import msgspec

from .inlinecss import HTML_TAGS, css_color, safe_declarations

MAX_TAG = 300  # characters from `<` to `>`; a longer "tag" is text
SIZE_RANGE = (0.5, 3.0)  # font sizes, as a share of the text's own size
WEIGHT_RANGE = (100, 900)
_FONT_SIZES = {1: 0.625, 2: 0.8125, 3: 1.0, 4: 1.125, 5: 1.5, 6: 2.0, 7: 3.0}  # HTML 1..7
_FACES = {  # font-family names → the engine's families
    "serif": "serif-cjk",
    "song": "serif-cjk",
    "宋体": "serif-cjk",
    "sans-serif": "sans",
    "sans": "sans",
    "黑体": "sans",
    "monospace": "mono",
    "mono": "mono",
    "kai": "kai",
    "楷体": "kai",
    "cursive": "kai",
    "typewriter": "typewriter",
    "courier": "typewriter",
}
PLAIN_TAGS = {
    "u": "u", "ins": "u", "mark": "mark", "sup": "sup", "sub": "sub", "kbd": "inline_code",
    "b": "strong", "strong": "strong", "i": "em", "em": "em", "s": "del", "del": "del",
    "small": "size:0.8125",
}  # fmt: skip
MDX_INLINE = {"Badge": "badge"}  # inline components, only in mdxMode
VALUED = ("color:", "bg:", "size:", "weight:", "face:")


class Tag(msgspec.Struct, frozen=True):
    """One tag of the subset: its name, whether it closes, the marks it opens."""

    name: str
    closing: bool
    source: str  # the tag as written, for a closing tag with nothing to close
    marks: frozenset[str] = frozenset()
    is_break: bool = False


def split_tags(text: str, mdx: bool = False) -> list[str | Tag]:
    """The text cut into literal strings and tags of the subset, in order."""
    out: list[str | Tag] = []
    start = 0
    literal_from = 0
    while (at := text.find("<", start)) >= 0:
        end = text.find(">", at + 1, at + MAX_TAG)
        tag = read_tag(text[at : end + 1], mdx) if end > 0 else None
        if tag is None:
            start = at + 1
            continue
        if at > literal_from:
            out.append(text[literal_from:at])
        out.append(tag)
        start = literal_from = end + 1
    if literal_from < len(text):
        out.append(text[literal_from:])
    return out


def read_tag(source: str, mdx: bool) -> Tag | None:
    """The tag `source` (from `<` to `>`), or None when it is not one of the subset."""
    inner = source[1:-1]
    closing = inner.startswith("/")
    body = inner[1:] if closing else inner
    self_closing = body.endswith("/")
    body = body.removesuffix("/")
    name, _, rest = body.partition(" ")
    if not name or "\n" in name or (closing and (self_closing or rest.strip())):
        return None
    lower = name.lower()
    if lower == "br" and not closing:
        return Tag("br", False, source, is_break=True)
    if self_closing:
        return None
    if mdx and name in MDX_INLINE:
        return Tag(name, closing, source, frozenset({MDX_INLINE[name]}))
    attrs = read_attributes(rest) if not closing else {}
    if attrs is None:
        return None
    if lower in PLAIN_TAGS:
        marks = frozenset({PLAIN_TAGS[lower]}) | _style_marks(attrs.get("style", ""))
        return Tag(lower, closing, source, marks)
    if lower == "span":
        return Tag("span", closing, source, _style_marks(attrs.get("style", "")))
    if lower == "font":
        return Tag("font", closing, source, _font_marks(attrs))
    if lower in HTML_TAGS:  # allowed in articles: its text stays, its style as it can
        return Tag(lower, closing, source, _style_marks(attrs.get("style", "")))
    return None


def read_attributes(text: str) -> dict[str, str] | None:
    """`name="value"` pairs (single or double quotes, or a bare word); None if malformed."""
    attrs: dict[str, str] = {}
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in " \t\n":
            i += 1
        if i >= n:
            return attrs
        eq = text.find("=", i)
        if eq < 0:
            return None
        name = text[i:eq].strip().lower()
        if not name.replace("-", "").isalnum():
            return None
        i = eq + 1
        if i < n and text[i] in "\"'":
            close = text.find(text[i], i + 1)
            if close < 0:
                return None
            attrs[name], i = text[i + 1 : close], close + 1
        else:
            stop = i
            while stop < n and text[stop] not in " \t\n":
                stop += 1
            if stop == i:
                return None
            attrs[name], i = text[i:stop], stop


def _style_marks(style: str) -> frozenset[str]:
    """Marks of the `style` declarations a card can draw; the others (allowed in articles,
    or refused in both) are left out, so the tag never shows as text."""
    marks = (_declaration(prop, value) for prop, value in safe_declarations(style))
    return frozenset(mark for mark in marks if mark is not None)


def _declaration(prop: str, value: str) -> str | None:
    if prop == "color":
        color = css_color(value)
        return None if color is None else f"color:{color}"
    if prop in ("background", "background-color"):
        color = css_color(value)
        return None if color is None else f"bg:{color}"
    if prop == "font-size":
        share = css_size(value)
        return None if share is None else f"size:{share:g}"
    if prop == "font-weight":
        weight = css_weight(value)
        return None if weight is None else f"weight:{weight}"
    if prop == "font-style":
        return "em" if value.lower() in ("italic", "oblique") else None
    if prop == "text-decoration":
        return _DECORATIONS.get(value.lower().split(" ")[0])
    if prop == "font-family":
        family = _face(value)
        return None if family is None else f"face:{family}"
    return None


_DECORATIONS = {"underline": "u", "line-through": "del"}


def _font_marks(attrs: dict[str, str]) -> frozenset[str]:
    """Marks of `<font>`'s attributes; one out of range or unknown is left out."""
    marks: set[str | None] = set()
    for name, value in attrs.items():
        if name == "color":
            color = css_color(value)
            marks.add(None if color is None else f"color:{color}")
        elif name == "size":
            share = font_size(value)
            marks.add(None if share is None else f"size:{share:g}")
        elif name == "face":
            family = _face(value)
            marks.add(None if family is None else f"face:{family}")
    return frozenset(mark for mark in marks if mark is not None)


def css_size(value: str) -> float | None:
    """`font-size` as a share of the text's size: `20px` (over a 16px base), `1.5em`,
    `150%`, or a bare number of px; clamped to SIZE_RANGE."""
    value = value.strip().lower()
    for unit, per in (("px", 1 / 16), ("em", 1.0), ("rem", 1.0), ("%", 0.01), ("", 1 / 16)):
        if value.endswith(unit):
            number = _number(value.removesuffix(unit) if unit else value)
            return None if number is None else _clamp(number * per, *SIZE_RANGE)
    return None


def font_size(value: str) -> float | None:
    """`<font size>`: 1..7 as HTML (3 is the text's own size), `+n`/`-n` from 3; larger
    numbers count as 7, as browsers do."""
    value = value.strip()
    relative = value[:1] in "+-" and value[:1] != ""
    number = _number(value.lstrip("+-"))
    if number is None or number != int(number):
        return None
    step = int(number)
    if relative:
        step = 3 + step if value.startswith("+") else 3 - step
    return _FONT_SIZES[max(1, min(7, step))]


def css_weight(value: str) -> int | None:
    value = value.strip().lower()
    named = {"normal": 400, "bold": 700, "bolder": 700, "lighter": 300}
    if value in named:
        return named[value]
    number = _number(value)
    return None if number is None else round(_clamp(number, *WEIGHT_RANGE))


def _face(value: str) -> str | None:
    for name in value.split(","):
        family = _FACES.get(name.strip().strip("\"'").lower())
        if family is not None:
            return family
    return None


def _number(text: str) -> float | None:
    if not text or len(text) > 12 or text.count(".") > 1:
        return None
    if not text.replace(".", "", 1).isdigit() or not text.isascii():
        return None
    return float(text)


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def with_marks(marks: frozenset[str], added: frozenset[str]) -> frozenset[str]:
    """`marks` with `added` in force: an added valued mark replaces the same key's."""
    keys = {m.split(":", 1)[0] + ":" for m in added if m.startswith(VALUED)}
    if not keys:
        return marks | added
    return frozenset(m for m in marks if not m.startswith(tuple(keys))) | added


def mark_value(marks: frozenset[str], key: str) -> str | None:
    """The value of the valued mark `key` (`color`, `bg`, `size`, `weight`, `face`)."""
    prefix = key + ":"
    for mark in marks:
        if mark.startswith(prefix):
            return mark[len(prefix) :]
    return None
