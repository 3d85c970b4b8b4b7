"""`inkcard render` as a user runs it: a Markdown file in, numbered PNG cards out."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from inkcard import layout
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
            "inkcard.app.cli",
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
            "inkcard.app.cli",
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


@pytest.mark.parametrize("name", ["../apple-notes", "", "apple-notes/card.toml"])
def test_a_theme_name_is_a_theme_folder_and_nothing_else(name: str) -> None:
    from inkcard import themes

    with pytest.raises(themes.UnknownTheme):
        themes.load_one(name)


def test_render_reads_one_theme_file_as_the_catalogue_reads_it() -> None:
    """`inkcard render` decodes its one theme alone; it must equal the catalogue's copy."""
    from inkcard import themes

    for name in themes.names():
        assert themes.load_one(name) == themes.load(name), name


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


# What `inkcard render` of a post without code or long English words must not load: the
# HTTP framework, the database and storage clients, custom-theme and CSS parsers, pygments,
# the hyphenation dictionaries, fontTools, numpy, Pillow, the diagram engine (each costs
# cold start).
NOT_FOR_RENDER = (
    "numpy",
    "PIL",
    "litestar",
    "uvicorn",
    "inkcard.app.server.factory",
    "sqlite_utils",
    "sqlite3",
    "psycopg",
    "google.cloud",
    "httpx",
    "inkcard.themes.custom",
    "tinycss2",
    "pygments",
    "pyphen",
    "fontTools",
    "ziamath",
    "prometheus_client",
    "latex2mathml",
    "inkcard.layout.diagrams.fit",  # the parsers and layouts: on a post's first diagram
    "inkcard.layout.diagrams.mermaid",
    "grandalf",
    "urllib.request",  # with http.client, ssl and email: what xml.sax.saxutils imports
    "ssl",
    "yaml",  # on a post's first front matter
    "xml.etree.ElementTree",  # with the math engine, on a post's first formula
)


def test_render_imports_no_http_framework_and_leaves_no_data_folder(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# hi\n\n- [x] done 中文", "utf-8")
    script = (
        "import sys\n"
        "from inkcard.app.cli import main\n"
        "code = main(['render', 'a.md', '--theme', 'cyberpunk', '-o', 'cards'])\n"
        f"loaded = [m for m in {NOT_FOR_RENDER!r} if m in sys.modules]\n"
        "print(code, loaded, 'skia' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert result.stdout.splitlines()[-1] == "0 [] True"  # the check itself sees modules
    assert png_size((tmp_path / "cards" / "1.png").read_bytes()) == (880, 1172)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "cards"]


def test_key_and_credit_commands_load_no_http_framework(tmp_path: Path) -> None:
    """Only `serve` needs Litestar and uvicorn; the admin commands talk to the database alone."""
    script = (
        "import sys\n"
        "from inkcard.app.cli import main\n"
        "codes = [main(['keys', 'create', '--name', 'a', '--credits', '5']),"
        " main(['keys', 'list']), main(['credits', 'grant', sys.argv[1], '1'])]\n"
        "server = ('litestar', 'uvicorn', 'inkcard.app.server.factory')\n"
        "loaded = [m for m in server if m in sys.modules]\n"
        "print(codes, loaded)\n"
    )
    env = {**os.environ, "INKCARD_DATABASE": str(tmp_path / "db")}
    first = subprocess.run(
        [sys.executable, "-c", script, "ik_"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    prefix = next(w for w in first.stdout.split() if w.startswith("ik_"))[:8]
    result = subprocess.run(
        [sys.executable, "-c", script, prefix],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.splitlines()[-1] == "[0, 0, 0] []"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scale", "0"], "argument --scale: 0 is not an integer between 1 and 4"),
        (["--scale", "5"], "argument --scale: 5 is not an integer between 1 and 4"),
        (["--scale", "1.5"], "argument --scale: '1.5' is not an integer between 1 and 4"),
        (["--width", "0"], "argument --width: '0' is not a number between 100 and 1600"),
        (["--width", "nan"], "argument --width: 'nan' is not a number between 100 and 1600"),
        (["--height", "4001"], "argument --height: '4001' is not a number between 100 and 4000"),
    ],
)
def test_render_refuses_what_the_api_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    from inkcard.app.cli import main

    (tmp_path / "a.md").write_text("# hi", "utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["render", str(tmp_path / "a.md"), "-o", str(tmp_path / "out"), *args])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err == f"inkcard render: error: {message}; see inkcard render --help\n"  # one line
    assert "Traceback" not in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read {path}: No such file or directory"),
        (b"# \xff\xfe", "{path} is not UTF-8 text (invalid start byte)"),
    ],
)
def test_render_says_in_one_line_why_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, message: str
) -> None:
    from inkcard.app.cli import main

    path = tmp_path / "post.md"
    if content is not None:
        path.write_bytes(content)
    code = main(["render", str(path), "-o", str(tmp_path / "out")])
    assert code == 2
    assert capsys.readouterr().err == f"inkcard: {message.format(path=path)}\n"
    assert not (tmp_path / "out").exists()


def test_render_reports_a_render_error_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from inkcard.app.cli import main

    path = tmp_path / "many.md"
    path.write_text("\n\n---\n\n".join(f"part {n}" for n in range(60)), "utf-8")
    code = main(["render", str(path), "--split", "hrSplit", "-o", str(tmp_path / "out")])
    assert code == 2
    assert (
        capsys.readouterr().err == "inkcard: the content makes 60 cards; at most 50 are allowed\n"
    )


@pytest.mark.parametrize(
    ("fmt", "names"),
    [("jpeg", ["1.jpg", "2.jpg"]), ("webp", ["1.webp", "2.webp"]), ("pdf", ["cards.pdf"])],
)
def test_render_writes_the_format_asked_for(tmp_path: Path, fmt: str, names: list[str]) -> None:
    import io

    import pypdf
    import skia

    from inkcard.app.cli import main

    post = tmp_path / "a.md"
    post.write_text("# One\n\nfirst\n\n---\n\n# Two\n\nsecond", "utf-8")
    out = tmp_path / "out"
    args = ["render", str(post), "--split", "hrSplit", "--scale", "1", "--format", fmt]
    assert main([*args, "--quality", "60", "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [".inkcard-render", *names]
    if fmt == "pdf":
        assert len(pypdf.PdfReader(io.BytesIO((out / "cards.pdf").read_bytes())).pages) == 2
        return
    for name in names:
        data = skia.Data.MakeWithCopy((out / name).read_bytes())
        image = skia.Image.MakeFromEncoded(data)
        assert (image.width(), image.height()) == (440, 586)


@pytest.mark.parametrize(
    "args", [["--format", "gif"], ["--format", "jpeg", "--quality", "0"], ["--quality", "x"]]
)
def test_render_refuses_a_bad_format_or_quality(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    from inkcard.app.cli import main

    (tmp_path / "a.md").write_text("# ok", "utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["render", str(tmp_path / "a.md"), "-o", str(tmp_path / "out"), *args])
    assert exit_.value.code == 2
    assert f"argument {args[-2]}:" in capsys.readouterr().err  # names the bad option
    assert not (tmp_path / "out").exists()


# Hostile input: the CLI holds every input to the API's limits and answers in one line. Each
# run is the real command in a process held to 1 GiB of address space (a plain render needs
# about half of that), so an unbounded read or drawing shows as a MemoryError, not a swapped
# machine.
MEMORY_BOUND = 1024**3


def _bounded_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BOUND, MEMORY_BOUND))


def run_bounded(
    args: list[str], cwd: Path, stdin: int | None = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inkcard.app.cli", *args],
        cwd=cwd,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_bounded_memory,
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], starts: str) -> None:
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(starts), result.stderr
    assert result.stdout == ""


TALL_POST = "\n\n".join(["a paragraph of text"] * 300)


@pytest.mark.parametrize(
    ("post", "args", "message"),
    [
        ("/dev/zero", [], "inkcard: cannot read /dev/zero: it is a device, not a file"),
        ("big", [], "inkcard: markdown must be at most 100,000 characters"),
        ("wide", [], "inkcard: markdown must be at most 100,000 characters (got 100,001)"),
        ("tall", ["--width", "1600", "--scale", "4"], "inkcard: a card would be 6400x"),
        ("tall", ["--format", "webp"], "inkcard: a card would be 880x"),
        ("tall", ["--format", "jpeg", "--width", "1600", "--scale", "4"], "inkcard: a card "),
        (
            "tall",
            ["--split", "autoSplit", "--width", "1600", "--height", "4000", "--scale", "4"],
            "inkcard: the cards would have",
        ),
    ],
)
def test_render_holds_hostile_input_to_the_api_limits(
    tmp_path: Path, post: str, args: list[str], message: str
) -> None:
    files = {
        "big": "word " * 2_000_000,  # 10 MB
        "wide": "中" * 100_001,  # under the byte bound, over the character limit
        "tall": TALL_POST,
    }
    if post in files:
        (tmp_path / "post.md").write_text(files[post], "utf-8")
        post = "post.md"
    result = run_bounded(["render", post, "-o", "out", *args], tmp_path)
    assert_one_line_error(result, message)
    assert not (tmp_path / "out").exists()


def test_render_reads_endless_stdin_only_up_to_the_limit(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zeros:
        result = run_bounded(["render", "-", "-o", "out"], tmp_path, stdin=zeros.fileno())
    assert_one_line_error(result, "inkcard: markdown must be at most 100,000 characters")


def test_render_draws_an_image_file_over_the_fetch_limit_as_a_placeholder(
    tmp_path: Path,
) -> None:
    from inkcard.app.settings import FETCH_MAX_BYTES

    with (tmp_path / "huge.png").open("wb") as image:
        image.truncate(50 * FETCH_MAX_BYTES)  # sparse: costs no disk
    (tmp_path / "post.md").write_text("# hi\n\n![a picture](huge.png)", "utf-8")
    result = run_bounded(["render", "post.md", "-o", "out"], tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stderr == (
        f"inkcard: image huge.png is larger than {FETCH_MAX_BYTES:,} bytes; drawn as a"
        " placeholder\n"
    )
    assert result.stdout.split() == [str(Path("out") / "1.png")]


def test_render_draws_an_image_named_past_the_file_system_limits_as_a_placeholder(
    tmp_path: Path,
) -> None:
    (tmp_path / "post.md").write_text("![x](" + "a" * 5_000 + ".png)", "utf-8")
    result = run_bounded(["render", "post.md", "-o", "out"], tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stderr == ""
    assert result.stdout.split() == [str(Path("out") / "1.png")]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "larger than 1,048,576 bytes"),  # /dev/zero
        ("a = " + "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("name = 'x'\na = " + "{b = " * 5_000 + "1" + "}" * 5_000, "nested too deeply"),
    ],
)
def test_themes_check_says_in_one_line_why_a_hostile_file_is_broken(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = "/dev/zero"
    if content is not None:
        (tmp_path / "t.toml").write_text(content, "utf-8")
        path = "t.toml"
    result = run_bounded(["themes", "check", path], tmp_path)
    assert result.returncode == 1
    assert result.stdout == f"broken, would be skipped: {path}: {message}\n"
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["credits", "grant", "ik_abcde", "99999999999999999999"],
            "argument amount: 99999999999999999999 is not an integer between 1 and 1000000000",
        ),
        (
            ["keys", "create", "--name", "a", "--credits", "9223372036854775807"],
            "argument --credits: 9223372036854775807 is not an integer between 0 and 1000000000",
        ),
        (
            ["credits", "show", "ik_abcde", "--limit", "99999999999999999999"],
            "argument --limit: 99999999999999999999 is not an integer between 1 and 1000000",
        ),
        (["serve", "--port", "99999"], "argument --port: 99999 is not an integer between 1 and"),
        (["serve", "--workers", "0"], "argument --workers: 0 is not an integer >= 1"),
    ],
)
def test_admin_numbers_are_bounded_before_the_database_sees_them(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    """A number SQLite cannot hold (OverflowError), one that would turn a balance into a
    float, a port that cannot be bound, no workers: refused as arguments, in one line."""
    from inkcard.app.cli import main

    monkeypatch.setenv("INKCARD_DATABASE", str(tmp_path / "db"))
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith(f"inkcard {argv[0]}")
    assert message in err.splitlines()[-1]
    assert "Traceback" not in err
    assert not (tmp_path / "db").exists()
