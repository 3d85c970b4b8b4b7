"""Dates in and out of a gantt chart: moment/dayjs `dateFormat`s read, durations, d3 `axisFormat`s.

Mermaid reads a gantt's dates with dayjs in strict mode (``YYYY-MM-DD`` wants four digits,
a dash, two digits ...) and falls back to JavaScript's own date reading; it writes the axis
with d3's ``%`` directives. Both are small languages, read here by hand loops over the
format (no pattern sees user input) with Python's `datetime` doing the calendar: no new
dependency, and a date outside 1..9999 or an absurd duration is a `DiagramError`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ...errors import DiagramError

# dayjs tokens, longest spelling first; a letter that is no token is a literal
_TOKENS = (
    "YYYY", "MMMM", "MMM", "SSS", "YY", "MM", "DD", "Do", "HH", "hh", "mm", "ss",
    "M", "D", "H", "h", "m", "s", "A", "a", "X", "x",
)  # fmt: skip
_MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# (fewest, most) digits of a numeric token, and the field it sets
_NUMBERS = {
    "YYYY": (4, 4, "year"),
    "YY": (2, 2, "year2"),
    "MM": (2, 2, "month"),
    "M": (1, 2, "month"),
    "DD": (2, 2, "day"),
    "D": (1, 2, "day"),
    "Do": (1, 2, "day"),
    "HH": (2, 2, "hour"),
    "H": (1, 2, "hour"),
    "hh": (2, 2, "hour12"),
    "h": (1, 2, "hour12"),
    "mm": (2, 2, "minute"),
    "m": (1, 2, "minute"),
    "ss": (2, 2, "second"),
    "s": (1, 2, "second"),
    "SSS": (3, 3, "milli"),
    "X": (1, 12, "unix"),
    "x": (1, 15, "unixms"),
}
# a duration's unit → (days, seconds) it stands for; months and years as the calendar has them
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, "w": 604800.0}
_CALENDAR_UNITS = {"M": 1, "y": 12}


def format_tokens(fmt: str) -> list[str]:
    """The dayjs format as tokens: each a token name or a literal prefixed with a quote;
    ``[...]`` is literal text, as in dayjs."""
    out: list[str] = []
    pos = 0
    while pos < len(fmt):
        if fmt[pos] == "[":
            end = fmt.find("]", pos)
            end = len(fmt) if end < 0 else end
            out.extend("'" + char for char in fmt[pos + 1 : end])
            pos = end + 1
            continue
        token = next((t for t in _TOKENS if fmt.startswith(t, pos)), None)
        out.append(token or "'" + fmt[pos])
        pos += len(token) if token else 1
    return out


def parse_date(text: str, tokens: list[str]) -> datetime:
    """The date `text` spells in the format (`format_tokens`), strictly as dayjs reads it,
    else as an ISO date (JavaScript's fallback); `DiagramError` when it is neither."""
    text = text.strip()
    try:
        return _strict(text, tokens)
    except (ValueError, OverflowError):
        pass
    try:
        return datetime.fromisoformat(text).replace(tzinfo=None)
    except ValueError:
        raise DiagramError(f"cannot read the date {text[:40]!r}") from None


def _strict(text: str, tokens: list[str]) -> datetime:
    fields: dict[str, int] = {}
    pm: bool | None = None
    pos = 0
    for token in tokens:
        if token.startswith("'"):
            if not text.startswith(token[1:], pos):
                raise ValueError(token)
            pos += 1
        elif token in _NUMBERS:
            fewest, most, name = _NUMBERS[token]
            end = pos
            while end < len(text) and end - pos < most and text[end].isdigit():
                end += 1
            if end - pos < fewest:
                raise ValueError(token)
            fields[name], pos = int(text[pos:end]), end
            if token == "Do":  # 1st, 2nd, 23rd
                pos += 2
        elif token in ("MMM", "MMMM"):
            end = pos
            while end < len(text) and text[end].isalpha():
                end += 1
            word = text[pos:end].lower()
            month = [i for i, m in enumerate(_MONTHS, 1) if len(word) >= 3 and m.startswith(word)]
            if not month:
                raise ValueError(word)
            fields["month"], pos = month[0], end
        else:  # A, a
            word = text[pos : pos + 2].lower()
            if word not in ("am", "pm"):
                raise ValueError(token)
            pm, pos = word == "pm", pos + 2
    if pos != len(text):
        raise ValueError(text)
    return _assemble(fields, pm)


def _assemble(fields: dict[str, int], pm: bool | None) -> datetime:
    if "unix" in fields:
        return datetime(1970, 1, 1) + timedelta(seconds=fields["unix"])
    if "unixms" in fields:
        return datetime(1970, 1, 1) + timedelta(milliseconds=fields["unixms"])
    year = fields.get("year", 2000 + fields.get("year2", 0) if "year2" in fields else 1970)
    hour = fields.get("hour", 0)
    if "hour12" in fields:
        hour = fields["hour12"] % 12 + (12 if pm else 0)
    return datetime(
        year,
        fields.get("month", 1),
        fields.get("day", 1),
        hour,
        fields.get("minute", 0),
        fields.get("second", 0),
        fields.get("milli", 0) * 1000,
    )


def duration_after(start: datetime, text: str) -> datetime | None:
    """`start` moved by a Mermaid duration (``3d``, ``1.5h``, ``2w``, ``30m``, ``1M``,
    ``1y``); None when `text` is no duration."""
    text = text.strip()
    unit = next((u for u in ("ms", *_UNITS, *_CALENDAR_UNITS) if text.endswith(u)), "")
    number = text[: len(text) - len(unit)]
    if not unit or not number or not all(c.isdigit() or c == "." for c in number):
        return None
    try:
        amount = float(number)
        if unit in _CALENDAR_UNITS:
            return add_months(start, round(amount * _CALENDAR_UNITS[unit]))
        return start + timedelta(seconds=amount * _UNITS[unit])
    except (ValueError, OverflowError):
        raise DiagramError(f"duration out of range: {text[:20]!r}") from None


def add_months(moment: datetime, months: int) -> datetime:
    """`moment` moved by whole calendar months, its day kept within the month."""
    index = moment.year * 12 + moment.month - 1 + months
    year, month = divmod(index, 12)
    if not 1 <= year <= 9999:
        raise OverflowError(year)
    day = moment.day
    while day > 28:
        try:
            return moment.replace(year=year, month=month + 1, day=day)
        except ValueError:
            day -= 1
    return moment.replace(year=year, month=month + 1, day=day)


def is_excluded(day: datetime, excludes: frozenset[str]) -> bool:
    """Whether a gantt's `excludes` (``weekends``, weekday names, ISO dates) holds `day`."""
    if "weekends" in excludes and day.weekday() >= 5:
        return True
    return _DAYS[day.weekday()] in excludes or day.date().isoformat() in excludes


def format_date(moment: datetime, fmt: str) -> str | None:
    """`moment` in a d3 time format (``%Y-%m-%d``, ``%b %d``, ``%H:%M``, ...); None when
    the format has a directive we do not write (the axis then takes its default)."""
    out, pos = [], 0
    while pos < len(fmt):
        char = fmt[pos]
        if char != "%":
            out.append(char)
            pos += 1
            continue
        pad = fmt[pos + 1 : pos + 2]
        if pad in ("-", "_", "0"):
            pos += 1
        else:
            pad = ""
        directive = fmt[pos + 1 : pos + 2]
        value = _directive(moment, directive)
        if value is None:
            return None
        if pad == "-" and value.isdigit():
            value = value.lstrip("0") or "0"
        out.append(value)
        pos += 2
    return "".join(out)


def _directive(moment: datetime, directive: str) -> str | None:
    simple = {
        "Y": f"{moment.year:04d}",
        "y": f"{moment.year % 100:02d}",
        "m": f"{moment.month:02d}",
        "d": f"{moment.day:02d}",
        "e": f"{moment.day:2d}".strip(),
        "H": f"{moment.hour:02d}",
        "I": f"{(moment.hour % 12) or 12:02d}",
        "M": f"{moment.minute:02d}",
        "S": f"{moment.second:02d}",
        "L": f"{moment.microsecond // 1000:03d}",
        "j": f"{moment.timetuple().tm_yday:03d}",
        "p": "PM" if moment.hour >= 12 else "AM",
        "b": _MONTHS[moment.month - 1][:3].title(),
        "B": _MONTHS[moment.month - 1].title(),
        "a": _DAYS[moment.weekday()][:3].title(),
        "A": _DAYS[moment.weekday()].title(),
        "%": "%",
    }
    return simple.get(directive)
