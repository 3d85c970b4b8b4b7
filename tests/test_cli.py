"""`inkcard render` as a user runs it: a Markdown file in, numbered PNG cards out."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

import layout
from tests.conftest import CORPUS


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_render_writes_numbered_cards(tmp_path: Path) -> None:
    post = CORPUS / "posts" / "04-long-article-zh.md"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "app.cli",
            "render",
            str(post),
            "--theme",
            "apple-notes",
            "--mode",
            "dark-mode",
            "--split",
            "autoSplit",
            "-o",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    written = result.stdout.split()
    assert written == [str(tmp_path / f"{n}.png") for n in range(1, len(written) + 1)]
    assert len(written) >= 3
    for path in written:
        assert png_size(Path(path).read_bytes()) == (880, 1172)


def test_render_rejects_an_unknown_theme(tmp_path: Path) -> None:
    post = tmp_path / "a.md"
    post.write_text("# hi", "utf-8")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "app.cli",
            "render",
            str(post),
            "--theme",
            "nope",
            "-o",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "apple-notes" in result.stderr


@pytest.mark.parametrize(
    ("width", "height", "scale"), [(440, 586, 2), (500, 500, 1), (595, 842, 3)]
)
def test_png_is_scale_times_the_card(fonts, apple_notes, width, height, scale) -> None:
    options = layout.RenderOptions(width=width, height=height, scale=scale, split="autoSplit")
    [card] = layout.render("# Hello, Inkcard", apple_notes, fonts, options)
    assert png_size(card) == (width * scale, height * scale)


def test_pixel_budget_is_checked_before_drawing(fonts, apple_notes) -> None:
    tall = "\n\n".join(["段落"] * 200)
    with pytest.raises(layout.CardTooLarge) as error:
        layout.render(tall, apple_notes, fonts, layout.RenderOptions(max_pixels=880 * 4000))
    assert error.value.width == 880 and error.value.height > 4000
    [card] = layout.render("# ok", apple_notes, fonts, layout.RenderOptions(max_pixels=880 * 1172))
    assert png_size(card) == (880, 1172)
