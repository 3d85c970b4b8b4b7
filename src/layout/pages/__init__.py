"""Rows → cards (`Page`s) per split mode, with their chrome and decorations.

`compose` runs a split mode: the flow's rows, the card breaks `pagebreaks` chooses over the
whole post (`breakrules` reads what each break falls inside), the rows placed on each card,
`cues` where a break cuts a code panel, `chrome`'s page numbers and the theme's decorations
(`decor/`: `decorate` builds them, `clearance` keeps them off the text); `cardface` says
where the card lies on the image (inset on its surround, or the whole of it), where its rows
go, and builds its static layers once; `layers` lays out the decorations tied to one card's
text or panels; `quality` measures a finished card. May import: `layout.flow` and everything
below it.
"""
