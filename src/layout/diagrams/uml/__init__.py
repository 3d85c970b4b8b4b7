"""Class diagrams and ER diagrams: boxes with compartments or attribute tables, joined by lines
with UML ends or crow's feet.

`mermaidclass` and `mermaider` read the two kinds' Mermaid source into records; `classes`
draws them; `boxgraph` lays out boxes and lines in layers (grandalf, as flowcharts are) and
draws the line ends; `boxroutes` routes the lines square between the laid-out boxes;
`parts` splits a diagram too large for a card into parts, each a whole diagram. A
package of their own, so the diagrams folder keeps room for the other kinds. May import:
the diagrams package's own modules and what it may import.
"""
