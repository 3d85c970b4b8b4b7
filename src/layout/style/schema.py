"""Theme knobs → the schema a card theme file is checked against, and the base card model.

Every knob is written once, as a field of `Style` (its name, type and resolved default); the
theme-file schema `Role` (every knob optional, unknown names refused) is derived from it, and
the shared card model `BASE_ROLES` (after md2card's base CSS) is checked against `Role` at
import. A theme file (`Theme`) names only what differs from that model. Colour knobs
(`Color`) are ARGB ints once resolved; in files they are `#rgb`, `#rrggbb`, `#rrggbbaa`,
`rgb()`/`rgba()` or the name of a token in the theme's palette for the chosen mode. Paint
knobs (`PaintKnob`: fills, bars, borders) take a colour or a gradient or pattern table
(paint.py); `effects` takes a list of effect tables. Decorations are the kinds in
decorations.py (specs only: the schema imports no shaping, fonts or drawing). resolver.py
turns a theme into concrete styles; theme.py decodes and checks a theme file.
"""

# Annotations here are objects, not strings (no `from __future__ import annotations`):
# `_knobs` reads `Style`'s 63 at import, and as strings `get_type_hints` compiled and
# evaluated each one (1.1-2.2 ms against 0.5-1.0 on a busy machine, in every cold start).
import dataclasses
from dataclasses import dataclass
from types import UnionType
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

import msgspec

from ..base.boxes import Effect, Paint
from .decorations import Decoration
from .paint import EffectSpec, GlowSpec, PaintSpec, ShadowSpec
from .spanstyle import BOLD_WEIGHT, CjkItalic

Align = Literal["left", "center", "right", "justify"]
Anchor = Literal["top-left", "top-right", "bottom-left", "bottom-right"]
MarkerShape = Literal["disc", "circle", "square", "diamond", "star", "dash", "check", "arrow"]
COLOR = "color"  # the mark of a colour knob
PAINT = "paint"  # the mark of a knob that also takes gradients and patterns
EFFECTS = "effects"  # the mark of the effects knob
Color = Annotated[int, COLOR]  # ARGB in a resolved Style; a colour string in a theme file
PaintKnob = Annotated[Paint, COLOR, PAINT]  # resolved paint; a `PaintSpec` in a theme file
Effects = Annotated[tuple[Effect, ...], EFFECTS]  # resolved; a list of `EffectSpec` in a file
TEXT_EFFECTS = "text effects"  # the mark of the glyph effects knob (shadow and glow only)
TextEffects = Annotated[tuple[Effect, ...], TEXT_EFFECTS]  # resolved; shadow/glow tables in a file
TextTransform = Literal["none", "uppercase", "lowercase"]
Underline = Literal["none", "solid", "dashed", "dotted", "wavy"]
Share = Annotated[float, msgspec.Meta(gt=0.0, le=1.0)]
Squeeze = Annotated[float, msgspec.Meta(ge=0.0, le=0.9)]  # a share that may be none
MAX_INSET = 120.0  # px a card may be inset by: a quarter of the default card's width
Inset = Annotated[float, msgspec.Meta(ge=0.0, le=MAX_INSET)]


class _Strict(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


@dataclass(frozen=True, slots=True)
class Style:
    """Every knob a role has, with its concrete value; the defaults are what a role that
    does not set a knob gets. Colours are ARGB ints, None where the role has none."""

    family: str = "sans"
    size: float = 16.0
    weight: int = 400
    italic: bool = False
    cjk_italic: CjkItalic = "kai"  # italic CJK: Kai face (clreq), a slant, or upright
    color: Color = 0xFF24292E
    line_height: float = 1.75
    align: Align = "left"
    margin_top: float = 0.0
    margin_bottom: float = 0.0
    background: PaintKnob | None = None
    radius: float = 0.0
    padding: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    bar_width: float = 0.0
    bar_color: PaintKnob | None = None
    border_color: PaintKnob | None = None
    border_width: float = 0.0
    marker_color: Color | None = None
    marker_size: float = 0.0
    marker_gap: float = 0.0
    indent: float = 0.0
    item_gap: float = 0.0
    strong_color: Color | None = None
    header_background: PaintKnob | None = None
    header_color: Color | None = None
    header_height: float = 0.0
    footer_height: float = 0.0
    gap_squeeze: Squeeze = 0.0  # card: the share of block spacing given up to save a card
    type_scale: Literal["auto", "none"] = "none"  # card: "auto" zooms a card larger than 3:4
    content_align: Literal["top", "center", "auto"] = "top"  # card: a one-card post's rows
    effects: Effects = ()
    # card: drawn this far inside the image, on `outer_background`, so that its `radius`
    # and its `effects` (a shadow) show; 0: the card is the whole image
    inset: Inset = 0.0
    outer_background: PaintKnob | None = None  # card: around an inset card (a light grey)
    format: str = "{n}/{total}"
    format_latin: str = ""  # page_number: `format` on a post that is not Chinese ("" keeps it)
    position: Literal["bottom", "top"] = "bottom"
    # Block vocabulary: list markers and badges, table frames, rules, image frames.
    marker_shape: MarkerShape = "disc"  # a top-level bullet
    # a top-level bullet set as this text instead (notebook's ✎, nature's 🍃, darktech's >),
    # `marker_size` px type in `marker_color`; on the number's badge with `marker_badge`
    marker_text: Annotated[str, msgspec.Meta(max_length=4)] = ""
    marker_badge: bool = False  # coil-notebook's ★ on the yellow disc its numbers have
    number_style: Literal["plain", "disc", "square"] = "plain"  # "1." or a number badge
    # how a number reads: "1." and "1)" as plain text, "01" zero-padded (minimal's badges);
    # a badge shows the digits alone
    number_format: Literal["1.", "1)", "01", "01."] = "1."
    number_size: float = 0.0  # the badge's height; 0: 1.25 em of body text
    number_color: Color | None = None  # the number on a badge (white)
    number_background: PaintKnob | None = None  # the badge (marker_color)
    grid: Literal["rows", "full", "none"] = "rows"  # table rules: under rows, every cell
    outline_width: float = 0.0  # a table's outer border
    outline_color: PaintKnob | None = None  # (border_color)
    stripe_background: PaintKnob | None = None  # every other table body row
    dash: tuple[float, float] | None = None  # a dashed rule: on, off (on 0: round dots)
    length: float = 1.0  # a rule's share of the width, centred
    ornament: str = ""  # text in the middle of a rule
    rotate: float = 0.0  # an image's tilt, degrees clockwise
    columns: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1  # list_item: tiles side by side
    # Text and heading vocabulary (docs/themes.md, "Text and headings").
    letter_spacing: float = 0.0  # px added after every character, may be negative
    text_transform: TextTransform = "none"
    text_effects: TextEffects = ()  # shadows and glows of the glyphs; never move layout
    background_width: Literal["full", "text"] = "full"  # a heading box: the column or the text
    background_height: Share | Literal["line"] = "line"  # inline: line box, or lower share of text
    bar_side: Literal["left", "bottom", "top"] = "left"  # a heading's bar
    bar_length: float = 0.0  # a heading's top or bottom bar; 0: as wide as its box
    bar_gap: float = 0.0  # between a heading's bar and its text (or box)
    underline: Underline = "none"
    underline_color: PaintKnob | None = None  # None: the text's colour
    underline_width: float = 1.0
    underline_offset: float = 2.0  # px below the baseline
    prefix: str = ""  # a heading's leading mark (fairytale's ✿), laid out with its first word
    suffix: str = ""  # a heading's trailing mark (nature's 🌿), laid out with its last word

    @property
    def bold(self) -> bool:
        return self.weight >= BOLD_WEIGHT


def _marked(hint: Any, mark: str) -> bool:
    options = get_args(hint) if get_origin(hint) in (Union, UnionType) else (hint,)
    return any(get_origin(o) is Annotated and mark in o.__metadata__ for o in options)


def _file_type(hint: Any) -> Any:
    """A knob's type in a theme file: colours are strings, paints colour strings or paint
    tables, effects a list of effect tables; the rest as in `Style`."""
    if _marked(hint, PAINT):
        return PaintSpec
    if _marked(hint, COLOR):
        return str
    if _marked(hint, EFFECTS):
        return tuple[EffectSpec, ...]
    if _marked(hint, TEXT_EFFECTS):
        return tuple[ShadowSpec | GlowSpec, ...]
    return hint


def _knobs() -> tuple[dict[str, Any], frozenset[str], frozenset[str]]:
    """Each knob's type in a theme file, and the names of the colour and paint knobs."""
    hints = get_type_hints(Style, include_extras=True)
    names = [f.name for f in dataclasses.fields(Style)]
    colors = frozenset(name for name in names if _marked(hints[name], COLOR))
    paints = frozenset(name for name in names if _marked(hints[name], PAINT))
    return {name: _file_type(hints[name]) for name in names}, colors, paints


KNOB_TYPES, COLOR_KNOBS, PAINT_KNOBS = _knobs()

if TYPE_CHECKING:

    class Role(_Strict, frozen=True):
        """The knobs a theme sets on a role (built from `Style` at import)."""

else:
    Role = msgspec.defstruct(
        "Role",
        [(name, kind | None, None) for name, kind in KNOB_TYPES.items()],
        bases=(_Strict,),
        module=__name__,
        frozen=True,
        kw_only=True,
        forbid_unknown_fields=True,
    )
    Role.__doc__ = "Every knob a theme may set on a role; None inherits the base card model."


class Theme(_Strict, frozen=True):
    """A card theme as its `card.toml` file spells it."""

    name: str
    label: str = ""
    description: str = ""  # one line for people choosing a theme (GET /api/themes, gallery)
    modes: list[str] = []
    colors: dict[str, dict[str, str]] = {}
    roles: dict[str, Role] = {}
    decorations: list[Decoration] = []
    # What a slide (a wide card drawn zoomed, pages/slidetype.py) sets otherwise: knobs over
    # `roles`, e.g. a thinner frame where the theme's own would hold the slide to small type
    slide: dict[str, Role] = {}


# The shared card model (after md2card's base CSS), in CSS px at 1x.
BASE_COLORS: dict[str, str] = {
    "text": "#24292e",
    "background": "#ffffff",
    "link": "#0366d6",
    "muted": "#6a737d",
    "highlight": "rgb(248,206,64)",
    "highlight_bg": "rgba(248,206,64,.2)",
    "border": "#eaecef",
    "quote_bar": "#8e8e93",
    "code_bg": "#f6f8fa",
    "inline_code_bg": "#eaecef",
    "code_text": "#24292e",
    "code_keyword": "#cf222e",  # #d73a49 was 4.3:1 on code_bg
    "code_string": "#032f62",
    "code_comment": "#6a737d",
    "code_number": "#005cc5",
    "code_function": "#6f42c1",
    "code_type": "#b04a00",  # #e36209 was 3.1:1 on apple-notes' panel
    "code_builtin": "#005cc5",
    "placeholder_bg": "rgba(127,127,127,.12)",
}

# A code panel darker than this (mean WCAG luminance of its paint) gets `DARK_CODE`, unless
# the theme names a code token colour itself: the base tokens are for light panels.
DARK_PANEL = 0.25
DARK_CODE: dict[str, str] = {  # GitHub's dark palette
    "code_text": "#e6edf3",
    "code_keyword": "#ff7b72",
    "code_string": "#a5d6ff",
    "code_comment": "#8b949e",
    "code_number": "#79c0ff",
    "code_function": "#d2a8ff",
    "code_type": "#ffa657",
    "code_builtin": "#79c0ff",
}

CODE_TOKENS = tuple(token for token in DARK_CODE if token != "code_text")  # the highlighter's

_HEADING = {"weight": 600, "line_height": 1.25, "margin_top": 16.0, "margin_bottom": 0.0}
_BASE_MODEL: dict[str, dict[str, object]] = {
    "card": {
        "background": "background",
        "padding": (20.0, 20.0, 20.0, 20.0),
        "header_height": 0.0,
        "footer_height": 24.0,
        "gap_squeeze": 0.3,
        "type_scale": "auto",
    },
    "body": {
        "family": "sans",
        "size": 16.0,
        "weight": 400,
        "italic": False,
        "color": "text",
        "line_height": 1.75,
        "align": "left",
        "margin_top": 16.0,
        "margin_bottom": 0.0,
    },
    "h1": dict(_HEADING, size=24.0),
    "h2": dict(_HEADING, size=20.0),
    "h3": dict(_HEADING, size=18.0),
    "h4": dict(_HEADING, size=16.0),
    "h5": dict(_HEADING, size=14.0),
    "h6": dict(_HEADING, size=13.6, color="muted"),
    "strong": {"weight": 600},
    "em": {"italic": True},
    "del": {},
    "link": {"color": "link"},
    "inline_code": {
        "family": "mono",
        "size": 14.4,
        "background": "inline_code_bg",
        "radius": 4.0,
        "padding": (2.0, 5.0, 2.0, 5.0),
    },
    "code_block": {
        "family": "mono",
        "size": 12.8,
        "line_height": 1.6,
        "color": "code_text",
        "background": "code_bg",
        "radius": 8.0,
        "padding": (16.0, 16.0, 16.0, 16.0),
        "margin_top": 16.0,
    },
    "quote": {
        "italic": True,
        "bar_width": 3.0,
        "bar_color": "quote_bar",
        "padding": (10.0, 20.0, 10.0, 20.0),
        "margin_top": 16.0,
    },
    "list": {
        "indent": 28.0,
        "item_gap": 4.0,
        "margin_top": 16.0,
        "marker_color": "text",
        "marker_size": 6.0,
        "marker_gap": 8.0,
    },
    "list_item": {},  # no panel: bullet lists keep their markers (see tiles.py)
    "task": {
        "marker_size": 18.0,
        "border_width": 2.0,
        "marker_color": "highlight",
        "color": "#ffffff",
    },
    "table": {
        "size": 14.4,
        "line_height": 1.5,
        "padding": (10.0, 10.0, 10.0, 10.0),
        "margin_top": 16.0,
        "header_background": None,
        "weight": 600,
        "border_color": "border",
        "border_width": 1.0,
    },
    "hr": {"color": "border", "border_width": 1.0, "margin_top": 24.0, "margin_bottom": 24.0},
    "image": {
        "radius": 8.0,
        "margin_top": 20.0,
        "size": 12.8,
        "color": "muted",
        "background": "placeholder_bg",
    },
    "page_number": {"size": 12.0, "color": "muted", "align": "right"},
    # An AI-content label (pages/marks/aigclabel.py): what a theme leaves out follows its page
    # number (resolver.py, `label_knobs`), in the footer band's other corner.
    "aigc_label": {},
}
# The base model is spelled in the theme-file schema, so a typo in it fails at import.
BASE_ROLES: dict[str, Role] = {
    name: msgspec.convert(values, Role) for name, values in _BASE_MODEL.items()
}
# Inline roles override only what they name, on top of the text they sit in.
INLINE_ROLES = frozenset({"strong", "em", "del", "link", "inline_code"})
