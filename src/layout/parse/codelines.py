"""Where a source line too long for its code panel wraps: the places a reader parts it, each
priced by what it cuts, and the cheapest set of them whose lines fit.

A line is filled greedily everywhere else; code read that way broke where the panel ran
out (the asyncio tutorial's `except httpx.HTTPStatusError as` / `error:`, `fetch(client:
httpx.AsyncClient, url:` / `str) -> int:`, `print(f"got {size}` / `bytes")`: every
theme-mode at every size rated under 5 for it). A programmer breaks after a comma, inside
the outermost bracket, before a keyword or an operator, never inside a string when anything
else will do, and leaves no stub of a word on the last line (black, PEP 8). The places are
read off the line's brackets, quotes and comment in one pass, in any language (no lexer:
the marks are shared by the languages a post shows); the set is chosen by a shortest path
over them (Knuth and Plass's method in small), with never more lines than the greedy fill,
so a card holds as many rows as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

# What a break costs by what it follows or leads (a break after a comma is free), each
# `DEPTH` more for every bracket it falls inside: `tasks = [asyncio.create_task(` /
# `fetch(client, url))` / `for url in urls]` over `tasks =` / `[asyncio.create_task(fetch(
# client,` / `url)) for url in urls]`.
AFTER_COMMA = 0.0
IN_COMMENT = 0.1  # a comment reads as prose
AFTER_OPENING = 0.2  # inside a bracket: `print(` / `f"got {size} bytes")`
BEFORE_OPERATOR = 0.2  # before `for`, `as`, `and`, `+`: the line below says how it goes on
AFTER_OPERATOR = 0.6  # after `=` or `->`: the reader waits for the right side
BETWEEN_WORDS = 0.8  # any other space: `client:` / `httpx.AsyncClient`
BEFORE_ASSIGNING = 1.5  # `tasks` / `= [...]`: the name is left without its verb
IN_STRING = 3.0  # inside a string literal: its text reads as one
DEPTH = 0.3
# A last line of one word this short a share of its line's room is a stub (`as` / `error:`,
# `->` / `int:`, `as_completed(` / `tasks):`); `as error:` reads as the clause it is.
STUB_SHARE = 0.25
STUB = 1.0
LONGEST = 2_000  # characters: a longer line is filled greedily (the search is per character)

_OPENING = "([{"
_CLOSING = ")]}"
_QUOTES = "'\"`"
_OPERATORS = frozenset("=+-*/%|&<>^~")
_ASSIGNING = frozenset({"=", ":=", "->", "=>", "+=", "-=", "*=", "/=", "|=", "&="})
_LEADING_WORDS = frozenset({"for", "if", "else", "and", "or", "as", "from", "with", "async"})


def places(line: str) -> list[tuple[int, float]]:
    """Each place `line` may wrap, as (the index its next line starts at, the price), in
    order: after a run of spaces (never in the indent) and after an opening bracket."""
    out: list[tuple[int, float]] = []
    indent = len(line) - len(line.lstrip(" "))
    depth, quote, comment, escaped = 0, "", False, False
    i = indent
    while i < len(line):
        char = line[i]
        if char == " ":
            end = _spaces_end(line, i)
            if end < len(line):  # no place at the line's end
                price = IN_STRING if quote else _space_price(line, i, end, comment, depth)
                out.append((end, price + (0.0 if comment else DEPTH * depth)))
            i, escaped = end, False
            continue
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif not comment and char in _QUOTES:
            quote = char
        elif not comment and _opens_comment(line, i):
            comment = True
        elif not comment and char in _OPENING:
            depth += 1
            if i + 1 < len(line) and line[i + 1] not in _CLOSING and line[i + 1] != " ":
                out.append((i + 1, AFTER_OPENING + DEPTH * depth))
        elif not comment and char in _CLOSING:
            depth = max(0, depth - 1)
        i += 1
    return out


def _spaces_end(line: str, i: int) -> int:
    """Where the run of spaces at `i` ends."""
    while i < len(line) and line[i] == " ":
        i += 1
    return i


def _space_price(line: str, i: int, end: int, comment: bool, depth: int) -> float:
    """What a break at the spaces from `i` to `end` costs by the words around them, its
    depth aside. A comma parts arguments only inside brackets: `for i,` / `name in ...`
    parts a name from its pair."""
    if comment:
        return IN_COMMENT
    before = line[i - 1] if i else ""
    if before == ";" or (before == "," and depth):
        return AFTER_COMMA
    stop = line.find(" ", end)
    word = line[end : stop if stop >= 0 else len(line)]
    if word in _ASSIGNING:
        return BEFORE_ASSIGNING
    if word in _LEADING_WORDS or word[:1] in _OPERATORS or word.startswith(("#", "//")):
        return BEFORE_OPERATOR
    if before in _OPERATORS:
        return AFTER_OPERATOR
    return BETWEEN_WORDS


def _opens_comment(line: str, i: int) -> bool:
    """A `#` or `//` at the line's start or after a space opens a comment (in Python, shell,
    YAML, C, JavaScript); elsewhere it is an operator or part of a word."""
    if i and line[i - 1] != " ":
        return False
    return line[i] == "#" or line.startswith("//", i)


def wrap(
    line: str, advances: Sequence[float], first: float, rest: float, greedy: int
) -> list[int] | None:
    """Where each line after the first starts, for the cheapest set of `places` whose lines
    fit (`first` px for the first, `rest` for each wrap) in at most `greedy` lines; None
    where no set does (a token wider than a line: the greedy fill breaks inside it).
    `advances` holds each character's advance (a cluster's on its first character, 0 on
    the others, where no place falls)."""
    if len(line) > LONGEST:
        return None
    price = {at: cost for at, cost in places(line) if advances[at] > 0}
    starts = [0, *price]
    edge = [0.0, *accumulate(advances)]  # px from the line's start to each character
    ends = [_visible_end(line, start) for start in starts]
    # best[k]: (lines, cost, the line start before) of the cheapest way to start a line at starts[k]
    best: list[tuple[int, float, int] | None] = [None] * len(starts)
    best[0] = (0, 0.0, -1)
    done: tuple[int, float, int] | None = None
    for k, start in enumerate(starts):
        reached = best[k]
        if reached is None:
            continue
        room = first if k == 0 else rest
        lines, cost, _ = reached
        if edge[len(line)] - edge[start] <= room:  # the rest fits: the last line
            short = edge[len(line)] - edge[start] < STUB_SHARE * room
            stub = STUB if k and short and " " not in line[start:].rstrip(" ") else 0.0
            last = (lines + 1, cost + stub, k)
            if done is None or last[:2] <= done[:2]:  # a tie: the fuller lines first
                done = last
        for n in range(k + 1, len(starts)):
            if edge[ends[n]] - edge[start] > room:
                break
            step = (lines + 1, cost + price[starts[n]], k)
            held = best[n]
            if held is None or step[:2] <= held[:2]:
                best[n] = step
    if done is None or done[0] > greedy:
        return None
    out: list[int] = []
    k = done[2]
    while k > 0:
        out.append(starts[k])
        held = best[k]
        assert held is not None
        k = held[2]
    return out[::-1]


def _visible_end(line: str, start: int) -> int:
    """Where the line that ends before `start` ends, its hanging spaces left out."""
    end = start
    while end > 0 and line[end - 1] == " ":
        end -= 1
    return end
