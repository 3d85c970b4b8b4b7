"""SVG path data (the `d` attribute) → absolute path ops for `boxes.Shape`.

Theme icons are SVG path strings; they are parsed once, when the theme loads, into the
ops draw understands (M, L, Q, C, A, Z, all absolute), so a bad path fails at start-up.
Relative commands, H/V and the smooth S/T forms are rewritten here. Arc flags must be
separated from the numbers around them (``a1 1 0 0 1 2 2``, not ``a1 1 0 012 2``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..errors import PathError as PathError

Op = tuple[object, ...]

_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SEPARATORS = re.compile(r"[\s,]*")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
MAX_OPS = 2000  # an icon, not an illustration


@lru_cache(maxsize=256)
def parse_svg_path(data: str) -> tuple[Op, ...]:
    """Absolute ops of an SVG path string; raises `PathError` naming what is wrong."""
    tokens = _tokens(data)
    ops: list[Op] = []
    state = _State()
    index = 0
    command = ""
    while index < len(tokens):
        token = tokens[index]
        if isinstance(token, str):
            command = token
            index += 1
        elif not command or command in "Zz":
            raise PathError(f"a number where a command is expected in {data!r}")
        arity = _ARITY[command.upper()]
        args = tokens[index : index + arity]
        if len(args) < arity or any(isinstance(a, str) for a in args):
            raise PathError(f"{command!r} needs {arity} numbers in {data!r}")
        index += arity
        ops.extend(state.apply(command, [float(a) for a in args]))
        if command in "Mm":
            command = "l" if command == "m" else "L"  # later pairs are implicit line-tos
        if command in "Zz":
            command = ""
        if len(ops) > MAX_OPS:
            raise PathError(f"more than {MAX_OPS} path segments")
    if not ops or ops[0][0] != "M":
        raise PathError(f"path data must start with a move-to: {data!r}")
    return tuple(ops)


def _tokens(data: str) -> list[str | float]:
    tokens: list[str | float] = []
    position = 0
    while position < len(data):
        position = _SEPARATORS.match(data, position).end()  # type: ignore[union-attr]  # `*` always matches
        if position >= len(data):
            break
        match = _TOKEN.match(data, position)
        if match is None:
            raise PathError(f"unexpected {data[position]!r} at {position} in {data!r}")
        text = match.group()
        tokens.append(text if text.isalpha() else float(text))
        position = match.end()
    return tokens


class _State:
    """The pen, the start of the subpath and the last control point (for S and T)."""

    def __init__(self) -> None:
        self.x = self.y = self.start_x = self.start_y = 0.0
        self.control: tuple[str, float, float] | None = None

    def apply(self, command: str, a: list[float]) -> list[Op]:
        upper = command.upper()
        if command.islower() and upper not in "AHVZ":
            a = [v + (self.x if i % 2 == 0 else self.y) for i, v in enumerate(a)]
        handler = getattr(self, f"_{upper.lower()}")
        ops: list[Op] = handler(a, command.islower())
        if upper not in "CSQT":
            self.control = None
        return ops

    def _move(self, x: float, y: float) -> None:
        self.x, self.y = x, y

    def _m(self, a: list[float], _relative: bool) -> list[Op]:
        self._move(a[0], a[1])
        self.start_x, self.start_y = a[0], a[1]
        return [("M", a[0], a[1])]

    def _l(self, a: list[float], _relative: bool) -> list[Op]:
        self._move(a[0], a[1])
        return [("L", a[0], a[1])]

    def _h(self, a: list[float], relative: bool) -> list[Op]:
        return self._l([a[0] + (self.x if relative else 0.0), self.y], False)

    def _v(self, a: list[float], relative: bool) -> list[Op]:
        return self._l([self.x, a[0] + (self.y if relative else 0.0)], False)

    def _c(self, a: list[float], _relative: bool) -> list[Op]:
        self.control = ("C", a[2], a[3])
        self._move(a[4], a[5])
        return [("C", *a)]

    def _s(self, a: list[float], relative: bool) -> list[Op]:
        x1, y1 = self._reflected("C")
        return self._c([x1, y1, *a], relative)

    def _q(self, a: list[float], _relative: bool) -> list[Op]:
        self.control = ("Q", a[0], a[1])
        self._move(a[2], a[3])
        return [("Q", *a)]

    def _t(self, a: list[float], relative: bool) -> list[Op]:
        x1, y1 = self._reflected("Q")
        return self._q([x1, y1, *a], relative)

    def _a(self, a: list[float], relative: bool) -> list[Op]:
        rx, ry, rotation, large, sweep, x, y = a
        if relative:
            x, y = x + self.x, y + self.y
        self._move(x, y)
        return [("A", abs(rx), abs(ry), rotation, large != 0, sweep != 0, x, y)]

    def _z(self, _a: list[float], _relative: bool) -> list[Op]:
        self._move(self.start_x, self.start_y)
        return [("Z",)]

    def _reflected(self, kind: str) -> tuple[float, float]:
        if self.control is None or self.control[0] != kind:
            return self.x, self.y
        return 2 * self.x - self.control[1], 2 * self.y - self.control[2]


def transform(ops: tuple[Op, ...], x: float, y: float, scale: float) -> tuple[Op, ...]:
    """`ops` scaled by `scale` about the origin, then moved by (x, y)."""
    moved: list[Op] = []
    for kind, *args in ops:
        values = [float(v) for v in args if not isinstance(v, bool)]  # type: ignore[arg-type]  # ops hold numbers
        if kind == "A":
            rotation, large, sweep = args[2:5]
            end = (values[3] * scale + x, values[4] * scale + y)
            moved.append(("A", values[0] * scale, values[1] * scale, rotation, large, sweep, *end))
        elif kind == "O":
            moved.append(("O", values[0] * scale + x, values[1] * scale + y, values[2] * scale))
        else:
            shifted = [v * scale + (x if i % 2 == 0 else y) for i, v in enumerate(values)]
            moved.append((kind, *shifted))
    return tuple(moved)
