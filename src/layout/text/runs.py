"""A span's text → runs of one face and look, each shaped by HarfBuzz at once.

A grapheme takes the first face of its family's chain that draws it (emoji sequences try
the emoji face first); CJK-context marks and upright CJK in italic text take the faces and
looks `shape` describes.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import regex

from ..base.fonts import Face, shape_cached
from ..base.records import bulk_record
from ..base.scripts import CJK_TEXT
from ..style.spanstyle import SpanStyle

_GRAPHEME = regex.compile(r"\X")
_EMOJI_SEQUENCE = regex.compile(
    r"\p{Emoji_Presentation}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\uFE0F|\u20E3"
)
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
# A figure and the marks inside it (19:00, 3.5, 1/2, 100%): beside CJK it is part of the
# Chinese sentence, not a Latin word (no quantifiers share characters: no backtracking).
_FIGURES = regex.compile(r"[0-9]+(?:[.:,/][0-9]+)*%?")
_CJK = CJK_TEXT
# Graphemes HarfBuzz shapes at once: a longer run of one face and look is cut (after a
# space if there is one near the end), since HarfBuzz gives up on a buffer of some
# 500,000 characters, and a cached shaping result that long would be megabytes.
MAX_SEGMENT = 8192


@bulk_record
class Context:
    """What a span's shaping needs from its paragraph: the offsets of its CJK-context
    marks (`punctuation.cjk_context_marks`), where the span starts, the language, and
    whether the paragraph has CJK text: then its figures are lining (beside CJK, whose
    figures stand on the baseline at cap height, a display face's old-style 3 and 9 dip
    and read as smaller: 3天2晚), and an italic span whose CJK is set upright in its usual
    face sets its Latin upright too (`segments`)."""

    cjk_marks: frozenset[int]
    start: int
    language: str | None
    cjk: bool = False


@bulk_record
class Faces:
    """A span's faces: its family's chain, the chain's CJK face, and the face for its
    upright CJK when it is italic (Kai), if any."""

    chain: tuple[Face, ...]
    cjk: Face
    kai: Face | None


# How a segment's marks are set: as the face draws them, widened to an em (`FULL`: CJK
# punctuation a face draws narrow), or at their proportional width (`PROPORTIONAL`: a curly
# quote or apostrophe in Latin text, which a CJK face draws a full em wide: "don’ t").
NATURAL, FULL, PROPORTIONAL = "", "full", "proportional"
Segment = tuple[Face, SpanStyle, list[str], str]  # face, look, graphemes, width
# Curly quotes and the apostrophe: CJK punctuation beside CJK text, Latin marks elsewhere.
_CURLY = frozenset("\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f")


def segments(text: str, style: SpanStyle, faces: Faces, context: Context) -> list[Segment]:
    """Groups consecutive graphemes that use the same face and style; newlines stand
    alone. Upright CJK in an italic span takes the upright style (and Kai, if it draws it).
    CJK-context marks take the CJK face, and a group of their own when that face draws
    them narrower than an em (the group is then set full width)."""
    graphemes = _GRAPHEME.findall(text)
    if style.italic and context.cjk and _upright_in_usual_face(style, faces):
        style = _upright(style)  # one posture a line: 建议 19:00 以后, not 建议 /19:00/ 以后
    upright_cjk = style.italic and style.cjk_italic != "oblique"
    marks, offset = context.cjk_marks, context.start
    if not upright_cjk and (not marks or marks.isdisjoint(range(offset, offset + len(text)))):
        # Most text: only the face changes, so the checks below are skipped per grapheme.
        chain = faces.chain
        if _CURLY.isdisjoint(text):  # no curly quote: every mark as its face draws it
            return _grouped(graphemes, [(face_for(g, chain), style, NATURAL) for g in graphemes])
        faced = [(g, face_for(g, chain)) for g in graphemes]
        return _grouped(graphemes, [(face, style, _latin_width(face, g)) for g, face in faced])
    looks: list[tuple[Face, SpanStyle, str]] = []
    figures = _figures(text) if upright_cjk and context.cjk else frozenset()
    for grapheme in graphemes:
        face, look = face_for(grapheme, faces.chain), style
        cjk_mark = bool(marks) and offset in marks
        if offset - context.start in figures:  # 微波 3 分钟: the 3 stands as 微波 does
            look = _upright(style)
        offset += len(grapheme)
        if cjk_mark and _draws(faces.cjk, grapheme):
            face = faces.cjk
        if upright_cjk and (cjk_mark or _CJK.match(grapheme)):
            look = _upright(style)
            if faces.kai is not None and _draws(faces.kai, grapheme):
                face = faces.kai
        if cjk_mark:
            width = FULL if narrow(face, grapheme) else NATURAL
        else:
            width = _latin_width(face, grapheme)
        looks.append((face, look, width))
    return _grouped(graphemes, looks)


def _figures(text: str) -> frozenset[int]:
    """The offsets in `text` of its figures (`_FIGURES`): in an italic span of a CJK
    paragraph whose Chinese stands upright (Kai), a slanted 3 in "微波 3 分钟" read as a
    fault, where a Latin word still slants, as clreq sets Western text in a Kai passage."""
    return frozenset(i for found in _FIGURES.finditer(text) for i in range(*found.span()))


def _latin_width(face: Face, grapheme: str) -> str:
    """`PROPORTIONAL` for a curly quote outside CJK context that `face` draws a full em
    wide (the CJK faces do, Chinese quotes being full-width), else `NATURAL`."""
    if grapheme not in _CURLY or narrow(face, grapheme):
        return NATURAL
    return PROPORTIONAL


def _grouped(graphemes: list[str], looks: list[tuple[Face, SpanStyle, str]]) -> list[Segment]:
    """Consecutive graphemes of one (face, look, full width) as one segment, a newline
    alone, a segment of MAX_SEGMENT graphemes cut (`_cut_long`)."""
    segments: list[Segment] = []
    last: tuple[Face, SpanStyle, str] | None = None
    group: list[str] = []
    for grapheme, look in zip(graphemes, looks, strict=True):
        if grapheme == "\n" or look != last or group[0] == "\n":
            group = [grapheme]
            segments.append((look[0], look[1], group, look[2]))
            last = look
        else:
            if len(group) >= MAX_SEGMENT:
                group = _cut_long(group)
                segments.append((look[0], look[1], group, look[2]))
            group.append(grapheme)
    return segments


@lru_cache(maxsize=1024)
def narrow(face: Face, grapheme: str) -> bool:
    """Whether `face` draws the mark narrower than an em (`fwid` or blank must widen it)."""
    advances = shape_cached(face, grapheme, True, None)[2]
    return len(advances) != 1 or advances[0] < face.upem


def _cut_long(group: list[str]) -> list[str]:
    """Cuts a segment of MAX_SEGMENT graphemes after its last space in the last eighth
    (else at its end): keeps the head in place, returns the tail as the new group."""
    floor = len(group) - MAX_SEGMENT // 8
    cut = next((i + 1 for i in range(len(group) - 1, floor, -1) if group[i] == " "), len(group))
    tail = group[cut:]
    del group[cut:]
    return tail


def _upright_in_usual_face(style: SpanStyle, faces: Faces) -> bool:
    """Whether an italic span's CJK is drawn upright in its usual face: `cjk_italic` none,
    or Kai asked for and the family has none. Slanted Latin beside it then reads as a
    fault, not as emphasis, so the span is upright."""
    return style.cjk_italic == "none" or (style.cjk_italic == "kai" and faces.kai is None)


@lru_cache(maxsize=256)
def _upright(style: SpanStyle) -> SpanStyle:
    """The same look without italic; one object per look, so painting groups it."""
    return replace(style, italic=False)


def _draws(face: Face, grapheme: str) -> bool:
    return all(face.covers(ord(c)) for c in grapheme if not _IGNORABLE.match(c))


def pick_face(grapheme: str, chain: tuple[Face, ...]) -> Face:
    """The first face that draws the whole grapheme; emoji sequences try emoji first."""
    if grapheme.isspace():
        return chain[0]
    codepoints = [ord(c) for c in grapheme if not _IGNORABLE.match(c)] or [ord(grapheme[0])]
    if _EMOJI_SEQUENCE.search(grapheme):
        emoji = next((f for f in chain if f.is_emoji), None)
        if emoji is not None and emoji.covers(codepoints[0]):
            return emoji
    for face in chain:
        if all(face.covers(cp) for cp in codepoints):
            return face
    for face in chain:
        if face.covers(codepoints[0]):
            return face
    return chain[0]


# Bounded: a card's graphemes per chain are a few hundred distinct characters.
face_for = lru_cache(maxsize=8192)(pick_face)
