"""src/ → its breaches of the house rules: one-way imports, one door per library, no circles, sizes.

An `ast` scan, and the rules are data: add a row to PACKAGE_IMPORTS, APP_LAYERS or LIBRARY_DOORS
to extend them. Every `import`, `from … import`, and `importlib.import_module("…")` /
`__import__("…")` with a literal name counts, wherever it sits (lazy imports inside functions
and TYPE_CHECKING blocks included). Files that do not exist yet simply have nothing to check.
src/ installs as the package `inkcard`: code imports `inkcard.app.cards`, the tables say
`app.cards` (the scan drops the prefix), and a bare `app`, `layout` or `themes` is a breach,
since once installed that name is anyone's.
The tables whose names say KNOWN or STILL list today's breaches that other work is removing;
each entry fails a test once its breach is gone, so the tables empty as that work lands.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
ROOT_PACKAGE = "inkcard"  # what src/ is installed as; its front door is src/__init__.py

# Which of our packages each package may import (itself is always allowed).
PACKAGE_IMPORTS: dict[str, set[str]] = {
    "layout": set(),
    "themes": {"layout"},
    "app": {"layout", "themes"},
    ROOT_PACKAGE: {"app"},  # the front door passes on app's VERSION, and loads nothing else
}

# Outside our own packages, what a package may import at all (None: anything).
THIRD_PARTY: dict[str, set[str] | None] = {
    "layout": None,
    "themes": {"msgspec", "tinycss2"},  # plus the standard library
    "app": None,
    ROOT_PACKAGE: set(),
}

# library (a module name or dotted prefix) → the only files (globs under src/) that import it
LIBRARY_DOORS: dict[str, tuple[str, ...]] = {
    # the card parser, its CJK-friendly emphasis and hard-wrap rules, and the article path's
    # own HTML renderer (raw HTML on, sanitised)
    "markdown_it": (
        "layout/parse/markdown.py",
        "layout/parse/mdparser.py",
        "layout/parse/cjkemphasis.py",
        "layout/parse/hardwraps.py",
        "app/articles/convert/html.py",
    ),
    "mdit_py_plugins": (
        "app/articles/convert/html.py",
        "layout/parse/mdparser.py",
    ),  # cards: dollar math only
    "ziamath": ("layout/text/formula/mathtex.py",),
    "budoux": ("layout/text/words.py",),  # Japanese phrases for heading breaks
    "marisa_trie": ("layout/text/segment/data.py",),  # jieba's dictionary, memory-mapped
    "uharfbuzz": ("layout/text/glyphs.py", "layout/base/fonts.py", "layout/base/brandfonts.py"),
    "skia": (
        "layout/draw/painter.py",
        "layout/draw/encode.py",
        "layout/draw/shaders.py",
        "layout/base/fonts.py",
        "layout/base/brandfonts.py",  # a brand kit's font from its stored bytes
        "layout/base/images.py",
        "layout/draw/imagecodec.py",
    ),
    "pygments": ("layout/parse/code.py",),
    # the layered layout of flowcharts, and of class and ER diagrams
    "grandalf": (
        "layout/diagrams/layered.py",
        "layout/diagrams/drawing.py",
        "layout/diagrams/uml/boxgraph.py",
    ),
    "yaml": ("app/frontmatter.py",),  # front matter, the safe string-only loader
    # theme CSS, and the one inline-CSS sanitiser and colour parser of cards and articles
    # and a writer's own CSS on an article (its rules; each declaration through inlinecss)
    "tinycss2": (
        "themes/css/read.py",
        "themes/css/values.py",
        "layout/parse/inlinecss.py",
        "app/articles/convert/style/usercss.py",
    ),
    "fontTools": (
        "layout/base/fonts.py",
        "layout/base/fontcheck.py",
    ),  # fontcheck: on save  # never at request time: cmap reads cost 100+ ms
    "litestar": ("app/server/*.py",),
    "mcp": (
        "app/mcp/*.py",
        "app/server/mcp_http.py",
    ),  # the MCP SDK (its server; tests use its client)
    "mcp_types": ("app/mcp/*.py",),
    "google.cloud": ("app/storage/gcs.py",),  # the gcs engine (the `gcs` extra)
    "boto3": ("app/storage/s3.py",),  # the s3 engine (the `s3` extra)
    "botocore": ("app/storage/s3.py",),
    "sqlite_utils": ("app/ledger/sqlite.py",),
    # the service database: every engine detail stays behind app.ledger
    "sqlite3": ("app/ledger/sqlite.py",),
    "psycopg": ("app/ledger/postgres.py",),
    "psycopg_pool": ("app/ledger/postgres.py",),
    "premailer": ("app/articles/convert/themecss.py",),
    "nh3": ("app/articles/convert/html.py",),
    # the platform, remote images, and a bucket's own object URL (is it publicly readable?)
    "httpx": (
        "app/articles/wechat/transport.py",
        "app/fetch/fetcher.py",
        "app/fetch/guard.py",
        "app/storage/publicread.py",
    ),
    "httpcore": ("app/fetch/guard.py",),  # the connect-time address guard
    "prometheus_client": ("app/metrics.py",),  # GET /metrics and what it counts
    "cryptography": ("app/ledger/sealing.py",),  # stored accounts' secrets, sealed (Fernet)
}

# The service's layers, bottom to top; a row is a package or module directly under app. A module
# may import its own row (app.render.pool inside app.render) and every row of a lower layer.
APP_LAYERS: tuple[tuple[str, ...], ...] = (
    ("app",),  # the package itself: VERSION
    ("app.settings", "app.errors", "app.logs", "app.cache", "app.frontmatter", "app.prices"),
    ("app.localfiles",),  # local files `inkcard mcp` may read; the fetcher asks it
    ("app.metrics", "app.storage", "app.fetch"),
    ("app.schema",),  # the request records, and the JSON Schemas and README tables of them
    ("app.ledger",),
    ("app.brands",),  # brand kits: checked by the engine, stored in the ledger's database
    ("app.render",),  # the render processes: the engine, errors and metrics only
    ("app.cards",),
    ("app.articles",),  # an image post's cards by the card service; math and admission: render
    ("app.services",),
    ("app.operations",),
    ("app.mcp",),
    ("app.server",),  # mounts the MCP tools over HTTP
    ("app.cli",),  # the top: may import anything
)

# The engine's stages, bottom to top, as APP_LAYERS is for app: a module may import its own row
# (layout.blocks.lists inside layout.blocks) and every row of a lower stage. Each stage is a
# package whose front door (`__init__.py`) says what it does.
ENGINE_STAGES: tuple[tuple[str, ...], ...] = (
    ("layout.errors", "layout.limits"),  # what every stage may raise, the caller's numbers
    ("layout.base",),  # the records every stage passes on
    ("layout.parse",),
    ("layout.style",),
    ("layout.text",),
    ("layout.diagrams",),
    ("layout.blocks",),
    ("layout.flow",),
    ("layout.pages",),
    ("layout.draw",),
    ("layout.covers",),
    ("layout.render",),  # the entry points
    ("layout",),  # the public face: nothing inside the engine imports it
)

# Imports between rows of one layer (row → rows of its own layer it may import).
APP_IMPORTS_WITHIN_A_LAYER: dict[str, set[str]] = {
    "app.metrics": {"app.storage"},  # MeteredStorage counts the calls of a Storage
    "app.frontmatter": {"app.errors"},  # a bad front matter is a 400 like any bad field
    "app.settings": {"app.prices"},  # INKCARD_GENERATE_COST overrides a price of the list
    "app.prices": {"app.errors"},  # a price in words: plural
}

# The stage faces a package may import besides `layout` itself and the names in its `__all__`
# (ENGINE_FACE): a stage package and the names in its own `__all__`, never a module inside
# it. The article path shares the engine's parsers, math, diagrams and image codec; themes
# check their data against the theme schema of layout.style.
ENGINE_SUBMODULES: dict[str, set[str]] = {
    "app": {
        "layout.parse",
        "layout.style",
        "layout.text",
        "layout.diagrams",
        "layout.draw",
        "layout.covers",
    },
    "themes": {"layout.style", "layout.parse"},
}

# Engine submodules app still imports directly → the files that do; empty it once the engine
# offers them through its public face.
ENGINE_SUBMODULES_STILL_IMPORTED_BY_APP: dict[str, tuple[str, ...]] = {}

# Import circles being broken right now, each written as its modules in import order (a imports
# b, …, the last imports a); every other circle fails.
KNOWN_CIRCLES_TO_BREAK: set[tuple[str, ...]] = set()

MAX_MODULE_LINES = 500
MAX_CLASS_LINES = 250  # from its `class` line to its last line, decorators aside
# folder under src/ → how many .py files may sit directly in it (__init__.py included); every
# other folder holds at most MAX_MODULES_IN_A_FOLDER
MAX_MODULES_DIRECTLY_IN: dict[str, int] = {"app": 12, "layout": 12}
MAX_MODULES_IN_A_FOLDER = 16

# Size breaches being split right now: a module (its path) or a class (path:Class).
KNOWN_OVERSIZE_TO_SPLIT: set[str] = set()

# Private names still imported across rows → the files that do; each entry fails a test once
# its import is gone, so the table empties as the request records get one home.
KNOWN_PRIVATE_IMPORTS_TO_END: dict[str, set[str]] = {}


@dataclass(frozen=True, slots=True)
class Import:
    module: str  # absolute dotted name, as the tables spell it (`app.cards`, not `inkcard.…`)
    line: int
    names_follow: bool = False  # the X of `from X import a, b`; X.a and X.b follow it
    bare: bool = False  # written `app.cards`, not `inkcard.app.cards`: anyone's `app`


def _public_names(init: Path) -> frozenset[str]:
    """The names in a package's `__all__` (none if the file or the list is missing)."""
    if not init.exists():
        return frozenset()
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
                return frozenset(ast.literal_eval(node.value))
    return frozenset()


ENGINE_FACE = _public_names(SRC / "layout" / "__init__.py")
LAYERS: dict[str, tuple[tuple[str, ...], ...]] = {"app": APP_LAYERS, "layout": ENGINE_STAGES}
LAYER_OF = {
    row: level for rows_of in LAYERS.values() for level, rows in enumerate(rows_of) for row in rows
}
LAYER_TABLE = {"app": "APP_LAYERS", "layout": "ENGINE_STAGES"}


def _faces(package: str) -> dict[str, frozenset[str]]:
    """Each stage face `package` may import → the names in that stage's `__all__`."""
    return {
        face: _public_names(SRC.joinpath(*face.split("."), "__init__.py"))
        for face in ENGINE_SUBMODULES.get(package, ())
    }


def imports(source: str, module: str, is_package: bool = False) -> list[Import]:
    """Every module `source` imports, relative imports resolved against `module`."""
    full = module if module == ROOT_PACKAGE else f"{ROOT_PACKAGE}.{module}"
    found: list[Import] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(_ours(alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node, full, is_package)
            names = [alias.name for alias in node.names if alias.name != "*"]
            if base != ROOT_PACKAGE or not names:  # `from inkcard import layout`: the names
                found.append(_ours(base, node.lineno, names_follow=bool(names)))
            found.extend(_ours(f"{base}.{name}", node.lineno) for name in names)
        elif isinstance(node, ast.Call) and _dynamic_import(node):
            found.append(_ours(node.args[0].value, node.lineno))
    return found


def _ours(name: str, line: int, names_follow: bool = False) -> Import:
    """An imported name as the tables spell it: `inkcard.app.cards` → `app.cards`; a bare
    `app.cards` is marked (`inkcard` itself, or a name in it, stays whole)."""
    top, _, rest = name.partition(".")
    if top == ROOT_PACKAGE and rest.split(".")[0] in PACKAGE_IMPORTS:
        return Import(rest, line, names_follow)
    bare = top in PACKAGE_IMPORTS and top != ROOT_PACKAGE
    return Import(name, line, names_follow, bare)


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


def module_of(path: str) -> tuple[str, bool]:
    """`layout/flow/flow.py` → (`layout.flow.flow`, False);
    `app/cards/__init__.py` → (`app.cards`, True); `__init__.py` → (`inkcard`, True)."""
    parts = path.removesuffix(".py").split("/")
    is_package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if is_package else parts) or ROOT_PACKAGE, is_package


def violations(path: str, source: str) -> list[str]:
    """House-rule breaches in one file, `path` relative to src/ (like `layout/flow/flow.py`)."""
    module, is_package = module_of(path)
    package = module.split(".")[0]
    problems: dict[tuple[int, str], str] = {}  # one report per line and rule
    if package in LAYERS and row_of(module) not in LAYER_OF:
        problems[0, "layer"] = f"{path}: {row_of(module)} has no place in {LAYER_TABLE[package]}"
    for imp in imports(source, module, is_package):
        rules = [*_breaches(imp.module, path, package, module), *_private(imp, path, module)]
        if imp.bare:  # not ours once installed: no other rule applies to it
            top = imp.module.split(".")[0]
            rules = [f"the bare name {top} is anyone's {top}: import {ROOT_PACKAGE}.{top}"]
        for rule in rules:
            problems.setdefault((imp.line, rule), f"{path}:{imp.line} imports {imp.module}: {rule}")
    for key, (line, problem) in oversize(path, source).items():
        if key not in KNOWN_OVERSIZE_TO_SPLIT:
            problems[line, problem] = problem
    return [problems[key] for key in sorted(problems)]


def _breaches(name: str, path: str, package: str, module: str) -> list[str]:
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
    if package in LAYERS and top == package and not _may_import(row_of(module), row_of(name)):
        rules.append(f"{row_of(module)} may not import {row_of(name)} ({LAYER_TABLE[package]})")
    if package in ENGINE_SUBMODULES and top == "layout" and not _engine_face(name, package, path):
        door = " or ".join(["layout", *sorted(ENGINE_SUBMODULES[package])])
        rules.append(f"{package} may import the engine only as {door}")
    return rules


def _private(imp: Import, path: str, module: str) -> list[str]:
    """A private name (`_answer`) imported from another row: each package keeps its own."""
    parent, _, name = imp.module.rpartition(".")
    if name in KNOWN_PRIVATE_IMPORTS_TO_END.get(path, ()):
        return []
    private = name.startswith("_") and not name.startswith("__")
    ours = parent.split(".")[0] in PACKAGE_IMPORTS
    if not private or not ours or row_of(parent) == row_of(module):
        return []
    return [f"the private name {name} belongs to {row_of(parent)}"]


def row_of(module: str) -> str:
    """The row of APP_LAYERS or ENGINE_STAGES a name belongs to: `app.render.jobs.answer` →
    `app.render`, `layout.base.fonts.FontBook` → `layout.text`.

    A name that is no row (`app.VERSION`) is app's own; a module that is no row is reported
    once, in its own file.
    """
    return ".".join(module.split(".")[:2])


def _may_import(row: str, target: str) -> bool:
    if row not in LAYER_OF or target not in LAYER_OF:
        return True
    return (
        target == row
        or LAYER_OF[target] < LAYER_OF[row]
        or target in APP_IMPORTS_WITHIN_A_LAYER.get(row, ())
    )


def _engine_face(name: str, package: str, path: str) -> bool:
    """Whether `name` reaches the engine through its public face (or a listed exception)."""
    parts = name.split(".")
    if len(parts) == 1 or parts[1] in ENGINE_FACE:
        return True
    for face, names in _faces(package).items():
        if name == face or (name.startswith(face + ".") and name[len(face) + 1 :] in names):
            return True
    return package == "app" and any(
        _within(name, submodule) and any(fnmatch(path, file) for file in files)
        for submodule, files in ENGINE_SUBMODULES_STILL_IMPORTED_BY_APP.items()
    )


def oversize(path: str, source: str) -> dict[str, tuple[int, str]]:
    """Size breaches of one file: its path, or path:Class → (line, problem)."""
    found: dict[str, tuple[int, str]] = {}
    lines = len(source.splitlines())
    if lines > MAX_MODULE_LINES:
        found[path] = (0, f"{path} has {lines} lines, over {MAX_MODULE_LINES}")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_CLASS_LINES:
                problem = f"{path}:{node.lineno} class {node.name} has {length} lines"
                found[f"{path}:{node.name}"] = (node.lineno, f"{problem}, over {MAX_CLASS_LINES}")
    return found


def crowded_folders(paths: Iterable[str]) -> list[str]:
    """Folders holding more .py files directly than MAX_MODULES_DIRECTLY_IN (or, for a folder
    it does not name, MAX_MODULES_IN_A_FOLDER) lets them."""
    by_folder: dict[str, list[str]] = {}
    for path in paths:
        by_folder.setdefault(path.rpartition("/")[0], []).append(path)
    problems: list[str] = []
    for folder, inside in sorted(by_folder.items()):
        most = MAX_MODULES_DIRECTLY_IN.get(folder, MAX_MODULES_IN_A_FOLDER)
        if len(inside) > most:
            problems.append(f"{folder}/ holds {len(inside)} modules, over {most}: {inside}")
    return problems


def import_graph(files: Mapping[str, str]) -> dict[str, set[str]]:
    """Module → the modules among `files` it imports (`from p import x` counts p.x if a module)."""
    modules = {module_of(path)[0] for path in files}
    graph: dict[str, set[str]] = {}
    for path, source in files.items():
        module, is_package = module_of(path)
        targets = graph.setdefault(module, set())
        for imp in imports(source, module, is_package):
            target = _defined_in(imp.module, modules)
            if not imp.names_follow and target is not None and target != module:
                targets.add(target)
    return graph


def _defined_in(name: str, modules: set[str]) -> str | None:
    """The module that defines `name`: its longest dotted prefix that is a module."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in modules:
            return ".".join(parts[:end])
    return None


def circles(graph: Mapping[str, set[str]]) -> list[tuple[str, ...]]:
    """Every import circle (no module twice), each from its smallest name, in import order."""
    reaches = {module: _reachable(graph, module) for module in graph}
    found: list[tuple[str, ...]] = []
    for start in sorted(graph):
        # circles through `start` whose other modules all sort after it; only modules that
        # lead back to `start` can be on one
        walks: list[tuple[str, ...]] = [(start,)]
        while walks:
            walk = walks.pop()
            for step in sorted(graph.get(walk[-1], ())):
                if step == start:
                    found.append(walk)
                elif step > start and step not in walk and start in reaches.get(step, ()):
                    walks.append((*walk, step))
    return sorted(found)


def _reachable(graph: Mapping[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for step in graph.get(todo.pop(), ()):
            if step not in seen:
                seen.add(step)
                todo.append(step)
    return seen


def rotated(circle: tuple[str, ...]) -> tuple[str, ...]:
    """The same circle, starting at its smallest module name."""
    first = circle.index(min(circle))
    return circle[first:] + circle[:first]


def spelled(circle: tuple[str, ...]) -> str:
    return " → ".join([*circle, circle[0]])


def circles_to_report(graph: Mapping[str, set[str]], known: Iterable[tuple[str, ...]]) -> list[str]:
    """The circles of `graph` that are not among the `known` ones, spelled out."""
    excused = {rotated(circle) for circle in known}
    return [spelled(circle) for circle in circles(graph) if circle not in excused]


def sources() -> dict[str, str]:
    return {
        p.relative_to(SRC).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(SRC.rglob("*.py"))
    }


def test_src_keeps_the_house_rules() -> None:
    files = sources()
    assert (
        "layout/text/linebreak.py" in files and "layout/base/placing.py" in files
    )  # scan sees src
    problems = [problem for path, text in files.items() for problem in violations(path, text)]
    assert problems == []


def test_src_has_no_import_circles() -> None:
    graph = import_graph(sources())
    assert "layout.flow.flow" in graph and graph["layout"]  # the graph sees src
    assert circles_to_report(graph, KNOWN_CIRCLES_TO_BREAK) == []


def test_no_folder_holds_too_many_modules() -> None:
    assert crowded_folders(sources()) == []


def test_the_front_door_passes_on_version_and_nothing_else() -> None:
    # `import inkcard` runs before every command: it must load neither the engine nor Skia
    front_door = imports(sources()["__init__.py"], ROOT_PACKAGE, is_package=True)
    assert {imp.module for imp in front_door} == {"app", "app.VERSION"}


def test_every_app_row_is_a_real_module() -> None:
    for row in LAYER_OF:
        child = SRC.joinpath(*row.split("."))
        assert row == "app" or child.with_suffix(".py").exists() or child.is_dir(), row
    for row, targets in APP_IMPORTS_WITHIN_A_LAYER.items():
        assert {LAYER_OF[target] for target in targets} == {LAYER_OF[row]}, row


def test_every_known_circle_is_still_there() -> None:
    # Once one is broken, strike it from KNOWN_CIRCLES_TO_BREAK so that it cannot come back.
    found = circles(import_graph(sources()))
    for circle in KNOWN_CIRCLES_TO_BREAK:
        assert rotated(circle) in found, f"gone, strike from KNOWN_CIRCLES_TO_BREAK: {circle}"


def test_every_engine_submodule_still_imported_by_app_still_is() -> None:
    files = sources()
    for submodule, importers in ENGINE_SUBMODULES_STILL_IMPORTED_BY_APP.items():
        for path in importers:
            module, is_package = module_of(path)
            names = [imp.module for imp in imports(files.get(path, ""), module, is_package)]
            assert any(_within(name, submodule) for name in names), (
                f"{path} no longer imports {submodule}: "
                "strike it from ENGINE_SUBMODULES_STILL_IMPORTED_BY_APP"
            )


def test_every_known_oversize_is_still_oversize() -> None:
    found = {key for path, text in sources().items() for key in oversize(path, text)}
    assert KNOWN_OVERSIZE_TO_SPLIT - found == set(), "strike these from KNOWN_OVERSIZE_TO_SPLIT"


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
        ("layout/flow/flow.py", "from inkcard import app\n", ["layout may not import app"]),
        (
            "layout/flow/flow.py",
            "from inkcard.themes import load\n",
            ["layout may not import themes"],
        ),
        (
            "layout/flow/flow.py",
            "def f():\n    from inkcard import themes\n",
            ["layout may not import themes"],
        ),
        ("layout/flow/flow.py", "from ...app import cards\n", ["layout may not import app"]),
        ("themes/__init__.py", "from inkcard.app.errors import X\n", ["themes may not import app"]),
        ("themes/__init__.py", "import httpx\n", ["httpx only in", "themes may use only"]),
        (
            "themes/__init__.py",
            "from inkcard.layout import Theme\nimport msgspec\nimport tomllib\n",
            [],
        ),
        ("app/cards.py", "from inkcard import layout, themes\nfrom . import errors\n", []),
        ("layout/flow/flow.py", "from . import images\nfrom .boxes import Row\nimport regex\n", []),
        # one name: our packages are imported under inkcard, the front door only from outside
        ("app/cards/service.py", "import layout\n", ["the bare name layout is anyone's"]),
        ("themes/custom.py", "from app.errors import X\n", ["the bare name app is anyone's"]),
        ("app/cards/service.py", "from themes import load\n", ["the bare name themes"]),
        (
            "app/cards/service.py",
            "import importlib\nimportlib.import_module('layout.draw')\n",
            ["the bare name layout"],
        ),
        ("layout/flow/flow.py", "import inkcard\n", ["layout may not import inkcard"]),
        ("app/cli/main.py", "from inkcard import VERSION\n", ["app may not import inkcard"]),
        ("app/cli/main.py", "import inkcard.app.server.factory\n", []),
        ("__init__.py", "from .app import VERSION\n", []),
        ("__init__.py", "from . import layout\n", ["inkcard may not import layout"]),
        ("__init__.py", "import regex\n", ["inkcard may use only"]),
        # one door per library
        ("layout/flow/flow.py", "import skia\n", ["skia only in"]),
        ("layout/draw/painter.py", "import skia\n", []),
        ("layout/base/images.py", "import skia\n", []),
        (
            "layout/flow/flow.py",
            "from markdown_it.tree import SyntaxTreeNode\n",
            ["markdown_it only in"],
        ),
        ("layout/parse/markdown.py", "from markdown_it import MarkdownIt\n", []),
        ("layout/text/glyphs.py", "import uharfbuzz as hb\n", []),
        ("layout/draw/painter.py", "import uharfbuzz\n", ["uharfbuzz only in"]),
        ("layout/text/shape.py", "from fontTools.ttLib import TTFont\n", ["fontTools only in"]),
        ("layout/base/fonts.py", "from fontTools.ttLib import TTFont\n", []),
        (
            "layout/flow/flow.py",
            "def f():\n    from pygments.lexers import get_lexer_by_name\n",
            ["pygments only in"],
        ),
        ("app/cards/service.py", "from litestar import get\n", ["litestar only in"]),
        ("app/server/routes_cards.py", "from litestar import get\n", []),
        ("app/mcp/tools.py", "from litestar import get\n", ["litestar only in"]),
        ("app/server/routes_admin.py", "from litestar import get\n", []),
        ("layout/flow/flow.py", "import litestar\n", ["litestar only in"]),
        ("app/cards/service.py", "from google.cloud import storage\n", ["google.cloud only in"]),
        ("app/cards/service.py", "from google import cloud\n", ["google.cloud only in"]),
        ("app/storage/gcs.py", "def f():\n    from google.cloud import storage\n", []),
        ("app/storage/gcs.py", "from google.api_core import retry\n", []),
        ("app/storage/__init__.py", "from google.cloud import storage\n", ["google.cloud only in"]),
        ("app/storage/s3.py", "import boto3\nfrom botocore.config import Config\n", []),
        ("app/storage/__init__.py", "import boto3\n", ["boto3 only in"]),
        ("app/storage/gcs.py", "from botocore import exceptions\n", ["botocore only in"]),
        (
            "app/cards/service.py",
            "import importlib\nimportlib.import_module('google.cloud.storage')\n",
            ["google.cloud only in"],
        ),
        ("app/server/routes_cards.py", "import sqlite_utils\n", ["sqlite_utils only in"]),
        ("app/ledger/sqlite.py", "import sqlite_utils\n", []),
        ("app/cards/service.py", "__import__('premailer')\n", ["premailer only in"]),
        ("app/articles/convert/themecss.py", "from premailer import Premailer\n", []),
        (
            "app/articles/convert/fixups.py",
            "from premailer import Premailer\n",
            ["premailer only in"],
        ),
        ("app/articles/convert/refs.py", "import nh3\n", ["nh3 only in"]),
        ("app/articles/convert/html.py", "import nh3\n", []),
        ("app/server/routes_cards.py", "import nh3\n", ["nh3 only in"]),
        ("app/articles/convert/html.py", "from markdown_it import MarkdownIt\n", []),
        ("app/cards/service.py", "from markdown_it import MarkdownIt\n", ["markdown_it only in"]),
        (
            "app/articles/convert/fixups.py",
            "from mdit_py_plugins.footnote import x\n",
            ["mdit_py_plugins"],
        ),
        ("app/server/routes_cards.py", "import httpx\n", ["httpx only in"]),
        ("app/fetch/guard.py", "import httpx\nimport httpcore\n", []),
        ("app/articles/wechat/transport.py", "import httpcore\n", ["httpcore only in"]),
        ("layout/draw/imagecodec.py", "import skia\n", []),
        ("layout/parse/markdown.py", "import skia\n", ["skia only in"]),
        # layers inside app
        (
            "app/ledger/charge.py",
            "from inkcard.app.cards import pool\n",
            ["app.ledger may not import app.cards"],
        ),
        (
            "app/ledger/charge.py",
            "from ..cards import pool\n",
            ["app.ledger may not import app.cards"],
        ),
        (
            "app/cards/service.py",
            "def f():\n    from inkcard.app.articles.threads import ArticleThreads\n",
            ["app.cards may not import app.articles"],
        ),
        (
            "app/render/pool.py",
            "from inkcard.app.cards.service import CardService\n",
            ["app.render may not import app.cards"],
        ),
        (
            "app/render/messages.py",
            "from inkcard.app.articles.threads import ArticleThreads\n",
            ["app.render may not import app.articles"],
        ),
        (
            "app/operations/generate.py",
            "import importlib\nimportlib.import_module('inkcard.app.server.factory')\n",
            ["app.operations may not import app.server"],
        ),
        (
            "app/mcp/tools.py",
            "from inkcard.app.server import factory\n",
            ["app.mcp may not import app.server"],
        ),
        ("app/__init__.py", "from . import settings\n", ["app may not import app.settings"]),
        (
            "app/settings.py",
            "from inkcard.app import errors\n",
            ["app.settings may not import app.errors"],
        ),
        (
            "app/storage.py",
            "from inkcard.app.metrics import Metrics\n",
            ["app.storage may not import app.metrics"],
        ),
        (
            "app/webhooks.py",
            "from inkcard import layout\n",
            ["app.webhooks has no place in APP_LAYERS"],
        ),
        (
            "app/metrics.py",
            "from inkcard.app.storage import Storage\nfrom inkcard.app.errors import X\n",
            [],
        ),
        ("app/articles/threads.py", "from inkcard.app.render.admission import Admission\n", []),
        ("app/errors.py", "from inkcard.app import VERSION\n", []),
        ("app/cards/service.py", "from . import request\nfrom .images import RemoteImages\n", []),
        ("app/cards/service.py", "from inkcard.app.render.pool import ProcessRenderPool\n", []),
        ("app/server/mcp_http.py", "from inkcard.app.mcp.tools import InkcardTools\n", []),
        (
            "app/cli/main.py",
            "from inkcard.app.server.factory import create_app\nfrom inkcard.app import logs\n",
            [],
        ),
        # the engine's public face
        (
            "app/cards/service.py",
            "from inkcard.layout.style.theme import Theme\n",
            ["app may import the engine only"],
        ),
        (
            "app/cards/service.py",
            "from inkcard.layout import flow\n",
            ["app may import the engine only"],
        ),
        (
            "app/cards/service.py",
            "import inkcard.layout.draw.painter\n",
            ["app may import the engine only"],
        ),
        (
            "app/cards/service.py",
            "from inkcard.layout import _private\n",
            ["app may import the engine only", "the private name _private belongs to layout"],
        ),
        # private names stay in their package (row)
        (
            "app/cards/service.py",
            "from inkcard.app.render.jobs import _render\n",
            ["the private name _render belongs to app.render"],
        ),
        ("app/render/inline.py", "from inkcard.app.render.jobs import _render\n", []),
        ("layout/pages/compose.py", "from ..base.boxes import _grow\n", ["the private name _grow"]),
        ("app/articles/convert/html.py", "from lxml.etree import _Element\n", []),
        # the engine's stages
        ("layout/blocks/tiles.py", "from ..pages.compose import x\n", ["layout.blocks may not"]),
        ("layout/blocks/tiles.py", "from ..flow import budget\n", ["layout.blocks may not"]),
        ("layout/blocks/tiles.py", "from ..base.placing import place\n", []),
        ("layout/base/boxes.py", "from .. import Theme\n", ["layout.base may not import layout"]),
        ("layout/gadgets/x.py", "import regex\n", ["layout.gadgets has no place in ENGINE"]),
        ("app/articles/convert/html.py", "from inkcard.layout.parse import clean_style\n", []),
        (
            "app/articles/convert/html.py",
            "from inkcard.layout.parse.inlinecss import clean_style\n",
            ["app may import the engine only"],
        ),
        (
            "app/articles/convert/html.py",
            "from inkcard.layout.parse import markdown\n",
            ["app may import the engine only"],
        ),
        (
            "app/cards/service.py",
            "from inkcard import layout\nfrom inkcard.layout import Theme, render\n",
            [],
        ),
        (
            "themes/custom.py",
            "from inkcard.layout.base.fonts import FontBook\n",
            ["themes may import the engine only"],
        ),
        (
            "themes/css/read.py",
            "from inkcard.layout import draw\n",
            ["themes may import the engine only"],
        ),
        (
            "themes/custom.py",
            "from inkcard.layout.style import Theme\nfrom inkcard.layout import style, Theme\n",
            [],
        ),
        (
            "layout/flow/flow.py",
            "from inkcard.layout.style.theme import Theme\nfrom . import draw\n",
            [],
        ),
    ],
)
def test_the_scan_catches_breaches(path: str, source: str, expected: list[str]) -> None:
    found = violations(path, source)
    assert len(found) == len(expected), found
    for problem, fragment in zip(found, expected, strict=False):
        assert fragment in problem


def _module(lines: int) -> str:
    return "x = 1\n" * lines


def _class(name: str, lines: int, indent: str = "") -> str:
    return f"{indent}class {name}:\n" + f"{indent}    x = 1\n" * (lines - 1)


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        pytest.param("app/errors.py", _module(501), ["has 501 lines, over 500"], id="long-module"),
        pytest.param("app/errors.py", _module(500), [], id="module-at-the-limit"),
        pytest.param("app/cards/service.py", _class("Big", 251), ["class Big has 251"], id="long"),
        pytest.param("app/cards/service.py", _class("Fits", 250), [], id="class-at-the-limit"),
        pytest.param(
            "layout/draw/painter.py",
            "def f():\n" + _class("Inner", 251, "    "),
            ["class Inner has 251 lines"],
            id="nested-class",
        ),
        pytest.param(
            "layout/text/shape.py",
            _class("A", 251) + _module(250),
            ["has 501 lines", "class A has 251 lines"],
            id="both",
        ),
    ],
)
def test_the_size_check_catches_breaches(path: str, source: str, expected: list[str]) -> None:
    found = violations(path, source)
    assert len(found) == len(expected), found
    for problem, fragment in zip(found, expected, strict=False):
        assert fragment in problem


def test_known_oversize_excuses_only_what_it_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules[__name__], "KNOWN_OVERSIZE_TO_SPLIT", {"a/b.py", "a/b.py:Big"})
    assert violations("a/b.py", _class("Big", 700)) == []
    assert violations("a/c.py", _class("Big", 700)) != []
    (problem,) = violations("a/b.py", _class("Big", 251) + _class("Other", 251))
    assert "class Other has 251 lines" in problem


def test_engine_exceptions_excuse_only_the_named_files(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        sys.modules[__name__],
        "ENGINE_SUBMODULES_STILL_IMPORTED_BY_APP",
        {"layout.base.fonts": ("app/render/pool.py",)},
    )
    assert (
        violations("app/render/pool.py", "from inkcard.layout.base.fonts import FontBook\n") == []
    )
    assert (
        violations("app/cards/service.py", "from inkcard.layout.base.fonts import FontBook\n") != []
    )
    assert (
        violations("app/render/pool.py", "from inkcard.layout.draw.painter import Painter\n") != []
    )
    assert violations("themes/custom.py", "from inkcard.layout.base.fonts import FontBook\n") != []


def test_the_folder_count_catches_crowding() -> None:
    twelve = [f"app/m{n}.py" for n in range(11)] + ["app/__init__.py"]
    assert crowded_folders([*twelve, "app/cards/a.py", "layout/a.py", "app/cli/b.py"]) == []
    (problem,) = crowded_folders([*twelve, "app/extra.py"])
    assert "app/ holds 13 modules, over 12" in problem


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param(
            {"layout/a.py": "from . import b\n", "layout/b.py": "def f():\n    from .a import x\n"},
            ["layout.a → layout.b → layout.a"],
            id="lazy-import",
        ),
        pytest.param(
            {
                "app/x.py": "import importlib\nimportlib.import_module('inkcard.app.y')\n",
                "app/y.py": "import typing\nif typing.TYPE_CHECKING:\n    import inkcard.app.x\n",
            },
            ["app.x → app.y → app.x"],
            id="dynamic-and-type-checking",
        ),
        pytest.param(
            {
                "layout/__init__.py": "from .a import x\n",
                "layout/a.py": "from inkcard.layout import b\n",
                "layout/b.py": "y = 1\n",
            },
            [],
            id="from-package-import-submodule-is-the-submodule",
        ),
        pytest.param(
            {
                "layout/__init__.py": "from .a import x\n",
                "layout/a.py": "from inkcard.layout import Theme\n",
            },
            ["layout → layout.a → layout"],
            id="from-package-import-name-is-the-package",
        ),
        pytest.param(
            {
                "themes/__init__.py": "from inkcard import layout\nfrom .css import read\n",
                "themes/css/__init__.py": "from .read import x\n",
                "themes/css/read.py": "from inkcard.layout.style.theme import Theme\n",
                "layout/__init__.py": "from .style import Theme\n",
                "layout/style/theme.py": "import msgspec\n",
            },
            [],
            id="no-circle",
        ),
        pytest.param(
            {
                "app/a.py": "from inkcard.app import b, c\n",
                "app/b.py": "from inkcard.app.a import x\n",
                "app/c.py": "from inkcard.app.d import y\n",
                "app/d.py": "from .a import z\n",
            },
            ["app.a → app.b → app.a", "app.a → app.c → app.d → app.a"],
            id="two-circles-through-one-module",
        ),
    ],
)
def test_the_circle_check_catches_circles(files: dict[str, str], expected: list[str]) -> None:
    assert circles_to_report(import_graph(files), known=()) == expected


def test_known_circles_excuse_only_themselves() -> None:
    files = {
        "layout/style.py": "from .decorations import D\nfrom .chrome import C\n",
        "layout/decorations.py": "from .chrome import one_line\n",
        "layout/chrome.py": "from .style import Style\n",
    }
    known = {("layout.style", "layout.decorations", "layout.chrome")}
    found = circles_to_report(import_graph(files), known)
    assert found == ["layout.chrome → layout.style → layout.chrome"]
