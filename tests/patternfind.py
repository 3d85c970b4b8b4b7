"""The source tree → every regular expression in it, with how the code runs each.

Three ways in: the compiled ``re``/``regex`` patterns each module (and each of its classes)
holds once imported; the patterns written inline in ``re.…(…)``/``regex.…(…)`` calls, found by
reading the modules' syntax trees (an f-string is filled from the module's globals); and the
``msgspec.Meta(pattern=…)`` constraints, which msgspec checks with ``re.search``. A pattern's
modes are the methods the code calls on its name anywhere in the tree (every mode when no call
is found: the strictest reading). An inline pattern the walk cannot read statically is
reported, so it cannot hide.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import regex

from tests.patternprobe import Pattern, modes_of

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGES = ("inkcard.app", "inkcard.layout", "inkcard.themes")
METHODS = ("match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer")
# re.sub(pattern, repl, string, count, flags): where each function's flags argument sits
_FLAGS_AT = {"compile": 1, "sub": 4, "subn": 4, "split": 3}
_COMPILED = (re.Pattern, type(regex.compile("")))


@dataclass
class Found:
    """One pattern (engine, text, flags) and where the tree has it."""

    engine: str
    pattern: str | bytes
    flags: int
    methods: set[str] = field(default_factory=set)
    unknown_use: bool = False
    places: list[str] = field(default_factory=list)

    def probe(self) -> Pattern:
        methods = sorted(self.methods) if not self.unknown_use else []
        return Pattern(self.engine, self.pattern, self.flags, modes_of(methods))

    @property
    def name(self) -> str:
        return self.places[0]


def modules() -> Iterator[ModuleType]:
    for package in PACKAGES:
        root = importlib.import_module(package)
        yield root
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if not info.name.endswith("__main__"):
                yield importlib.import_module(info.name)


def find_all() -> tuple[list[Found], list[str]]:
    """(every pattern found, the inline patterns the walk could not read)."""
    found: dict[tuple[str, str | bytes, int], Found] = {}
    unreadable: list[str] = []
    uses = _method_uses()

    def add(engine: str, pattern: str | bytes, flags: int, place: str) -> Found:
        key = (engine, pattern, flags & ~_DEFAULT_FLAGS)
        item = found.setdefault(key, Found(engine, pattern, flags & ~_DEFAULT_FLAGS))
        item.places.append(place)
        return item

    for module in modules():
        for name, compiled in _held(module):
            engine = "re" if isinstance(compiled, re.Pattern) else "regex"
            item = add(engine, compiled.pattern, compiled.flags, f"{module.__name__}:{name}")
            short = name.rsplit(".", 1)[-1]
            item.methods |= uses.get(short, set())
            item.unknown_use |= short not in uses
        for line, engine, value, methods in _inline(module, unreadable, uses):
            pattern, flags = value
            item = add(engine, pattern, flags, f"{module.__name__}:{line}")
            item.methods |= methods or set()
            item.unknown_use |= methods is not None and not methods
    return list(found.values()), unreadable


_DEFAULT_FLAGS = re.UNICODE | regex.VERSION0 | regex.DEFAULT_VERSION


def _held(module: ModuleType) -> Iterator[tuple[str, Any]]:
    """The compiled patterns among a module's globals and its classes' attributes."""
    for name, value in vars(module).items():
        if isinstance(value, _COMPILED):
            yield name, value
        elif isinstance(value, type) and value.__module__ == module.__name__:
            for attr, inner in vars(value).items():
                if isinstance(inner, _COMPILED):
                    yield f"{name}.{attr}", inner


@cache
def _parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text())


def _tree(module: ModuleType) -> ast.Module | None:
    path = getattr(module, "__file__", None)
    return _parsed(Path(path).resolve()) if path else None


def _method_uses() -> dict[str, set[str]]:
    """name → the pattern methods called on it (``NAME.sub(…)``, ``self.NAME.match(…)``)."""
    uses: dict[str, set[str]] = defaultdict(set)
    for path in SRC.rglob("*.py"):
        for node in ast.walk(_parsed(path.resolve())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in METHODS:
                continue
            target = node.func.value
            if isinstance(target, ast.Name):
                uses[target.id].add(node.func.attr)
            elif isinstance(target, ast.Attribute):
                uses[target.attr].add(node.func.attr)
    return uses


def _inline(
    module: ModuleType, unreadable: list[str], uses: dict[str, set[str]]
) -> Iterator[tuple[int, str, tuple[str | bytes, int], set[str] | None]]:
    """(line, engine, (pattern, flags), methods) of each pattern written in a call."""
    tree = _tree(module)
    if tree is None:
        return
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    scope = vars(module)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        spot = _pattern_call(node)
        if spot is None:
            continue
        engine, function, argument, flags_node = spot
        where = f"{module.__name__}:{node.lineno}"
        try:
            pattern = _static(argument, scope)
            flags = _static(flags_node, scope) if flags_node is not None else 0
        except (KeyError, ValueError, NameError, AttributeError, TypeError):
            unreadable.append(f"{where}: {ast.unparse(argument)}")
            continue
        methods = _call_methods(node, function, parents, uses)
        yield node.lineno, engine, (pattern, int(flags)), methods


def _pattern_call(node: ast.Call) -> tuple[str, str, ast.expr, ast.expr | None] | None:
    """(engine, function, pattern argument, flags argument) of ``re.f(...)``/``Meta(pattern=)``."""
    func = node.func
    keywords = {k.arg: k.value for k in node.keywords}
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        engine, function = func.value.id, func.attr
        if engine in ("re", "regex") and (function in METHODS or function == "compile"):
            if not node.args:
                return None
            at = _FLAGS_AT.get(function, 2)
            flags = node.args[at] if len(node.args) > at else keywords.get("flags")
            return engine, function, node.args[0], flags
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name == "Meta" and "pattern" in keywords:
        return "re", "search", keywords["pattern"], None
    return None


def _call_methods(
    node: ast.Call, function: str, parents: dict[Any, Any], uses: dict[str, set[str]]
) -> set[str] | None:
    """The methods run: the function itself, or for ``compile``, the one called on it; None
    for ``NAME = re.compile(…)``, whose uses the import walk reads by the name."""
    if function != "compile":
        return {function}
    parent = parents.get(node)
    if isinstance(parent, ast.Attribute) and parent.attr in METHODS:
        return {parent.attr}
    targets = parent.targets if isinstance(parent, ast.Assign) else []
    if len(targets) == 1 and isinstance(targets[0], ast.Name) and targets[0].id in uses:
        return None
    return set()


def _static(node: ast.expr, scope: dict[str, Any]) -> Any:
    """The value of a literal, a module global, ``a.b``, ``a | b``, ``a + b`` or an f-string."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return scope[node.id]
    if isinstance(node, ast.Attribute):
        return getattr(_static(node.value, scope), node.attr)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr | ast.Add):
        left, right = _static(node.left, scope), _static(node.right, scope)
        return left | right if isinstance(node.op, ast.BitOr) else left + right
    if isinstance(node, ast.JoinedStr):
        return "".join(_formatted(part, scope) for part in node.values)
    raise ValueError(ast.unparse(node))


def _formatted(part: ast.expr, scope: dict[str, Any]) -> str:
    if isinstance(part, ast.Constant):
        return str(part.value)
    if isinstance(part, ast.FormattedValue) and part.format_spec is None and part.conversion < 0:
        return str(_static(part.value, scope))
    raise ValueError(ast.unparse(part))
