"""src/ → every dotted name of ours a docstring mentions, and every `file.py` it names, exists.

Docstrings are the map a maintainer reads first: one that names a module that was renamed or
split sends them looking for something that is not there. A dotted name that starts with one
of our packages (`layout.base.fonts`, `app.render.pool.ProcessRenderPool`, or in full
`inkcard.layout.base.fonts`) must import under `inkcard`, or be an attribute of what imports; a
file name in backticks (`compose.py`) must be a file under src.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "inkcard"  # the installed name of src/: `layout.base` is `inkcard.layout.base`
# a dotted name of ours: `layout.base.fonts.FontBook` or `inkcard.layout.base.fonts.FontBook`;
# the prefix is one of three words
DOTTED = re.compile(r"(?<![\w./-])(?:inkcard\.)?(?:app|layout|themes)(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
FILE_NAME = re.compile(r"`([\w/]+\.py)`")
FILES = {p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py")}
BASENAMES = {name.rpartition("/")[2] for name in FILES}
EXAMPLE_TEXT = {"bench.py"}  # a docstring's example of text a writer types, not a file of ours


def docstrings() -> Iterator[tuple[str, int, str]]:
    """(path under src, line, text) of every module, class and function docstring."""
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nodes = [tree, *ast.walk(tree)]
        for node in nodes:
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                text = ast.get_docstring(node, clean=False)
                if text:
                    line = getattr(node, "lineno", 1)
                    yield path.relative_to(SRC).as_posix(), line, text


def resolves(dotted: str) -> bool:
    """Whether `dotted` is a module of ours or an attribute reached from one, looked up under
    `inkcard` (a bare `app.x` is never imported as such: it could be anyone's `app`)."""
    parts = [PACKAGE, *dotted.removeprefix(PACKAGE + ".").split(".")]
    for end in range(len(parts), 1, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for attribute in parts[end:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def names_a_file(name: str) -> bool:
    """Whether `name` is a file under src (by path or file name) or of the repository."""
    under_src = name in FILES or name in BASENAMES or any(f.endswith("/" + name) for f in FILES)
    return under_src or name in EXAMPLE_TEXT or (SRC.parent / name).is_file()


def stale_mentions() -> list[str]:
    stale: set[str] = set()
    for path, line, text in docstrings():
        for dotted in DOTTED.findall(text):
            if not resolves(dotted.rstrip(".")):
                stale.add(f"{path}:{line} names {dotted}")
        for name in FILE_NAME.findall(text):
            if not names_a_file(name):
                stale.add(f"{path}:{line} names the file {name}")
    return sorted(stale)


def test_docstrings_name_only_what_exists() -> None:
    assert stale_mentions() == []


@pytest.mark.parametrize(
    ("dotted", "expected"),
    [
        ("layout.base.fonts", True),
        ("layout.base.fonts.FontBook", True),
        ("layout.render_cards", True),
        ("app.cards", True),
        ("inkcard.layout.base.fonts.FontBook", True),
        ("inkcard.themes.load", True),
        ("inkcard.app.nowhere", False),
        ("layout.flowparts", False),
        ("layout.base.fonts.NoSuchThing", False),
        ("themes.nothing_here", False),
    ],
)
def test_resolves_tells_real_names_from_stale_ones(dotted: str, expected: bool) -> None:
    assert resolves(dotted) is expected


def test_the_scan_finds_names_in_prose() -> None:
    text = (
        "Uses `layout.flowparts.Ctx`, inkcard.layout.base.fonts; see `compose.py`, not `gone.py`."
    )
    assert DOTTED.findall(text) == ["layout.flowparts.Ctx", "inkcard.layout.base.fonts"]
    assert [n for n in FILE_NAME.findall(text) if not names_a_file(n)] == ["gone.py"]
