"""`Doc` + styles + card options → `Page`s, per split mode.

- noSplit: one card, as tall as its content if that exceeds the card height.
- hrSplit: one card per part between top-level thematic breaks (empty parts skipped).
- autoSplit: fixed-size cards, content flowing from card to card.
- overflow hidden (not with autoSplit): fixed-size cards cut after the last whole line.

The cards are held to `Card.limits` as soon as each bound is known: the number of parts
and their least size before layout, the rows' least height while they are laid out
(`budget.ContentBudget`), the pages as pagination makes them, the card sizes before the
pages are built.

Type follows the card: with the card role's `type_scale = "auto"` (the default) a card
larger than the 3:4 default is laid out at a smaller virtual size and drawn `type_zoom`
times larger, so a 1080-px card reads like the 440-px one at 2x, not like small print.
Every px measure of the theme (type, margins, paddings, radii, decorations, header and
footer) zooms with it; the output pixels, and so the pixel limits, stay the same. A slide
whose set has a fault tries smaller zooms (`zoom.best_zoom`); an autoSplit portrait or square
set with one, a few slightly smaller type steps (`typesteps.type_ladder`, `fault_free`), and
one that spreads a short post thin, a few larger (`growntype.grown_type`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial

from ..base.boxes import Fit, Page, Rect, Row
from ..base.fonts import FontBook
from ..base.images import Images
from ..base.placing import cut_clean, place
from ..blocks.parts import Part
from ..flow.budget import Cards, ContentBudget, bounded
from ..flow.flow import MdxFlow
from ..flow.shares import Premade
from ..parse.doc import Doc
from ..parse.markdown import split_at_rules
from ..style.resolver import Styles
from .breaks.breakrules import opens_section, opens_stranded
from .breaks.pagebreaks import Paging, paged
from .card import Card, card_size, grown_size, laid_out_at, zoomed
from .cardface import content_box, folio_air
from .cardpage import card_page
from .cues import continuation_cues
from .endskept import card_ends_faults, kept_ends
from .marks.aigclabel import with_label_room
from .marks.language import chrome_for
from .quality import is_slide
from .setting import centring, short
from .setting.continued import continuations
from .setting.covered import cover_of, masthead_of, masthead_wanted, statements
from .setting.spread import ruled_pitch, spread_slides
from .setting.verse import composed_verse
from .slidetype import (
    Trial,
    at_least,
    best_trial,
    code_trials,
    has_code,
    slide_styles,
    smaller_slide_styles,
    with_code,
)
from .typesteps import settled_type
from .zoom import (
    best_zoom,
    floor_zoom,
    phone_floor,
    slide_faults,
    type_zoom,
    zoom_ladder,
)

# a post laid out anew, whole, in other styles on another (virtual) card
Relayout = Callable[[Styles, "Card"], list[Page]]


def compose(
    doc: Doc,
    styles: Styles,
    fonts: FontBook,
    images: Mapping[str, bytes],
    card: Card,
    premade: Premade | None = None,
) -> list[Page]:
    """The cards of `doc`, each `card.width` wide; laid out at the virtual size of
    `type_zoom` and drawn zoomed (their `rows` stay in the virtual card's px). With
    `premade` (autoSplit), the parts of a second share are taken from it (shares.py). A
    post that is not Chinese gets the theme's Latin chrome (`locale.for_post`)."""
    styles = chrome_for(doc, styles)
    own = styles
    styles = _for_slides(styles, card)
    virtual, zoom = _laid_out_as(styles, card)
    roomy = _laid_out_as(styles, card, legible=False)[1]
    if roomy < zoom or is_slide(card.width, card.height, zoom):
        legible = zoom
        slide = is_slide(card.width, card.height, zoom)
        variants = {True: styles, False: smaller_slide_styles(own) if slide else own}

        def lay_out(trial: Trial, on: Card = card) -> list[Page]:
            # a second share's parts are laid out at the legible zoom's width, slide type
            # (the same rows whatever `on`'s page breaker keeps: `keep_ends` only breaks)
            shared = premade if trial == (legible, True, 0.0) else None
            laid = laid_out_at(on, trial[0])
            return _compose(
                doc, with_code(variants[trial[1]], trial[2]), fonts, images, laid, shared
            )

        floor = floor_zoom(card.width, styles["body"].size) * card.type_step
        ladder = zoom_ladder(legible, roomy, floor)
        tries = (
            code_trials(doc, styles, ladder, card.width)
            if slide
            else [(z, True, 0.0) for z in ladder]
        )
        pages, (zoom, larger, code) = best_trial(lay_out, tries)
        if variants[False] != styles and slide_faults(pages)[0]:
            # a rule broken at every zoom: small text a little smaller at the smallest
            # zoom, kept where it breaks less (never the theme's own 12.8 px: 7.8 px)
            pages, (zoom, larger, code) = best_zoom(
                lay_out, [(ladder[-1], False, 0.0)], fallback=(pages, (zoom, larger, code))
            )
        if slide and not has_code(doc):
            ends_kept = replace(card, keep_ends=True)
            kept, (zoom, larger, code) = kept_ends(
                partial(lay_out, on=ends_kept), tries, (pages, (zoom, larger, code)), slide_faults
            )
            if kept is not pages:  # laid out anew below as it was chosen
                pages, card = kept, ends_kept
        styles = with_code(variants[larger], code)
        virtual = laid_out_at(card, zoom)
    else:
        pages = _compose(doc, styles, fonts, images, virtual, premade)
        # fit "auto" steps its own; type_scale "none" keeps the theme's px sizes
        if (
            card.split == "autoSplit"
            and card.type_step == 1.0
            and styles["card"].type_scale != "none"
        ):
            own_zoom = zoom

            def at_step(step: float) -> list[Page]:
                laid = laid_out_at(card, own_zoom * step)
                return _compose(doc, styles, fonts, images, laid, None)

            at_own = virtual

            def set_as(grown: Styles) -> list[Page]:  # a short post's roles set larger
                return _compose(doc, grown, fonts, images, at_own, None)

            pages, step, styles = settled_type(at_step, set_as, styles, pages)
            zoom = own_zoom * step
            virtual = laid_out_at(card, zoom)

    if card.split == "autoSplit" and card.width <= card.height:
        # a card more where a section's short end opens one (`endskept`), at the settled
        # type; laid out afresh, as each type step is (a share's parts are the first set's)
        ends_kept = replace(card, keep_ends=True)
        at_zoom = laid_out_at(ends_kept, zoom)
        kept, _ = kept_ends(
            lambda _: _compose(doc, styles, fonts, images, at_zoom, None),
            [None],
            (pages, None),
            card_ends_faults,
        )
        if kept is not pages:
            pages, card, virtual = kept, ends_kept, at_zoom

    def again(set_as: Styles, on: Card) -> list[Page]:
        return _compose(doc, set_as, fonts, images, on, None)

    composes = premade is None and not card.overflow_hidden
    if styles["card"].content_align == "auto" and composes:
        pages, virtual, zoom = _for_its_length(styles, card, pages, zoom, again)
    elif styles["card"].content_align == "center" and composes:  # centred: its size kept
        pages = _as_verse(styles, virtual, pages, again)
    # a roomy first card's masthead, once its cards are settled, not before
    fixed_cards = card.split == "autoSplit" and card.width <= card.height
    if composes and fixed_cards and masthead_wanted(pages):
        pages = _compose(doc, styles, fonts, images, virtual, None, masthead=True)
    if zoom == 1.0:
        return pages
    return [zoomed(page, zoom, card, grown=page.height > virtual.height) for page in pages]


def _for_its_length(
    styles: Styles, card: Card, pages: list[Page], zoom: float, again: Relayout
) -> tuple[list[Page], Card, float]:
    """`pages` (laid out at `zoom`) as composed for a short post (`short.composed`), with
    the virtual card and the zoom they are drawn at; `again` lays the post out anew."""
    virtual = laid_out_at(card, zoom)
    cards: dict[float, Card] = {1.0: virtual}

    parts = card.split == "hrSplit"  # every card a whole part, each composed alike

    def lay_out(step: float) -> tuple[list[Page], float]:
        cards[step] = bigger = laid_out_at(card, zoom * step)
        trial = again(styles, bigger)
        grown = any(page.height > bigger.height for page in trial)
        return trial, 2.0 if grown else _fullest(trial, _room(styles, bigger))

    fill = _fullest(pages, _room(styles, virtual)) if len(pages) == 1 or parts else 1.0
    if any(page.height > virtual.height for page in pages):
        fill = 1.0  # a card that grew has no room to spare
    pages, step = short.composed(pages, fill, lay_out, parts=parts)
    return _as_verse(styles, cards[step], pages, again), cards[step], zoom * step


def _as_verse(styles: Styles, card: Card, pages: list[Page], again: Relayout) -> list[Page]:
    """`pages` (laid out on `card`) set as a poem is where they are one (`composed_verse`;
    `again` lays the post out anew)."""
    box = content_box(styles, card.width, card.height)
    return composed_verse(styles, box, pages, lambda set_as: again(set_as, card)) or pages


def _fullest(pages: list[Page], room: float) -> float:
    """The most any of `pages` fills a content box `room` tall (`short.filled`)."""
    return max((short.filled(page, room) for page in pages), default=0.0)


def _room(styles: Styles, card: Card) -> float:
    return content_box(_labelled(styles, card), card.width, card.height).height


def _labelled(styles: Styles, card: Card) -> Styles:
    """`styles` with room for the card's AI-content label, if it has one."""
    if not card.label:
        return styles
    return with_label_room(styles, card.width, stacked=card.brand is not None)


def compose_share(
    doc: Doc, styles: Styles, fonts: FontBook, card: Card, start: int
) -> list[Part | None]:
    """The second share of an autoSplit post, from top-level block `start` on, as the
    `compose` of another process takes it in `premade` (`Flow.share`)."""
    styles = _for_slides(styles, card)
    virtual, _ = _laid_out_as(styles, card)
    styles = _labelled(styles, virtual)
    box = content_box(styles, virtual.width, virtual.height)
    flow = MdxFlow(styles, fonts, Images({}), max_row_height=box.height)
    flow.budget = _flowing_budget(styles, virtual, box)  # the share alone over the limits
    return flow.share(doc, x=box.x, width=box.width, start=start)


def _for_slides(styles: Styles, card: Card) -> Styles:
    """`styles` with a slide's small text set larger (`slidetype.slide_styles`), and a
    small card's set as large as reads on a phone (`zoom.phone_floor`)."""
    zoom = _laid_out_as(styles, card)[1]
    if is_slide(card.width, card.height, zoom):
        return slide_styles(styles)
    floor = phone_floor(card.width, card.height, zoom)
    return at_least(styles, floor) if floor else styles


def _laid_out_as(styles: Styles, card: Card, *, legible: bool = True) -> tuple[Card, float]:
    """The virtual card `card` is laid out as, and the zoom it is drawn at (`type_zoom`)."""
    zoom = type_zoom(styles["card"], card.width, card.height, styles["body"].size, legible=legible)
    zoom *= card.type_step
    return laid_out_at(card, zoom), zoom


def _flowing_budget(styles: Styles, card: Card, box: Rect) -> ContentBudget | None:
    """autoSplit's budget: rows refused as soon as they need more cards or pixels than
    `card.limits` allow (None for a theme whose rows cannot be bounded early)."""
    if not bounded(styles):
        return None
    return ContentBudget(card.limits, Cards(card_size(card), box.height, fixed=True))


def _compose(
    doc: Doc,
    styles: Styles,
    fonts: FontBook,
    images: Mapping[str, bytes],
    card: Card,
    premade: Premade | None,
    masthead: bool = False,
) -> list[Page]:
    styles = _labelled(styles, card)
    box = content_box(styles, card.width, card.height)
    fixed = card.split == "autoSplit"
    known = images if isinstance(images, Images) else Images(images)
    flow = MdxFlow(
        styles, fonts, known, max_row_height=box.height if fixed else None, card_width=card.width
    )
    early = bounded(styles)
    if fixed:
        paging = _flowing(doc, flow, box, card, premade)
        pages, broken, hidden = paging.pages, paging.broken, [False] * len(paging.pages)
        if card.width > card.height:  # a slide's short cards are spaced out, not left short
            pages = spread_slides(pages, box.height, styles["body"], ruled_pitch(styles))
    else:
        pages, hidden = _parts(doc, flow, box, card, early)
        broken = [()] * len(pages)
    grow = not fixed and not card.overflow_hidden
    placements = [place(rows, limit=box.height) for rows in pages]
    card.limits.check([grown_size(p, box, card) if grow else card_size(card) for p in placements])
    align = styles["card"].content_align
    slide = card.width > card.height
    composes = fixed and align != "top"
    cover = cover_of(doc, flow, box, pages, placements[0], slide) if composes else None
    if masthead and composes and not slide and cover is None:
        cover = masthead_of(doc, flow, box, pages, placements[0])
    placements[0] = cover or placements[0]
    # a deck's lone panel before its last slide goes on under its section's heading, any
    # other is set larger (a plate: a deck's close, a card's panel)
    continued = continuations(doc, flow, box, pages, placements) if fixed and slide else {}
    plates = statements(doc, flow, box, pages, placements, slide) if composes else {}
    plates = {n: plate for n, plate in plates.items() if n not in continued}
    placements = [
        continued.get(n) or plates.get(n, placement) for n, placement in enumerate(placements)
    ]
    cues = continuation_cues(placements, styles["code_block"].color, box.y)
    heights = short.part_heights(placements, box) if card.split == "hrSplit" else None
    # a deck's later slides of one whole section each, one of them short, are statements
    sections: set[int] = set()
    if fixed and slide:
        fills = [placement.height / box.height for placement in placements]
        sections = centring.statement_slides(pages, fills)
    out = []
    for n, (placement, cue) in enumerate(zip(placements, cues, strict=True), start=1):
        title = n == 1 and fixed and short.holds_title(pages)
        # a title card no larger type fits is set in its middle still, at the theme's size
        roomy = title and placement.height < short.COVER_ROOMY * box.height
        # a card of hrSplit holds a part of its own: short, it is composed as a short post
        set_as = heights[n - 1] if heights else placement.height
        # a later card of figures alone, or of one whole block under half full, reads as a
        # plate: set in its middle, not hung at the top
        lone = n - 1 in plates or centring.lone_block(pages, n - 1, set_as / box.height)
        lone = lone and n - 1 not in continued
        plate = fixed and ((n > 1 and centring.figures_alone(pages[n - 1])) or lone)
        # a last card under half full that opens a block of its own is the post's close
        last_card = fixed and n == len(pages)
        closing = last_card and centring.is_closing_card(pages, set_as / box.height, slide)
        section = n - 1 in sections
        alone = len(pages) == 1 or roomy or plate or closing or bool(heights)
        top = centring.rows_top(set_as, box, align, alone=alone, statement=section)
        room = max(box.height, placement.height) if grow else box.height
        ends = broken[n - 1] if n < len(pages) else ()
        # every card of hrSplit (and noSplit's one) holds a whole part: none is cut short
        last = n == len(pages) or not fixed
        section_end = n < len(pages) and bool(pages[n]) and opens_section(pages[n][0])
        fit = Fit(room, top - box.y, last=last, hidden=hidden[n - 1], broken=ends)
        fit = replace(fit, section_end=section_end, title=title, cover=title and cover is not None)
        fit = replace(fit, plate=fixed and lone, statement=section, continued=n - 1 in continued)
        fit = replace(fit, first=n == 1 and not last)
        before = pages[n - 2][-1] if n > 1 and pages[n - 2] else None
        stranded = (
            before is not None
            and fixed
            and opens_stranded(placement.rows, box.height, before, card.width > card.height)
        )
        fit = replace(fit, stranded=stranded, closes=fixed and n == len(pages) > 1)
        height = grown_size(placement, box, card)[1] if grow else card.height
        page = card_page(
            placement,
            (n, len(pages)),
            styles,
            fonts,
            box,
            card.width,
            height,
            brand=card.brand,
            label=card.label,
            cues=cue,
            top=top,
        )
        out.append(replace(page, fit=fit))
    return out


def _flowing(doc: Doc, flow: MdxFlow, box: Rect, card: Card, premade: Premade | None) -> Paging:
    """autoSplit: the rows of the whole post on fixed-size cards, refused as soon as they
    need more than the limits allow, and the rules each card's end breaks."""
    flow.budget = _flowing_budget(flow.styles, card, box)
    rows = flow.doc(doc, x=box.x, width=box.width, premade=premade)
    squeeze = flow.styles["card"].gap_squeeze
    slide = card.width > card.height  # a deck: its title may stand alone as its cover
    code = has_code(doc)  # a post with code keeps a card's short end on a slide too
    most = card.limits.max_pages
    air = folio_air(flow.styles)
    paging = paged(
        rows,
        box.height,
        squeeze=squeeze,
        max_pages=most,
        cover=slide,
        code=code,
        air=air,
        keep_ends=card.keep_ends,
    )
    return paging if paging.pages else Paging([[]], [()])


def _parts(
    doc: Doc, flow: MdxFlow, box: Rect, card: Card, early: bool
) -> tuple[list[list[Row]], list[bool]]:
    """noSplit, hrSplit: one card per part, each growing with its rows (refused as soon as
    they make it too large) or cut at the card's height; and whether each cut rows."""
    parts = (split_at_rules(doc) if card.split == "hrSplit" else [doc]) or [Doc()]
    card.limits.check([card_size(card)] * len(parts))  # no card is smaller than asked
    pages: list[list[Row]] = []
    before: list[tuple[float, float]] = []
    for part in parts:
        if early and not card.overflow_hidden:
            cards = Cards(card_size(card), box.height, fixed=False, before=tuple(before))
            flow.budget = ContentBudget(card.limits, cards)
        pages.append(flow.doc(part, x=box.x, width=box.width))
        before.append(grown_size(place(pages[-1], limit=box.height), box, card))
    if not card.overflow_hidden:
        return pages, [False] * len(pages)
    shown = [cut_clean(rows, box.height) for rows in pages]
    return shown, [len(cut) < len(rows) for cut, rows in zip(shown, pages, strict=True)]
