"""House sizes in the engine, read with `ast`: no module over 600 lines, no class over 300."""

from __future__ import annotations

import ast
from pathlib import Path

LAYOUT = Path(__file__).resolve().parents[2] / "src" / "layout"
MAX_MODULE_LINES = 600
MAX_CLASS_LINES = 300


def test_no_module_is_too_long() -> None:
    long = {
        path.name: lines
        for path in LAYOUT.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_class_is_too_long() -> None:
    long: dict[str, int] = {}
    for path in LAYOUT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_CLASS_LINES:
                    long[f"{path.name}:{node.name}"] = lines
    assert long == {}
