"""The engine's common ground: the sized records every stage passes on, and their geometry.

`boxes` holds the records layout builds and draw paints (`Row`, `Item`, `Frame`, `Page`, paints
and shapes); `placing` puts rows on a card or a panel; `images` turns image sources into
`ImageRef`s (headers only) and, for draw, into pixels; `fonts` loads every face once
(`FontBook`, fallback chains) for the stages that measure and the one that draws; `svgpath`
reads SVG path data; `lru` and `records` are the cache and the record maker the stages share.
May import: `layout.errors` and `layout.limits` only: every other stage builds on this one.
"""
