"""State diagrams: Mermaid `stateDiagram-v2` → a record → a `Drawing`.

`mermaidstate` parses states, transitions, composites, concurrent regions, pseudo-states and
notes; `states` lays each scope out, innermost first, with `..drawing`'s layered layout;
`statemarks` draws the start and end dots, fork bars, choice diamonds and notes.
`..mermaidkinds` dispatches to the parser and `..fit` to the layout.
"""
