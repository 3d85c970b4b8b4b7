"""Charts over time: Mermaid `gantt`, `timeline` and `journey` → records → `Drawing`s.

`mermaidgantt` and `mermaidtime` parse (with `timefmt` reading dayjs dates and writing d3
axis formats); `gantt`, `timeline` and `journey` lay out. They share the package's records
and shapes (`..marks`), limits and label cleaning (`..mermaid`); `..mermaidkinds` dispatches
to the parsers and `..fit` to the layouts.
"""
