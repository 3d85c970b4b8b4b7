"""A diagram's marks and labels → what they paint in the theme's colours.

Each drawing role (text, muted, line, accent, fill, panel, border) takes a theme palette
colour, and the page role the colour the text sits on (`style.ground`: a sheet's, where the
theme lays one over its background); an author's `#rrggbb` is kept; a tint is a role's
colour laid thin; pie slices and mind-map branches take series colours made from the link
and syntax colours (`diagrams.palette`). A label takes an ink that reads on the chip or
node under it.
"""

from __future__ import annotations

from ..base.boxes import Item, Shape
from ..diagrams.labels import LabelSetter
from ..diagrams.marks import TINT, TINT_SHARE, Drawing, Label, Mark, mark_bounds
from ..diagrams.palette import series_colour
from ..style.ground import text_ground
from ..style.resolver import Styles, contrast, mean_colour

LEGIBLE = 4.5  # WCAG AA: a label under it on its chip takes another ink
# ... but an author's own ink (`color:#fff` on their fill) is kept down to 3:1, WCAG's floor
# for large text and graphics: the ratio undervalues light ink on a saturated fill, and the
# near-black it picked instead read worse (tesseract missed 客户 dark on #2f9e44, found it
# in the author's white; mermaid-js keeps the author's colour whatever it is)
AUTHOR_LEGIBLE = 3.0
OPAQUE = 0xFF
# Drawing roles → theme palette names (the first that the palette has).
_ROLES = {
    "text": ("text",),
    "muted": ("muted",),
    "line": ("muted",),
    "accent": ("diagram", "link"),  # a mode's own (coil-notebook's ink), else the link's
    "fill": ("code_bg",),
    "panel": ("placeholder_bg", "code_bg"),
    "border": ("border",),
}
# the roles drawn in the colour the text sits on (`style.ground`): brandC's white sheet,
# not its purple, parts a pie's slices and grounds a chip
_GROUND_ROLES = frozenset({"page", "on_accent"})
SERIES = (  # the palette names the series colours are made from, in order
    "diagram",  # a mode's own accent, where it names one (`_ROLES`)
    "link",
    "code_keyword",
    "code_type",
    "code_function",
    "highlight",
    "code_string",
    "quote_bar",
    "code_number",
)


def colour(styles: Styles, role: str) -> int:
    """The theme's colour for a drawing role (an author's `#rrggbb`: that colour)."""
    if role.startswith(TINT):
        alpha = round(TINT_SHARE * 255) << 24
        return (colour(styles, role.removeprefix(TINT)) & 0xFFFFFF) | alpha
    if role.startswith("#"):  # an author's own colour, `#rrggbb` (a flowchart's classDef)
        return 0xFF000000 | int(role[1:7], 16)
    if role.startswith("series"):
        base = tuple(styles.palette[name] for name in SERIES if name in styles.palette)
        return series_colour(base, text_ground(styles), role)
    if role in _GROUND_ROLES:
        return text_ground(styles)
    for name in _ROLES.get(role, ("text",)):
        if name in styles.palette:
            return styles.palette[name]
    return styles.palette["text"]


def painted(
    drawing: Drawing, setter: LabelSetter, styles: Styles
) -> list[tuple[Mark | Label, Item]]:
    """Each of the drawing's marks and labels with what it paints in the theme's colours
    (a label: its glyph runs, in an ink that reads on the chip under it)."""
    out: list[tuple[Mark | Label, Item]] = []
    grounds: list[tuple[tuple[float, float, float, float], int]] = []  # filled marks so far
    for item in drawing.items:
        if isinstance(item, Label):
            ground = _ground_of(item, grounds)
            floor = AUTHOR_LEGIBLE if item.color.startswith("#") else LEGIBLE
            ink = _legible(colour(styles, item.color), ground, styles, floor)
            out.extend((item, painted) for painted in setter.items(item, ink))
            continue
        stroke = colour(styles, item.stroke) if item.stroke else None
        fill = colour(styles, item.fill) if item.fill else None
        width = item.width if stroke is not None else 0.0
        out.append((item, Shape(item.ops, stroke, fill, width, item.dash)))
        if fill is not None:
            grounds.append((mark_bounds(item.ops), fill))
    return out


def _ground_of(
    label: Label, grounds: list[tuple[tuple[float, float, float, float], int]]
) -> int | None:
    """The colour the filled marks under `label`'s middle leave there, when the lowest of
    them is opaque (a chip: the page colour, a tint over it); None when unknown (a node's
    see-through tint over whatever the card shows)."""
    x, y = label.x, label.y + label.text.height / 2
    ground: int | None = None
    for (left, top, right, bottom), fill in grounds:
        if not (left <= x <= right and top <= y <= bottom):
            continue
        if fill >> 24 == OPAQUE:
            ground = fill
        elif ground is not None:
            ground = mean_colour(fill, ground)
    return ground


def _legible(ink: int, ground: int | None, styles: Styles, floor: float = LEGIBLE) -> int:
    """`ink`, or where it does not read (under `floor`) on the chip or node under it (a
    theme whose page colour is dark round a light paper: a dark label on a purple chip),
    the most legible of the theme's text, its page colour, white and near-black."""
    if ground is None or contrast(ink, ground) >= floor:
        return ink
    choices = (ink, colour(styles, "text"), colour(styles, "page"), 0xFFFFFFFF, 0xFF1C1F23)
    return max(choices, key=lambda choice: contrast(choice, ground))
