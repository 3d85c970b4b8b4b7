"""Charts of values: Mermaid `pie`, `quadrantChart` and `xychart-beta` → `Drawing`s.

`mermaidcharts` parses the quadrant and xy charts (`..mermaidkinds` the pie); `pie`,
`quadrant` and `xychart` lay them out. They share the package's
records and shapes (`..marks`) and label cleaning (`..mermaid`); `..mermaidkinds` dispatches
to the parsers and `..forms` to the layouts.
"""
