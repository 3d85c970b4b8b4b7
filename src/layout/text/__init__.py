"""Styled spans → shaped clusters → broken, aligned lines of glyph runs; and math as outlines.

`runs` and `shape` cut a span into runs of one face and shape them with HarfBuzz (`glyphs`)
into `Cluster`s (`clusters`; `tracking` and `punctuation`: letter spacing and CJK punctuation
compression); `opportunities` says where a line may break (CJK-aware; `words` keeps Chinese
words whole, finds English hyphen points, a heading's small English words and the Latin names
set in CJK; `breakpoints` applies them to a paragraph's clusters and measures its content
widths, `heading` ranks a wrapping heading's) and `linebreak` fits the lines (`pretty`
keeps a paragraph from ending on a runt); `inline` sets them into `TextLine`s (`linebox`) and
`lineitems` gives what a set line paints; `mathtex` typesets LaTeX to outlines. The faces
come from `layout.base.fonts`. May import: `layout.base`, `layout.parse`, `layout.style`,
`layout.errors`.
"""

from ..base.fontcheck import CheckedFont, check_font
from .formula.mathtex import Formula, MathBudget
from .formula.mathtex import typeset as typeset_math

__all__ = ["CheckedFont", "Formula", "MathBudget", "check_font", "typeset_math"]
