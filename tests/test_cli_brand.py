"""`inkcard render --brand FILE`: the kit as the JSON body `PUT /api/brands/{name}` takes,
checked as the API checks it, drawn as the engine draws the same kit for the API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inkcard import layout, themes
from tests import pngcodec
from tests.brandassets import POST, engine_kit, kit_body


def test_render_draws_the_kit_of_a_json_file(fonts, tmp_path: Path) -> None:
    from inkcard.app.cli import main

    (tmp_path / "post.md").write_text(POST, "utf-8")
    (tmp_path / "studio.json").write_text(json.dumps(kit_body()), "utf-8")
    flags = ["--theme", "brandA", "--split", "autoSplit", "--scale", "1"]
    code = main(
        [
            "render",
            str(tmp_path / "post.md"),
            "-o",
            str(tmp_path / "out"),
            *flags,
            "--brand",
            str(tmp_path / "studio.json"),
        ]
    )
    assert code == 0
    written = sorted((tmp_path / "out").glob("*.png"))
    options = layout.RenderOptions(scale=1, split="autoSplit", brand=engine_kit())
    expected = layout.render(POST, themes.load("brandA"), fonts, options)
    assert pngcodec.same_cards([path.read_bytes() for path in written], expected)
    plain = layout.render(
        POST, themes.load("brandA"), fonts, layout.RenderOptions(scale=1, split="autoSplit")
    )
    assert not pngcodec.same_cards(plain, expected)


def test_render_refuses_a_bad_kit_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from inkcard.app.cli import main

    (tmp_path / "a.md").write_text("# hi", "utf-8")
    (tmp_path / "bad.json").write_text(json.dumps({"fonts": {"body": "aGVsbG8="}}), "utf-8")
    code = main(
        [
            "render",
            str(tmp_path / "a.md"),
            "-o",
            str(tmp_path / "out"),
            "--brand",
            str(tmp_path / "bad.json"),
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "--brand" in err and "not a TTF, OTF, WOFF or WOFF2 font file" in err
    assert err.count("\n") == 1 and not (tmp_path / "out").exists()
