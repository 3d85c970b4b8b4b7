"""A regular expression → the classic backtracking inputs for it, read off its parse tree.

For every quantifier that can repeat (``*``, ``+``, ``{m,}``, ``{m,n}`` with n > 1) the shape
is ``prefix + unit * n + suffix``: a prefix the pattern's elements before the quantifier
match (walking it up to the quantifier), a unit its body matches (single characters of each
class it names, and short strings built from the body's own consecutive literals, like
``#\\r\\n``), and a suffix that stops one step short of a match or adds a character the pattern
does not expect, so the engine has to try every way of splitting the run before it gives up.
Runs of each representative character and of each literal word of the pattern are added
too, for the search-like uses where every position is a new start.

The tree is ``re``'s own (``re._parser``); a pattern of the ``regex`` module is first
translated: each ``\\p{…}`` becomes the characters of ``ALPHABET`` it holds, ``\\X`` any one
character. Only the shape generation reads the translation; probes run the real pattern.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from re import _compiler, _constants, _parser  # type: ignore[attr-defined]
from typing import Any

import regex

C = _constants
REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)
GROUPS = (C.SUBPATTERN, C.ATOMIC_GROUP)
ASSERTS = (C.ASSERT, C.ASSERT_NOT)
MAX_UNITS = 10  # body samples per quantifier
MAX_VARIANTS = 8  # samples of one element of a sequence
MAX_REPS = 7  # representative characters of one class

# The characters a class is tried against: printable ASCII, the whitespace and line ends the
# engines treat apart, and a few of each script and symbol the service's patterns name.
ALPHABET = (
    "aZ09_ \t\r\n\x0b\x0c\x00"
    + "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in "aZ09_")
    + "\x85\u00a0\u00b7\u00d7\u00b1\u00e9\u0301\u00ad\u2014\u2018\u2019\u201c\u2026\u2028"
    + "\u200b\u200d\u3000\u3001\u3002\u300c\u4e2d\u6587\u3042\u30a2\u3105\ud55c\uac00"
    + "\uff01\uff0c\uff11\uff21\ufe0f\u20e3\ufeff\ufffd\U0001f600\U0001f1e8\U0001f44d"
    + "\U0001f3fb\U00020000"
)
BYTE_ALPHABET = "".join(c for c in ALPHABET if ord(c) < 256)


@dataclass(frozen=True, slots=True)
class Shape:
    """One probe: ``prefix + unit * n + suffix``, n chosen for a length."""

    prefix: str
    unit: str
    suffix: str

    def text(self, length: int) -> str:
        count = max(1, (length - len(self.prefix) - len(self.suffix)) // len(self.unit))
        return self.prefix + self.unit * count + self.suffix


def translated(pattern: str, engine: str) -> str:
    """The pattern in ``re``'s syntax (unchanged for ``re``); see the module's docstring."""
    if engine == "re":
        return pattern
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and pattern[i + 1 : i + 2] in ("p", "P"):
            end = pattern.index("}", i) + 1 if pattern[i + 2] == "{" else i + 3
            members = _members(pattern[i:end])
            out.append(members if in_class else f"[{members}]")
            i = end
            continue
        if char == "\\" and pattern[i + 1 : i + 2] == "X":
            out.append("(?s:.)")
            i += 2
            continue
        if char == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if char == "[" and not in_class:
            in_class = True
            out.append(char)
            if pattern[i + 1 : i + 2] == "^":
                out.append("^")
                i += 1
            if pattern[i + 1 : i + 2] == "]":
                out.append("\\]")
                i += 1
        elif char == "]" and in_class:
            in_class = False
            out.append(char)
        else:
            out.append(char)
        i += 1
    return "".join(out)


def _members(property_: str) -> str:
    """The characters of ``ALPHABET`` a ``\\p{…}`` holds, escaped for a class."""
    test = regex.compile(property_)
    held = [c for c in ALPHABET if test.fullmatch(c)] or ["\U0010fffd"]
    return "".join(re.escape(c) for c in held)


def parse(pattern: str | bytes, flags: int, engine: str) -> Any:
    """``re``'s parse tree of the pattern (a ``SubPattern``)."""
    if isinstance(pattern, bytes):
        return _parser.parse(pattern, flags & _RE_FLAGS)
    return _parser.parse(translated(pattern, engine), flags & _RE_FLAGS)


_RE_FLAGS = re.I | re.M | re.S | re.X | re.A | re.U | re.L


class Shapes:
    """The probes of one pattern (see the module's docstring)."""

    def __init__(self, pattern: str | bytes, flags: int, engine: str) -> None:
        self.tree = parse(pattern, flags, engine)
        self.flags = self.tree.state.flags
        self.alphabet = BYTE_ALPHABET if isinstance(pattern, bytes) else ALPHABET
        self._reps: dict[str, list[str]] = {}
        self.named: list[str] = []  # every representative character, in order of appearance
        self.words: list[str] = []  # runs of consecutive literals
        self.foreign = self._foreign()

    # -- single characters ---------------------------------------------------------------

    def reps(self, node: tuple[Any, Any]) -> list[str]:
        """Representative characters one single-character element matches."""
        key = repr(node)
        if key not in self._reps:
            held = self._held(node)
            picked = _diverse(held)
            self._reps[key] = picked
            self.named.extend(c for c in picked if c not in self.named)
        return self._reps[key]

    def _held(self, node: tuple[Any, Any]) -> list[str]:
        op, av = node
        if op is C.LITERAL:
            return [chr(av)]
        sub = _parser.SubPattern(self.tree.state, [node])
        test = _compiler.compile(sub, self.flags)
        if isinstance(self.tree.state.str, bytes):
            return [c for c in self.alphabet if test.fullmatch(c.encode("latin-1"))]
        return [c for c in self.alphabet if test.fullmatch(c)]

    def _foreign(self) -> str:
        """A character no element of the pattern names positively, if there is one."""
        positive: set[str] = set()
        for op, av in _walk(self.tree.data):
            if op is C.LITERAL:
                positive.add(chr(av))
            elif op is C.IN and not any(item[0] is C.NEGATE for item in av):
                positive.update(self._held((op, av)))
        for candidate in ("\x00", "\x01", "~", "§", "\ufffd"):
            if candidate not in positive:
                return candidate
        return "\x00"

    # -- samples of a sequence -------------------------------------------------------------

    def variants(self, node: tuple[Any, Any]) -> list[str]:
        """A few strings one element matches, the first its shortest."""
        op, av = node
        if op in (C.LITERAL, C.NOT_LITERAL, C.IN, C.ANY):
            return self.reps(node)
        if op in REPEATS:
            low, _, body = av
            seen = self.samples(body.data)
            shortest = seen[0] * low
            return _unique([shortest] + [s * max(1, low) for s in seen])
        if op in GROUPS:
            return self.samples((av[-1] if op is C.SUBPATTERN else av).data)
        if op is C.BRANCH:
            return _unique(s for alt in av[1] for s in self.samples(alt.data))
        if op is C.GROUPREF_EXISTS:
            _, yes, no = av
            return _unique(self.samples(yes.data) + (self.samples(no.data) if no else [""]))
        return [""]  # anchors, lookarounds, back references: zero width here

    def samples(self, seq: Sequence[tuple[Any, Any]]) -> list[str]:
        """Strings the sequence matches: shortest, each element once, and one element varied."""
        options = [self.variants(node)[:MAX_VARIANTS] for node in seq]
        shortest = [o[0] for o in options]
        longest = [o[1] if len(o) > 1 and not o[0] else o[0] for o in options]
        found = ["".join(shortest), "".join(longest)]
        for base in (longest, shortest):
            for i, choices in enumerate(options):
                for choice in choices[1:]:
                    found.append("".join([*base[:i], choice, *base[i + 1 :]]))
        return _unique(found)[: MAX_UNITS * 2]

    # -- the probes ----------------------------------------------------------------------------

    def shapes(self) -> list[Shape]:
        found: list[Shape] = []
        starts: list[str] = []  # what walks up to a quantifier, then one turn of it
        for prefixes, body, rest in self._sites(self.tree.data, [""], []):
            units = [u for u in self.samples(body.data) if u][:MAX_UNITS]
            suffixes = self._suffixes(rest)
            found += [Shape(p, u, s) for p in prefixes for u in units for s in suffixes]
            starts += [p + u for p in prefixes[:1] if p for u in units[:3]]
        # every position a new start: runs of each character and word the pattern names,
        # of each word with a character after it (``/*a``: an opening never closed), and of
        # a prefix with one turn of its quantifier
        words = [w + c for w in self.words for c in self.named[:MAX_REPS]]
        runs = _unique(list(self.named) + self.words + words + starts)
        found += [Shape("", unit, s) for unit in runs for s in ("", self.foreign)]
        return list(dict.fromkeys(found))

    def _suffixes(self, rest: list[tuple[Any, Any]]) -> list[str]:
        complete = self.samples(rest)[0] if rest else ""
        return _unique(["", complete[:-1], complete + self.foreign, self.foreign])

    def _sites(
        self, seq: Sequence[tuple[Any, Any]], before: list[str], after: list[tuple[Any, Any]]
    ) -> Iterator[tuple[list[str], Any, list[tuple[Any, Any]]]]:
        """(prefixes, body, what follows) of every quantifier that can repeat."""
        self._note_words(seq)
        for i, (op, av) in enumerate(seq):
            head = self.samples(seq[:i]) if i else [""]
            prefixes = _unique(b + h for b in before for h in head[:2])[:3]
            rest = list(seq[i + 1 :]) + after
            if op in REPEATS:
                if av[1] > 1:
                    yield prefixes, av[2], rest
                yield from self._sites(av[2].data, prefixes, rest)
            elif op in GROUPS:
                yield from self._sites((av[-1] if op is C.SUBPATTERN else av).data, prefixes, rest)
            elif op is C.BRANCH:
                for alt in av[1]:
                    yield from self._sites(alt.data, prefixes, rest)
            elif op in ASSERTS:
                yield from self._sites(av[1].data, prefixes, rest)
            elif op is C.GROUPREF_EXISTS:
                for branch in av[1:]:
                    if branch is not None:
                        yield from self._sites(branch.data, prefixes, rest)
            elif op in (C.LITERAL, C.NOT_LITERAL, C.IN, C.ANY):
                self.reps((op, av))

    def _note_words(self, seq: Sequence[tuple[Any, Any]]) -> None:
        word = ""
        for op, av in [*list(seq), (None, None)]:
            if op is C.LITERAL:
                word += chr(av)
                continue
            if len(word) > 1 and word not in self.words:
                self.words.append(word)
            word = ""


def _walk(seq: Iterable[tuple[Any, Any]]) -> Iterator[tuple[Any, Any]]:
    for op, av in seq:
        yield op, av
        if op in REPEATS:
            yield from _walk(av[2].data)
        elif op is C.SUBPATTERN:
            yield from _walk(av[-1].data)
        elif op is C.ATOMIC_GROUP:
            yield from _walk(av.data)
        elif op is C.BRANCH:
            for alt in av[1]:
                yield from _walk(alt.data)
        elif op in ASSERTS:
            yield from _walk(av[1].data)
        elif op is C.GROUPREF_EXISTS:
            for branch in av[1:]:
                if branch is not None:
                    yield from _walk(branch.data)


def _diverse(held: list[str]) -> list[str]:
    """Up to MAX_REPS members: one of each kind (letter, digit, space, line end, mark...)."""
    kinds: dict[str, str] = {}
    for char in held:
        kinds.setdefault(_kind(char), char)
    picked = list(kinds.values())
    for char in ("\r", "\n", " ", "\t"):
        if char in held and char not in picked:
            picked.append(char)
    return picked[:MAX_REPS] if len(picked) > MAX_REPS else picked


def _kind(char: str) -> str:
    if char in "\r\n":
        return char
    if ord(char) < 128:
        return "space" if char.isspace() else unicodedata.category(char)[0]
    return "other-" + unicodedata.category(char)


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
