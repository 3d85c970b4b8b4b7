"""Shared fixtures: the shipped fonts, a box test font, themes, and golden-image options."""

from __future__ import annotations

from pathlib import Path

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

from inkcard import layout, themes
from tests import prebuild

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "cases"
BOX_RANGES = [(0x21, 0x7E), (0x3000, 0x303F), (0x4E00, 0x9FFF), (0xFF01, 0xFF5E)]
# What `--update-golden` did to tests/golden/, as (verdict, file name): changed/added/removed.
GOLDEN_CHANGES = pytest.StashKey[list[tuple[str, str]]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/ from the current renderer (look at them!)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.stash[GOLDEN_CHANGES] = []
    if config.getoption("--update-golden") and getattr(config.option, "tx", None):
        # One process, not pytest-xdist's (pyproject's addopts): the summary below lists what
        # this process's tests changed. Runs before xdist's own configure hook reads these.
        config.option.dist = "no"
        config.option.tx = []


def pytest_sessionstart(session: pytest.Session) -> None:
    prebuild.start(session.config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    prebuild.stop(session.config)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    prebuild.place(items)


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Lists every golden file `--update-golden` changed, added or removed."""
    if not config.getoption("--update-golden"):
        return
    changes = sorted(config.stash[GOLDEN_CHANGES])
    terminalreporter.section("golden images")
    for verdict, name in changes:
        terminalreporter.write_line(f"{verdict:8} {name}")
    counts = {v: sum(1 for c, _ in changes if c == v) for v in ("changed", "added", "removed")}
    terminalreporter.write_line(", ".join(f"{n} {v}" for v, n in counts.items()))


@pytest.fixture(scope="session")
def fonts() -> layout.FontBook:
    return layout.FontBook.load()


@pytest.fixture(scope="session")
def apple_notes() -> layout.Theme:
    return themes.load("apple-notes")


def build_box_font(path: Path) -> None:
    """A font whose every glyph is a 1-em square (ascent 0.8 em, descent 0.2 em) and whose
    space is 1 em too, so one em equals the font size exactly in layout tests."""
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", "box", "space"])
    cmap = {cp: "box" for lo, hi in BOX_RANGES for cp in range(lo, hi + 1)}
    cmap[0x20] = "space"
    builder.setupCharacterMap(cmap)
    pen = TTGlyphPen(None)
    pen.moveTo((0, -200))
    pen.lineTo((0, 800))
    pen.lineTo((1000, 800))
    pen.lineTo((1000, -200))
    pen.closePath()
    box = pen.glyph()
    builder.setupGlyf({".notdef": box, "box": box, "space": TTGlyphPen(None).glyph()})
    builder.setupHorizontalMetrics(dict.fromkeys(("box", "space", ".notdef"), (1000, 0)))
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    builder.setupNameTable({"familyName": "Box", "styleName": "Regular"})
    builder.setupPost()
    builder.save(str(path))


@pytest.fixture(scope="session")
def box_fonts(tmp_path_factory: pytest.TempPathFactory) -> layout.FontBook:
    """A FontBook whose every family and fallback is the box font."""
    folder = tmp_path_factory.mktemp("box-fonts")
    build_box_font(folder / "box.ttf")
    (folder / "families.toml").write_text(
        'cjk = { regular = "box.ttf", bold = "box.ttf" }\nemoji = "box.ttf"\n'
        'symbols = ["box.ttf"]\n[families]\nsans = { regular = "box.ttf" }\n'
        'mono = { regular = "box.ttf" }\n',
        "utf-8",
    )
    return layout.FontBook.load(folder)


@pytest.fixture(scope="session")
def plain_theme() -> layout.Theme:
    """The shared card model with no overrides: body 16 px on a 28 px line."""
    return layout.decode_theme('name = "plain"\n')


def corpus_posts() -> list[Path]:
    return sorted((CORPUS / "posts").glob("*.md"))
