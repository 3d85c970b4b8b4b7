"""A whole `Doc` → its sized `Row`s in reading order, held to the render's budget as they add up.

`flow` stacks the blocks and dispatches each to its layout in `layout.blocks` (`Flow`; `MdxFlow`
adds the mdxMode components); `budget` refuses a post as soon as its rows break the render's
limits; `shares` lays out a long post's second share of blocks in another process. May import:
`layout.blocks` and everything below it.
"""
