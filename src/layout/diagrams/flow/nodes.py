"""A flowchart node's shape after its id → (shape, label, end): the bracket forms and Mermaid
11's ``A@{ shape: …, label: "…" }``.

Every Mermaid 11 shape name and alias (the table mermaid-js itself keys its shape handlers
by) maps to the shape we draw (`shapes` draws each); a name not in the table raises
`DiagramError` naming it. Read with `str.find` and one pass over ``@{…}``: no pattern sees the
source here.
"""

from __future__ import annotations

from ...errors import DiagramError

# Opening brackets, longest first, with their closers and the shape we draw for them.
BRACKETS = (
    ("(((", ")))", "dcircle"),
    ("((", "))", "circle"),
    ("([", "])", "stadium"),
    ("[[", "]]", "subroutine"),
    ("[(", ")]", "cylinder"),
    ("[/", "\\]", "trap-b"),  # `[/ \]`: its base at the bottom
    ("[\\", "/]", "trap-t"),
    ("[/", "/]", "lean-r"),
    ("[\\", "\\]", "lean-l"),
    ("{{", "}}", "hexagon"),
    ("[", "]", "rect"),
    ("(", ")", "round"),
    ("{", "}", "rhombus"),
    (">", "]", "odd"),
)

# Mermaid 11's `@{ shape }` names → the shape we draw: each short name first, then its
# aliases. Drawn as their own shape unless the comment names the nearest one we draw.
_NAMES: dict[str, tuple[str, ...]] = {
    "rect": ("rect", "proc", "process", "rectangle", "squareRect"),
    "round": ("rounded", "event", "roundedRect"),
    "stadium": ("stadium", "terminal", "pill"),
    "subroutine": ("fr-rect", "subprocess", "subproc", "framed-rectangle", "subroutine"),
    "cylinder": ("cyl", "db", "database", "cylinder"),
    "lin-cyl": ("lin-cyl", "disk", "lined-cylinder", "datastore", "data-store"),
    "h-cyl": ("h-cyl", "das", "horizontal-cylinder"),
    "circle": ("circle", "circ"),
    "dcircle": ("dbl-circ", "double-circle", "doublecircle"),
    "rhombus": ("diam", "decision", "diamond", "question"),
    "hexagon": ("hex", "hexagon", "prepare"),
    "lean-r": ("lean-r", "lean-right", "in-out"),
    "lean-l": ("lean-l", "lean-left", "out-in"),
    "trap-b": ("trap-b", "priority", "trapezoid-bottom", "trapezoid"),
    "trap-t": ("trap-t", "manual", "trapezoid-top", "inv-trapezoid"),
    "odd": ("odd", "rect_left_inv_arrow"),
    "text": ("text",),
    "notch-rect": ("notch-rect", "card", "notched-rectangle"),
    "lin-rect": ("lin-rect", "lined-rectangle", "lined-process", "lin-proc", "shaded-process"),
    "sm-circ": ("sm-circ", "start", "small-circle"),
    "fr-circ": ("fr-circ", "stop", "framed-circle"),
    "fork": ("fork", "join"),
    "hourglass": ("hourglass", "collate"),
    "brace": ("brace", "comment", "brace-l"),
    "brace-r": ("brace-r",),
    "braces": ("braces",),
    "bolt": ("bolt", "com-link", "lightning-bolt"),
    "doc": ("doc", "document"),
    "delay": ("delay", "half-rounded-rectangle"),
    "curv-trap": ("curv-trap", "curved-trapezoid", "display"),
    "div-rect": ("div-rect", "div-proc", "divided-rectangle", "divided-process"),
    "tri": ("tri", "extract", "triangle"),
    "win-pane": ("win-pane", "internal-storage", "window-pane"),
    "f-circ": ("f-circ", "junction", "filled-circle"),
    "notch-pent": ("notch-pent", "loop-limit", "notched-pentagon"),
    "flip-tri": ("flip-tri", "manual-file", "flipped-triangle"),
    "sl-rect": ("sl-rect", "manual-input", "sloped-rectangle"),
    "docs": ("docs", "documents", "st-doc", "stacked-document"),
    "st-rect": ("st-rect", "procs", "processes", "stacked-rectangle"),
    "bow-rect": ("bow-rect", "stored-data", "bow-tie-rectangle"),
    "cross-circ": ("cross-circ", "summary", "crossed-circle"),
    "tag-doc": ("tag-doc", "tagged-document", "lin-doc", "lined-document"),  # lin-doc: tag-doc
    "tag-rect": ("tag-rect", "tagged-rectangle", "tag-proc", "tagged-process"),
    "flag": ("flag", "paper-tape"),
}
# the newest, rarely written: the nearest shape we draw (mind-map shapes: a rounded box)
_NEAREST = {"bang": "round", "cloud": "round", "folder": "rect", "directory": "rect"}
_NEAREST |= dict.fromkeys(("bucket", "console", "browser", "person"), "rect")
SHAPE_NAMES = {alias: shape for shape, names in _NAMES.items() for alias in names} | _NEAREST
# shapes drawn without their label, as mermaid-js draws them (start/stop dots, bars, bolts)
WITHOUT_LABEL = frozenset(
    {"sm-circ", "f-circ", "fr-circ", "fork", "hourglass", "bolt", "cross-circ"}
)
MAX_FIELDS = 16  # `key: value` pairs in one `@{…}`


class NodeShape:
    """A node's shape as read: the shape we draw, its raw label (None: the id) and where
    the shape's text ends in the statement."""

    __slots__ = ("end", "label", "shape")

    def __init__(self, shape: str, label: str | None, end: int) -> None:
        self.shape, self.label, self.end = shape, label, end


def node_shape(text: str, pos: int) -> NodeShape | None:
    """The bracketed or ``@{…}`` shape after a node id at ``pos``; None when there is none."""
    if text.startswith("@{", pos):
        return _attributes(text, pos)
    for opener, closer, shape in BRACKETS:
        if not text.startswith(opener, pos):
            continue
        start = pos + len(opener)
        if opener in ("[/", "[\\") and not _closes_with(text, start, closer):
            continue  # `[/ … \]` and `[/ … /]` share their opener: the closer tells them apart
        label, end = _bracket_label(text, start, closer, opener)
        return NodeShape(shape, label, end)
    return None


def _closes_with(text: str, start: int, closer: str) -> bool:
    """Whether the first of ``/]`` and ``\\]`` after ``start`` is ``closer``."""
    ends = [(text.find(c, start), c) for c in ("/]", "\\]")]
    found = [(at, c) for at, c in ends if at >= 0]
    return bool(found) and min(found)[1] == closer


def _bracket_label(text: str, start: int, closer: str, opener: str) -> tuple[str, int]:
    """The label from ``start`` to ``closer`` (a quoted label may hold the closer)."""
    at = start
    while at < len(text) and text[at] == " ":
        at += 1
    if at < len(text) and text[at] == '"':
        quote_end = text.find('"', at + 1)
        if quote_end >= 0:
            after = quote_end + 1
            while after < len(text) and text[after] == " ":
                after += 1
            if text.startswith(closer, after):
                return text[at : quote_end + 1], after + len(closer)
    end = text.find(closer, start)
    if end < 0:
        raise DiagramError(f"unclosed {opener!r} in {text[start - len(opener) : start + 30]!r}")
    return text[start:end], end + len(closer)


def _attributes(text: str, pos: int) -> NodeShape:
    """``@{ shape: cyl, label: "Orders" }``: its shape (a rectangle when none is named) and
    label; `DiagramError` for an unknown shape, an icon or image node, or no closing brace."""
    end = _closing_brace(text, pos + 2)
    fields = _fields(text[pos + 2 : end])
    if "icon" in fields or "img" in fields:
        raise DiagramError("icon and image nodes (`@{ icon: … }`, `@{ img: … }`) are not drawn")
    name = fields.get("shape", "rect")
    shape = SHAPE_NAMES.get(name)
    if shape is None:
        raise DiagramError(f"unknown flowchart shape {name[:40]!r}")
    return NodeShape(shape, fields.get("label"), end + 1)


def _closing_brace(text: str, start: int) -> int:
    """The ``}`` that closes an ``@{`` (braces inside quotes do not count)."""
    quote = ""
    for at in range(start, len(text)):
        char = text[at]
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "}":
            return at
    raise DiagramError("unclosed '@{' in a node")


def _fields(body: str) -> dict[str, str]:
    """``key: value`` pairs split at commas and line ends outside quotes; a value's quotes off."""
    fields: dict[str, str] = {}
    for part in _split_outside_quotes(body):
        key, colon, value = part.partition(":")
        if not part.strip():
            continue
        if not colon:
            raise DiagramError(f"expected `key: value` in '@{{…}}', got {part.strip()[:30]!r}")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        fields[key.strip()] = value
        if len(fields) > MAX_FIELDS:
            raise DiagramError("too many fields in '@{…}'")
    return fields


def _split_outside_quotes(body: str) -> list[str]:
    parts, quote, start = [], "", 0
    for at, char in enumerate(body):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in ",\n":
            parts.append(body[start:at])
            start = at + 1
    parts.append(body[start:])
    return parts


def open_attributes(line: str) -> bool:
    """Whether a line leaves an ``@{`` open (its fields go on over the next lines)."""
    at = line.rfind("@{")
    if at < 0:
        return False
    try:
        _closing_brace(line, at + 2)
    except DiagramError:
        return True
    return False
