"""A theme's styles + a slide or a portrait or square card → the styles it sets its small text in.

A 1600x900 slide is drawn about 2.8 times larger than its virtual card and looked at on a
phone 360 px wide, where its body reads 10 px (`zoom.LEGIBLE_BODY_PX`): a code block set at
12.8 px (0.8 of the body, as on a portrait card) read 7.8-8.6 px there, under anything a
reader takes in. A deck sets its code, inline code, table cells and captions
(`SMALL_ROLES`) as large as its body, paying with wider lines and more slides: on a slide
each is set at least at the body's size (`slide_styles`), so it reads what the body reads.
Where that breaks a rule at every zoom a slide tries, the slide tries them at `SMALL_SHARE`
of the default 16 px body (14.4 px, 9 px on the phone: `smaller_slide_styles`), never at
the theme's own size.

A portrait or square card is looked at on the same phone: each of `SMALL_ROLES` is set at
least as large as reads `READABLE_PX` there (`at_least`, its floor from `zoom.phone_floor`):
13.4 px on the default 440-px card (its 12.8 px code read 10.5 px), 15.3 px on a 500x500
card (0.72 of its px on the phone), 11 px on a 360-px card, shown at full size.

A theme may set a slide otherwise (its `slide` table, knobs over its roles): a frame
thick enough for a 3:4 card holds a slide's type to a smaller zoom (zoom.py: the zoom
leaves the content box a few lines tall between the frame's bands), so pop-art, art-deco
and traditional-chinese draw their bands thinner on a slide.
"""

from __future__ import annotations

from dataclasses import replace

from ..style.resolver import Styles

SMALL_SHARE = 0.9
BODY_PX = 16.0  # the default body size (layout/style/schema.py)
SMALL_ROLES = ("code_block", "inline_code", "table", "image")  # code, cells, captions
# A slide's code lines a little closer than a card's 1.6 (an editor's 1.3 to 1.5): a 1600x900
# slide holds six to nine lines of code at the body's size, and 1.6 gave a line of each
# back to its gaps.
SLIDE_CODE_LEADING = 1.4


def slide_styles(styles: Styles) -> Styles:
    """`styles` as its theme sets a slide (its `slide` knobs, such as a thinner frame),
    with each of `SMALL_ROLES` set at least at the body's size."""
    slid = styles.slide or styles
    return _closer_code(at_least(slid, slid["body"].size))


def smaller_slide_styles(styles: Styles) -> Styles:
    """`styles` as its theme sets a slide, with each of `SMALL_ROLES` set at least
    `SMALL_SHARE` of `BODY_PX`: what a slide tries where its code at the body's size
    breaks a rule at every zoom."""
    return _closer_code(at_least(styles.slide or styles, SMALL_SHARE * BODY_PX))


def _closer_code(styles: Styles) -> Styles:
    """`styles` with its code block's lines at most `SLIDE_CODE_LEADING` apart."""
    code = styles.roles.get("code_block")
    if code is None or code.line_height <= SLIDE_CODE_LEADING:
        return styles
    closer = replace(code, line_height=SLIDE_CODE_LEADING)
    return replace(styles, roles={**styles.roles, "code_block": closer})


def at_least(styles: Styles, floor: float) -> Styles:
    """`styles` with each of `SMALL_ROLES` set at least `floor` px (never smaller): a
    block role's style, or the size an inline role (inline code) sets its text in."""
    roles = dict(styles.roles)
    inline = dict(styles.inline)
    for name in SMALL_ROLES:
        style = roles.get(name)
        if style is not None and 0 < style.size < floor:
            roles[name] = replace(style, size=floor)
        size = inline.get(name, {}).get("size")
        if isinstance(size, int | float) and 0 < size < floor:
            inline[name] = {**inline[name], "size": floor}
    return replace(styles, roles=roles, inline=inline)


def is_slide(width: float, height: float, zoom: float) -> bool:
    """Whether a card `width` x `height` drawn `zoom` times larger is a slide: wider than
    tall and zoomed (a landscape card no larger than the default keeps its theme's type)."""
    return width > height and zoom > 1.0
