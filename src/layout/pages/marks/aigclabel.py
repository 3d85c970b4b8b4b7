"""An AI-content label's text + the theme → the visible label on every card, in the band the
card keeps for it, so that it never covers the post's text.

The label is the `aigc_label` role (resolver.py derives it from the theme's page number: its
face and colour, on the other side of the footer band) in the footer band, or the header
band with `position = "top"`. Layout measures: `with_label_room` makes that band at least as
tall as the label's line before any row is placed, so the content box ends above it; draw
only draws what `label_items` returns. Its type is at least `READABLE_PX` as a phone
`PHONE_WIDTH` wide shows the card (it grows with a wide card's virtual width).
"""

from __future__ import annotations

from dataclasses import replace

from ...base.boxes import Fill, Group, Item, Rect
from ...base.fonts import FontBook
from ...parse.doc import Doc, Text, node_values
from ...style.paint import base_color
from ...style.resolver import Styles
from ...style.schema import Style
from ..cardface import edges
from ..quality import PHONE_WIDTH, READABLE_PX
from .chrome import chrome_look, one_line

ROLE = "aigc_label"
LINE = 1.25  # the label's line box, in ems (as the page number's)
GAP = 4.0  # px between the label's line and the content box above (or below) it


def label_style(styles: Styles, width: float) -> Style:
    """The label's style on a card `width` virtual px wide: the role's, its type no smaller
    than reads at `READABLE_PX` on a phone."""
    style = styles[ROLE]
    return replace(style, size=max(style.size, READABLE_PX * width / PHONE_WIDTH))


def with_label_room(styles: Styles, width: float, stacked: bool = False) -> Styles:
    """`styles` with the card's footer band (header band for a label at the top) at least
    as tall as the label's line and `GAP`: the rows end above the label. `stacked`: the
    footer band already holds a brand kit's marks (pages/brandmarks.py, drawn up from its
    bottom), so it grows by the label's line, which `label_items` sets at the band's top."""
    style = label_style(styles, width)
    need = style.size * LINE + GAP
    card = styles["card"]
    if style.position == "top":
        if card.header_height >= need:
            return styles
        card = replace(card, header_height=need)
    elif stacked:
        card = replace(card, footer_height=card.footer_height + need)
    else:
        if card.footer_height >= need:
            return styles
        card = replace(card, footer_height=need)
    # a key of its own: static layers framed on the content box are kept by it (cardface)
    key = (styles.key[0], f"{styles.key[1]}|{ROLE}:{need:g}")
    return replace(styles, roles={**styles.roles, "card": card}, key=key)


def label_items(
    styles: Styles,
    fonts: FontBook,
    text: str,
    box: Rect,
    height: float,
    width: float,
    *,
    chip: bool = False,
    stacked: bool = False,
) -> list[Item]:
    """The label's line in its band on a card `width` x `height` whose content box is
    `box`: aligned as its role says (`indent` px in from its side), its line box's edge
    on the band's outer edge (`stacked`: a footer band's top, above a brand kit's marks,
    as `with_label_room` made room). `chip`: on a rounded patch of the card's own colour,
    for a place the theme's drawings may reach (a WeChat cover's corner)."""
    style = label_style(styles, width)
    look = chrome_look(style)
    # `indent`: px kept from the content box's side the label is aligned to (clear of a
    # theme's corner ornament)
    x = box.x + (style.indent if style.align == "left" else 0.0)
    width = max(1.0, box.width - style.indent)
    line = one_line(text, look, fonts, x=x, width=width, align=style.align)
    if line is None:
        return []
    top, _, bottom, _ = edges(styles["card"])
    if style.position == "top":
        y = top
    elif stacked:
        y = box.y + box.height + GAP
    else:
        y = height - bottom - line.height
    label = Group(line.items, dy=y)
    if not chip:
        return [label]
    pad = style.size / 2
    patch = Rect(line.left - pad, y, line.width + 2 * pad, line.height)
    return [Fill(patch, base_color(styles["card"].background), line.height / 2), label]


def post_text(doc: Doc) -> str:
    """Every inline text of `doc`, for choosing the label's language (`aigc.visible_text`)."""
    out: list[str] = []
    _collect(doc, out)
    return "".join(out)


def _collect(node: object, out: list[str]) -> None:
    if isinstance(node, Text):
        out.append(node.text)
    elif isinstance(node, tuple):
        for child in node:
            _collect(child, out)
    else:
        for value in node_values(node):
            _collect(value, out)
