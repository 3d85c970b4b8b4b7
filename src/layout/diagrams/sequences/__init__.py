"""Sequence diagrams: Mermaid `sequenceDiagram` → a record → a `Drawing`.

`sequenceparse` reads participants, messages, notes, frames, activations and boxes (with
`..mermaidlines` reading one line); `sequence` lays them out, a column per participant
(`seqcolumns`) and a row per event on the drawing in progress (`seqsheet`), with `seqheads`
drawing the participants' heads, lifelines and box bands and `seqmarks` arrow ends, frames,
chips and actors. `seqsteps` draws one too wide for its card even compact as the list of
its steps, one under the other (`..blocks.diagram` asks for it).
`..mermaidkinds` dispatches to the parser and `..fit` to the layout.
"""
