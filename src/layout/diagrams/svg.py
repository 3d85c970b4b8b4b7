"""Mermaid source → inline SVG that survives the WeChat editor: the article path's diagrams.

The editor strips `<style>`, `<defs>`, `<marker>`, `<use>`, ids and classes, and keeps
inline `<svg>` made of plain `<path>`, `<rect>` and `<text>` with presentation attributes
(what 135editor and xiumi paste). So every mark is a `<path>` with its own fill and stroke,
arrowheads are filled paths, and each label line is a `<text>` with its size and colour
inline; the font family is said once, on the `<svg>`, which its texts inherit (where an
editor dropped it, the phone's own sans is what it names anyway). Paths are written
compactly, straight runs without their in-between points, in whole px for a chart wider than
three phone columns: a 200-node chart is under 100 KB. Labels are measured by our shaping,
in our sans family; the phone sets them in its own system font, whose widths are close (both
are PingFang/Noto-like for CJK), and each box keeps its padding as slack.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import lru_cache

from ..base.fonts import FontBook
from .fit import DiagramBudget, draw_to_fit
from .labels import LINE_HEIGHT, LabelSetter
from .marks import SMALL_SIZE, TINT, TINT_SHARE, Drawing, Label, Mark
from .mermaidkinds import Sequence, parse_diagram
from .palette import series_colour, series_colours
from .sequences.seqsteps import layout_steps

FONT_FAMILY = (
    "-apple-system,BlinkMacSystemFont,'PingFang SC','Hiragino Sans GB',"
    "'Microsoft YaHei','Noto Sans CJK SC',sans-serif"
)
# The articles' palette: dark text on white, and an accent (a calm blue unless the article
# theme gives its brand colour, which then also leads the series: the hues series colours
# are made from, `palette.series_colours`).
PALETTE = {
    "text": "#333333",
    "muted": "#666666",  # 5.4:1 on the panel: a block's condition reads on its chip
    "line": "#8a8f98",
    "accent": "#3a7bd5",
    "fill": "#f3f6fb",
    "panel": "#f6f7f9",
    "border": "#dfe3e8",
    "page": "#ffffff",
    "on_accent": "#ffffff",
}
SERIES = ("#3a7bd5", "#e5484d", "#f5a524", "#8e4ec6", "#30a46c", "#12a594", "#d6409f", "#6e56cf")
_SLACK = 0.04  # of the width, on each side
PHONE_COLUMN = 343.0  # px: a phone's article column, the width a diagram is fitted to
WHOLE_PX_PAST = 3.0  # phone columns: a wider chart's paths are written in whole px
# px: a sequence whose message labels the column would draw smaller, even compact, is drawn as
# the list of its steps (`sequences.seqsteps`): an inline SVG cannot be pinched larger, and
# ten participants in 343 px set their labels at 4 px
STEPS_UNDER = 8.0
NAME_SLACK = 1.2  # a step's names set in the phone's bold sans run up to this much wider than ours
_BASELINE = 0.78  # where a line's baseline sits in its box, in em (centred line box)


@lru_cache(maxsize=1)
def _setter() -> LabelSetter:
    return LabelSetter(FontBook.load())


def diagram_svg(source: str, budget: DiagramBudget | None = None, accent: str | None = None) -> str:
    """The Mermaid diagram as one inline `<svg>` element; `DiagramError` (a one-line
    reason) when it is not drawn. `budget`: the post's, shared by its diagrams; `accent`:
    the article theme's brand colour as `#rrggbb`, readable on white (None: the calm blue)."""
    setter = _setter()
    budget = budget or DiagramBudget()
    drawing = draw_to_fit(budget, source, setter.measure, PHONE_COLUMN, None)
    if drawing.heads and SMALL_SIZE * PHONE_COLUMN / drawing.width < STEPS_UNDER:
        sequence = parse_diagram(source)
        if isinstance(sequence, Sequence):
            drawing = layout_steps(sequence, setter.measure, PHONE_COLUMN, NAME_SLACK)
    return svg_of(drawing, Palette(accent.lower() if accent else PALETTE["accent"]))


@dataclass(frozen=True, slots=True)
class Palette:
    """The colours of one article's diagrams: `PALETTE` with its accent, which leads the
    series too (the other series colours follow, less any too close to it)."""

    accent: str

    def colour(self, role: str) -> str:
        if role.startswith(TINT):  # over the article's white page, as one opaque colour
            base = self.colour(role.removeprefix(TINT))
            rgb = (int(base[i : i + 2], 16) for i in (1, 3, 5))
            return "#" + "".join(f"{round(255 + (c - 255) * TINT_SHARE):02x}" for c in rgb)
        if role.startswith("#"):  # an author's own colour (a flowchart's classDef)
            return role
        if role.startswith("series"):
            hues = tuple(_argb(c) for c in (self.accent, *SERIES))
            return f"#{series_colour(hues, _argb(PALETTE['page']), role) & 0xFFFFFF:06x}"
        return self.accent if role == "accent" else PALETTE.get(role, PALETTE["text"])

    def series(self) -> tuple[str, ...]:
        """The series colours (`palette.series_colours`) made from the accent, then `SERIES`,
        on the article's white page."""
        base = tuple(_argb(c) for c in (self.accent, *SERIES))
        made = series_colours(base, _argb(PALETTE["page"]))
        return tuple(f"#{c & 0xFFFFFF:06x}" for c in made)


def _argb(hex_colour: str) -> int:
    return 0xFF000000 | int(hex_colour[1:7], 16)


def svg_of(drawing: Drawing, palette: Palette = Palette(PALETTE["accent"])) -> str:
    pad = drawing.width * _SLACK  # the phone's font may set Latin a little wider than ours
    w, h = drawing.width + 2 * pad, drawing.height
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}"'
        f' viewBox="{-pad:.1f} 0 {w:.1f} {h:.1f}" role="img"'
        f' aria-label="{html.escape(drawing.text.replace(chr(10), " / "))}"'
        f' font-family="{FONT_FAMILY}"'  # once, inherited: on every label it was a fifth of a chart
        ' style="max-width:100%;height:auto;display:block;margin:0 auto">'
    ]
    # a chart many phone columns wide is drawn a few times smaller: whole px are exact enough
    digits = 0 if drawing.width > WHOLE_PX_PAST * PHONE_COLUMN else 1
    for item in drawing.items:
        if isinstance(item, Label):
            parts.extend(_label(item, palette))
        else:
            parts.append(_path(item, palette, digits))
    parts.append("</svg>")
    return "".join(parts)


def _path(mark: Mark, palette: Palette, digits: int) -> str:
    """A mark as a `<path>` with its look inline (the editor keeps plain elements, no
    `<g>`): `d` written compactly, to `digits`."""
    data = "".join(
        str(op[0]) + " ".join(_number(float(v), digits) for v in op[1:])  # type: ignore[arg-type]
        for op in mark.ops
    )
    attrs = [f'd="{data}"', f'fill="{palette.colour(mark.fill) if mark.fill else "none"}"']
    if mark.stroke:
        attrs += [f'stroke="{palette.colour(mark.stroke)}"', f'stroke-width="{mark.width:.1f}"']
        attrs.append('stroke-linecap="round" stroke-linejoin="round"')
        if mark.dash:
            attrs.append(f'stroke-dasharray="{mark.dash[0]:.0f} {mark.dash[1]:.0f}"')
    return f"<path {' '.join(attrs)}/>"


def _number(value: float, digits: int) -> str:
    """`digits` decimals (0 or 1), whole numbers bare (an arc's flags must read 0 or 1)."""
    if value.is_integer():
        return str(int(value))
    return f"{value:.{digits}f}"


def _label(label: Label, palette: Palette) -> list[str]:
    """Each line of a label as a `<text>`, its size, colour and anchor inline."""
    text = label.text
    anchor = "middle" if label.align == "center" else "start"
    weight = ' font-weight="bold"' if text.bold else ""
    weight += ' font-style="italic"' if text.italic else ""
    look = (
        f'font-size="{text.size:.0f}" fill="{palette.colour(label.color)}"'
        f' text-anchor="{anchor}"{weight}'
    )
    out = []
    for index, line in enumerate(text.lines):
        y = label.y + (index + _BASELINE) * text.size * LINE_HEIGHT - text.size * 0.1
        out.append(f'<text x="{label.x:.1f}" y="{y:.1f}" {look}>{html.escape(line)}</text>')
    return out
