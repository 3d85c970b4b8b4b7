"""A cover's design → the items of one cover layout, in virtual px of the page.

    headline  a huge title block, keywords in the accent, an accent bar over it
    band      the title on an accent band across the card, a kicker line above it
    pills     a centred title with the keywords as pills under it
    split     an accent colour block up top (the lead keyword large in it), the title
              large at the bottom left

`centred_square` is the WeChat article cover's: the title in the centred square (the 1:1
crop), a colour block and a dotted field of accent shapes on the sides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..base.boxes import Fill, Group, Item, Pattern, Rect, Shape
from ..style.spanstyle import Span
from ..text.linebox import TextLine
from .coverinks import tint
from .covertitle import (
    MAX_PILLS,
    Design,
    fit_title,
    ink_left,
    kicker_text,
    lines_height,
    small_line,
    stack,
    title_spans,
)

DOT_ALPHA = 0x38  # the texture on a colour block: felt, not read
RING_ALPHA = 0x70
FIELD_DOT_ALPHA = 0x40  # the dotted field beside the article cover's square


def _headline(design: Design) -> list[Item]:
    page, margin = design.page, design.margin
    box = Rect(margin, page.height * 0.2, page.width - 2 * margin, page.height * 0.56)
    spans = lambda size: title_spans(design, size, None, design.accent)  # noqa: E731
    lines = fit_title(design, spans, box, "left")
    top = box.y + (box.height - lines_height(lines)) / 2
    bar = Fill(Rect(margin + ink_left(lines) - margin, top - 22, 56, 7), design.accent, radius=3.5)
    items, bottom = stack(lines, top)
    size = max(13.0, page.width * 0.034)
    tags = "   ".join(f"#{word}" for word in design.keywords[:MAX_PILLS])
    line = small_line(
        design, tags, design.small_look(size, design.tag_ink), margin, box.width, "left"
    )
    if line is not None and tags:
        items.append(Group(line.items, dy=bottom + size))
    return [bar, *items]


def _band(design: Design) -> list[Item]:
    page, margin = design.page, design.margin
    band = Rect(0.0, page.height * 0.3, page.width, page.height * 0.42)
    pad = band.height * 0.12
    box = Rect(margin, band.y + pad, page.width - 2 * margin, band.height - 2 * pad)
    ink = design.on_accent
    spans = lambda size: title_spans(design, size, ink, ink)  # noqa: E731
    lines = fit_title(design, spans, box, "left")
    items: list[Item] = [Fill(band, design.accent)]
    text_items, _ = stack(lines, box.y + (box.height - lines_height(lines)) / 2)
    items.extend(text_items)
    size = max(13.0, page.width * 0.036)
    kicker = kicker_text(design)
    body = design.styles["h1"].color
    line = small_line(design, kicker, design.small_look(size, body), margin, box.width, "left")
    if line is not None and kicker:
        rule = Fill(Rect(margin, band.y - size * 2.2, 28, 4), design.accent, radius=2)
        items.extend([rule, Group(line.items, dy=band.y - size * 1.7)])
    return items


def _pills(design: Design) -> list[Item]:
    page, margin = design.page, design.margin
    box = Rect(margin, page.height * 0.18, page.width - 2 * margin, page.height * 0.46)
    spans = lambda size: title_spans(design, size, None, design.accent)  # noqa: E731
    lines = fit_title(design, spans, box, "center")
    top = box.y + (box.height - lines_height(lines)) / 2
    items, bottom = stack(lines, top)
    rule_width = min(64.0, box.width / 4)
    rule = Rect(page.width / 2 - rule_width / 2, bottom + 18, rule_width, 5)
    items.append(Fill(rule, design.accent, radius=2.5))
    items.extend(_pill_rows(design, design.keywords[:MAX_PILLS], rule.bottom + 26, box))
    return items


def _pill_rows(design: Design, words: tuple[str, ...], top: float, box: Rect) -> list[Item]:
    """The keywords as accent pills, centred in rows no wider than `box`, at most two rows."""
    size = max(13.0, design.page.width * 0.036)
    look = design.small_look(size, design.on_accent)
    pad_x, height, gap = size * 0.9, size * 2.1, size * 0.6
    pills: list[tuple[float, TextLine]] = []
    for word in words:
        line = small_line(design, word, look, 0.0, box.width - 2 * pad_x, "left")
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


def _split(design: Design) -> list[Item]:
    page, margin = design.page, design.margin
    top = max(margin, design.content.y)
    block = Rect(margin, top, page.width - 2 * margin, page.height * 0.36)
    items = colour_block(design, block, radius=18)
    bar_x = margin
    box = Rect(margin + 22, block.bottom + 28, page.width - 2 * margin - 22, 0.0)
    box = replace(box, height=design.content.bottom - box.y)
    spans = lambda size: title_spans(design, size, None, design.accent)  # noqa: E731
    lines = fit_title(design, spans, box, "left")
    top = box.bottom - lines_height(lines)  # the title sits on the bottom margin
    text_items, _ = stack(lines, top)
    items.append(Fill(Rect(bar_x, top + 6, 7, lines_height(lines) - 12), design.accent, radius=3.5))
    items.extend(text_items)
    return items


def _lead_word(design: Design) -> str:
    """What a colour block shows large: the first keyword, else the title's initial."""
    if design.keywords:
        return design.keywords[0]
    return design.title[:1].upper()


def colour_block(design: Design, block: Rect, radius: float, *, kicker: bool = True) -> list[Item]:
    """A solid accent block that reads as designed, not as a missing photo: a dot texture
    in the ink, an outlined ring over its top right corner, the other keywords as a small
    kicker (unless shown elsewhere) and the lead keyword (or the title's initial) set as
    large as it fits."""
    ink = design.on_accent
    pitch = max(10.0, block.width * 0.045)
    dots = Pattern(
        "dots", tint(ink, DOT_ALPHA), spacing=pitch, size=pitch * 0.12, offset=(block.x, block.y)
    )
    ring = min(block.height, block.width) * 0.42
    items: list[Item] = [
        Fill(block, design.accent, radius=radius),
        Fill(block, dots, radius=radius),
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
    line = small_line(design, words, look, inner.x, inner.width, "left")
    if line is not None and words:
        items.append(Group(line.items, dy=inner.y))
        below = line.height * 1.6
        inner = Rect(inner.x, inner.y + below, inner.width, inner.height - below)
    lead = _lead_word(design)
    if lead:
        spans = lambda size: [Span(lead, design.title_look(size, ink))]  # noqa: E731
        lead_box = Rect(inner.x, inner.y, inner.width, inner.height)
        lines = fit_title(design, spans, lead_box, "left", max_lines=2)
        text_items, _ = stack(lines, inner.bottom - lines_height(lines))
        items.extend(text_items)
    return items


def centred_square(design: Design) -> list[Item]:
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
    top = box.y + (box.height - lines_height(lines)) / 2
    items, bottom = stack(lines, top)
    rule_width = side * 0.16
    items.append(
        Fill(
            Rect(page.width / 2 - rule_width / 2, bottom + side * 0.05, rule_width, 5),
            design.accent,
            radius=2.5,
        )
    )
    return [*items, *side_panels(design)]


def in_the_square(design: Design, name: str) -> list[Item]:
    """Layout `name` (headline, band, pills) drawn inside the centred square of a wide
    cover, so the 1:1 crop keeps its title whole; the sides as `centred_square`'s."""
    page = design.page
    side = page.height
    square = replace(design, page=Rect(0.0, 0.0, side, side), content=Rect(0.0, 0.0, side, side))
    drawn = DRAWERS[name](square)
    return [Group(tuple(drawn), dx=(page.width - side) / 2), *side_panels(design)]


def side_panels(design: Design) -> list[Item]:
    """What a wide cover shows beside its centred square: a colour block with the lead
    keyword on the left, a dotted field of accent shapes with the other keywords on the right;
    both start below the card's header when the theme draws decorations there."""
    page = design.page
    side = page.height
    square = Rect((page.width - side) / 2, 0.0, side, side)
    gap = side * 0.06
    edge = side * 0.09
    # below the header a theme draws its chrome in (apple-notes' Notes bar, cyberpunk's tag)
    top = edge + (design.styles["card"].header_height if design.styles.decorations else 0.0)
    band = Rect(edge, top, square.x - gap - edge, side - top - edge)
    items = colour_block(design, band, radius=14, kicker=False)
    right = Rect(square.right + gap, band.y, band.width, band.height)
    items.extend(_accent_field(design, right))
    return items


def _accent_field(design: Design, field: Rect) -> list[Item]:
    """The theme's accent as shapes over a dotted field: a disc in the field's far corner,
    a ring overlapping it, a short accent rule and the keywords after the first (the colour
    block shows that one) as hashtags."""
    accent = design.accent
    pitch = max(10.0, field.width * 0.07)
    dots = Pattern(
        "dots",
        tint(accent, FIELD_DOT_ALPHA),
        spacing=pitch,
        size=pitch * 0.13,
        offset=(field.x, field.y),
    )
    disc = min(field.width, field.height) * 0.36
    items: list[Item] = [
        Fill(field, dots, radius=14),
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
        line = small_line(design, f"#{word}", look, x, field.width * 0.8, "left")
        if line is not None:
            items.append(Group(line.items, dy=top))
            top += line.height * 1.15
    return items


DRAWERS: dict[str, Callable[[Design], list[Item]]] = {
    "headline": _headline,
    "band": _band,
    "pills": _pills,
    "split": _split,
}
