"""Mermaid statements read by hand loops (`layout.diagrams.mermaidlines`) → the same parts the
patterns they replace read, on thousands of generated lines, and in one pass over a line of
spaces that made those patterns take seconds to minutes."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from inkcard.layout.diagrams import mermaidlines
from inkcard.layout.diagrams.mermaid import _without_directives, subgraph_title
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.errors import DiagramError
from tests.cpu import at_most, cpu_of

# The replaced patterns, as they were.
PARTICIPANT = re.compile(r"^(participant|actor)\s+(?P<id>.+?)(?:\s+as\s+(?P<label>.+))?$")
MESSAGE = re.compile(
    r"^(?P<a>[^:]+?)\s*(?P<arrow>-->>|->>|-->|->|--x|-x|--\)|-\))\s*[+-]?\s*"
    r"(?P<b>[^:]+?)\s*:(?P<text>.*)$"
)
NOTE = re.compile(
    r"^note\s+(?P<side>left of|right of|over)\s+(?P<who>[^:]+?)\s*:(?P<text>.*)$", re.I
)
LABELLED = re.compile(
    r"\s*(?P<open><?(?:--|==|-\.))\s+(?P<text>[^\s>=.|-](?:(?!--|==|\.-).)*?)\s*"
    r"(?P<close>-{2,}[>ox]?|={2,}[>ox]?|\.-+[>ox]?)\s*"
)
ID = r"[\w\u0080-\U0010ffff]+(?:[-.][\w\u0080-\U0010ffff]+)*"
SPACES = [" ", "  ", "\t", "\u3000", "\x85"]
NAMES = ["A", "Bob", "用户", "a-b", "x.y", "as", "asx", "participant", "actor", "note", "NOTE"]
MARKS = ["-", "--", "->", "->>", "-->>", "-x", "--x", "-)", "--)", ">", ">>", "+", "x", ")"]
LINKS = ["--", "==", "-.", ".-", "-->", "==>", ".->", "---", "<--", "<", "|", "o", "=", "."]
WORDS = ["left of", "right of", "over", "Over", ":", "a:b", ",", "[", "]", "[t]", "%%{", "}%%"]


def lines(count: int, tokens: list[str], seed: int) -> list[str]:
    pick = random.Random(seed)
    return ["".join(pick.choices(tokens, k=pick.randint(1, 9))) for _ in range(count)]


def same(old: Callable[[str], Any], new: Callable[[str], Any], cases: list[str]) -> None:
    differ = [(case, old(case), new(case)) for case in cases if old(case) != new(case)]
    assert differ == [], differ[:5]


def test_participant_reads_as_the_pattern_did() -> None:
    def old(text: str) -> Any:
        m = PARTICIPANT.match(text)
        return m and (m.group(1), m.group("id"), m.group("label"))

    def new(text: str) -> Any:
        found = mermaidlines.participant(text)
        return found and tuple(found)

    tokens = SPACES * 3 + NAMES + ["participant ", "actor ", " as ", "as "]
    same(old, new, [*lines(6000, tokens, 1), "participant  ", "actor A as  ", "actor A as "])


def test_message_reads_as_the_pattern_did() -> None:
    def old(text: str) -> Any:
        m = MESSAGE.match(text)
        return m and (m.group("a"), m.group("arrow"), m.group("b"), m.group("text"))

    def new(text: str) -> Any:
        found = mermaidlines.message(text)
        return found and tuple(found)

    tokens = SPACES * 2 + NAMES + MARKS * 2 + [":", ": hi"]
    same(old, new, [*lines(8000, tokens, 2), "A->  :x", "A->+:x", "A->+ :x", " ->B:x"])


def test_note_reads_as_the_pattern_did() -> None:
    def old(text: str) -> Any:
        m = NOTE.match(text)
        return m and (m.group("side"), m.group("who"), m.group("text"))

    def new(text: str) -> Any:
        found = mermaidlines.note(text)
        return found and tuple(found)

    tokens = SPACES * 3 + NAMES + WORDS + ["note ", "Note "]
    same(old, new, [*lines(6000, tokens, 3), "note over  :x", "note over :x", "note over  "])


def test_labelled_link_reads_as_the_pattern_did() -> None:
    def old(text: str) -> Any:
        found = []
        for pos in range(len(text)):
            m = LABELLED.match(text, pos)
            found.append(m and (m.group("open"), m.group("text"), m.group("close"), m.end()))
        return found

    def new(text: str) -> Any:
        return [
            (found := mermaidlines.labelled_link(text, pos)) and tuple(found)
            for pos in range(len(text))
        ]

    same(old, new, lines(4000, SPACES * 2 + NAMES + LINKS * 3, 4))


def test_subgraph_title_reads_as_the_pattern_did() -> None:
    def old(rest: str) -> Any:
        m = re.match(rf"({ID})\s*\[(.*)\]\s*$", rest)
        return m and (m.group(1), m.group(2))

    def new(rest: str) -> Any:
        found = subgraph_title(rest)
        return found and (found[0], rest[rest.index("[", len(found[0])) + 1 : rest.rindex("]")])

    same(old, new, lines(6000, SPACES * 2 + NAMES + WORDS, 5))


def test_directives_go_as_the_pattern_took_them() -> None:
    def old(text: str) -> str:
        return re.sub(r"%%\{.*?\}%%", "", text, flags=re.S)

    tokens = ["%%{", "}%%", "%%", "{", "}", "%", "a", "\n", " "]
    same(old, _without_directives, lines(6000, tokens, 6))


SHORTER = 20  # the lines of the reference: each 1/SHORTER as many spaces, SHORTER of them


@pytest.mark.parametrize(
    "line",
    [
        "Alice->" + " " * 600 + "Bob",  # the message pattern: n**4, 10 s
        "note left of" + " " * 3_000 + "b",  # n**3, 10 s
        "A -- a" + " " * 19_000 + "b",  # n**2, 9 s
    ],
    ids=["message", "note", "flowchart-link"],
)
def test_a_line_of_spaces_is_refused_in_one_pass(line: str) -> None:
    """A blow-up guard, not a speed test: the patterns took some 10 CPU seconds on each. The
    line's CPU is compared with that of SHORTER lines of 1/SHORTER its spaces, timed beside
    it: as much reading in one pass (today 1 time it or less, 7-10 ms at most); n**2 work is
    SHORTER times it, n**3 and n**4 far more."""
    kind = "graph TD\n" if line.startswith("A --") else "sequenceDiagram\n"
    spaces = line.count(" ")
    short = line.replace(" " * spaces, " " * (spaces // SHORTER))

    def refuse(text: str, times: int = 1) -> None:
        for _ in range(times):
            with pytest.raises(DiagramError, match=r"cannot read|expected a link"):
                parse_diagram(kind + text)

    spent = cpu_of(lambda: refuse(line), best_of=3)
    shorter = cpu_of(lambda: refuse(short, SHORTER), best_of=3)
    at_most(spent, shorter, 5, 0.05, "the long line")
