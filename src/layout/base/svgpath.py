"""SVG path data (the `d` attribute) → absolute path ops for `boxes.Shape`.

Theme icons are SVG path strings; they are parsed once, when the theme loads, into the
ops draw understands (M, L, Q, C, A, Z, all absolute), so a bad path fails at start-up.
Relative commands, H/V and the smooth S/T forms are rewritten here. Arc flags must be
separated from the numbers around them (``a1 1 0 0 1 2 2``, not ``a1 1 0 012 2``).
"""

from __future__ import annotations

import math
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


ARC_SAMPLES = 16  # points along an arc: its bulge within 2 % of its radius


def path_points(ops: tuple[Op, ...]) -> list[tuple[float, float]]:
    """Points whose box holds all a path's `ops` draw: each end and control point (a
    curve stays inside its control points' hull), points along each arc (its ends alone
    miss its bulge: fairytale's rainbow, two feet on one line, read as flat and ran
    through a slide's last line), and each circle's box."""
    points: list[tuple[float, float]] = []
    here = start = (0.0, 0.0)
    for kind, *args in ops:
        nums = [float(v) for v in args if not isinstance(v, bool)]  # type: ignore[arg-type]  # ops hold numbers
        if kind == "O":
            cx, cy, r = nums
            points += [(cx - r, cy - r), (cx + r, cy + r)]
            continue
        if kind == "Z":
            here = start
            continue
        if kind == "A":
            rx, ry, rotation, x, y = nums
            points += _arc_points(here, (x, y), rx, ry, rotation, bool(args[3]), bool(args[4]))
        else:
            points += list(zip(nums[0::2], nums[1::2], strict=True))
        here = points[-1]
        if kind == "M":
            start = here
    return points


def _arc_points(
    begin: tuple[float, float],
    end: tuple[float, float],
    rx: float,
    ry: float,
    rotation: float,
    large: bool,
    sweep: bool,
) -> list[tuple[float, float]]:
    """`ARC_SAMPLES` + 1 points along an SVG arc from `begin` to `end` (the endpoint to
    centre conversion of SVG 1.1's implementation notes, F.6.5), ending on `end`."""
    (x0, y0), (x1, y1) = begin, end
    if rx == 0 or ry == 0 or begin == end:
        return [begin, end]
    cos, sin = math.cos(math.radians(rotation)), math.sin(math.radians(rotation))
    hx, hy = (x0 - x1) / 2, (y0 - y1) / 2
    px, py = cos * hx + sin * hy, -sin * hx + cos * hy
    grow = (px / rx) ** 2 + (py / ry) ** 2
    if grow > 1:  # radii too small to reach: scaled up just enough, as SVG says
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    num = (rx * ry) ** 2 - (rx * py) ** 2 - (ry * px) ** 2
    den = (rx * py) ** 2 + (ry * px) ** 2
    root = math.sqrt(max(0.0, num / den)) * (-1 if large == sweep else 1)
    qx, qy = root * rx * py / ry, -root * ry * px / rx
    cx = cos * qx - sin * qy + (x0 + x1) / 2
    cy = sin * qx + cos * qy + (y0 + y1) / 2
    first = math.atan2((py - qy) / ry, (px - qx) / rx)
    last = math.atan2((-py - qy) / ry, (-px - qx) / rx)
    turn = last - first
    if sweep and turn < 0:
        turn += 2 * math.pi
    elif not sweep and turn > 0:
        turn -= 2 * math.pi
    points = []
    for step in range(ARC_SAMPLES + 1):
        angle = first + turn * step / ARC_SAMPLES
        ex, ey = rx * math.cos(angle), ry * math.sin(angle)
        points.append((cx + cos * ex - sin * ey, cy + sin * ex + cos * ey))
    points[-1] = end
    return points
