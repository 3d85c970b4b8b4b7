"""House rules as an `ast` scan of src/: imports flow one way, one door per library.

The rules are data: add a row to PACKAGE_IMPORTS or LIBRARY_DOORS to extend them. Every
`import`, `from … import`, and `importlib.import_module("…")` / `__import__("…")` with a
literal name counts, wherever it sits (lazy imports inside functions included). Files
that do not exist yet (app/ may be young) simply have nothing to check.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

# Which of our packages each package may import (itself is always allowed).
PACKAGE_IMPORTS: dict[str, set[str]] = {
    "layout": set(),
    "themes": {"layout"},
    "app": {"layout", "themes"},
}

# Outside our own packages, what a package may import at all (None: anything).
THIRD_PARTY: dict[str, set[str] | None] = {
    "layout": None,
    "themes": {"msgspec", "tinycss2"},  # plus the standard library
    "app": None,
}

# library (a module name or dotted prefix) → the only files (globs under src/) that import it
LIBRARY_DOORS: dict[str, tuple[str, ...]] = {
    # the card parser, and the article path's own HTML renderer (raw HTML on, sanitised)
    "markdown_it": ("layout/markdown.py", "app/articles/html.py"),
    "mdit_py_plugins": ("app/articles/html.py", "layout/markdown.py"),  # cards: dollar math only
    "ziamath": ("layout/mathtex.py",),
    "uharfbuzz": ("layout/shape.py", "layout/fonts.py"),
    "skia": (
        "layout/draw.py",
        "layout/shaders.py",
        "layout/fonts.py",
        "layout/images.py",
        "layout/imagecodec.py",
    ),
    "pygments": ("layout/code.py",),
    "tinycss2": ("themes/css/read.py", "themes/css/values.py"),
    "fontTools": ("layout/fonts.py",),  # never at request time: cmap reads cost 100+ ms
    "litestar": ("app/server/*.py",),
    "mcp": (
        "app/mcp/*.py",
        "app/server/mcp_http.py",
    ),  # the MCP SDK (its server; tests use its client)
    "mcp_types": ("app/mcp/*.py",),
    "google.cloud": ("app/storage.py",),
    "sqlite_utils": ("app/ledger/sqlite.py",),
    # the service database: every engine detail stays behind app.ledger
    "sqlite3": ("app/ledger/sqlite.py",),
    "psycopg": ("app/ledger/postgres.py",),
    "psycopg_pool": ("app/ledger/postgres.py",),
    "premailer": ("app/articles/html.py",),
    "nh3": ("app/articles/html.py",),
    "httpx": ("app/articles/wechat.py", "app/fetch.py"),
    "httpcore": ("app/fetch.py",),  # the connect-time address guard
    "prometheus_client": ("app/metrics.py",),  # GET /metrics and what it counts
}


@dataclass(frozen=True, slots=True)
class Import:
    module: str  # absolute dotted name
    line: int


def imports(source: str, module: str, is_package: bool = False) -> list[Import]:
    """Every module `source` imports, relative imports resolved against `module`."""
    found: list[Import] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(Import(alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node, module, is_package)
            found.append(Import(base, node.lineno))
            found.extend(
                Import(f"{base}.{alias.name}", node.lineno)
                for alias in node.names
                if alias.name != "*"
            )
        elif isinstance(node, ast.Call) and _dynamic_import(node):
            found.append(Import(node.args[0].value, node.lineno))
    return found


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    package = parts if is_package else parts[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _dynamic_import(node: ast.Call) -> bool:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return (
        name in ("import_module", "__import__")
        and bool(node.args)
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def violations(path: str, source: str) -> list[str]:
    """House-rule breaches in one file, `path` relative to src/ (like `layout/flow.py`)."""
    parts = path.removesuffix(".py").split("/")
    is_package = parts[-1] == "__init__"
    module = ".".join(parts[:-1] if is_package else parts)
    package = parts[0]
    problems: dict[tuple[int, str], str] = {}  # one report per line and rule
    for imp in imports(source, module, is_package):
        for rule in _breaches(imp.module, path, package):
            problems.setdefault((imp.line, rule), f"{path}:{imp.line} imports {imp.module}: {rule}")
    return [problems[key] for key in sorted(problems)]


def _breaches(name: str, path: str, package: str) -> list[str]:
    rules: list[str] = []
    top = name.split(".")[0]
    if top in PACKAGE_IMPORTS and top != package and top not in PACKAGE_IMPORTS.get(package, ()):
        rules.append(f"{package} may not import {top}")
    allowed = THIRD_PARTY.get(package)
    if (
        allowed is not None
        and top not in PACKAGE_IMPORTS
        and top not in allowed
        and top not in sys.stdlib_module_names
        and top != "__future__"
    ):
        rules.append(f"{package} may use only {sorted(allowed)} and the standard library")
    for library, doors in LIBRARY_DOORS.items():
        if _within(name, library) and not any(fnmatch(path, door) for door in doors):
            rules.append(f"{library} only in {', '.join(doors)}")
    return rules


def sources() -> dict[str, str]:
    return {
        p.relative_to(SRC).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(SRC.rglob("*.py"))
    }


def test_src_keeps_the_house_rules() -> None:
    files = sources()
    assert "layout/linebreak.py" in files and "layout/paginate.py" in files  # scan sees src
    problems = [problem for path, text in files.items() for problem in violations(path, text)]
    assert problems == []


def test_every_door_is_a_real_file_or_a_future_one() -> None:
    # A door naming a layout module that does not exist is a stale rule.
    for doors in LIBRARY_DOORS.values():
        for door in doors:
            if door.startswith("layout/"):
                assert (SRC / door).exists(), door


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        # import direction
        ("layout/flow.py", "import app\n", ["layout may not import app"]),
        ("layout/flow.py", "from themes import load\n", ["layout may not import themes"]),
        ("layout/flow.py", "def f():\n    import themes\n", ["layout may not import themes"]),
        ("layout/flow.py", "from ..app import cards\n", ["layout may not import app"]),
        ("themes/__init__.py", "from app.errors import X\n", ["themes may not import app"]),
        ("themes/__init__.py", "import httpx\n", ["httpx only in", "themes may use only"]),
        ("themes/__init__.py", "from layout import Theme\nimport msgspec\nimport tomllib\n", []),
        ("app/cards.py", "import layout\nimport themes\nfrom . import errors\n", []),
        ("layout/flow.py", "from . import images\nfrom .boxes import Row\nimport regex\n", []),
        # one door per library
        ("layout/flow.py", "import skia\n", ["skia only in"]),
        ("layout/draw.py", "import skia\n", []),
        ("layout/images.py", "import skia\n", []),
        (
            "layout/flow.py",
            "from markdown_it.tree import SyntaxTreeNode\n",
            ["markdown_it only in"],
        ),
        ("layout/markdown.py", "from markdown_it import MarkdownIt\n", []),
        ("layout/shape.py", "import uharfbuzz as hb\n", []),
        ("layout/draw.py", "import uharfbuzz\n", ["uharfbuzz only in"]),
        ("layout/shape.py", "from fontTools.ttLib import TTFont\n", ["fontTools only in"]),
        ("layout/fonts.py", "from fontTools.ttLib import TTFont\n", []),
        (
            "layout/flow.py",
            "def f():\n    from pygments.lexers import get_lexer_by_name\n",
            ["pygments only in"],
        ),
        ("app/cards/service.py", "from litestar import get\n", ["litestar only in"]),
        ("app/server/routes_cards.py", "from litestar import get\n", []),
        ("app/mcp/tools.py", "from litestar import get\n", ["litestar only in"]),
        ("app/server/routes_admin.py", "from litestar import get\n", []),
        ("layout/flow.py", "import litestar\n", ["litestar only in"]),
        ("app/cards/service.py", "from google.cloud import storage\n", ["google.cloud only in"]),
        ("app/cards/service.py", "from google import cloud\n", ["google.cloud only in"]),
        ("app/storage.py", "def f():\n    from google.cloud import storage\n", []),
        ("app/storage.py", "from google.api_core import retry\n", []),
        (
            "app/cards/service.py",
            "import importlib\nimportlib.import_module('google.cloud.storage')\n",
            ["google.cloud only in"],
        ),
        ("app/server/routes_cards.py", "import sqlite_utils\n", ["sqlite_utils only in"]),
        ("app/ledger/sqlite.py", "import sqlite_utils\n", []),
        ("app/cards/service.py", "__import__('premailer')\n", ["premailer only in"]),
        ("app/articles/html.py", "from premailer import Premailer\n", []),
        ("app/articles/fixups.py", "from premailer import Premailer\n", ["premailer only in"]),
        ("app/articles/refs.py", "import nh3\n", ["nh3 only in"]),
        ("app/articles/html.py", "import nh3\n", []),
        ("app/server/routes_cards.py", "import nh3\n", ["nh3 only in"]),
        ("app/articles/html.py", "from markdown_it import MarkdownIt\n", []),
        ("app/cards/service.py", "from markdown_it import MarkdownIt\n", ["markdown_it only in"]),
        ("app/articles/fixups.py", "from mdit_py_plugins.footnote import x\n", ["mdit_py_plugins"]),
        ("app/server/routes_cards.py", "import httpx\n", ["httpx only in"]),
        ("app/fetch.py", "import httpx\nimport httpcore\n", []),
        ("app/articles/wechat.py", "import httpcore\n", ["httpcore only in"]),
        ("layout/imagecodec.py", "import skia\n", []),
        ("layout/markdown.py", "import skia\n", ["skia only in"]),
    ],
)
def test_the_scan_catches_breaches(path: str, source: str, expected: list[str]) -> None:
    found = violations(path, source)
    assert len(found) == len(expected), found
    for problem, fragment in zip(found, expected, strict=False):
        assert fragment in problem
