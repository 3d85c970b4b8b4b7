"""`inkcard render` does what the API does, run as a user runs it: the front matter is read and
never drawn, a folder rendered into again holds the new set and no stale cards, errors name
the command's flags, and an input that is not a regular file is refused at once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BODY = "# One\n\nfirst part\n\n---\n\n# Two\n\nsecond part\n"
FRONT = "---\ntitle: A title that is not drawn\ntheme: minimal\nsplit: hrSplit\n---\n"
CLI_TIMEOUT_S = 120  # a render takes seconds; a hang fails the test


def render(cwd: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inkcard.app.cli", "render", *args],
        cwd=cwd,
        input=stdin.decode() if stdin is not None else None,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT_S,
    )


def one_line_refusal(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


def test_the_front_matter_applies_and_is_never_drawn(tmp_path: Path) -> None:
    (tmp_path / "with.md").write_text(FRONT + BODY, "utf-8")
    (tmp_path / "without.md").write_text(BODY, "utf-8")
    with_front = render(tmp_path, "with.md", "--scale", "1", "-o", "a")
    flags = ["--theme", "minimal", "--split", "hrSplit", "--scale", "1", "-o", "b"]
    same_by_flags = render(tmp_path, "without.md", *flags)
    assert with_front.returncode == 0 and same_by_flags.returncode == 0, with_front.stderr
    first = sorted(p.name for p in (tmp_path / "a").glob("*.png"))
    second = sorted(p.name for p in (tmp_path / "b").glob("*.png"))
    assert first == second == ["1.png", "2.png"]  # its split applied
    for name in first:  # its theme applied, its text (the title) not drawn
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_rendering_again_leaves_no_stale_cards_and_no_other_file_is_touched(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    (out / "7.png").write_bytes(b"my own picture")  # never written by render
    three = "\n\n---\n\n".join(f"# part {n}" for n in range(3))
    (tmp_path / "post.md").write_text(three, "utf-8")
    assert render(tmp_path, "post.md", "--split", "hrSplit", "--scale", "1", "-o", "out").stdout
    assert sorted(p.name for p in out.glob("[0-9].png")) == ["1.png", "2.png", "3.png", "7.png"]

    (tmp_path / "post.md").write_text("# one card now", "utf-8")
    result = render(tmp_path, "post.md", "--scale", "1", "-o", "out")
    assert result.stdout.split() == [str(Path("out") / "1.png")]
    assert sorted(p.name for p in out.iterdir()) == [
        ".inkcard-render",
        "1.png",
        "7.png",
        "notes.txt",
    ]
    assert (out / "7.png").read_bytes() == b"my own picture"

    # a list edited by hand names only what it may: other files stay
    (out / ".inkcard-render").write_text("notes.txt\n7.png.bak\n../post.md\n1.png\n")
    (tmp_path / "post.md").write_text("# a pdf now", "utf-8")
    render(tmp_path, "post.md", "--format", "pdf", "--scale", "1", "-o", "out")
    assert sorted(p.name for p in out.iterdir()) == [
        ".inkcard-render",
        "7.png",
        "cards.pdf",
        "notes.txt",
    ]
    assert (tmp_path / "post.md").exists()


@pytest.mark.parametrize(
    ("front", "flags", "said"),
    [
        ("", ["--theme", "apple-notes", "--mode", "neon"], "inkcard: --mode must be one of"),
        ("", ["--theme", "no-such-theme"], "inkcard: --theme must be one of apple-notes"),
        (
            "---\nsplit: sideways\n---\n",
            [],
            "inkcard: the front matter's split must be one of noSplit, autoSplit, hrSplit",
        ),
        (
            "---\ntheme: apple-notes\nmode: neon\n---\n",
            [],
            "inkcard: the front matter's mode must be one of light-mode, dark-mode",
        ),
    ],
)
def test_errors_name_the_commands_flags_not_the_apis_fields(
    tmp_path: Path, front: str, flags: list[str], said: str
) -> None:
    (tmp_path / "post.md").write_text(front + "# hi", "utf-8")
    line = one_line_refusal(render(tmp_path, "post.md", *flags, "-o", "out"))
    assert line.startswith(said), line
    for field in ("themeMode", "splitMode", "overHiddenMode"):
        assert field not in line
    assert not line.startswith("inkcard: theme ")  # the API's field, not the flag
    assert not (tmp_path / "out").exists()


def test_an_input_that_is_not_a_regular_file_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)  # nothing ever writes to it: reading it would wait for ever
    cases = [(fifo, "it is a named pipe"), (tmp_path, "it is a folder")]
    if Path("/dev/null").exists():
        cases.append((Path("/dev/null"), "it is a device"))
    for path, said in cases:
        line = one_line_refusal(render(tmp_path, str(path), "-o", "out"))
        assert line == f"inkcard: cannot read {path}: {said}, not a file (- reads stdin)\n"
    assert not (tmp_path / "out").exists()
    result = render(tmp_path, "-", "--scale", "1", "-o", "out", stdin=b"# from stdin")
    assert result.returncode == 0 and (tmp_path / "out" / "1.png").exists(), result.stderr
