"""Tables that read on a phone: column widths from content, wrapping or a sideways scroll.

The article path has no browser, so widths are estimated from character classes
(docs/decisions/articles.md, "Tables on a phone"): a CJK character is one em, a digit or
lower-case Latin letter about 0.6 em, a capital about 0.72 em, plus the letter spacing;
it errs wide (0.87–1.21 of Chromium's width with DejaVu Sans, the widest fallback).
Each column gets a minimum from its longest unbreakable run (a Latin word, a number with
its unit; four CJK characters, or the whole cell if it is shorter); a table whose minimums
do not fit the phone's column is set tighter (padding, then a pixel or two smaller) before
it gives up; only then each column gets a comfortable width, the table scrolls sideways
under a text cue (the one hint the WeChat editor cannot strip) and its first column is
set apart, since the editor drops `position` and nothing can pin it.

Runs after the theme is inlined: it reads the sizes the theme gave the cells and writes
only inline styles; the cue and the first column's look are the theme's `.table-cue` and
`.table-pin` rules, read from templates `wrap_tables` put in before inlining.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from math import ceil

from lxml import html as lxml_html
from lxml.etree import _Element as Element

from inkcard.app.articles.convert.fixups import CJK_RANGES, add_style, has_class
from inkcard.app.articles.convert.units import NUMBER_WITH_UNIT

PHONE_COLUMN = 343.0  # px: a 375 px phone less WeChat's 16 px margins on both sides
MARGIN = 1.15  # the Latin estimate's error allowance: a table fits only if 15 % wider would
# fit (CJK characters are one em each in every CJK font, so their share needs none)
FIGURES_MARGIN = 1.08  # figures vary less: DejaVu Sans's digits are 0.636 em, its % 0.95
FLOOR_EM = 4.0  # a column that wraps is never narrower than four CJK characters
COMFORT_EM = 8.0  # a scrolling table's column wraps past about eight CJK characters
# Tighter settings tried in turn on a table too wide for the phone, before it scrolls:
# (font size in px or None for the theme's, left and right padding in px).
TIGHTER: tuple[tuple[float | None, float], ...] = ((None, 6.0), (13.0, 5.0), (12.0, 4.0))
COMPACT_FONT = TIGHTER[-1][0] or 12.0  # px: the smallest a table is set
CUE_STYLE = "margin:16px 0 4px;font-size:12px;line-height:1.5;color:#6b7280;text-align:right"
PIN_STYLE = "background-color:#f7f8fa;border-right:1px solid #e5e7eb"
CELL_STYLE = "overflow-wrap:break-word;word-break:normal;font-variant-numeric:tabular-nums"
HEADER_STYLE = f"{CELL_STYLE};text-wrap:balance"  # a wrapped header: 同比增/长率, not 同比增长/率

_CJK_CHAR = re.compile(rf"[{CJK_RANGES}\u3000-\u303f\uff00-\uffef]")
# What a line may not break inside: a number with its unit, a CJK character, a Latin word.
_RUN = re.compile(rf"{NUMBER_WITH_UNIT.pattern}|{_CJK_CHAR.pattern}|[^\s{CJK_RANGES}]+")
_ALL_CJK = re.compile(rf"(?:{_CJK_CHAR.pattern})*")
_ALL_FIGURES = re.compile(r"[-+−¥￥$€£]?[\d.,:]*[%‰°]?")
_PX = r"(-?\d+(?:\.\d+)?)px"
_PX_VALUE = re.compile(_PX)
_DECLARATION = re.compile(r"(?:^|;)\s*([\w-]+)\s*:\s*([^;]+)")


@cache  # a few hundred distinct characters per article, each met many times
def char_em(char: str) -> float:
    """The estimated advance of one character, in em, erring wide: phones' Latin (San
    Francisco, Roboto) runs about 0.5 em a letter, the widest fallback (DejaVu Sans) 0.6."""
    if _CJK_CHAR.match(char):
        return 1.0
    if char in " .,:;'|!il":
        return 0.32
    if char in "mwMW%@&":
        return 0.9
    if char.isdigit():
        return 0.6
    if char.islower():
        return 0.58
    if char.isupper():
        return 0.72
    return 0.6


@dataclass(frozen=True, slots=True)
class _Metrics:
    """What a cell's width is made of besides its text, as the theme set it."""

    font: float  # px
    spacing: float  # px of letter spacing per character
    padding: float  # px, left and right together

    def width(self, text: str) -> float:
        """Estimated px width of `text` on one line, padding excluded."""
        return sum(char_em(c) * self.font + self.spacing for c in text)


def wrap_tables(root: Element) -> None:
    """Before inlining: each table in a sideways scroller under a cue, every second body row
    marked for zebra stripes (premailer cannot apply `:nth-child`); the cue holds a
    `.table-pin` template from which a scrolling table's first column takes its look."""
    for body in root.iter("tbody"):
        for row in body.findall("tr")[1::2]:
            row.set("class", "row-even")
    for table in list(root.iter("table")):
        wrapper = lxml_html.Element("section", {"class": "table-wrap"})
        table.addprevious(wrapper)
        wrapper.tail, table.tail = table.tail, None
        wrapper.append(table)
        cue = lxml_html.Element("section", {"class": "table-cue"})
        cue.append(lxml_html.Element("section", {"class": "table-pin"}))
        wrapper.addprevious(cue)


def fit_tables(root: Element, cue: str) -> None:
    """After inlining, every table: cells that break only between words, each column's
    minimum width, set tighter while that makes it fit; a table that still does not fit
    scrolls under its cue with its first column set apart, the others lose their cue."""
    spacing = _px(root.get("style"), "letter-spacing") or 0.0
    for table in list(root.iter("table")):
        wrapper = table.getparent()
        if wrapper is None or not has_class(wrapper, "table-wrap"):
            continue
        hint = wrapper.getprevious()
        template = hint if hint is not None and has_class(hint, "table-cue") else None
        columns = _columns(table, spacing)
        room = PHONE_COLUMN - _inset(wrapper, root)
        stage = None if _fits(columns, room) else _first_fit(columns, room)
        if stage is not None:
            columns = _tightened(columns, *stage)
            table_font = _px(table.get("style"), "font-size") or 14.0
            for cell in _spanning(table):  # set no column's width, but match the others
                metrics = _metrics(cell.get("style"), table_font, spacing)
                _restyle(_shrunk(_measure(cell, metrics), *stage))
        scrolls = not _fits(columns, room)
        for column in columns:
            floor = _floor(column)
            width = _comfortable(column, floor) if scrolls else floor
            for cell in column:
                _restyle(cell)
                add_style(cell.element, f"min-width:{ceil(width - cell.metrics.padding)}px")
        if scrolls:
            _set_apart(table, _template_style(template, "table-pin", PIN_STYLE))
            _add_cue(wrapper, template, cue)
        elif template is not None:
            _drop(template)


def _first_fit(columns: list[list[_Cell]], room: float) -> tuple[float | None, float] | None:
    """The first of the `TIGHTER` settings at which the table fits, if any."""
    return next((stage for stage in TIGHTER if _fits(_tightened(columns, *stage), room)), None)


def _spanning(table: Element) -> list[Element]:
    return [c for c in table.iter("td", "th") if int(c.get("colspan", "1") or 1) > 1]


def _restyle(cell: _Cell) -> None:
    """A tightened cell's font size and side padding, as measured."""
    if cell.tight is not None:
        font, side = cell.tight
        sizes = f"font-size:{font:g}px;" if font else ""
        add_style(cell.element, f"{sizes}padding-left:{side:g}px;padding-right:{side:g}px")


def _floor(column: list[_Cell]) -> float:
    return max((c.floor for c in column), default=0.0)


def _fits(columns: list[list[_Cell]], room: float) -> bool:
    """Whether the columns' minimums, with the estimate's allowance, fit in `room` px."""
    return sum(max((c.need for c in column), default=0.0) for column in columns) <= room


def _tightened(columns: list[list[_Cell]], font: float | None, side: float) -> list[list[_Cell]]:
    """The cells as they measure at `font` px (None: as the theme set them) with `side` px
    of padding left and right (a cell already that small keeps its size)."""
    return [[_shrunk(cell, font, side) for cell in column] for column in columns]


def _shrunk(cell: _Cell, font: float | None, side: float) -> _Cell:
    """`cell` measured again at the smaller size; its letter spacing, in px, stays."""
    old = cell.metrics
    size = min(font or old.font, old.font)
    new = _Metrics(size, old.spacing, min(old.padding, 2 * side))
    tight = (size if size < old.font else None, new.padding / 2)
    return replace(_measure(cell.element, new), tight=tight)


@dataclass(frozen=True, slots=True)
class _Cell:
    element: Element
    metrics: _Metrics
    floor: float  # px, padding included: its widest unbreakable run, or four CJK characters
    line: float  # px, padding included: all of its text on one line
    need: float  # px, padding included: the floor with the allowance for a Latin estimate
    tight: tuple[float | None, float] | None = None  # font size and side padding if tightened


def _columns(table: Element, spacing: float) -> list[list[_Cell]]:
    """The cells of each column, measured; every cell breaks only between words, but a
    cell spanning columns sets no column's width."""
    columns: list[list[_Cell]] = []
    table_font = _px(table.get("style"), "font-size") or 14.0
    for row in table.iter("tr"):
        index = 0
        for cell in row:
            if cell.tag not in ("td", "th"):
                continue
            metrics = _metrics(cell.get("style"), table_font, spacing)
            add_style(cell, HEADER_STYLE if cell.tag == "th" else CELL_STYLE)
            span = int(cell.get("colspan", "1") or 1)
            while len(columns) < index + span:
                columns.append([])
            if span == 1:
                columns[index].append(_measure(cell, metrics))
            index += span
    return columns


@cache  # the cells of a theme share a handful of styles
def _metrics(style: str | None, table_font: float, spacing: float) -> _Metrics:
    font = _px(style, "font-size") or table_font
    own_spacing = _px(style, "letter-spacing")
    return _Metrics(font, spacing if own_spacing is None else own_spacing, _padding(style))


def _measure(cell: Element, metrics: _Metrics) -> _Cell:
    """A cell's minimum: its widest unbreakable run, and four CJK characters unless all of
    it is narrower ("年份" or "2019" need not reserve four)."""
    text = " ".join(cell.text_content().split())
    line = metrics.width(text)
    runs = _RUN.findall(text)
    longest = max((metrics.width(run) for run in runs), default=0.0)
    four = FLOOR_EM * (metrics.font + metrics.spacing)
    floor = max(longest, min(line, four))
    need = max(
        max((_allow(run, metrics) for run in runs), default=0.0), min(_allow(text, metrics), four)
    )
    padding = metrics.padding
    return _Cell(cell, metrics, floor + padding, line + padding, need + padding)


def _allow(text: str, metrics: _Metrics) -> float:
    """`text`'s estimated width with its allowance: none for CJK, `FIGURES_MARGIN` for a
    number, `MARGIN` for anything else."""
    width = metrics.width(text)
    if _ALL_CJK.fullmatch(text):
        return width
    return width * (FIGURES_MARGIN if _ALL_FIGURES.fullmatch(text) else MARGIN)


def _comfortable(column: list[_Cell], floor: float) -> float:
    """A scrolling column: its longest cell on one line, up to `COMFORT_EM`, never under
    its minimum."""
    widest = max((c.line for c in column), default=0.0)
    cap = max((COMFORT_EM * (c.metrics.font + c.metrics.spacing) for c in column), default=0.0)
    padding = max((c.metrics.padding for c in column), default=0.0)
    return max(min(widest, cap + padding), floor)


def _set_apart(table: Element, style: str) -> None:
    """The first cell of each row of a scrolling table in the theme's `.table-pin` look:
    the labels stay recognisable as the rest slides past them."""
    for row in table.iter("tr"):
        first = next((c for c in row if c.tag in ("td", "th")), None)
        if first is not None and first.tag == "td":
            add_style(first, style)
        elif first is not None:
            add_style(first, ";".join(d for d in style.split(";") if "border" in d))


def _template_style(cue: Element | None, name: str, fallback: str) -> str:
    """The inline style premailer gave the `name` template inside the cue (the theme's
    rule), after `fallback` for a theme without one."""
    found = None if cue is None else next((el for el in cue if has_class(el, name)), None)
    own = "" if found is None else (found.get("style") or "").strip().strip(";")
    return f"{fallback};{own}" if own else fallback


def _add_cue(wrapper: Element, template: Element | None, cue: str) -> None:
    """The hint above a table that scrolls: plain text, as the editor keeps it, in the
    theme's `.table-cue` style."""
    if template is None:
        template = lxml_html.Element("section")
        wrapper.addprevious(template)
    own = (template.get("style") or "").strip().strip(";")
    for child in list(template):
        template.remove(child)
    template.attrib.pop("class", None)
    template.set("style", f"{CUE_STYLE};{own}" if own else CUE_STYLE)
    template.text = cue
    add_style(wrapper, "margin-top:0")


def _drop(el: Element) -> None:
    parent = el.getparent()
    if parent is not None:
        parent.remove(el)  # the cue holds no text, and nothing follows it but the table


def _px(style: str | None, name: str) -> float | None:
    """The last px value of one property in an inline style (the one that wins)."""
    found = [_PX_VALUE.match(value) for prop, value in _declarations(style) if prop == name]
    return next((float(m.group(1)) for m in reversed(found) if m), None)


def _padding(style: str | None) -> float:
    return _sides(style, "padding")


def _inset(wrapper: Element, root: Element) -> float:
    """The px the table loses to what holds it, from its wrapper up to the article: padding,
    borders and margins on both sides, and a list item's marker."""
    total = 0.0
    el: Element | None = wrapper
    while el is not None:
        style = el.get("style")
        total += _sides(style, "padding") + _sides(style, "margin") + _sides(style, "border")
        if el.tag == "li" and len(el) and has_class(el[0], "ps-before"):
            marker = el[0].get("style")
            width = _px(marker, "min-width") or _px(marker, "width") or 0.0
            total += width + (_px(marker, "margin-right") or 0.0)
        el = None if el is root else el.getparent()
    return total


def _sides(style: str | None, name: str) -> float:
    """Left plus right px of a box property (`padding`, `margin`, `border`) as an inline
    style's declarations leave them, shorthand and sides in order; `auto`, `0` and other
    units count as nothing."""
    left = right = 0.0
    for prop, value in _declarations(style):
        if prop == name:
            sizes = _lengths(value, name == "border")
            right = sizes[1] if len(sizes) > 1 else sizes[0]
            left = sizes[3] if len(sizes) > 3 else right
        elif prop in (f"{name}-left", f"{name}-right"):
            size = _lengths(value, name == "border")[0]
            left, right = (size, right) if prop.endswith("left") else (left, size)
    return left + right


def _declarations(style: str | None) -> list[tuple[str, str]]:
    """(property, value) of each declaration of an inline style, in order."""
    return _DECLARATION.findall(style or "")


def _lengths(value: str, border: bool) -> list[float]:
    """The px sizes of a box shorthand by position; of a border, its one width."""
    matches = [re.fullmatch(_PX, token) for token in value.split()]
    if border:
        return [next((float(m.group(1)) for m in matches if m), 0.0)]
    return [float(m.group(1)) if m else 0.0 for m in matches] or [0.0]
