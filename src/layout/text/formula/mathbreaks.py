"""Inline LaTeX → the pieces a line may break between, as TeX breaks a formula in a paragraph.

TeX lets a line end after a relation (`=`, `<`, `\\le`, `\\to`…) or a binary operator (`+`,
`-`, `\\times`…) at the formula's outer level, never inside a group, a bracket pair, a
`\\left…\\right` or an environment, nor after a sign that is unary (`-b` after `=`, an
operator at the start, after an opening bracket or in a script). Each piece keeps its
operator at its end, so a line that breaks there ends on the operator, as TeX sets it; the
pieces are typeset one by one, each with an empty group after its operator (`shape`), so the
operator keeps TeX's space on both sides.

Written by hand: it reads LaTeX tokens only as far as depth and operators need, which no
LaTeX library offers, in one pass over the source (no regular expression, no backtracking).
"""

from __future__ import annotations

import itertools

RELATIONS = frozenset(
    {"=", "<", ">"}
    | {r"\le", r"\leq", r"\ge", r"\geq", r"\ne", r"\neq", r"\approx", r"\equiv", r"\sim"}
    | {r"\simeq", r"\propto", r"\to", r"\rightarrow", r"\Rightarrow", r"\implies", r"\iff"}
)
BINARY = frozenset({"+", "-", r"\times", r"\cdot", r"\pm", r"\mp", r"\div"})
_OPEN = frozenset("{([")
_CLOSE = frozenset("})]")
_NESTING = {r"\left": 1, r"\right": -1, r"\begin": 1, r"\end": -1}


def _tokens(source: str) -> list[tuple[int, int]]:
    """(start, end) of each token: a control word (`\\alpha`), a control symbol (`\\{`), or
    one character."""
    out = []
    i = 0
    while i < len(source):
        end = i + 1
        if source[i] == "\\" and end < len(source):
            end += 1
            if source[i + 1].isalpha():
                while end < len(source) and source[end].isalpha():
                    end += 1
        out.append((i, end))
        i = end
    return out


TEXT_COMMANDS = frozenset({r"\text", r"\textrm", r"\textup", r"\textnormal", r"\mbox"})


def text_runs(source: str) -> list[tuple[str, bool]]:
    """`source` cut at its outer `\\text{…}` groups of plain text (no command, no `$`):
    (piece, whether it is text) in order, the text without its braces; one math piece
    when there is no such group. A group inside another (a fraction's) stays math."""
    tokens = _tokens(source)
    out: list[tuple[str, bool]] = []
    depth = start = index = 0
    while index < len(tokens):
        a, b = tokens[index]
        token = source[a:b]
        depth += (token == "{") - (token == "}")
        group = _text_group(source, tokens, index) if depth == 0 else None
        if group is None or token not in TEXT_COMMANDS:
            index += 1
            continue
        opening, closing = group
        if source[start:a].strip():
            out.append((source[start:a], False))
        out.append((source[tokens[opening][1] : tokens[closing][0]], True))
        start, index = tokens[closing][1], closing + 1
    if not out:
        return [(source, False)]
    if source[start:].strip():
        out.append((source[start:], False))
    return out


def _text_group(source: str, tokens: list[tuple[int, int]], at: int) -> tuple[int, int] | None:
    """The tokens of the `{` and `}` of the plain-text group after the command at `at`
    (spaces between allowed); None when none follows, it is not closed, or it holds a
    command, a group or `$` (text that is not plain: left to the math typesetter)."""
    following = at + 1
    while following < len(tokens) and source[slice(*tokens[following])].isspace():
        following += 1
    if following == len(tokens) or source[slice(*tokens[following])] != "{":
        return None
    for index in range(following + 1, len(tokens)):
        token = source[slice(*tokens[index])]
        if token == "}":
            return following, index
        if token[0] in "\\{$":
            return None
    return None


LEAST_LAST = 2  # tokens: a formula's last piece shorter than this stays on its line


def pieces(source: str) -> list[str]:
    """`source` cut after each outer relation or binary operator a line may end on, but
    never before a last piece of one token: `(1+i)^n −` / `1` left the `1` alone at a
    line's start (apple-notes, the fund explainer); one piece when there is none."""
    bounds = [0, *_cuts(source), len(source)]
    parts = [source[a:b].strip() for a, b in itertools.pairwise(bounds)]
    parts = [part for part in parts if part]
    if len(parts) > 1 and _count(parts[-1]) < LEAST_LAST:
        parts[-2:] = [f"{parts[-2]} {parts[-1]}"]
    return parts if len(parts) > 1 else [source]


def _count(source: str) -> int:
    """How many tokens `source` holds, spaces aside."""
    return sum(not source[a:b].isspace() for a, b in _tokens(source))


def piece_sources(source: str) -> list[str]:
    """What each of `pieces(source)` is typeset as: each piece but the last ends on its
    operator, and `{}` is the operand TeX sees after it, so the operator keeps its space on
    both sides (mathspacing: a last `+` is unary)."""
    parts = pieces(source)
    return [f"{part}{{}}" for part in parts[:-1]] + parts[-1:]


def _cuts(source: str) -> list[int]:
    """The offsets just after each operator a line may end on."""
    cuts = []
    depth = 0
    operand = False  # whether the token before (spaces aside) ends an operand
    for start, end in _tokens(source):
        token = source[start:end]
        if token.isspace():
            continue
        depth += _NESTING.get(token, 0) + (token in _OPEN) - (token in _CLOSE)
        operator = token in RELATIONS or token in BINARY
        in_script = source[start - 1 : start] in ("^", "_")
        if operator and depth == 0 and operand and not in_script:
            cuts.append(end)
        operand = not operator and token not in _OPEN and token not in ("^", "_", "&")
    return cuts
