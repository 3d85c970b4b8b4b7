"""A theme's styles + a slide or a portrait or square card → the styles it sets its small text in.

A 1600x900 slide is drawn about 2.8 times larger than its virtual card and looked at on a
phone 360 px wide, where its body reads 10 px (`zoom.LEGIBLE_BODY_PX`): a code block set at
12.8 px (0.8 of the body, as on a portrait card) read 7.8-8.6 px there, under anything a
reader takes in. A deck sets its code, inline code, table cells and captions
(`SMALL_ROLES`) as large as its body, paying with wider lines and more slides: on a slide
each is set at least at the body's size (`slide_styles`), so it reads what the body reads.
Where that breaks a rule at every zoom a slide tries, the slide tries them at `SMALL_SHARE`
of the default 16 px body (14.4 px, 9 px on the phone: `smaller_slide_styles`), never at
the theme's own size. A deck the zoom ladder sets under its legible zoom first tries its
code blocks as large as read `zoom.LEGIBLE_BODY_PX` there, kept where that costs the set no
fault (`code_trials`, `best_trial`): a reader scans code letter by letter.

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

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from ..base.boxes import Page
from ..blocks.fences import is_diagram
from ..parse.doc import CodeBlock, Doc, nodes
from ..style.resolver import Styles
from .quality import PHONE_WIDTH
from .zoom import LEGIBLE_BODY_PX, best_zoom, slide_faults

SMALL_SHARE = 0.9
BODY_PX = 16.0  # the default body size (layout/style/schema.py)
SMALL_ROLES = ("code_block", "inline_code", "table", "image")  # code, cells, captions
CODE_ROLES = ("code_block",)  # set larger than the body where a deck's zoom is small
Trial = tuple[float, bool, float]  # a zoom, the slide's type (else smaller), its code px
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


def at_least(styles: Styles, floor: float, names: tuple[str, ...] = SMALL_ROLES) -> Styles:
    """`styles` with each of `names` (`SMALL_ROLES`) set at least `floor` px (never
    smaller): a block role's style, or the size an inline role (inline code) sets its
    text in."""
    roles = dict(styles.roles)
    inline = dict(styles.inline)
    for name in names:
        style = roles.get(name)
        if style is not None and 0 < style.size < floor:
            roles[name] = replace(style, size=floor)
        size = inline.get(name, {}).get("size")
        if isinstance(size, int | float) and 0 < size < floor:
            inline[name] = {**inline[name], "size": floor}
    return replace(styles, roles=roles, inline=inline)


def code_trials(doc: Doc, styles: Styles, ladder: list[float], width: float) -> list[Trial]:
    """The trials a slide's zoom ladder lays out, largest zoom first, each (zoom, slide
    type, code px; 0: the code at the body's size): at each zoom under the one where the
    body reads `LEGIBLE_BODY_PX` on a phone, a post with a code block first tries its code
    as large as reads that (`code_px`), then at the body's size. A deck held to a smaller
    zoom by its frame or its faults set the asyncio tutorial's code at 8.6-9.2 px on the
    phone, where code in a mono face needs its size more than the body does."""
    trials: list[Trial] = []
    code = styles.roles.get("code_block") if has_code(doc) else None
    for zoom in ladder:
        px = code_px(width, zoom)
        if code is not None and px > code.size + 0.01:
            trials.append((zoom, True, px))
        trials.append((zoom, True, 0.0))
    return trials


def best_trial(
    lay_out: Callable[[Trial], list[Page]], tries: list[Trial]
) -> tuple[list[Page], Trial]:
    """`zoom.best_zoom` over `tries` (`code_trials`), where a trial with larger code is
    kept only if its set has no fault: of two sets alike, code at the body's size keeps
    the deck's fills (notebook's edge cases at 2.5 left a slide 54 % full with its code at
    the body's size, 47 % with it larger)."""
    laid: dict[Trial, list[Page]] = {}

    def once(trial: Trial) -> list[Page]:
        if trial not in laid:
            laid[trial] = lay_out(trial)
        return laid[trial]

    # larger code is worth a section's end left atop the next slide: a reader scans code
    # letter by letter, and a ladder that took a smaller zoom for a stranded end set the
    # tips post's code at 9.2 px in fairytale, the asyncio tutorial's at 9 in business
    code = any(other[2] for other in tries)
    faults = partial(slide_faults, strands=not code)
    pages, trial = best_zoom(once, tries, faults)
    if trial[2] and faults(pages) != (0, 0):
        pages, trial = best_zoom(once, [other for other in tries if not other[2]], faults)
    return pages, trial


def code_px(width: float, zoom: float) -> float:
    """The px a slide `width` wide drawn `zoom` times larger sets its code blocks in to
    read `LEGIBLE_BODY_PX` on a phone `PHONE_WIDTH` wide."""
    return LEGIBLE_BODY_PX * width / (PHONE_WIDTH * zoom)


def with_code(styles: Styles, px: float) -> Styles:
    """`styles` with its code blocks set at least `px` (0: as they are)."""
    return at_least(styles, px, CODE_ROLES) if px else styles


def has_code(doc: Doc) -> bool:
    """Whether the post holds a code block (anywhere: in a list, a quote, a footnote), not
    a diagram."""
    return any(isinstance(node, CodeBlock) and not is_diagram(node) for node in nodes(doc))
