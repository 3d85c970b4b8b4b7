"""A theme file → its checked schema → one concrete `Style` per role, and how inline text looks.

`theme` is the schema a card theme is checked against (the `themes` package decodes its files
with it) and the resolver of a theme mode's `Styles`; `paint` and `decorations` check the
paints, effects and decoration specs a theme names (data only: `layout.pages.decorate` builds
them); `alertcolors` gives every theme its callout colours; `looks` and `spanstyle` turn a
role's style and inline marks into the `SpanStyle` of a run of text. May import:
`layout.base`, `layout.parse` (the inline HTML tags a look reads), `layout.errors`.
"""

from .theme import (
    BASE_COLORS,
    BASE_ROLES,
    CODE_TOKENS,
    COLOR_KNOBS,
    KNOB_TYPES,
    PAINT_KNOBS,
    WHITE,
    Theme,
    ThemeError,
    check_theme,
    decode_theme,
    mean_colour,
    relative_luminance,
    resolve,
)

__all__ = [
    "BASE_COLORS",
    "BASE_ROLES",
    "CODE_TOKENS",
    "COLOR_KNOBS",
    "KNOB_TYPES",
    "PAINT_KNOBS",
    "WHITE",
    "Theme",
    "ThemeError",
    "check_theme",
    "decode_theme",
    "mean_colour",
    "relative_luminance",
    "resolve",
]
