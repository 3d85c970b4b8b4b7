"""Service rules the repository-wide architecture test leaves out: environment and server doors."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "src" / "app"


def test_only_settings_reads_the_environment() -> None:
    modules = sorted([*APP.glob("*.py"), *APP.glob("settings/*.py")])
    assert len(modules) >= 12
    for path in modules:
        if path.relative_to(APP).as_posix() != "settings/environment.py":
            text = path.read_text("utf-8")
            assert "os.environ" not in text and "os.getenv" not in text, path.name


def test_only_the_command_line_imports_uvicorn() -> None:
    for path in sorted(APP.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n == "uvicorn" or n.startswith("uvicorn.") for n in names):
                assert path.name == "cli.py", path.name
