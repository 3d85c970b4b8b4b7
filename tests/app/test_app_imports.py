"""House rules for src/app: one door per library, and the engine never imports the service."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
DOORS = {
    "litestar": {"main.py", "routes.py", "errors.py"},
    "google.cloud": {"storage.py"},
    "sqlite_utils": {"credits.py"},
    "uvicorn": {"cli.py"},
}


def imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_each_library_enters_app_through_its_one_module() -> None:
    modules = sorted((SRC / "app").glob("*.py"))
    assert len(modules) >= 9
    for path in modules:
        for name in imports(path):
            for library, allowed in DOORS.items():
                if name == library or name.startswith(library + "."):
                    assert path.name in allowed, f"{path.name} imports {name}"


def test_only_settings_reads_the_environment() -> None:
    for path in sorted((SRC / "app").glob("*.py")):
        if path.name != "settings.py":
            assert "os.environ" not in path.read_text("utf-8"), path.name


def test_engine_and_themes_never_import_the_service() -> None:
    for package in ("layout", "themes"):
        for path in sorted((SRC / package).rglob("*.py")):
            assert not any(n == "app" or n.startswith("app.") for n in imports(path)), path
