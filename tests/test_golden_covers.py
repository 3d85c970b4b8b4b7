"""Golden covers: the four layouts of one title in two themes (a light and a dark one), and
the cover endpoint's default (the four WeChat 900 x 383 covers, apple-notes without its app
chrome), at half scale, compared as `test_golden` compares cards (`--update-golden` rewrites
them)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from inkcard import layout, themes
from inkcard.layout.covers import COVER_LAYOUTS, MAX_COVERS, WECHAT_COVER_SIZE
from inkcard.layout.covers.covers import WECHAT_LAYOUTS
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
    _compare(request, rendered.files, [f"{theme}__{name}" for name in COVER_LAYOUTS])


def test_golden_default_wechat_covers(fonts, request) -> None:
    """What ``POST /api/generate/cover`` draws with neither theme nor size: 2.35:1, the
    title in the centred square, no Notes bar (``app.cards.coverrequest.without_chrome``)."""
    width, height = WECHAT_COVER_SIZE
    options = layout.RenderOptions(width=width, height=height, scale=SCALE * 2)
    plain = msgspec.structs.replace(themes.load("apple-notes"), decorations=[])
    rendered = layout.render_covers(
        TITLE, KEYWORDS, plain, fonts, options, count=MAX_COVERS, wechat=True
    )
    _compare(request, rendered.files, [f"default__wechat-{name}" for name in WECHAT_LAYOUTS])


def _compare(request, files: list[bytes], names: list[str]) -> None:
    problems: list[str] = []
    for png, name in zip(files, names, strict=True):
        path = COVERS / f"{name}.png"
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
