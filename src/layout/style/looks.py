"""A role's `Style` + inline marks (strong, em, code, link, del, inline HTML) → `SpanStyle`.

The one place a look of text is worked out: the flow's runs (and the tables' cells, through
it) ask `Looks.span`; page numbers, decoration labels and stamps, and contact-sheet
captions ask `text_look`, the few knobs a label has. Inline roles override only what they
name, on top of the text they sit in, in the order link, strong, em, del, inline code.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..parse.htmltags import mark_value
from .resolver import WHITE, Styles, contrast, contrast_asked, mean_colour
from .schema import INLINE_ROLES, Style
from .spanstyle import BOLD_WEIGHT, SpanStyle

BAD_MATH_RED = 0xFFE5484D  # the thin underline under LaTeX that did not typeset
BAD_MATH = "bad_math"  # a span-style mark only: LaTeX shown as source
SCRIPT_SIZE, SCRIPT_RISE, SCRIPT_DROP = 0.75, 0.35, 0.15  # <sup>, <sub>: size, shift in em
BADGE_SIZE = 0.8  # an mdxMode badge's text, as a share of the text around it
HIGHLIGHTED = frozenset({"strong", "em", "link", "del"})  # inline roles whose background marks
_ROLE_ORDER = ("link", "strong", "em", "del", "inline_code")  # later roles win
# The text knobs an inline role may set over the text it sits in.
_TEXT_KNOBS = (
    "letter_spacing",
    "text_transform",
    "text_effects",
    "underline",
    "underline_color",
    "underline_width",
    "underline_offset",
)


def text_look(
    family: str,
    size: float,
    color: int,
    *,
    weight: int = 400,
    italic: bool = False,
    **knobs: Any,
) -> SpanStyle:
    """The look of a label's text (a page number, a decoration label, a caption): bold
    from the weight, as for any role; `knobs` are further `SpanStyle` fields."""
    return SpanStyle(
        family=family,
        size=size,
        bold=weight >= BOLD_WEIGHT,
        italic=italic,
        color=color,
        **knobs,
    )


class Looks:
    """The looks of one resolved theme: one shared `SpanStyle` per look, so runs of the
    same look group together when shaped."""

    def __init__(self, styles: Styles) -> None:
        self.styles = styles
        self._cache: dict[tuple[object, ...], SpanStyle] = {}
        # A code token's look by its block's style and colour: a code block has a few
        # token colours, and copying a `Style` for each token cost more than its shaping.
        self._code: dict[tuple[Style, int], SpanStyle] = {}

    def span(
        self,
        base: Style,
        marks: frozenset[str],
        *,
        color: int | None = None,
        italic: bool = False,
        letter_spacing: float | None = None,
    ) -> SpanStyle:
        """The look of a run with `marks` in text of `base`, under a container that may
        set its colour, italic and letter spacing."""
        key = (base, marks, color, italic, letter_spacing)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = self._make(base, marks, color, italic, letter_spacing)
        return cached

    def code(self, base: Style, color: int) -> SpanStyle:
        """A highlighted code token: the code block's text in the token's colour."""
        look = self._code.get((base, color))
        if look is None:
            look = self._code[base, color] = self.span(
                replace(base, color=color, italic=False), frozenset()
            )
        return look

    def accent_pair(self) -> tuple[int, int]:
        """The theme's accent (its `accent` colour, else its list badges' colour) and the
        colour drawn on it."""
        style = self.styles["list"]
        body = self.styles["body"]
        paint = self.styles.palette.get("accent", style.number_background)
        if not isinstance(paint, int):
            paint = style.marker_color if style.marker_color is not None else body.color
        ink = style.number_color if style.number_color is not None else 0xFFFFFFFF
        return paint, ink

    def _make(
        self,
        base: Style,
        marks: frozenset[str],
        color: int | None,
        italic: bool,
        letter_spacing: float | None,
    ) -> SpanStyle:
        v: dict[str, Any] = {
            "family": base.family,
            "size": base.size,
            "weight": base.weight,
            "italic": base.italic or italic,
            "color": base.color if color is None else color,
            **{knob: getattr(base, knob) for knob in _TEXT_KNOBS},
        }
        if letter_spacing is not None:
            v["letter_spacing"] = letter_spacing
        for role in _ROLE_ORDER:
            if role in marks or (role == "inline_code" and BAD_MATH in marks):
                v.update(self.styles.inline[role])
        if BAD_MATH in marks:
            v["underline"], v["underline_color"], v["underline_width"] = "solid", BAD_MATH_RED, 1.0
            marks = marks - {BAD_MATH} | {"inline_code"}
        if "strong" in marks and base.strong_color is not None:
            v["color"] = base.strong_color
        if base.background is not None and not v.get("highlight"):
            v["color"] = self._legible_on_panel(base, v)
        if any(m not in INLINE_ROLES for m in marks):
            self._html_look(v, marks)
        padding = v.get("padding") if "inline_code" in marks else None
        marked = (marks & HIGHLIGHTED or "highlight" in v) and "inline_code" not in marks
        badge = "badge" in marks
        return SpanStyle(
            family=str(v["family"]),
            size=float(v["size"]),
            bold=int(v["weight"]) >= BOLD_WEIGHT,
            italic=bool(v["italic"]),
            cjk_italic=base.cjk_italic,
            color=int(v["color"]),
            background=v.get("background") if "inline_code" in marks or badge else None,
            radius=float(v.get("radius", 0.0)),
            pad_x=float(padding[1]) if padding else float(v.get("pad_x", 0.0)),
            strike="del" in marks,
            link="link" in marks,
            ligatures=v["family"] != "mono",
            letter_spacing=float(v["letter_spacing"]),
            # code is never re-cased: `httpx` in a capitalised heading is still httpx
            text_transform="none" if "inline_code" in marks else str(v["text_transform"]),
            effects=v["text_effects"],
            highlight=v.get("highlight", v.get("background")) if marked else None,
            highlight_height=v.get("background_height", "line"),
            underline=str(v["underline"]),
            underline_color=v["underline_color"],
            underline_width=float(v["underline_width"]),
            underline_offset=float(v["underline_offset"]),
            rise=float(v.get("rise", 0.0)),
            grows="rise" in v or mark_value(marks, "size") is not None,
        )

    def _legible_on_panel(self, base: Style, v: dict[str, Any]) -> int:
        """The colour of a marked run drawn on its role's own panel (a heading's chip, a
        quote's box): the mark's, unless it falls under the contrast its size asks on that
        panel where the role's own text colour reads better. A theme's em and strong colours
        are chosen against the card; on a chip of the same hue they vanish (pop-art's purple
        mode draws *em* in the amber of its amber h2 chip, 1:1)."""
        colour = int(v["color"])
        if colour == base.color:
            return colour
        card = self.styles["card"].background
        ground = mean_colour(base.background, mean_colour(card) if card is not None else WHITE)  # type: ignore[arg-type]  # a resolved paint
        found = contrast(colour, ground)
        if found >= contrast_asked(float(v["size"]), int(v["weight"]) >= BOLD_WEIGHT):
            return colour
        return base.color if contrast(base.color, ground) > found else colour

    def _html_look(self, v: dict[str, Any], marks: frozenset[str]) -> None:
        """Inline HTML marks over the look in `v`: `<u>`, `<mark>`, `<sup>`/`<sub>`,
        `<span style>`/`<font>` values, and the mdxMode badge pill in the theme's accent."""
        if "u" in marks:
            v["underline"], v["underline_color"] = "solid", None
            v["underline_width"] = max(1.0, float(v["size"]) / 16)
        if "mark" in marks:
            v["highlight"] = (self.styles.palette["highlight"] & 0xFFFFFF) | 0x66000000
            v["highlight_height"] = 1.0  # the text's height, not a line grown by big text
        if (share := mark_value(marks, "size")) is not None:
            v["size"] = float(v["size"]) * float(share)
        if (color := mark_value(marks, "color")) is not None:
            v["color"] = int(color)
        if (paint := mark_value(marks, "bg")) is not None:
            v["highlight"], v["highlight_height"] = int(paint), 1.0
        if (weight := mark_value(marks, "weight")) is not None:
            v["weight"] = int(weight)
        if (family := mark_value(marks, "face")) is not None:
            v["family"] = family
        if marks & {"sup", "sub"}:
            size = float(v["size"])
            v["size"] = size * SCRIPT_SIZE
            v["rise"] = size * (SCRIPT_RISE if "sup" in marks else -SCRIPT_DROP)
        if "badge" in marks:
            size = float(v["size"]) * BADGE_SIZE
            v.update(size=size, weight=700, radius=size, pad_x=size * 0.6)
            v["background"], v["color"] = self.accent_pair()
            v["underline"], v["text_effects"] = "none", ()
