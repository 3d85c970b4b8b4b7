"""Theme IDs as people type them: `mytheme` or `card-mytheme`, and a built-in's label."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import themes
from inkcard.app.cards.request import normalise
from inkcard.app.cli import main
from inkcard.app.schema import parse_generate


def catalogue(tmp_path: Path) -> themes.Catalogue:
    (tmp_path / "mine.css").write_text(".card-mytheme { color: #123456; }")
    (tmp_path / "plain.css").write_text(".plain { color: #654321; }")
    return themes.builtin().with_custom(tmp_path)


@pytest.mark.parametrize(
    ("name", "theme_id"),
    [
        ("card-mytheme", "card-mytheme"),
        ("mytheme", "card-mytheme"),
        ("plain", "plain"),
        ("card-plain", "plain"),
        ("card-apple-notes", "apple-notes"),
        ("苹果备忘录", "apple-notes"),
        ("赛博朋克", "cyberpunk"),
    ],
)
def test_an_alias_resolves_to_the_theme_id(tmp_path: Path, name: str, theme_id: str) -> None:
    found = catalogue(tmp_path)
    assert found.resolve(name) == theme_id
    assert found.get(name).name == theme_id
    assert found.fingerprint(name) == found.fingerprint(theme_id)


def test_an_unknown_name_stays_unknown(tmp_path: Path) -> None:
    with pytest.raises(themes.UnknownTheme):
        catalogue(tmp_path).get("card-nothing")


def test_a_request_carries_the_id_whatever_alias_it_used(tmp_path: Path) -> None:
    lookup = catalogue(tmp_path).get
    for name, theme_id in [("mytheme", "card-mytheme"), ("苹果备忘录", "apple-notes")]:
        body = f'{{"markdown": "# hi", "theme": "{name}"}}'.encode()
        assert normalise(parse_generate(body), lookup).theme == theme_id


def test_the_cli_reads_one_builtin_by_its_label() -> None:
    assert themes.load_one("苹果备忘录").name == "apple-notes"
    assert themes.load_one("card-warm").name == "warm"
    with pytest.raises(themes.UnknownTheme):
        themes.load_one("../apple-notes")


def test_inkcard_render_honours_the_custom_themes_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "themes"
    folder.mkdir()
    (folder / "mine.css").write_text(".card-mytheme { background: #123456; color: #ffffff; }")
    post = tmp_path / "post.md"
    post.write_text("# Hello\n\ntext")
    monkeypatch.setenv("INKCARD_THEMES_DIR", str(folder))
    flags = ["--width", "200", "--height", "200", "-o", str(tmp_path / "out")]
    assert main(["render", str(post), "--theme", "mytheme", *flags]) == 0, capsys.readouterr()
    assert (tmp_path / "out" / "1.png").is_file()
