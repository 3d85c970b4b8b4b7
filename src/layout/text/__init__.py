"""Styled spans → shaped clusters → broken, aligned lines of glyph runs; and math as outlines.

`fonts` loads the faces once (`FontBook`, fallback chains); `runs` and `shape` cut a span into
runs of one face and shape them with HarfBuzz (`tracking`, `punctuation`: letter spacing and
CJK punctuation compression); `linebreak` finds the breaks (CJK-aware; `segment` keeps Chinese
words of headings whole, `hyphenate` and `pretty` keep English tidy); `inline` sets the lines;
`mathtex` typesets LaTeX to outlines. May import: `layout.base`, `layout.parse`,
`layout.style`, `layout.errors`.
"""

from .mathtex import Formula, MathBudget
from .mathtex import typeset as typeset_math

__all__ = ["Formula", "MathBudget", "typeset_math"]
