"""A theme file → its checked schema → one concrete `Style` per role, and how inline text looks.

`schema` is what a card theme may say (`Style`, its knobs, `Theme`, the base card model);
`theme` decodes and checks a theme file against it (the `themes` package reads themes through
this face); `resolver` resolves a theme mode into one `Style` per role (`Styles`, cached) and
holds the colour math; `paint` and `decorations` check the paints, effects and decoration
specs a theme names (data only: `layout.pages.decor.decorate` builds them); `alertcolors` gives
every theme its callout colours; `ground` the colour its text sits on (a sheet's, where
it lays one over its background); `looks` and `spanstyle` turn a role's style and inline marks
into the `SpanStyle` of a run of text. May import: `layout.base`, `layout.parse` (the inline
HTML tags a look reads), `layout.errors`.
"""

from ..errors import ThemeError
from .brandkit import BrandKit, Watermark
from .resolver import WHITE, Styles, mean_colour, relative_luminance, resolve
from .schema import (
    BASE_COLORS,
    BASE_ROLES,
    CODE_TOKENS,
    COLOR_KNOBS,
    KNOB_TYPES,
    MAX_INSET,
    PAINT_KNOBS,
    Theme,
)
from .theme import check_theme, decode_theme

__all__ = [
    "BASE_COLORS",
    "BASE_ROLES",
    "CODE_TOKENS",
    "COLOR_KNOBS",
    "KNOB_TYPES",
    "MAX_INSET",
    "PAINT_KNOBS",
    "WHITE",
    "BrandKit",
    "Styles",
    "Theme",
    "ThemeError",
    "Watermark",
    "check_theme",
    "decode_theme",
    "mean_colour",
    "relative_luminance",
    "resolve",
]
