"""One Mermaid statement → its parts: a sequence diagram's participant, message or note, and
a flowchart's labelled link.

Hand loops, each one pass over the line. The patterns they replace let two quantifiers take
the same spaces (``[^:]+?\\s*`` before an arrow, ``.*?\\s*`` before a link's end, ``.+?`` before
``\\s+as``), so one line of a few hundred spaces cost seconds to minutes to refuse
(CONTRIBUTING.md, "Patterns"). Each answers what its pattern answered, part for part, for a
statement of one line (tests/layout/test_mermaid_lines.py compares them).
"""

from __future__ import annotations

import re
from typing import NamedTuple

# a message's arrows in the order they are tried: the longest spelling of each first
ARROWS = ("-->>", "->>", "-->", "->", "--x", "-x", "--)", "-)")
# `note left of A: …`: the head alone; nothing after the side repeats here
_NOTE_HEAD = re.compile(r"note\s+(left of|right of|over)(?=\s)", re.I)
_LINK_OPENERS = ("--", "==", "-.")
_LABEL_ENDS = ("--", "==", ".-")  # where a link's label ends and its closing line starts


class Participant(NamedTuple):
    keyword: str  # participant, actor
    id: str
    label: str | None  # `participant U as 用户`


class Message(NamedTuple):
    source: str
    arrow: str
    target: str
    text: str


class NoteLine(NamedTuple):
    side: str  # as written: left of, right of, over
    who: str  # one id, or two joined by a comma
    text: str


class LabelledLink(NamedTuple):
    opener: str  # `--`, `==`, `-.`, with a leading `<` for an arrowhead at the source
    text: str
    close: str  # `-->`, `---`, `==>`, `.->`, ...
    end: int  # where the link and the spaces after it end


def _spaces_end(text: str, pos: int) -> int:
    """The first position at or after ``pos`` that is not whitespace (``\\s``)."""
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def participant(text: str) -> Participant | None:
    """``participant|actor <id>[ as <label>]``."""
    keyword = next((k for k in ("participant", "actor") if text.startswith(k)), None)
    if keyword is None:
        return None
    rest = text[len(keyword) :]
    start = _spaces_end(rest, 0)
    if start == 0:
        return None  # the keyword must end at a space: `participants` is not one
    if start == len(rest):  # only spaces: the id is the last of them, as `\s+(.+?)$` had it
        return Participant(keyword, rest[-1], None) if len(rest) > 1 else None
    ident, label = _split_at_as(rest, start)
    return Participant(keyword, ident, label)


def _split_at_as(text: str, start: int) -> tuple[str, str | None]:
    """(id, label) of ``id as label`` from ``start``; the first run of spaces followed by
    ``as`` and a space splits. Each run is looked at once from its start."""
    at = start + 1
    while at < len(text):
        if not text[at].isspace():
            at += 1
            continue
        run_end = _spaces_end(text, at)
        if text.startswith("as", run_end):
            label_at = _spaces_end(text, run_end + 2)
            if label_at < len(text) and label_at > run_end + 2:
                return text[start:at], text[label_at:]
            if label_at == len(text) and label_at - (run_end + 2) > 1:
                return text[start:at], text[-1]
        at = run_end
    return text[start:], None


def message(text: str) -> Message | None:
    """``A->>B: text``: a source, an arrow (``<<`` first where it has two ends), a target
    (after an optional ``+``/``-`` activation mark) and the text after the first colon."""
    colon = text.find(":")
    if colon < 0:
        return None
    head = text[:colon]
    at = head.find("-", 1)  # the source has at least one character
    while at >= 0:
        for arrow in ARROWS:
            after = at + len(arrow)
            if head.startswith(arrow, at) and after < len(head):
                if arrow.endswith(">>") and head.startswith("<<", at - 2) and at > 2:
                    at, arrow = at - 2, "<<" + arrow  # `<<->>`: both ends
                source = head[: max(1, len(head[:at].rstrip()))]
                return Message(source, arrow, _target(head[after:]), text[colon + 1 :])
        at = head.find("-", at + 1)
    return None


def _target(rest: str) -> str:
    """The target after an arrow: spaces, an optional activation mark, spaces, the id up to
    the trailing spaces; when nothing else is left, the last character (as the pattern,
    which needs one, gave it back)."""
    at = _spaces_end(rest, 0)
    if at < len(rest) and rest[at] in "+-":
        at += 1
    region = rest[_spaces_end(rest, at) :]
    return region.rstrip() if region else rest[-1]


def note(text: str) -> NoteLine | None:
    """``note left of|right of|over <who>: text`` (any case)."""
    head = _NOTE_HEAD.match(text)
    if head is None:
        return None
    colon = text.find(":", head.end())
    if colon < 0:
        return None
    region = text[head.end() : colon]  # starts with a space (the head's lookahead)
    who = region.strip() or (region[-1] if len(region) > 1 else "")
    if not who:
        return None
    return NoteLine(head.group(1), who, text[colon + 1 :])


def labelled_link(text: str, pos: int) -> LabelledLink | None:
    """``-- label -->``, ``== label ==>``, ``-. label .->`` (``<`` first for both ends) at
    ``pos``: the label runs from its first character to the first ``--``, ``==`` or ``.-``
    after it, without the spaces before that."""
    at = _spaces_end(text, pos)
    opener_at = at
    at += text.startswith("<", at)
    if text[at : at + 2] not in _LINK_OPENERS:
        return None
    at += 2
    start = _spaces_end(text, at)
    if start == at or start == len(text) or text[start] in ">=.|-":
        return None
    ends = [found for pair in _LABEL_ENDS if (found := text.find(pair, start + 1)) >= 0]
    if not ends:
        return None
    end = min(ends)
    stop = max(start + 1, len(text[:end].rstrip()))
    if "\n" in text[start:stop]:
        return None  # the label is one line
    close_end = _close_end(text, end)
    return LabelledLink(
        text[opener_at:at], text[start:stop], text[end:close_end], _spaces_end(text, close_end)
    )


def _close_end(text: str, at: int) -> int:
    """Where a link's closing line (``-{2,}``, ``={2,}`` or ``.-+``, then ``>``/``o``/``x``)
    starting at ``at`` ends."""
    at += text.startswith(".", at)
    line = text[at]
    while at < len(text) and text[at] == line:
        at += 1
    return at + (at < len(text) and text[at] in ">ox")
