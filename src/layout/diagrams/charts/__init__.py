"""Charts of values: Mermaid `quadrantChart` and `xychart-beta` → records → `Drawing`s.

`mermaidcharts` parses both; `quadrant` and `xychart` lay them out. They share the package's
records and shapes (`..marks`) and label cleaning (`..mermaid`); `..mermaidkinds` dispatches
to the parsers and `..fit` to the layouts.
"""
