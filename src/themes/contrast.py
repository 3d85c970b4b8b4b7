"""Whether a theme's text stays readable: each code colour against its code panel, and each
text colour against what it is drawn on.

The engine gives a dark code panel a dark token palette when the theme names no token
colour; a theme that names its own is held to them, and `inkcard themes check` reports each
token colour under the WCAG ratio for body text on the panel it is drawn on. A text colour
under `TEXT_FLOOR` on its background cannot be read at all (`text_contrast`): a CSS theme
that says so is refused (`themes.css`).
"""

from __future__ import annotations

from dataclasses import dataclass

from inkcard.layout.style import (
    CODE_TOKENS,
    WHITE,
    Styles,
    Theme,
    mean_colour,
    relative_luminance,
    resolve,
)

MIN_RATIO = 4.5  # WCAG AA for text under 24 px, as code is


def ratio(a: float, b: float) -> float:
    """The WCAG contrast ratio of two relative luminances."""
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def code_contrast(theme: Theme) -> list[str]:
    """One line per code colour under `MIN_RATIO` on its panel, in each mode."""
    failures = []
    modes: list[str | None] = [*theme.modes] or [None]
    for mode in modes:
        styles = resolve(theme, mode)
        code = styles.roles["code_block"]
        card = styles.roles["card"].background
        ground = mean_colour(card) if card is not None else WHITE
        panel = relative_luminance(
            mean_colour(code.background, ground) if code.background is not None else ground
        )
        colours = {"code text": code.color, **{t: styles.palette[t] for t in CODE_TOKENS}}
        for token, colour in colours.items():
            found = ratio(relative_luminance(colour), panel)
            if found < MIN_RATIO:
                where = f" ({mode})" if mode else ""
                failures.append(
                    f"{token} #{colour & 0xFFFFFF:06x} on the code panel{where}: "
                    f"contrast {found:.1f}:1, under {MIN_RATIO}:1"
                )
    return failures


# Under this, text is refused (a CSS theme) rather than drawn: it is all but invisible.
# Pale text on a pale card is far below it (#e0e7ff on #eef2ff: 1.1:1, light grey #d1d5db
# on white 1.5:1); weak but legible choices are above it and stay the author's (a dark
# blue link on a near-black card, 2.6:1; a placeholder grey #9ca3af on white, 2.5:1).
TEXT_FLOOR = 2.0
HEADINGS = tuple(f"h{n}" for n in range(1, 7))
BOXED = ("quote", "list", "code_block", *HEADINGS)  # text roles that may sit on a panel
INLINE = ("link", "strong", "em", "del", "inline_code")  # runs in the body's text


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A text colour that cannot be read on what it is drawn on, in one mode."""

    mode: str | None
    role: str  # whose text: a role, or "th" for the table's header row
    text: int  # ARGB, laid over its ground
    ground: int
    on: str  # what it is drawn on: "the card", "its panel", ...

    @property
    def ratio(self) -> float:
        return ratio(relative_luminance(self.text), relative_luminance(self.ground))

    def __str__(self) -> str:
        return (
            f"text #{self.text & 0xFFFFFF:06x} on {self.on} #{self.ground & 0xFFFFFF:06x}: "
            f"contrast {self.ratio:.1f}:1, under {TEXT_FLOOR:g}:1"
        )


def text_contrast(theme: Theme) -> list[Unreadable]:
    """Each text colour under `TEXT_FLOOR` on the (mean colour of the) paint under it, in
    each mode: body, headings, quotes, lists, tables, code, links and inline code, page
    numbers."""
    found = []
    modes: list[str | None] = [*theme.modes] or [None]
    for mode in modes:
        for role, text, ground, on in _texts(resolve(theme, mode)):
            seen = Unreadable(mode, role, mean_colour(text, ground), ground, on)
            if seen.ratio < TEXT_FLOOR:
                found.append(seen)
    return found


def _texts(styles: Styles) -> list[tuple[str, int, int, str]]:
    """(role, text colour, the opaque colour under it, what that is) for each text."""
    card_paint = styles["card"].background
    card = mean_colour(card_paint) if card_paint is not None else WHITE
    texts = [("body", styles["body"].color, card, "the card")]
    texts.append(("page_number", styles["page_number"].color, card, "the card"))
    for role in BOXED:
        style = styles[role]
        if style.background is None:
            texts.append((role, style.color, card, "the card"))
        else:
            texts.append((role, style.color, mean_colour(style.background, card), "its panel"))
    table = styles["table"]
    texts.append(("table", table.color, card, "the card"))
    if table.stripe_background is not None:
        stripe = mean_colour(table.stripe_background, card)
        texts.append(("table", table.color, stripe, "its striped rows"))
    header = mean_colour(table.header_background, card) if table.header_background else card
    texts.append(("th", table.header_color or table.color, header, "the header row"))
    for role in INLINE:
        texts.extend(_inline(role, styles, card))
    return texts


def _inline(role: str, styles: Styles, card: int) -> list[tuple[str, int, int, str]]:
    """A run's text (its own colour or the body's) on its background (a highlighter, the
    code's) or on the card; nothing when it sets neither."""
    knobs = styles.inline[role]
    colour, paint = knobs.get("color"), knobs.get("background")
    if colour is None and paint is None:
        return []  # body text, checked as such
    text = colour if isinstance(colour, int) else styles["body"].color
    if paint is None:
        return [(role, text, card, "the card")]
    return [(role, text, mean_colour(paint, card), "its background")]  # type: ignore[arg-type]  # a resolved paint
