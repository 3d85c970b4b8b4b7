"""A sequence too wide for its card → its steps, one under the other (`layout_steps`).

Ten participants side by side on a phone-width card leave each column 30 px: the labels
would be drawn at a third of their size, and mermaid-js draws them so. A reader of such a
card wants what the diagram says in order, so it is drawn as the list of its steps, at the
card's width and the labels' own size: each message a row with who sends (bold), an arrow
in the message's own form (dashed for a reply; filled, open, cross or async end) and who
receives, its label under them; `autonumber`'s number in the diagram's disc, else a dot on
a thin line that joins the steps; a note on the panel colour; a block (`loop`, `alt`, ...)
a tag with its condition and a bar in the accent colour down the steps it holds (a `rect`,
a highlight, its bar alone), its `else` a dashed rule with the next condition; `destroy` a
cross before the name; each titled `box` named with who is in it before the first step. A
step is one span a card's cut keeps whole (`Drawing.whole`), so the list reads in bands.
"""

from __future__ import annotations

from dataclasses import replace

from ..marks import (
    LABEL_SIZE,
    MARGIN,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    circle_ops,
    finish,
    rect_ops,
)
from .seqcolumns import DISC
from .seqmarks import CHIP, arrow_end, chip, number_disc
from .sequenceparse import Message, Note, Section, Sequence

GUTTER = 26.0  # px from the list's edge (or a block's bar) to a step's text
ARROW = 22.0  # px: the arrow between the two names
NAME_GAP = 6.0  # px either side of the arrow
STEP_GAP = 12.0  # px under each step
INDENT = 12.0  # px a block's steps stand right of its bar
# px a block's bar runs past its last step: within the clearance a card's cut keeps under a
# step (`bands.CUT_CLEARANCE`), so a bar cut there leaves no stub atop the next card
BAR_TAIL = 2.0
DOT = 3.5  # px: the radius of a step's dot when the steps are not numbered
MIDLINE = LABEL_SIZE * 0.7  # px under a step's top: its first line's middle (arrow, mark, cross)
LEAST_TEXT = 120.0  # px: a step's text is never set narrower (deep blocks on a narrow card)


def layout_steps(seq: Sequence, measure: Measure, width: float, slack: float = 1.0) -> Drawing:
    """The steps of `seq` in a list `width` px wide, at the labels' own sizes; `slack`: how
    much wider than measured a name may be set (an article's phone sets its own font)."""
    steps = _Steps(seq, measure, width, slack)
    if seq.title:
        steps.title(seq.title)
    steps.groups(seq)
    for event in seq.events:
        if isinstance(event, Message):
            steps.message(event)
        elif isinstance(event, Note):
            steps.note(event)
        elif isinstance(event, Section):
            steps.section(event)
        elif event.kind == "destroy":
            steps.doomed.add(event.who)
    while steps.blocks:
        steps.section(Section("close"))
    span = ((0.0, 0.0), (width - 2 * MARGIN, 0.0))  # the card's width: the list starts at its left
    drawing = finish(steps.items, "\n".join(seq.labels()), span, keep=steps.whole)
    return replace(drawing, rows=True, whole=drawing.keep, keep=())


class _Steps:
    """The list in progress: the current row `y`, the blocks open (each its bar's top; their
    count is the indent), the participants to be destroyed by their next message, the marks
    so far."""

    def __init__(self, seq: Sequence, measure: Measure, width: float, slack: float) -> None:
        self.measure, self.width, self.slack = measure, width, slack
        self.names = {p.id: p.label for p in seq.participants}
        self.items: list[Mark | Label] = []
        self.whole: list[tuple[float, float]] = []
        self.blocks: list[float] = []  # the top of each open block's bar
        self.doomed: set[str] = set()
        self.y = 0.0
        self.last_mark: float | None = None  # the centre of the step mark before (the line)
        self.tag_top: float | None = None  # the top of a block's tag not yet followed by a step

    @property
    def left(self) -> float:
        return len(self.blocks) * INDENT

    def text_width(self, x: float) -> float:
        return max(LEAST_TEXT, self.width - 2 * MARGIN - x)

    def title(self, text: str) -> None:
        lines = self.measure(text, LABEL_SIZE + 1, True, self.text_width(0.0))
        self.items.append(Label(lines, 0.0, 0.0, "text", "left"))
        self.y = lines.height + STEP_GAP

    def groups(self, seq: Sequence) -> None:
        """Each titled `box` on a row before the steps: its title on a chip, then who is in
        it (the columns' grouping, "Front end: Shopper, Web app", kept where they are not)."""
        drawn = False
        for index, title in enumerate(seq.boxes):
            members = ", ".join(p.label for p in seq.participants if p.box == index)
            if not title or not members:
                continue
            top = self.y
            name = self.measure(title, LABEL_SIZE, True, self.text_width(0.0) / 2)
            self.items += chip(name, CHIP, top + CHIP, "left")
            x = name.width + 2 * CHIP + NAME_GAP
            who = self.measure(members, LABEL_SIZE, False, self.text_width(x))
            self.items.append(Label(who, x, top + CHIP, "muted", "left"))
            bottom = top + max(name.height, who.height) + 2 * CHIP
            self._keep(top, bottom)
            self.y, drawn = bottom + NAME_GAP, True
        if drawn:
            self.y += STEP_GAP - NAME_GAP

    def message(self, event: Message) -> None:
        top, x = self.y, self.left + GUTTER
        head = self._header(event, x, top)
        label = None
        if event.label:
            label = self.measure(event.label, LABEL_SIZE, False, self.text_width(x))
            self.items.append(Label(label, x, top + head + 3, "text", "left"))
        bottom = top + head + (label.height + 3 if label else 0.0)
        self._step_mark(event.number, top + MIDLINE)
        self._keep(top, bottom)
        self.y = bottom + STEP_GAP

    def _header(self, event: Message, x: float, top: float) -> float:
        """Who sends, the arrow, who receives, on one line where they fit (each name wrapped
        to half the room where they do not); the header's height."""
        room = self.text_width(x)
        sender, receiver = self.names[event.source], self.names[event.target]
        half = (room - ARROW - 2 * NAME_GAP) / 2
        first = self.measure(sender, LABEL_SIZE, True, room)
        second = self.measure(receiver, LABEL_SIZE, True, room)
        if (first.width + second.width) * self.slack + ARROW + 2 * NAME_GAP > room:
            first, second = self._name(sender, half), self._name(receiver, half)
        if event.target in self.doomed:
            x = self._cross(x, top + MIDLINE)
        height = max(first.height, second.height)
        self.items.append(Label(first, x, top, "muted", "left"))
        start = x + first.width * self.slack + NAME_GAP
        line_y = top + MIDLINE
        self._arrow(event, start, start + ARROW, line_y)
        self.items.append(Label(second, start + ARROW + NAME_GAP, top, "muted", "left"))
        self.doomed.discard(event.target)
        return height

    def _name(self, name: str, most: float) -> Lines:
        """A participant's name wrapped between words into lines of at most `most` px (a
        word wider than that on a line of its own), never inside a word: the label breaker
        parts "Primary Region (eu- / west-1)" at its hyphen."""
        lines: list[str] = []
        for word in name.split():
            joined = f"{lines[-1]} {word}" if lines else word
            wide = self.measure(joined, LABEL_SIZE, True, 4 * self.width).width * self.slack
            if lines and wide <= most:
                lines[-1] = joined
            else:
                lines.append(word)
        measured = self.measure("\n".join(lines), LABEL_SIZE, True, 4 * self.width)
        if measured.width * self.slack > most and not name.isascii():  # CJK: between characters
            return self.measure(name, LABEL_SIZE, True, most / self.slack)
        return measured

    def _arrow(self, event: Message, start: float, tip: float, y: float) -> None:
        dash = (4.0, 3.0) if event.dashed else None
        self.items.append(Mark((("M", start, y), ("L", tip, y)), "line", None, 1.5, dash))
        self.items += arrow_end(event.arrow, (tip, y), (start, y))
        if event.both:
            self.items += arrow_end(event.arrow, (start, y), (tip, y))

    def _cross(self, x: float, y: float) -> float:
        """`destroy`: a cross before the receiver's name; where the name starts."""
        s = 4.0
        ops = (("M", x, y - s), ("L", x + 2 * s, y + s), ("M", x, y + s), ("L", x + 2 * s, y - s))
        self.items.append(Mark(ops, "text", None, 1.6))
        return x + 2 * s + NAME_GAP

    def _step_mark(self, number: int | None, centre: float) -> None:
        """The step's number in a disc, or a dot, on the thin line that joins the steps."""
        x = self.left + GUTTER / 2 - 4
        reach = (DOT if number is None else DISC) + 3  # the line stops short of the marks
        if self.last_mark is not None:
            ops = (("M", x, self.last_mark + reach), ("L", x, centre - reach))
            self.items.insert(0, Mark(ops, "line", None, 1.0))
        if number is None:
            self.items.append(Mark(circle_ops(x, centre, DOT), None, "accent"))
        else:
            text = self.measure(str(number), LABEL_SIZE - 1, True, 80.0)
            self.items += number_disc(text, x, centre)
        self.last_mark = centre

    def note(self, event: Note) -> None:
        x = self.left + GUTTER
        who = ", ".join(self.names.get(w, w) for w in event.over)
        label = self.measure(event.label, LABEL_SIZE, False, self.text_width(x) - 16)
        tag = self.measure(who, LABEL_SIZE, True, self.text_width(x) - 16)
        top, height = self.y, tag.height + label.height + 14
        box = rect_ops(x, top, min(self.text_width(x), max(tag.width, label.width) + 16), height, 4)
        self.items += [Mark(box, None, "page"), Mark(box, None, "panel")]
        self.items.append(Label(tag, x + 8, top + 6, "muted", "left"))
        self.items.append(Label(label, x + 8, top + 8 + tag.height, "text", "left"))
        self._keep(top, top + height)
        self.y = top + height + STEP_GAP

    def _keep(self, top: float, bottom: float) -> None:
        """A step a card's cut keeps whole, with the block's tag over it when it opens one."""
        self.whole.append((self.tag_top if self.tag_top is not None else top, bottom))
        self.tag_top = None

    def section(self, event: Section) -> None:
        x = self.left
        if event.kind == "open":
            if event.keyword != "rect":  # a highlight, no kind of step: its bar alone
                self._tag(event.keyword, event.label, x)
            self.blocks.append(self.y - STEP_GAP / 2)
        elif event.kind == "divider" and self.blocks:
            x -= INDENT
            rule = (("M", x, self.y), ("L", self.width - 2 * MARGIN, self.y))
            self.items.append(Mark(rule, "accent", None, 1.0, (4.0, 3.0)))
            self.y += 8
            self._tag(event.keyword, event.label, x + INDENT)
        elif event.kind == "close" and self.blocks:
            top = self.blocks.pop()
            end = self.y - STEP_GAP + BAR_TAIL
            bar = (("M", self.left + 2, top), ("L", self.left + 2, end))
            self.items.append(Mark(bar, "accent", None, 3.0))
            self.y += 2
        self.last_mark = None  # a block's tag parts the line that joins the steps

    def _tag(self, keyword: str, condition: str, x: float) -> None:
        """A block's keyword in bold and its condition on a chip, on a row of their own."""
        top = self.y
        word = self.measure(keyword, LABEL_SIZE, True, 120.0)
        self.items.append(Label(word, x, top + CHIP, "text", "left"))
        height = word.height + 2 * CHIP
        if condition:
            text = self.measure(condition, LABEL_SIZE, False, self.text_width(x) - word.width - 24)
            self.items += chip(text, x + word.width + 8 + CHIP, top + CHIP, "left")
            height = max(height, text.height + 2 * CHIP)
        self.tag_top = top  # kept on one card with the step under it
        self.y = top + height + 6
