"""Title + keywords + card theme → cover cards: big display type a designer would post.

A cover is one card drawn from a title, not from Markdown: the theme's page (background and
static decorations, as its cards have them), the title set as large as its balanced lines
fit the room its layout gives it, and the keywords emphasised in the theme's accent. Four
layouts, each recognisably the theme's (its heading face and colours, its accent):

    headline  a huge title block, keywords in the accent, an accent bar over it
    band      the title on an accent band across the card, a kicker line above it
    pills     a centred title with the keywords as pills under it
    split     an accent colour block up top (the lead keyword large in it), the title
              large at the bottom left

`wechat_cover` draws the article cover the platform wants (900 x 383, 2.35:1) with the
title inside the centred square, so the square thumbnail crop shows it whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import regex

from ..base.boxes import Fill, Group, Item, Page, Pattern, PlacedRow, Rect, Row, Shape, Stroke
from ..limits import DEFAULT_HEIGHT, DEFAULT_WIDTH
from ..pages.compose import content_box, static_layers
from ..style.looks import text_look
from ..style.paint import base_color
from ..style.resolver import Styles, resolve
from ..style.schema import Theme
from ..style.spanstyle import Span, SpanStyle
from ..text.fonts import FontBook
from ..text.inline import layout_text
from ..text.linebox import TextLine, line_metrics
from .coverinks import emphasis, ink_on, small_ink, tint

LAYOUTS = ("headline", "band", "pills", "split")
MAX_COVERS = len(LAYOUTS)
TITLE_LINE_HEIGHT = 1.18  # display type: tighter than body text, loose enough for CJK
MAX_TITLE_LINES = 4  # more lines than this read as a paragraph, not a cover
MIN_LINE_SHARE = 0.6  # no title line but the last is shorter than this share of the widest
MIN_TITLE_SIZE = 14.0  # virtual px: the last size tried, used even if the title overflows
SIZE_STEP = 0.95  # each size tried is this share of the one before
MAX_TITLE_CHARS = 80  # a title longer than this is cut: it would set as a paragraph
MAX_KEYWORDS = 8  # keywords looked for in the title (later ones are ignored)
MAX_KEYWORD_CHARS = 20
MAX_PILLS = 6  # keywords shown as pills (the rest are only highlighted in the title)
WECHAT_SIZE = (900, 383)  # the article cover the platform shows at 2.35:1
WIDE_RATIO = 2.35
DOT_ALPHA = 0x38  # the texture on a colour block: felt, not read
RING_ALPHA = 0x70
FIELD_DOT_ALPHA = 0x40  # the dotted field beside the article cover's square
MARKER_HEIGHT = 0.42  # the marker covers this lower share of the keywords' text
CROP_MARK = 0xFFFF00AA  # the square crop's outline in a gallery: a colour no theme uses
_WORD_CHAR = regex.compile(r"[\p{Latin}\p{N}]")


@dataclass(frozen=True, slots=True)
class CoverCrops:
    """The platform's crop boxes of a cover, each `x1_y1_x2_y2` as fractions of the image
    (origin top left, at most 6 decimals)."""

    crop_235_1: str
    crop_1_1: str


@dataclass(frozen=True, slots=True)
class _Design:
    """What every layout draws with: the resolved theme, the page and its content box (in
    virtual px), and the theme's title and accent looks."""

    styles: Styles
    fonts: FontBook
    page: Rect
    content: Rect
    title: str
    keywords: tuple[str, ...]
    accent: int
    on_accent: int
    marker: int | None  # drawn behind the keywords in the title
    tag_ink: int  # small keywords on the page: the accent where it reads as small text

    @property
    def margin(self) -> float:
        return max(self.content.x, self.page.width * 0.08)

    def title_look(self, size: float, color: int | None = None) -> SpanStyle:
        style = self.styles["h1"]
        return text_look(
            style.family,
            size,
            style.color if color is None else color,
            weight=max(style.weight, 700),
            letter_spacing=style.letter_spacing * size / max(style.size, 1.0),
            text_transform=style.text_transform,
        )

    def small_look(self, size: float, color: int, weight: int = 600) -> SpanStyle:
        return text_look(self.styles["body"].family, size, color, weight=weight)


def cover_pages(
    title: str,
    keywords: tuple[str, ...],
    theme: Theme,
    fonts: FontBook,
    *,
    width: float,
    height: float,
    count: int = 1,
    mode: str | None = None,
) -> list[Page]:
    """`count` (1..4) covers of `title`, each in another layout, `width` x `height` CSS px.

    `keywords` found in the title are drawn in the accent; the others are shown beside it
    (as pills, or in a kicker line)."""
    design = _design(title, keywords, theme, fonts, mode, width, height)
    zoom = _zoom(width, height)
    return [
        _page(design, _LAYOUTS[name](design), width, height, zoom)
        for name in LAYOUTS[: max(1, min(count, MAX_COVERS))]
    ]


def wechat_cover(
    title: str,
    keywords: tuple[str, ...],
    theme: Theme,
    fonts: FontBook,
    mode: str | None = None,
    *,
    mark_crop: bool = False,
) -> tuple[Page, CoverCrops]:
    """The article cover (900 x 383) with the title in the centred square, and its crops:
    the whole image at 2.35:1 and the centred square at 1:1."""
    width, height = WECHAT_SIZE
    design = _design(title, keywords, theme, fonts, mode, width, height)
    drawn = _centred_square(design)
    left = (width - height) / 2 / width
    if mark_crop:
        square = Rect(left * width, 1.0, height, height - 2.0)
        drawn.append(Stroke(square, CROP_MARK, 2.0, dash=(8.0, 6.0)))
    return _page(design, drawn, width, height, 1.0), centred_crops(width, height)


def centred_crops(width: float, height: float) -> CoverCrops:
    """The centred 2.35:1 and 1:1 crop boxes of an image `width` x `height`: the platform
    shows the first in the feed and the second as the square thumbnail. An image within 1 %
    of 2.35:1 (the 900 x 383 cover) is its own wide crop."""
    return CoverCrops(_centred(width, height, WIDE_RATIO), _centred(width, height, 1.0))


def _centred(width: float, height: float, ratio: float) -> str:
    if abs(width / height - ratio) <= ratio * 0.01:
        return "0_0_1_1"
    if width / height > ratio:  # too wide: a centred band of the width
        side = (1 - height * ratio / width) / 2
        return f"{_fraction(side)}_0_{_fraction(1 - side)}_1"
    side = (1 - width / ratio / height) / 2
    return f"0_{_fraction(side)}_1_{_fraction(1 - side)}"


def _fraction(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _design(
    title: str,
    keywords: tuple[str, ...],
    theme: Theme,
    fonts: FontBook,
    mode: str | None,
    width: float,
    height: float,
) -> _Design:
    styles = resolve(theme, mode)
    zoom = _zoom(width, height)
    page = Rect(0.0, 0.0, width / zoom, height / zoom)
    accent, marker = emphasis(styles)
    # The engine's own bounds (a caller refuses more): a cover shows a short title.
    words = tuple(dict.fromkeys(k.strip()[:MAX_KEYWORD_CHARS] for k in keywords if k.strip()))
    words = words[:MAX_KEYWORDS]
    return _Design(
        styles=styles,
        fonts=fonts,
        page=page,
        content=content_box(styles, page.width, page.height),
        title=" ".join(title.split())[:MAX_TITLE_CHARS],
        keywords=words,
        accent=accent,
        on_accent=ink_on(accent),
        marker=marker,
        tag_ink=small_ink(styles, accent),
    )


def _zoom(width: float, height: float) -> float:
    """How much larger than the theme's own card a cover draws its page and decorations:
    a 1080 x 1440 cover looks like a 440 x 586 card, only sharper."""
    return max(1.0, min(width / DEFAULT_WIDTH, height / DEFAULT_HEIGHT))


def _page(design: _Design, drawn: list[Item], width: float, height: float, zoom: float) -> Page:
    page = design.page
    under, over = static_layers(design.styles, design.fonts, page.width, page.height)
    items: tuple[Item, ...] = (*under, *drawn, *over)
    if zoom != 1.0:
        items = (Group(items, scale=zoom),)
    alt = Row(0.0, (), text=design.title) if design.title else None
    rows = (PlacedRow(alt, 0.0),) if alt is not None else ()
    background = base_color(design.styles["card"].background)
    return Page(width, height, background, items, rows)


# Title type


def title_spans(design: _Design, size: float, color: int | None, emphasis: int) -> list[Span]:
    """The title as runs: the keywords found in it (longest first, any case) in `emphasis`,
    the rest in `color` (the heading's colour when None)."""
    plain, marked = design.title_look(size, color), design.title_look(size, emphasis)
    if color is None:  # on the page, as the theme's heading: with its outline or glow too
        effects = design.styles["h1"].text_effects
        plain, marked = replace(plain, effects=effects), replace(marked, effects=effects)
    if design.marker is not None and emphasis != color:
        marked = replace(marked, highlight=design.marker, highlight_height=MARKER_HEIGHT)
    text = design.title
    flags = [False] * len(text)
    folded = text.casefold()
    for word in sorted(design.keywords, key=len, reverse=True):
        needle, start = word.casefold(), 0
        while needle and len(folded) == len(text) and (at := folded.find(needle, start)) >= 0:
            flags[at : at + len(needle)] = [True] * len(needle)
            start = at + len(needle)
    spans: list[Span] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or flags[i] != flags[start]:
            spans.append(Span(text[start:i], marked if flags[start] else plain))
            start = i
    return spans


def fit_title(
    design: _Design,
    spans_at: Callable[[float], list[Span]],
    box: Rect,
    align: str,
    max_lines: int = MAX_TITLE_LINES,
) -> list[TextLine]:
    """The title's lines at the largest size whose balanced lines fit `box`: no more than
    `max_lines`, none wider, all together no taller, no word cut and no line of one
    character. Sizes are tried from the box's height down; the smallest is kept if none fits."""
    style = design.styles["h1"]
    size = min(box.height / TITLE_LINE_HEIGHT, box.width / 1.2)
    lines: list[TextLine] = []
    while True:
        metrics = line_metrics(design.fonts, style.family, True, size, TITLE_LINE_HEIGHT)
        lines = layout_text(
            spans_at(size),
            design.fonts,
            x=box.x,
            width=box.width,
            metrics=metrics,
            align=align,
            heading=True,
        )
        if size <= MIN_TITLE_SIZE or _fits(lines, box, max_lines, design.title):
            return lines
        size = max(MIN_TITLE_SIZE, size * SIZE_STEP)


def _fits(lines: list[TextLine], box: Rect, max_lines: int, title: str) -> bool:
    if len(lines) > max_lines or sum(line.height for line in lines) > box.height:
        return False
    if any(line.width > box.width + 0.5 for line in lines):
        return False
    widest = max((line.width for line in lines), default=0.0)
    if any(line.width < widest * MIN_LINE_SHARE for line in lines[:-1]):
        return False  # a short line amid long ones reads as a break fault
    texts = [line.text.strip() for line in lines]
    if len(lines) > 1 and any(len(text) <= 1 for text in texts):
        return False
    return not _cuts_word(texts, title)


def _cuts_word(texts: list[str], title: str) -> bool:
    """Whether a line ends inside a Latin word or number of `title` (only a word wider than
    the line is cut so: the title is then too large)."""
    folded, at = title.casefold(), 0
    for text in texts[:-1]:
        found = folded.find(text.casefold(), at)
        if found < 0:
            return False  # transformed beyond recognition: trust the line breaker
        at = found + len(text)
        if 0 < at < len(title) and _WORD_CHAR.match(title[at - 1]) and _WORD_CHAR.match(title[at]):
            return True
    return False


def stack(lines: list[TextLine], top: float) -> tuple[list[Item], float]:
    """The lines one under another from `top`; and where the last ends."""
    items: list[Item] = []
    for line in lines:
        items.append(Group(line.items, dy=top))
        top += line.height
    return items, top


def _height(lines: list[TextLine]) -> float:
    return sum(line.height for line in lines)


def _ink_left(lines: list[TextLine]) -> float:
    return min((line.left for line in lines), default=0.0)


def _small_line(
    design: _Design, text: str, look: SpanStyle, x: float, width: float, align: str
) -> TextLine | None:
    metrics = line_metrics(design.fonts, look.family, look.bold, look.size, 1.3)
    lines = layout_text(
        [Span(text, look)], design.fonts, x=x, width=width, metrics=metrics, align=align
    )
    return lines[0] if lines else None


def _extra_keywords(design: _Design) -> list[str]:
    """The keywords the title does not hold (they are shown beside it)."""
    folded = design.title.casefold()
    return [word for word in design.keywords if word.casefold() not in folded]


def _kicker_text(design: _Design) -> str:
    words = design.keywords[:MAX_PILLS] or ()
    return "  ·  ".join(words)


# The layouts, each in virtual px of the page


def _headline(design: _Design) -> list[Item]:
    page, margin = design.page, design.margin
    box = Rect(margin, page.height * 0.2, page.width - 2 * margin, page.height * 0.56)
    spans = lambda size: title_spans(design, size, None, design.accent)  # noqa: E731
    lines = fit_title(design, spans, box, "left")
    top = box.y + (box.height - _height(lines)) / 2
    bar = Fill(Rect(margin + _ink_left(lines) - margin, top - 22, 56, 7), design.accent, radius=3.5)
    items, bottom = stack(lines, top)
    size = max(13.0, page.width * 0.034)
    tags = "   ".join(f"#{word}" for word in design.keywords[:MAX_PILLS])
    line = _small_line(
        design, tags, design.small_look(size, design.tag_ink), margin, box.width, "left"
    )
    if line is not None and tags:
        items.append(Group(line.items, dy=bottom + size))
    return [bar, *items]


def _band(design: _Design) -> list[Item]:
    page, margin = design.page, design.margin
    band = Rect(0.0, page.height * 0.3, page.width, page.height * 0.42)
    pad = band.height * 0.12
    box = Rect(margin, band.y + pad, page.width - 2 * margin, band.height - 2 * pad)
    ink = design.on_accent
    spans = lambda size: title_spans(design, size, ink, ink)  # noqa: E731
    lines = fit_title(design, spans, box, "left")
    items: list[Item] = [Fill(band, design.accent)]
    text_items, _ = stack(lines, box.y + (box.height - _height(lines)) / 2)
    items.extend(text_items)
    size = max(13.0, page.width * 0.036)
    kicker = _kicker_text(design)
    body = design.styles["h1"].color
    line = _small_line(design, kicker, design.small_look(size, body), margin, box.width, "left")
    if line is not None and kicker:
        rule = Fill(Rect(margin, band.y - size * 2.2, 28, 4), design.accent, radius=2)
        items.extend([rule, Group(line.items, dy=band.y - size * 1.7)])
    return items


def _pills(design: _Design) -> list[Item]:
    page, margin = design.page, design.margin
    box = Rect(margin, page.height * 0.18, page.width - 2 * margin, page.height * 0.46)
    spans = lambda size: title_spans(design, size, None, design.accent)  # noqa: E731
    lines = fit_title(design, spans, box, "center")
    top = box.y + (box.height - _height(lines)) / 2
    items, bottom = stack(lines, top)
    rule_width = min(64.0, box.width / 4)
    rule = Rect(page.width / 2 - rule_width / 2, bottom + 18, rule_width, 5)
    items.append(Fill(rule, design.accent, radius=2.5))
    items.extend(_pill_rows(design, design.keywords[:MAX_PILLS], rule.bottom + 26, box))
    return items


def _pill_rows(design: _Design, words: tuple[str, ...], top: float, box: Rect) -> list[Item]:
    """The keywords as accent pills, centred in rows no wider than `box`, at most two rows."""
    size = max(13.0, design.page.width * 0.036)
    look = design.small_look(size, design.on_accent)
    pad_x, height, gap = size * 0.9, size * 2.1, size * 0.6
    pills: list[tuple[float, TextLine]] = []
    for word in words:
        line = _small_line(design, word, look, 0.0, box.width - 2 * pad_x, "left")
        if line is not None:
            pills.append((line.width + 2 * pad_x, line))
    rows: list[list[tuple[float, TextLine]]] = [[]]
    for pill in pills:
        used = sum(w for w, _ in rows[-1]) + gap * len(rows[-1])
        if rows[-1] and used + pill[0] > box.width:
            if len(rows) == 2:
                break
            rows.append([])
        rows[-1].append(pill)
    items: list[Item] = []
    for n, row in enumerate(rows):
        x = design.page.width / 2 - (sum(w for w, _ in row) + gap * (len(row) - 1)) / 2
        y = top + n * (height + gap)
        for width, line in row:
            items.append(Fill(Rect(x, y, width, height), design.accent, radius=height / 2))
            dy = y + (height - line.height) / 2
            items.append(Group(line.items, dx=x + pad_x - line.left, dy=dy))
            x += width + gap
    return items


def _split(design: _Design) -> list[Item]:
    page, margin = design.page, design.margin
    top = max(margin, design.content.y)
    block = Rect(margin, top, page.width - 2 * margin, page.height * 0.36)
    items = colour_block(design, block, radius=18)
    bar_x = margin
    box = Rect(margin + 22, block.bottom + 28, page.width - 2 * margin - 22, 0.0)
    box = replace(box, height=design.content.bottom - box.y)
    spans = lambda size: title_spans(design, size, None, design.accent)  # noqa: E731
    lines = fit_title(design, spans, box, "left")
    top = box.bottom - _height(lines)  # the title sits on the bottom margin
    text_items, _ = stack(lines, top)
    items.append(Fill(Rect(bar_x, top + 6, 7, _height(lines) - 12), design.accent, radius=3.5))
    items.extend(text_items)
    return items


def _lead_word(design: _Design) -> str:
    """What a colour block shows large: the first keyword, else the title's initial."""
    if design.keywords:
        return design.keywords[0]
    return design.title[:1].upper()


def colour_block(design: _Design, block: Rect, radius: float, *, kicker: bool = True) -> list[Item]:
    """A solid accent block that reads as designed, not as a missing photo: a dot texture
    in the ink, an outlined ring over its top right corner, the other keywords as a small
    kicker (unless shown elsewhere) and the lead keyword (or the title's initial) set as
    large as it fits."""
    ink = design.on_accent
    pitch = max(10.0, block.width * 0.045)
    dots = Pattern("dots", tint(ink, DOT_ALPHA), spacing=pitch, size=pitch * 0.12)
    ring = min(block.height, block.width) * 0.42
    items: list[Item] = [
        Fill(block, design.accent, radius=radius),
        Fill(block, replace(dots, offset=(block.x, block.y)), radius=radius),
        Shape(
            (("O", block.right - ring * 0.55, block.y + ring * 0.6, ring * 0.5),),
            stroke=tint(ink, RING_ALPHA),
            fill=None,
            stroke_width=max(2.0, ring * 0.05),
        ),
    ]
    pad = min(block.width, block.height) * 0.12
    inner = Rect(block.x + pad, block.y + pad, block.width - 2 * pad, block.height - 2 * pad)
    size = max(11.0, min(inner.width * 0.07, design.page.width * 0.032))
    words = "  ·  ".join(design.keywords[1:MAX_PILLS]) if kicker else ""
    look = design.small_look(size, ink, 700)
    line = _small_line(design, words, look, inner.x, inner.width, "left")
    if line is not None and words:
        items.append(Group(line.items, dy=inner.y))
        below = line.height * 1.6
        inner = Rect(inner.x, inner.y + below, inner.width, inner.height - below)
    lead = _lead_word(design)
    if lead:
        spans = lambda size: [Span(lead, design.title_look(size, ink))]  # noqa: E731
        lead_box = Rect(inner.x, inner.y, inner.width, inner.height)
        lines = fit_title(design, spans, lead_box, "left", max_lines=2)
        text_items, _ = stack(lines, inner.bottom - _height(lines))
        items.extend(text_items)
    return items


def _centred_square(design: _Design) -> list[Item]:
    """The title in the centred square (the 1:1 crop), keywords highlighted; on the sides
    the square crop leaves out, a colour block with the lead keyword and a dotted field of
    accent shapes (designed, never empty panels that read as missing photos)."""
    page = design.page
    side = page.height
    square = Rect((page.width - side) / 2, 0.0, side, side)
    inset = side * 0.1
    box = Rect(square.x + inset, inset * 1.2, side - 2 * inset, side - 2.6 * inset)
    spans = lambda size: title_spans(design, size, None, design.accent)  # noqa: E731
    lines = fit_title(design, spans, box, "center")
    top = box.y + (box.height - _height(lines)) / 2
    items, bottom = stack(lines, top)
    rule_width = side * 0.16
    items.append(
        Fill(
            Rect(page.width / 2 - rule_width / 2, bottom + side * 0.05, rule_width, 5),
            design.accent,
            radius=2.5,
        )
    )
    gap = side * 0.06
    edge = side * 0.09
    band = Rect(edge, edge, square.x - gap - edge, side - 2 * edge)
    items.extend(colour_block(design, band, radius=14, kicker=False))
    right = Rect(square.right + gap, band.y, band.width, band.height)
    items.extend(_accent_field(design, right))
    return items


def _accent_field(design: _Design, field: Rect) -> list[Item]:
    """The theme's accent as shapes over a dotted field: a disc in the field's far corner,
    a ring overlapping it, a short accent rule and the keywords after the first (the colour
    block shows that one) as hashtags."""
    accent = design.accent
    pitch = max(10.0, field.width * 0.07)
    dots = Pattern("dots", tint(accent, FIELD_DOT_ALPHA), spacing=pitch, size=pitch * 0.13)
    disc = min(field.width, field.height) * 0.36
    items: list[Item] = [
        Fill(field, replace(dots, offset=(field.x, field.y)), radius=14),
        Shape((("O", field.right - disc * 0.8, field.bottom - disc * 0.8, disc),), None, accent),
        Shape(
            (("O", field.right - disc * 1.7, field.bottom - disc * 1.5, disc * 0.55),),
            stroke=accent,
            fill=None,
            stroke_width=max(2.0, disc * 0.06),
        ),
    ]
    size = max(12.0, field.width * 0.075)
    top = field.y + field.height * 0.1
    items.append(Fill(Rect(field.x + size * 0.2, top, 32, 5), accent, radius=2.5))
    top += size * 1.2
    for word in design.keywords[1:4]:
        look = design.small_look(size, design.tag_ink, 700)
        x = field.x + size * 0.2
        line = _small_line(design, f"#{word}", look, x, field.width * 0.8, "left")
        if line is not None:
            items.append(Group(line.items, dy=top))
            top += line.height * 1.15
    return items


_LAYOUTS: dict[str, Callable[[_Design], list[Item]]] = {
    "headline": _headline,
    "band": _band,
    "pills": _pills,
    "split": _split,
}
