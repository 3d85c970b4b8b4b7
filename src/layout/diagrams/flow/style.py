"""A flowchart's styling statements → each node's and edge's `Look` (the author's colours
and label weight and slant).

`classDef`, `class`, `A:::name`, `style` and `linkStyle` (numbered or `default`) are read as
mermaid-js reads them (class and state diagrams share this sheet with flowcharts): a node takes
`classDef default`, then its classes in the order given, then its own `style`; an edge takes
`linkStyle default`, then its own. `font-weight` and `font-style` set a label bold or
slanted; other text properties (size, family) stay the theme's. Colours are read by the
engine's one CSS colour parser (`layout.parse.color_hex`, tinycss2's CSS Color 4), so every
spelling a browser takes is taken; a value it refuses is dropped as a browser drops it. A
`Look`'s colours are `#rrggbb` strings, which the drawing passes on as colour roles.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

from ...errors import DiagramError
from ...parse import color_hex

MAX_WIDTH = 8.0  # px: the widest stroke an author's `stroke-width` gets
MAX_DASH = 40.0  # px: the longest dash or gap
MAX_NAMES = 400  # names, ids or link numbers in one styling statement
KEYWORDS = ("classDef", "class", "style", "linkStyle")


@dataclass(frozen=True, slots=True)
class Look:
    """What an author set on a node or an edge; None: the theme's."""

    fill: str | None = None  # #rrggbb
    stroke: str | None = None
    width: float | None = None  # px
    color: str | None = None  # the label's ink
    dash: tuple[float, float] | None = None
    bold: bool | None = None  # font-weight: the label set bold (and measured so)
    italic: bool | None = None  # font-style: the label slanted (as wide as upright)

    def over(self, base: Look) -> Look:
        """This look with `base`'s values where this one sets none."""
        changes = {f.name: getattr(self, f.name) for f in fields(self)}
        return replace(base, **{k: v for k, v in changes.items() if v is not None})


PLAIN = Look()


def parse_look(declarations: str) -> Look:
    """``fill:#f9f,stroke:#333,stroke-width:2px,color:#fff,stroke-dasharray: 5 5`` → a Look;
    unknown properties and values no browser would take are dropped."""
    look = PLAIN
    for name, value in _declarations(declarations):
        if name in ("fill", "background", "background-color"):
            look = replace(look, fill=opaque_colour(value))
        elif name in ("stroke", "border-color"):
            look = replace(look, stroke=opaque_colour(value))
        elif name == "color":
            look = replace(look, color=opaque_colour(value))
        elif name == "stroke-width":
            look = replace(look, width=_length(value, MAX_WIDTH))
        elif name == "stroke-dasharray":
            look = replace(look, dash=_dash(value))
        elif name == "font-weight":
            look = replace(look, bold=_bold(value))
        elif name == "font-style":
            look = replace(look, italic=_italic(value))
    return look


def _declarations(text: str) -> list[tuple[str, str]]:
    """``name:value`` pairs split at commas outside parentheses; a piece without a colon
    goes on the value before it (``stroke-dasharray: 5, 5``)."""
    pieces, depth, start = [], 0, 0
    for at, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if char == "," and depth <= 0:
            pieces.append(text[start:at])
            start = at + 1
    pieces.append(text[start:])
    out: list[tuple[str, str]] = []
    for piece in pieces:
        name, colon, value = piece.partition(":")
        if colon:
            out.append((name.strip().lower(), value.strip().removesuffix("!important").strip()))
        elif out and piece.strip():
            out[-1] = (out[-1][0], f"{out[-1][1]} {piece.strip()}")
    return out


def opaque_colour(value: str) -> str | None:
    """A CSS colour as `#rrggbb` (a see-through one drawn opaque); None for a value no
    browser takes."""
    found = color_hex(value) if len(value) <= 64 else None
    return found[:7] if found else None  # a see-through colour: drawn opaque


def _bold(value: str) -> bool | None:
    """CSS `font-weight`: bold, bolder or 600 and up set bold; normal, lighter or under
    600 not (the label's own weight); anything else is dropped, as a browser drops it."""
    keyword = value.strip().lower()
    if keyword in ("bold", "bolder"):
        return True
    if keyword in ("normal", "lighter"):
        return False
    number = _number(keyword)
    return None if number is None or not 1 <= number <= 1000 else number >= 600


def _italic(value: str) -> bool | None:
    """CSS `font-style`: italic or oblique (with or without an angle) slant; normal not."""
    keyword = value.strip().lower().split(" ")[0]
    return {"italic": True, "oblique": True, "normal": False}.get(keyword)


def _number(text: str) -> float | None:
    text = text.strip().removesuffix("px")
    try:
        number = float(text)
    except ValueError:
        return None
    return number if 0 <= number < 1e6 else None


def _length(value: str, most: float) -> float | None:
    number = _number(value)
    return None if number is None else min(number, most)


def _dash(value: str) -> tuple[float, float] | None:
    numbers = [_number(part) for part in value.replace(",", " ").split()[:2]]
    if not numbers or any(n is None for n in numbers):
        return None
    dash = min(numbers[0] or 0.0, MAX_DASH)
    gap = min(numbers[-1] or 0.0, MAX_DASH)
    return (dash, gap) if dash > 0 and gap > 0 else None


@dataclass
class StyleSheet:
    """The styling statements of one flowchart, as read in order."""

    classes: dict[str, Look] = field(default_factory=dict)
    node_classes: dict[str, list[str]] = field(default_factory=dict)
    node_styles: dict[str, Look] = field(default_factory=dict)
    link_styles: dict[int, Look] = field(default_factory=dict)
    link_default: Look = PLAIN

    def take(self, statement: str) -> bool:
        """Reads a styling statement; False when the statement is not one."""
        keyword, _, rest = statement.strip().removesuffix(";").partition(" ")
        if keyword not in KEYWORDS:
            return False
        names, _, declarations = rest.strip().partition(" ")
        declarations = declarations.strip()
        if keyword == "class":  # `class a,b name`; a state diagram's `class a, b name`
            ids, _, classes = rest.strip().rpartition(" ")
            self.add_classes(_names(ids), classes)
        elif keyword == "classDef":
            for name in _names(names):
                self.classes[name] = parse_look(declarations).over(self.classes.get(name, PLAIN))
        elif keyword == "style":
            self.node_styles[names] = parse_look(declarations).over(
                self.node_styles.get(names, PLAIN)
            )
        else:  # `linkStyle 0 interpolate basis stroke:…`: the curve is ours to choose
            if declarations.startswith("interpolate "):
                declarations = declarations[len("interpolate ") :].lstrip().partition(" ")[2]
            self._link_style(names, parse_look(declarations))
        return True

    def add_classes(self, ids: list[str], classes: str) -> None:
        """`class a,b name` and `a:::name`: the nodes take the classes (a comma list)."""
        for ident in ids:
            self.node_classes.setdefault(ident, []).extend(_names(classes))

    def _link_style(self, names: str, look: Look) -> None:
        if names == "default":
            self.link_default = look.over(self.link_default)
            return
        for name in _names(names):
            if not name.isdigit():
                raise DiagramError(f"linkStyle expects link numbers, got {name[:20]!r}")
            index = int(name)
            self.link_styles[index] = look.over(self.link_styles.get(index, PLAIN))

    def node_look(self, ident: str, default: bool = True) -> Look:
        """A node's look: `classDef default`, its classes in order, then its `style`
        (`default` False: a subgraph's, which `classDef default` does not style)."""
        look = self.classes.get("default", PLAIN) if default else PLAIN
        for name in self.node_classes.get(ident, ()):
            look = self.classes.get(name, PLAIN).over(look)
        return self.node_styles.get(ident, PLAIN).over(look)

    def edge_look(self, index: int) -> Look:
        """The look of the edge written `index`-th (from 0): `linkStyle default`, then its own."""
        return self.link_styles.get(index, PLAIN).over(self.link_default)


def _names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if len(names) > MAX_NAMES:
        raise DiagramError(f"more than {MAX_NAMES} names in one styling statement")
    return names
