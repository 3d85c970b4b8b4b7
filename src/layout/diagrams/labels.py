"""A diagram's labels, measured and set by the engine's own shaping (HarfBuzz, CJK-aware
line breaking): the `Measure` the diagram layouts size their boxes with, and the glyph
runs cards draw. Articles use the same measure, so their boxes fit the same words."""

from __future__ import annotations

from ..base.boxes import Group, Item, shift
from ..base.fonts import FontBook
from ..style.spanstyle import Span, SpanStyle
from ..text.inline import layout_text
from ..text.linebox import Metrics, TextLine, line_metrics
from .marks import Label, Lines

LINE_HEIGHT = 1.35  # a label's line box, in em
_SLACK = 1.0  # px of width a measured line is given again, so setting it never re-wraps


class LabelSetter:
    """Measures and sets labels in one font family."""

    def __init__(self, fonts: FontBook, family: str = "sans") -> None:
        self.fonts, self.family = fonts, family
        self._measured: dict[tuple[str, float, bool, float], Lines] = {}

    def measure(self, text: str, size: float, bold: bool, max_width: float) -> Lines:
        key = (text, size, bold, max_width)
        if key not in self._measured:
            lines: list[str] = []
            width = 0.0
            for paragraph in text.split("\n"):
                laid = self._lines(paragraph, size, bold, 0.0, max_width, 0)
                lines.extend(line.text.strip() for line in laid)
                width = max([width, *(line.width for line in laid)])
                if not laid:
                    lines.append("")
            self._measured[key] = Lines(
                tuple(lines), width, len(lines) * size * LINE_HEIGHT, size, bold
            )
        return self._measured[key]

    def items(self, label: Label, color: int) -> list[Item]:
        """The label's glyph runs where the drawing put it, in `color`."""
        text = label.text
        left = label.x - text.width / 2 if label.align == "center" else label.x
        out: list[Item] = []
        for index, line in enumerate(text.lines):
            laid = self._lines(
                line, text.size, text.bold, left, text.width + _SLACK, color, text.italic
            )
            align_shift = 0.0
            for piece in laid[:1]:
                if label.align == "center":
                    align_shift = (text.width - piece.width) / 2
                top = label.y + index * text.size * LINE_HEIGHT
                out.extend(shift((Group(piece.items, dx=align_shift),), top))
        return out

    def _lines(
        self,
        text: str,
        size: float,
        bold: bool,
        x: float,
        width: float,
        color: int,
        italic: bool = False,
    ) -> list[TextLine]:
        if not text.strip():
            return []
        # an author's italic label (`font-style`) slants its CJK too, as a browser does: no
        # Kai face, whose other widths would re-wrap a label measured upright
        style = SpanStyle(self.family, size, bold, italic, color, cjk_italic="oblique")
        return layout_text(
            [Span(text, style)],
            self.fonts,
            x=x,
            width=width,
            metrics=self._metrics(size, bold),
            prose=False,
        )

    def _metrics(self, size: float, bold: bool) -> Metrics:
        return line_metrics(self.fonts, self.family, bold, size, LINE_HEIGHT)
