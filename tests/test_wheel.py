"""`pip install .` gives a working Inkcard anywhere Python runs: the wheel carries the fonts,
the themes and the playground, and renders a card far from the checkout.

The wheel is built as `pip install .` builds it (same backend, without build isolation so the
test needs no download), installed without its dependencies into a fresh virtualenv that
borrows this environment's installed dependencies through a `.pth` line (so nothing is
downloaded again), then its own `inkcard` renders a card from a folder outside the checkout.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

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


def test_the_wheel_carries_fonts_and_themes_and_renders_away_from_the_checkout(
    tmp_path: Path,
) -> None:
    wheels = tmp_path / "wheels"
    pip = (sys.executable, "-m", "pip")
    _run(*pip, "wheel", REPO, "--no-deps", "--no-build-isolation", "-q", "-w", wheels, cwd=tmp_path)
    (wheel,) = wheels.glob("inkcard-*.whl")

    fresh = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=False).create(fresh)
    python = fresh / "bin" / "python"
    _run(*pip, "--python", python, "install", "--no-deps", "-q", wheel, cwd=tmp_path)
    show_purelib = "import sysconfig; print(sysconfig.get_path('purelib'))"
    purelib = Path(_run(python, "-c", show_purelib, cwd=tmp_path).strip())
    # The dependencies already installed here, after the fresh environment's own packages:
    # its `inkcard` is the wheel's, never this checkout's editable one.
    (purelib / "borrowed-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")

    show_dirs = (
        "from inkcard import layout, themes\n"
        "print(layout.DEFAULT_FONTS_DIR)\n"
        "print(themes.THEMES_DIR)\n"
    )
    where = _run(python, "-c", show_dirs, cwd=tmp_path)
    fonts_dir, themes_dir = (Path(line) for line in where.split())
    assert fonts_dir.is_relative_to(purelib) and (fonts_dir / "families.toml").is_file()
    assert themes_dir.is_relative_to(purelib) and (themes_dir / "brandA" / "card.toml").is_file()

    post = tmp_path / "post.md"
    post.write_text("# 你好, wheel\n\nA card from an installed wheel: $e^{i\\pi} + 1 = 0$.\n")
    out = tmp_path / "out"
    inkcard = fresh / "bin" / "inkcard"
    _run(inkcard, "render", post, "--theme", "brandA", "--scale", "1", "-o", out, cwd=tmp_path)
    png = (out / "1.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (440, 586)
    assert "inkcard" in _run(inkcard, "--help", cwd=tmp_path)
