"""`pip install .` gives a working Inkcard anywhere Python runs: the wheel carries the fonts,
the themes and the playground under one top-level name, `inkcard`, and renders a card far from
the checkout.

The wheel is built as `pip install .` builds it (same backend, without build isolation so the
test needs no download), installed without its dependencies into a fresh virtualenv that
borrows this environment's installed dependencies through a `.pth` line (so nothing is
downloaded again), then its own `inkcard` renders a card from a folder outside the checkout,
and a folder holding its own `app` and `themes` packages shadows none of ours.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# Building (~6 s), installing (~5 s) and one render took about 20 s here; a stuck step fails.
STEP_TIMEOUT_S = 240


def _run(*command: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT_S,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONPATH": ""},
        check=False,
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@dataclass(frozen=True)
class Installed:
    """The wheel installed into a fresh virtualenv."""

    wheel: Path
    fresh: Path  # the virtualenv
    python: Path
    purelib: Path  # its site-packages
    added: set[str]  # what installing the wheel put at the top of purelib


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    tmp_path = tmp_path_factory.mktemp("wheel")
    wheels = tmp_path / "wheels"
    pip = (sys.executable, "-m", "pip")
    _run(*pip, "wheel", REPO, "--no-deps", "--no-build-isolation", "-q", "-w", wheels, cwd=tmp_path)
    (wheel,) = wheels.glob("inkcard-*.whl")

    fresh = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=False).create(fresh)
    python = fresh / "bin" / "python"
    show_purelib = "import sysconfig; print(sysconfig.get_path('purelib'))"
    purelib = Path(_run(python, "-c", show_purelib, cwd=tmp_path).strip())
    before = {path.name for path in purelib.iterdir()}
    _run(*pip, "--python", python, "install", "--no-deps", "-q", wheel, cwd=tmp_path)
    added = {path.name for path in purelib.iterdir()} - before
    # The dependencies already installed here (this environment's site-packages folders, not
    # what their .pth files add), after the fresh environment's own packages: its `inkcard` is
    # the wheel's, never this checkout's editable one.
    borrowed = [path for path in sys.path if Path(path).name == "site-packages"]
    (purelib / "borrowed-dependencies.pth").write_text("".join(f"{p}\n" for p in borrowed))
    return Installed(wheel, fresh, python, purelib, added)


def test_the_wheel_installs_one_top_level_name(installed: Installed) -> None:
    version = installed.wheel.name.split("-")[1]
    assert installed.added == {"inkcard", f"inkcard-{version}.dist-info"}
    package = installed.purelib / "inkcard"
    assert (package / "__init__.py").is_file()
    assert {"app", "layout", "themes"} <= {path.name for path in package.iterdir()}
    fonts = package / "layout" / "fontfiles"
    assert (fonts / "families.toml").is_file()
    shipped = {path.name for path in (REPO / "fonts").iterdir() if path.is_file()}
    assert shipped and shipped <= {path.name for path in fonts.iterdir()}
    themes = {path.parent.name for path in (package / "themes").glob("*/card.toml")}
    assert themes == {path.parent.name for path in (REPO / "src" / "themes").glob("*/card.toml")}


def test_the_wheel_carries_fonts_and_themes_and_renders_away_from_the_checkout(
    installed: Installed, tmp_path: Path
) -> None:
    show_dirs = (
        "from inkcard import layout, themes\n"
        "print(layout.DEFAULT_FONTS_DIR)\n"
        "print(themes.THEMES_DIR)\n"
    )
    where = _run(installed.python, "-c", show_dirs, cwd=tmp_path)
    fonts_dir, themes_dir = (Path(line) for line in where.split())
    purelib = installed.purelib
    assert fonts_dir.is_relative_to(purelib) and (fonts_dir / "families.toml").is_file()
    assert themes_dir.is_relative_to(purelib) and (themes_dir / "brandA" / "card.toml").is_file()

    post = tmp_path / "post.md"
    post.write_text("# 你好, wheel\n\nA card from an installed wheel: $e^{i\\pi} + 1 = 0$.\n")
    out = tmp_path / "out"
    inkcard = installed.fresh / "bin" / "inkcard"
    _run(inkcard, "render", post, "--theme", "brandA", "--scale", "1", "-o", out, cwd=tmp_path)
    png = (out / "1.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (440, 586)
    assert "inkcard" in _run(inkcard, "--help", cwd=tmp_path)


def test_a_project_of_its_own_app_and_themes_shadows_none_of_ours(
    installed: Installed, tmp_path: Path
) -> None:
    # `python -c` puts the working folder first on sys.path, where a user's packages sit.
    for name in ("app", "themes", "layout"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"MINE = {name!r}\n")
    show = (
        "import app, themes as theirs\n"
        "from inkcard import layout, themes\n"
        "import inkcard.app.cli\n"
        "print(themes.__file__, layout.__file__, theirs.MINE, app.MINE)\n"
    )
    ours_themes, ours_layout, theirs, app = _run(installed.python, "-c", show, cwd=tmp_path).split()
    assert Path(ours_themes).is_relative_to(installed.purelib / "inkcard" / "themes")
    assert Path(ours_layout).is_relative_to(installed.purelib / "inkcard" / "layout")
    assert (theirs, app) == ("themes", "app")
    # `python -m` also runs from that folder: the command is still ours
    assert "inkcard" in _run(installed.python, "-m", "inkcard.app.cli", "--help", cwd=tmp_path)


def test_the_wheel_carries_the_chinese_segmenters_dictionary(
    installed: Installed, tmp_path: Path
) -> None:
    """The segmenter's tries and tables are package data: the installed wheel cuts a heading
    (and a run only the HMM cuts) from its own copy, never from the checkout."""
    show = (
        "from inkcard.layout.text.segment import cut\n"
        "from inkcard.layout.text.segment.data import DATA\n"
        "print(DATA, '|'.join(cut('荔枝生死时速')), '|'.join(cut('龘靐齉')))\n"
    )
    data, words, unknown = _run(installed.python, "-c", show, cwd=tmp_path).split()
    assert Path(data).is_relative_to(installed.purelib / "inkcard")
    assert words == "荔枝|生死时速"
    assert unknown.replace("|", "") == "龘靐齉"
