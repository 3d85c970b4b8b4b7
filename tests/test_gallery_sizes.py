"""`inkcard gallery --sizes`: one sheet per theme, every mode at the six card sizes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from inkcard import themes
from inkcard.app.cards import gallery


def test_gallery_sizes_writes_a_sheet_of_every_mode_at_every_size_per_theme(
    tmp_path: Path,
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "inkcard.app.cli", "gallery", "--sizes", "-o", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    names = themes.builtin().names()
    assert result.stdout.split() == [str(tmp_path / f"{name}.jpg") for name in names]
    for name in names:
        data = (tmp_path / f"{name}.jpg").read_bytes()
        assert data[:3] == b"\xff\xd8\xff"  # a JPEG
        assert len(data) <= gallery.SIZES_MAX_BYTES
    assert len(gallery.SIZES) == 6
