"""A flowchart link at a position → its parts: line, ends, length, label and where it ends.

`-->`, `---`, `-.->`, `==>`, `~~~` (invisible: laid out, not drawn), the ends `>`, `o`, `x`
on either side (`<-->`, `o--o`, `x--x`), longer links (`--->`: one more rank), `-- text -->`
and `-->|text|` labels, and Mermaid 11's edge ids (`A e1@--> B`). One anchored pattern per
form, no two of whose quantifiers can take the same characters; the labelled form is read by
the hand loop in `mermaidlines`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ...errors import DiagramError
from ..mermaidlines import labelled_link

MAX_LENGTH = 4  # ranks one long link spans at most (`------>`)
_PLAIN = re.compile(r"\s*(?P<open>[<ox]?)(?P<line>-{2,}|={2,}|-\.+-|~{3,})(?P<tail>[>ox]?)\s*")
_PIPE = re.compile(r"\|(?P<text>[^|]*)\|\s*")
_EDGE_ID = re.compile(r"\s*[A-Za-z_][\w-]*@(?=[-=.<~ox])")
_ENDS = {">": "arrow", "o": "circle", "x": "cross", "<": "arrow"}


class Link(NamedTuple):
    """A link as written, without its two nodes."""

    label: str  # raw: `clean_label` reads it
    line: str  # solid, dotted, thick, invisible
    head: bool  # a mark at the target
    tail: bool  # a mark at the source
    marker: str  # arrow, circle, cross
    length: int  # ranks spanned (1: the next rank)
    end: int


def link_at(text: str, pos: int) -> Link:
    """The link at ``pos``; `DiagramError` when none starts there."""
    edge_id = _EDGE_ID.match(text, pos)
    pos = edge_id.end() if edge_id else pos
    opener, at = _opener(text, pos)
    labelled = labelled_link(text, at)
    if labelled:
        close = labelled.close
        line = _line_kind(labelled.opener + close)
        tail = opener or ("<" if labelled.opener.startswith("<") else "")
        head = close[-1] if close[-1] in ">ox" else ""
        return Link(
            labelled.text, line, bool(head), bool(tail), _ENDS.get(head or tail, "arrow"),
            _length(close[:-1] if head else close, bool(head)), labelled.end,
        )  # fmt: skip
    plain = _PLAIN.match(text, pos)
    if not plain:
        raise DiagramError(f"expected a link at {text[pos : pos + 30]!r}")
    body, head, tail = plain.group("line"), plain.group("tail"), plain.group("open")
    length = _length(body, bool(head))
    pipe = _PIPE.match(text, plain.end())
    label, end = (pipe.group("text"), pipe.end()) if pipe else ("", plain.end())
    marker = _ENDS.get(head or tail, "arrow")
    return Link(label, _line_kind(body), bool(head), bool(tail), marker, length, end)


def _opener(text: str, pos: int) -> tuple[str, int]:
    """An `o` or `x` end before a labelled link (`o-- text --o`): the mark and where the
    link itself starts (`<` is read by `labelled_link`)."""
    at = pos
    while at < len(text) and text[at].isspace():
        at += 1
    if at < len(text) and text[at] in "ox" and text[at + 1 : at + 3] in ("--", "==", "-."):
        return text[at], at + 1
    return "", pos


def _length(line: str, head: bool) -> int:
    """Ranks a link spans: its line's characters past the shortest form (`-->`, `---`,
    `-.->`, `==>`), at most `MAX_LENGTH`."""
    extra = line.count(".") if "." in line else len(line) - (1 if head else 2)
    return max(1, min(MAX_LENGTH, extra))


def _line_kind(link: str) -> str:
    if "~" in link:
        return "invisible"
    if "." in link:
        return "dotted"
    return "thick" if "=" in link else "solid"
