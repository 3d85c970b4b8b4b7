"""The `inkcard` command as a new user meets it: `--version`, `themes list`, `render --mdx`,
help and defaults on every render option, one line for a bad argument, key prefixes as
`keys list` shows them (or their first 7 characters)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from inkcard.app import VERSION
from inkcard.app.cli import main
from inkcard.app.cli.commands import build_parser
from inkcard.app.cli.render import card_request
from inkcard.app.ledger.credits import Credits


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(capsys, "--version") == (0, f"inkcard {VERSION}\n", "")


def test_themes_list_names_ids_labels_and_modes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "themes", "list")
    assert code == 0
    lines = out.splitlines()
    [apple] = [line for line in lines if line.startswith("apple-notes ")]
    assert apple.split() == ["apple-notes", "苹果备忘录", "light-mode,", "dark-mode"]
    assert any(line.split()[:2] == ["brandA", "字节范"] for line in lines)
    from inkcard.app.schema.article import ARTICLE_THEMES

    assert lines[-1].endswith(", ".join(ARTICLE_THEMES))
    assert len(ARTICLE_THEMES) >= 12


def _render_parser() -> argparse.ArgumentParser:
    parser = build_parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    render: argparse.ArgumentParser = sub.choices["render"].filled()  # as when it is chosen
    return render


def test_every_render_option_says_what_it_does_and_its_default() -> None:
    options = [a for a in _render_parser()._actions if a.option_strings and a.dest != "help"]
    assert {a.dest for a in options} >= {"mdx", "width", "split", "quality", "fonts", "out"}
    for action in options:
        assert action.help and "(default: " in action.help, action.dest


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["render", "a.md", "--width", "x"], "argument --width: 'x' is not a number"),
        (["render", "a.md", "--split", "nope"], "argument --split: invalid choice: 'nope'"),
        (["render"], "the following arguments are required: markdown"),
    ],
)
def test_a_bad_argument_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    [line] = err.splitlines()
    assert line.startswith(f"inkcard render: error: {said}")
    assert line.endswith("; see inkcard render --help")


def test_an_unknown_option_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "render", "a.md", "--colour")
    assert code == 2
    assert err == "inkcard: error: unrecognized arguments: --colour; see inkcard --help\n"


def test_mdx_is_an_option() -> None:
    parser = build_parser()
    on = card_request(parser.parse_args(["render", "a.md", "--mdx"]), "<Badge>new</Badge>")
    off = card_request(parser.parse_args(["render", "a.md"]), "<Badge>new</Badge>")
    assert (on.mdx, off.mdx) == (True, False)


def test_render_with_mdx_reads_components(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    post = tmp_path / "post.md"
    post.write_text('# Hi\n\n<Callout type="tip">{1 + 1}</Callout>\n', "utf-8")
    out = str(tmp_path / "out")
    code, _, err = _run(capsys, "render", str(post), "--mdx", "-o", out, "--scale", "1")
    assert code == 2 and "line 3" in err  # an expression is refused only when MDX is read
    assert _run(capsys, "render", str(post), "-o", out, "--scale", "1")[0] == 0


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Credits:
    database = str(tmp_path / "keys.db")
    monkeypatch.setenv("INKCARD_DATABASE", database)
    credits = Credits(database)
    credits.ensure_schema()
    return credits


def test_credits_show_takes_the_prefix_keys_list_shows_or_its_first_7_characters(
    keys: Credits, capsys: pytest.CaptureFixture[str]
) -> None:
    _, info = keys.create_key("alice", 5)
    listed = _run(capsys, "keys", "list")[1]
    assert info.prefix in listed
    for given in (info.prefix, info.prefix[:7]):
        code, out, err = _run(capsys, "credits", "show", given)
        assert code == 0, err
        assert out.startswith(info.prefix) and "alice" in out
    code, _, err = _run(capsys, "credits", "show", info.prefix[:6])
    assert code == 2 and "at least 7 characters" in err


def test_a_short_prefix_of_two_keys_is_refused_by_name(
    keys: Credits, capsys: pytest.CaptureFixture[str]
) -> None:
    made = [keys.create_key(name, 1)[1].prefix for name in ("a", "b")]
    with keys.store.write() as db:  # make two prefixes share their first 7 characters
        db.execute("UPDATE api_keys SET prefix = ? WHERE prefix = ?", [made[0][:7] + "Z", made[0]])
        db.execute("UPDATE api_keys SET prefix = ? WHERE prefix = ?", [made[0][:7] + "Y", made[1]])
    code, _, err = _run(capsys, "credits", "grant", made[0][:7], "5")
    assert code == 2 and "starts several keys' prefixes" in err
