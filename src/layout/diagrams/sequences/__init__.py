"""Sequence diagrams: Mermaid `sequenceDiagram` → a record → a `Drawing`.

`sequenceparse` reads participants, messages, notes, frames, activations and boxes (with
`..mermaidlines` reading one line); `sequence` lays them out, a column per participant and
a row per event, with `seqmarks` drawing arrow ends, frames, chips and actors.
`..mermaidkinds` dispatches to the parser and `..fit` to the layout.
"""
