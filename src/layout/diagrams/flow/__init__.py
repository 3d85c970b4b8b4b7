"""A flowchart's own parts: the node shapes read (`nodes`), sized (`shapes`) and drawn
(`outlines`, `details`), its links (`links`), the author's styles (`style`), the edge routing
and panel room (`route`), its nodes' and edges' marks (`paint`), and an edge back into a
diamond brought in at its side (`tips`). `..mermaid` reads a
flowchart with `nodes`, `links` and `style`, and `..drawing` lays it out with the rest.
Imports nothing itself: `..mermaid` imports `nodes`, and `paint` imports `..mermaid`'s
records.
"""
