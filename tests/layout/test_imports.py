"""The engine's import graph, read with `ast`: the theme schema stays free of the text
engine, and no module of layout imports itself back through others."""

from __future__ import annotations

import ast
from pathlib import Path

LAYOUT = Path(__file__).resolve().parents[2] / "src" / "layout"
SCHEMA = "layout.style"
# Modules that shape, break, lay out or draw text, and the libraries behind them: the
# theme schema (and so `src/themes`, which imports it) must reach none of them.
TEXT_ENGINE = {
    "layout.text.shape",
    "layout.text.clusters",
    "layout.text.opportunities",
    "layout.text.linebreak",
    "layout.text.words",
    "layout.text.inline",
    "layout.text.linebox",
    "layout.text.lineitems",
    "layout.pages.marks.chrome",
    "layout.pages.decor.decorate",
    "layout.base.fonts",
    "layout.text.formula.mathtex",
    "layout.draw.painter",
    "layout.flow.flow",
    "uharfbuzz",
    "skia",
    "ziamath",
    "pygments",
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(LAYOUT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _short(name: str) -> str:
    """`inkcard.layout.x` → `layout.x`: the graph's names are the ones under src/."""
    return name.removeprefix("inkcard.")


def _imports(path: Path) -> set[str]:
    """Every module `path` imports anywhere in it (type-checking imports included): for
    `from .x import y`, `layout.x` and, when it is a module, `layout.x.y`."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(_short(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], node.module or ""])
                base = base.rstrip(".")
            else:
                base = _short(node.module or "")
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(path): path for path in LAYOUT.rglob("*.py")}
    return {
        name: {target for target in _imports(path) if target != name}
        for name, path in modules.items()
    }


def _closure(graph: dict[str, set[str]], start: str) -> set[str]:
    """What importing `start` reaches (a package's own __init__ aside: the schema is
    judged by what it needs, not by the package it happens to live in)."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(graph.get(name, ()))
        if name not in graph:  # a library: keep its top-level name too
            seen.add(name.split(".")[0])
    return seen


def test_the_schema_imports_no_text_engine() -> None:
    reached = _closure(_graph(), SCHEMA)
    assert reached & TEXT_ENGINE == set(), sorted(reached & TEXT_ENGINE)


def test_decoration_specs_are_schema_side() -> None:
    reached = _closure(_graph(), "layout.style.decorations")
    assert reached & TEXT_ENGINE == set(), sorted(reached & TEXT_ENGINE)


def test_no_import_circles_in_layout() -> None:
    """No module of layout reaches itself again (type-checking imports count too), the
    package's own __init__ aside: it is the public face that imports everything."""
    graph = _graph()
    graph = {
        name: {t for t in targets if t in graph and t != "layout"}
        for name, targets in graph.items()
    }
    circles = sorted(name for name in graph if name != "layout" and _reaches(graph, name))
    assert circles == [], circles


def _reaches(graph: dict[str, set[str]], start: str) -> bool:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        name = todo.pop()
        if name == start:
            return True
        if name not in seen:
            seen.add(name)
            todo.extend(graph[name])
    return False
