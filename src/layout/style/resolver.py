"""A checked `Theme` + a mode → `Styles`: one concrete `Style` per role, resolved once and kept.

The base model's roles with the theme's overrides, colours resolved against the mode's
palette (base tokens, then the theme's shared ones, then the mode's; the dark code tokens
and callout colours the theme leaves out added by contrast); inline roles kept as the knobs
they set. Resolved `Styles` are kept per theme content and mode. The WCAG colour math the
contrast rules use (`mean_colour`, `relative_luminance`) lives here too.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from dataclasses import dataclass
from typing import Any

import msgspec

from ..base.boxes import Paint, Pattern
from ..base.lru import PerObject
from ..errors import ThemeError
from .alertcolors import alert_tokens
from .decorations import Decoration, check
from .paint import parse_color, resolve_effects, resolve_paint
from .schema import (
    BASE_COLORS,
    BASE_ROLES,
    CODE_TOKENS,
    COLOR_KNOBS,
    DARK_CODE,
    DARK_PANEL,
    INLINE_ROLES,
    PAINT_KNOBS,
    Role,
    Style,
    Theme,
)


@dataclass(frozen=True, slots=True)
class Styles:
    """Everything a render needs from a theme, resolved for one mode."""

    roles: dict[str, Style]
    inline: dict[str, dict[str, object]]
    palette: dict[str, int]
    decorations: tuple[Decoration, ...]
    tokens: dict[str, str]  # the palette as spelled, for paints resolved while composing
    key: tuple[str, str]  # (a digest of the theme, the mode): names its static layers
    slide: Styles | None = None  # the theme's `slide` knobs over its roles, if it sets any

    def __getitem__(self, role: str) -> Style:
        return self.roles[role]


def palette_for(theme: Theme, mode: str | None) -> dict[str, str]:
    """The colour tokens of a mode: base tokens, then the theme's shared, then the mode's."""
    palette = dict(BASE_COLORS)
    palette.update(theme.colors.get("all", {}))
    palette.update(theme.colors.get(_mode_key(theme, mode), {}))
    return palette


def _mode_key(theme: Theme, mode: str | None) -> str:
    """The `colors` table of a mode (the first mode when it is not one; `all` for none)."""
    return mode if mode in theme.modes else (theme.modes[0] if theme.modes else "all")


def resolve(theme: Theme, mode: str | None) -> Styles:
    """Resolves every role of the base model with the theme's overrides for `mode`.

    Kept per theme content and mode (a few dozen, oldest dropped first): a card's theme
    is resolved once, not on every render (a tenth of a default card's layout). The
    `Styles` returned is shared, so nothing may change it."""
    key = (_digest(theme), mode or "")
    styles = _RESOLVED.get(key)
    if styles is None:
        styles = _resolve(theme, mode, key)
        with _RESOLVED_LOCK:  # render threads may resolve at once
            if len(_RESOLVED) >= _RESOLVED_KEPT:
                _RESOLVED.pop(next(iter(_RESOLVED)))
            _RESOLVED[key] = styles
    return styles


_RESOLVED: dict[tuple[str, str], Styles] = {}
_RESOLVED_LOCK = threading.Lock()
_RESOLVED_KEPT = 64  # every mode of every bundled theme, and a few custom ones


def _resolve(theme: Theme, mode: str | None, key: tuple[str, str]) -> Styles:
    palette = palette_for(theme, mode)
    palette.update(dark_code_tokens(theme, mode, palette))
    palette.update(_alert_tokens(theme, mode, palette))
    explicit = {
        name: _explicit(name, base, theme.roles.get(name), palette)
        for name, base in BASE_ROLES.items()
    }
    explicit[LABEL_ROLE] = label_knobs(explicit["page_number"], explicit[LABEL_ROLE])
    roles = {
        name: _style(values, palette)
        for name, values in explicit.items()
        if name not in INLINE_ROLES
    }
    inline = {name: explicit[name] for name in INLINE_ROLES}
    for index, deco in enumerate(theme.decorations):
        check(deco, palette, f"decorations[{index}]")
    colors = {name: parse_color(name, palette) for name in palette}
    return Styles(
        roles=roles,
        inline=inline,
        palette=colors,
        decorations=tuple(theme.decorations),
        tokens=palette,
        key=key,
        slide=resolve(_slide_theme(theme), mode) if theme.slide else None,
    )


def _slide_theme(theme: Theme) -> Theme:
    """`theme` as a slide sets it: each knob of its `slide` table over its `roles`."""
    roles = dict(theme.roles)
    for name, over in theme.slide.items():
        knobs = {k: v for k, v in msgspec.structs.asdict(over).items() if v is not None}
        own = roles.get(name)
        roles[name] = msgspec.structs.replace(own, **knobs) if own is not None else over
    return msgspec.structs.replace(theme, roles=roles, slide={})


LABEL_ROLE = "aigc_label"
# The page number's knobs an AI-content label takes when its theme does not set them: its
# face, colour and glyph effects (its size is a floor, pages/marks/aigclabel.py).
LABEL_INHERITS = (
    "family",
    "size",
    "weight",
    "color",
    "letter_spacing",
    "text_transform",
    "text_effects",
)


def label_knobs(page_number: dict[str, object], own: dict[str, object]) -> dict[str, object]:
    """The AI-content label's knobs: the page number's look (`LABEL_INHERITS`), in the
    corner the page number leaves free (left, or right when the
    number is on the left), in its band (footer, or header with `position = "top"`), then
    whatever the theme's `aigc_label` role sets itself."""
    knobs = {name: page_number[name] for name in LABEL_INHERITS if name in page_number}
    knobs["align"] = "right" if page_number.get("align") == "left" else "left"
    knobs["position"] = page_number.get("position", "bottom")  # its colour is for that band
    return {**knobs, **own}


def dark_code_tokens(theme: Theme, mode: str | None, palette: dict[str, str]) -> dict[str, str]:
    """`DARK_CODE` (less a `code_text` the theme names) when the mode's code panel is dark
    and the theme names no code token colour itself, else nothing."""
    named = set(theme.colors.get("all", {})) | set(theme.colors.get(_mode_key(theme, mode), {}))
    if named & set(CODE_TOKENS):
        return {}  # the theme colours its code tokens itself
    code = getattr(theme.roles.get("code_block"), "background", None)  # Role is built
    card = getattr(theme.roles.get("card"), "background", None)
    try:
        panel = resolve_paint(code if code is not None else "code_bg", palette, "code_block")
        under = resolve_paint(card if card is not None else "background", palette, "card")
    except ThemeError:
        return {}  # the roles' own resolution below names the broken knob with its place
    if relative_luminance(mean_colour(panel, mean_colour(under))) >= DARK_PANEL:
        return {}
    return {token: colour for token, colour in DARK_CODE.items() if token not in named}


def _alert_tokens(theme: Theme, mode: str | None, palette: dict[str, str]) -> dict[str, str]:
    """The callout colour tokens (alertcolors.py) the theme leaves out, for its body text."""
    named = set(theme.colors.get("all", {})) | set(theme.colors.get(_mode_key(theme, mode), {}))
    body = getattr(theme.roles.get("body"), "color", None)
    try:
        text = resolve_paint(body if body is not None else "text", palette, "body")
    except ThemeError:
        return alert_tokens(named, 0.0)  # the body role's own resolution names the error
    return alert_tokens(named, relative_luminance(mean_colour(text)))


WHITE = 0xFFFFFFFF


def mean_colour(paint: Paint, under: int = WHITE) -> int:
    """The opaque colour a paint averages to, its colours laid over `under` by their alpha
    (a pattern: its background, or none: `under`)."""
    if isinstance(paint, int):
        colours: tuple[int, ...] = (paint,)
    elif isinstance(paint, Pattern):
        colours = (paint.background,) if paint.background is not None else (0,)
    else:
        colours = paint.colors
    mean = 0xFF000000
    for shift in (16, 8, 0):
        total = 0.0
        for colour in colours:
            alpha = (colour >> 24 & 0xFF) / 255
            total += alpha * (colour >> shift & 0xFF) + (1 - alpha) * (under >> shift & 0xFF)
        mean |= round(total / len(colours)) << shift
    return mean


def relative_luminance(argb: int) -> float:
    """WCAG relative luminance of an ARGB colour (alpha ignored)."""
    return _luminance(argb & 0xFFFFFF)


@functools.lru_cache(maxsize=4096)
def _luminance(rgb: int) -> float:
    # Kept: a card's quality measure asks it of the same few colours for every run of text.
    channels = [(rgb >> shift & 0xFF) / 255 for shift in (16, 8, 0)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: int, b: int) -> float:
    """WCAG contrast ratio of two colours (alpha ignored)."""
    high, low = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


READABLE_CONTRAST = 4.5  # WCAG AA for body text
LARGE_TEXT_CONTRAST = 3.0  # WCAG AA for large text: 24 px, or 18.66 px bold
LARGE_TEXT_PX = 24.0
LARGE_BOLD_TEXT_PX = 18.66


def contrast_asked(size: float, bold: bool) -> float:
    """The contrast WCAG asks of text `size` px tall: less for large text."""
    large = size >= LARGE_TEXT_PX or (bold and size >= LARGE_BOLD_TEXT_PX)
    return LARGE_TEXT_CONTRAST if large else READABLE_CONTRAST


def _digest(theme: Theme) -> str:
    """The theme's content digest, kept per theme object: a frozen `Theme` is encoded and
    hashed once, not on every render (a bundled theme is one object for the process)."""
    return _DIGESTS.get(theme, _content_digest)


def _content_digest(theme: Theme) -> str:
    return hashlib.blake2b(msgspec.json.encode(theme), digest_size=12).hexdigest()


_DIGESTS: PerObject[Theme, str] = PerObject(_RESOLVED_KEPT)


def _explicit(
    role: str, base: Role, override: Role | None, palette: dict[str, str]
) -> dict[str, object]:
    """The knobs a role sets itself (base model plus theme), colours as ARGB ints, paints
    and effects as `boxes` records."""
    values = _knobs_set(base)
    if override is not None:
        values.update(_knobs_set(override))
    for name in COLOR_KNOBS & values.keys():
        where = f"roles.{role}.{name}"
        if name in PAINT_KNOBS:
            values[name] = resolve_paint(values[name], palette, where)  # type: ignore[arg-type]  # a PaintSpec by the schema
        else:
            values[name] = resolve_paint(str(values[name]), palette, where)
    if "effects" in values:
        specs: Any = values["effects"]
        values["effects"] = resolve_effects(specs, palette, f"roles.{role}.effects")
    if "text_effects" in values:
        glyph_specs: Any = values["text_effects"]
        where = f"roles.{role}.text_effects"
        values["text_effects"] = resolve_effects(glyph_specs, palette, where)
    return values


def _knobs_set(role: Role) -> dict[str, object]:
    return {f: v for f in role.__struct_fields__ if (v := getattr(role, f)) is not None}


def _style(values: dict[str, object], palette: dict[str, str]) -> Style:
    """The role's `Style`; the values were checked against the same types at decode."""
    values = {"color": parse_color("text", palette), **values}
    return Style(**values)  # type: ignore[arg-type]  # knob values, typed by the Role schema
