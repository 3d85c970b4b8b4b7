"""A theme's styles + a slide or a small card → the styles it sets its small text in.

A 1600x900 slide is drawn about 2.8 times larger than its virtual card and looked at on a
phone 360 px wide, where its body reads 10 px (`zoom.LEGIBLE_BODY_PX`): a code block set at
12.8 px (0.8 of the body, as on a portrait card, where it reads 10.5 px) read 8 px there,
under anything a reader takes in. A deck sets its code and its table cells nearly as large
as its body, paying with wider lines: on a slide each role of `SMALL_ROLES` is set at
least `SMALL_SHARE` of the default 16 px body (14.4 px, read 9 px on the phone), whatever
the theme's body: traditional-chinese's 17 px body set its table at 15.3 px, too tall with
its heading and note for one slide at any zoom that kept the body legible.

A square card shown smaller on a phone than the default card is (500x500: 0.73 of its
px against the default's 0.82) reads its body at 11 px (zoom.py's `_readable`), but its code
and table cells, which themes set smaller than the body, at 9.2 to 10.6 px: there each role
of `SMALL_ROLES` is set at least as large as reads `READABLE_PX` on the phone
(`at_least`, its floor from `zoom.phone_floor`). A card shown as large as the
default or larger (440x586, 1080x1440, 360x640) keeps its theme's sizes.

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


def slide_styles(styles: Styles) -> Styles:
    """`styles` as its theme sets a slide (its `slide` knobs, such as a thinner frame),
    with each of `SMALL_ROLES` set at least `SMALL_SHARE` of `BODY_PX`."""
    return at_least(styles.slide or styles, SMALL_SHARE * BODY_PX)


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
