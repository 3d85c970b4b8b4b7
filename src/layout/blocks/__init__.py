"""One block of the `Doc` + its box (`Ctx`) → its rows and margins (`Part`): a layout per kind.

`parts` is the contract every block layout shares (`Ctx`, `Part`, `Layouter`: the flow as a
block layout sees it, `Overfull`); each other module lays out one kind of block: paragraphs,
headings and rules (`textblocks`), lists (`lists`, `tiles`), quotes and code (`panels`),
tables (`tables`, `tableflow`), images (`figures`), diagrams (`diagram`), callouts, footnotes
(`notes`) and the mdxMode components; `marks` draws the vocabulary they share (bullets,
badges, ornaments). A block layout never imports the flow or the page stage: nested blocks
are laid out through the `Layouter` it is given. May import: `layout.base`, `layout.parse`,
`layout.style`, `layout.text`, `layout.diagrams`, `layout.errors`, `layout.limits`.
"""
