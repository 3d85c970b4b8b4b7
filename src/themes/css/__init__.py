"""A CSS subset → the same `Theme` data a `card.toml` spells (custom themes by class name).

The original service's custom themes are CSS on a class (`.my-theme h1 { … }`). This package
reads such a stylesheet with tinycss2 and turns the rules it understands into role knobs:
`.<class>` styles the card (its text properties go to the body), `.<class> <element>` a role
(`ELEMENT_ROLES`), and each property maps onto knobs of `layout.style.schema.Style`. What has no
knob (a property, a selector, a value) is never an error: it is collected as a `Note` with
its line, for one warning at load and for `inkcard themes check`. A file is broken (raises
`ThemeError`) only when it is not CSS we can read at all: a syntax error, no `.<class>` rule,
or knobs the theme schema refuses.

The modules, in the order a stylesheet goes through them: `read` (CSS text → declarations
on roles), `knobs` (a declaration → theme knobs, by the readers of `text` and `boxes`, which
use `values` and `gradients`), `modes` (a mode's knobs → colour tokens, or the mode left out
whole), `theme` (role knobs → the checked `Theme`).
"""

from .knobs import CARD_TO_BODY, INLINE_KNOBS, PANEL_KNOBS, ROLE_KNOBS, TEXT_KNOBS, TH_TO_TABLE
from .read import ELEMENT_ROLES, Note
from .text import FAMILIES
from .theme import TRANSLATOR_VERSION, Translation, translate
from .values import ROOT_SIZE, Tokens, color, length

__all__ = [
    "CARD_TO_BODY",
    "ELEMENT_ROLES",
    "FAMILIES",
    "INLINE_KNOBS",
    "PANEL_KNOBS",
    "ROLE_KNOBS",
    "ROOT_SIZE",
    "TEXT_KNOBS",
    "TH_TO_TABLE",
    "TRANSLATOR_VERSION",
    "Note",
    "Tokens",
    "Translation",
    "color",
    "length",
    "translate",
]
