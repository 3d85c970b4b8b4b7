"""Git graphs: Mermaid `gitGraph` → a record → a `Drawing`.

`mermaidgit` replays commits, branches, checkouts, merges and cherry-picks as git would
(refusing what git refuses); `gitgraph` draws a lane per branch in its series colour.
`..mermaidkinds` dispatches to the parser and `..fit` to the layout.
"""
