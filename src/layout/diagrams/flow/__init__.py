"""A flowchart's own parts: the node shapes read (`nodes`) and drawn (`shapes`), its links
(`links`), the author's styles (`style`), the edge routing and panel room (`route`), and its
nodes' and edges' marks (`paint`), an edge back into a diamond brought in at its side
(`tips`). `..mermaid` reads a flowchart with the first three and
`..drawing` lays it out with the rest. Imports nothing itself: `..mermaid` imports `nodes`,
and `paint` imports `..mermaid`'s records.
"""
