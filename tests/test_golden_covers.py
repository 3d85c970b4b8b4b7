"""Golden covers: the four layouts of one title in two themes (a light and a dark one), at
half scale, compared as `test_golden` compares cards (`--update-golden` rewrites them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.covers import COVER_LAYOUTS, MAX_COVERS
from tests import pngcodec
from tests.conftest import GOLDEN_CHANGES
from tests.test_golden import OUTPUT, SCALE, mismatch, write_output

COVERS = Path(__file__).parent / "golden" / "covers"
TITLE = "普通人也能学会的 AI 写作方法：三步写出爆款笔记"
KEYWORDS = ("AI 写作", "爆款", "小红书")
THEMES = ("brandA", "cyberpunk")


@pytest.mark.parametrize("theme", THEMES)
def test_golden_covers(fonts, request, theme: str) -> None:
    options = layout.RenderOptions(width=440, height=586, scale=SCALE)
    rendered = layout.render_covers(
        TITLE, KEYWORDS, themes.load(theme), fonts, options, count=MAX_COVERS
    )
    problems: list[str] = []
    for png, name in zip(rendered.files, COVER_LAYOUTS, strict=True):
        path = COVERS / f"{theme}__{name}.png"
        actual = pngcodec.decode(png)
        expected = pngcodec.decode(path.read_bytes()) if path.exists() else None
        reason = "no golden file" if expected is None else mismatch(actual, expected)
        if reason is None:
            continue
        if request.config.getoption("--update-golden"):
            COVERS.mkdir(parents=True, exist_ok=True)
            changes = request.config.stash[GOLDEN_CHANGES]
            changes.append(("changed" if path.exists() else "added", f"covers/{path.name}"))
            path.write_bytes(pngcodec.encode(actual))
        else:
            write_output(path, actual)
            problems.append(f"{path.name}: {reason}")
    assert not problems, "; ".join(problems) + f" (actual images in {OUTPUT})"
