"""The `inkcard` command: `render` turns a Markdown file into card PNGs, `gallery` draws a
sample post in every theme; `serve`, `keys` and `credits` run and administer the HTTP service;
`mcp` serves the MCP tools over stdio; `themes check` reads a custom theme file.

The HTTP framework (litestar, uvicorn, `app.main`, the MCP SDK) is imported by `serve` and
`mcp` alone, and the database and settings only by the commands that use them, so `render`
works anywhere without touching either. Bad arguments get one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

import layout
import themes
from app.cli.database import add_database_command
from app.cli.storage import add_storage_command
from app.cli.themecheck import add_themes_command
from app.models import MAX_MARKDOWN_CHARS

if TYPE_CHECKING:
    from app.cards.request import CardRequest
    from app.ledger.credits import Credits, KeyInfo
    from app.settings import Settings


MAX_MARKDOWN_BYTES = 4 * MAX_MARKDOWN_CHARS
"""The most bytes of Markdown read (and one more, to tell): a UTF-8 character is at most 4
bytes, so a longer input is over the API's character limit for certain."""


class CommandError(Exception):
    """A command cannot do what was asked; the message is the whole story."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


# ---------------------------------------------------------------------------------------------
# serve


def curl_example(settings: Settings, key: str) -> str:
    """A ready-to-paste curl command that makes one card with ``key``."""
    body = json.dumps({"markdown": "# Hello, Inkcard\n\nMy first card."})
    return (
        f"curl -s {settings.service_url}/api/generate -H 'x-api-key: {key}' "
        f"-H 'Content-Type: application/json' -d '{body}'"
    )


def bootstrap_key(settings: Settings, credits: Credits) -> str | None:
    """On an empty key table, create the first key and return the text announcing it."""
    if not settings.bootstrap_key or credits.key_count() > 0:
        return None
    key, info = credits.create_key("bootstrap", settings.bootstrap_credits)
    return "\n".join(
        [
            "",
            f"Created the first API key ({info.balance} credits). It is shown only this once:",
            "",
            f"    {key}",
            "",
            "Make a card:",
            "",
            f"    {curl_example(settings, key)}",
            "",
            "More keys: inkcard keys create --name NAME. "
            "Turn this off with INKCARD_BOOTSTRAP_KEY=0.",
            "",
        ]
    )


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the HTTP service with uvicorn."""
    import uvicorn

    from app.ledger.credits import Credits
    from app.settings import export_for_workers, load_settings, share_metrics_in

    overrides = {
        k: v for k, v in (("host", args.host), ("port", args.port), ("workers", args.workers)) if v
    }
    settings = load_settings(**overrides)
    credits = Credits(settings.database)
    credits.ensure_schema()
    notice = bootstrap_key(settings, credits)
    if notice:
        print(notice, flush=True)
    common: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "access_log": False,
        "timeout_graceful_shutdown": int(settings.timeout) + 5,
        "log_level": settings.log_level.lower(),
    }
    if settings.workers > 1:
        export_for_workers(settings)
        # The workers share their metrics through files in a folder of this run's own.
        with tempfile.TemporaryDirectory(prefix="inkcard-metrics-") as folder:
            share_metrics_in(Path(folder))
            uvicorn.run(
                "app.server.factory:app_from_env",
                factory=True,
                workers=settings.workers,
                **common,
            )
    else:
        share_metrics_in(None)  # one process counts in memory
        from app.cli.serving import run_one_process
        from app.server.factory import create_app

        run_one_process(create_app(settings), **common)
    return 0


# ---------------------------------------------------------------------------------------------
# mcp


def cmd_mcp(args: argparse.Namespace) -> int:
    """Serve the MCP tools to one agent over stdin/stdout (logs go to stderr)."""
    import anyio

    from app import logs
    from app.errors import ApiError
    from app.mcp.stdio import run_stdio, stdio_caller
    from app.services import build_services
    from app.settings import load_settings

    settings = load_settings(**({"api_key": args.api_key} if args.api_key else {}))
    logs.configure_logging(settings.log_level)
    caller = stdio_caller(settings)
    try:
        anyio.run(run_stdio, build_services(settings), caller)
    except ApiError as exc:
        raise CommandError(f"{exc.label}: {exc.message}") from exc
    return 0


# ---------------------------------------------------------------------------------------------
# keys and credits


def _credits() -> Credits:
    from app.ledger.credits import Credits
    from app.settings import load_settings

    credits = Credits(load_settings().database)
    credits.ensure_schema()
    return credits


def _prefix(key_or_prefix: str) -> str:
    """The prefix of a whole key, or the prefix itself."""
    from app.ledger.credits import PREFIX_CHARS

    return key_or_prefix[:PREFIX_CHARS]


def _key_line(info: KeyInfo) -> str:
    state = f"revoked {info.revoked_at}" if info.revoked_at else "active"
    return f"{info.prefix}  {info.balance:>8}  {info.created_at}  {state:<10}  {info.name}"


def cmd_keys_create(args: argparse.Namespace) -> int:
    """Create a key and print it (the only time it is shown)."""
    key, info = _credits().create_key(args.name, args.credits)
    print(key)
    print(
        f"prefix {info.prefix}, {info.balance} credits. Store the key now: it is not shown again.",
        file=sys.stderr,
    )
    return 0


def cmd_keys_list(_: argparse.Namespace) -> int:
    """List keys by prefix with balances."""
    print(f"{'prefix':<8}  {'balance':>8}  {'created':<29}  {'state':<10}  name")
    for info in _credits().list_keys():
        print(_key_line(info))
    return 0


def cmd_keys_revoke(args: argparse.Namespace) -> int:
    """Revoke a key by prefix."""
    print(_key_line(_credits().revoke(_prefix(args.prefix))))
    return 0


def cmd_credits_grant(args: argparse.Namespace) -> int:
    """Add credits to a key."""
    print(_key_line(_credits().grant(_prefix(args.prefix), args.amount)))
    return 0


def cmd_credits_show(args: argparse.Namespace) -> int:
    """Show a key's balance and recent ledger rows."""
    credits = _credits()
    prefix = _prefix(args.prefix)
    print(_key_line(credits.key_info(prefix)))
    for row in credits.ledger(prefix, args.limit):
        print(
            f"  {row.created_at}  {row.kind:<6}  {row.delta:>+6}  {row.operation:<10}"
            f"  {row.request_id or ''}"
        )
    return 0


def _integer(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high` (no upper bound: None)."""
    said = f"an integer between {low} and {high}" if high is not None else f"an integer >= {low}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {said}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text} is not {said}")
        return value

    return parse


def _number(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number from `low` to `high`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not low <= value <= high:  # NaN fails too
            raise argparse.ArgumentTypeError(f"{text!r} is not a number between {low} and {high}")
        return value

    return parse


MAX_GRANT = 1_000_000_000
"""The most credits one command creates a key with or grants: far above any real balance,
and far below the database's 64-bit integers, so no balance can overflow into a float."""
MAX_LEDGER_ROWS = 1_000_000
MAX_PORT = 65_535


def _add_prefix(command: argparse.ArgumentParser) -> None:
    command.add_argument("prefix", help="the key's prefix, or the whole key")


def _add_admin_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    keys = sub.add_parser("keys", help="create, list and revoke API keys").add_subparsers(
        required=True
    )
    p = keys.add_parser("create", help="create a key and print it once")
    p.add_argument("--name", required=True)
    p.add_argument("--credits", type=_integer(0, MAX_GRANT), default=0)
    p.set_defaults(run=_service_command(cmd_keys_create))
    keys.add_parser("list", help="list keys").set_defaults(run=_service_command(cmd_keys_list))
    p = keys.add_parser("revoke", help="revoke a key by its prefix")
    _add_prefix(p)
    p.set_defaults(run=_service_command(cmd_keys_revoke))

    credits = sub.add_parser("credits", help="grant and show credits").add_subparsers(required=True)
    p = credits.add_parser("grant", help="add credits to a key")
    _add_prefix(p)
    p.add_argument("amount", type=_integer(1, MAX_GRANT))
    p.set_defaults(run=_service_command(cmd_credits_grant))
    p = credits.add_parser("show", help="balance and recent ledger rows")
    _add_prefix(p)
    p.add_argument("--limit", type=_integer(1, MAX_LEDGER_ROWS), default=20)
    p.set_defaults(run=_service_command(cmd_credits_show))


# ---------------------------------------------------------------------------------------------
# render (the card engine's command)


def add_render_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from app.models import GenerateRequest

    default = GenerateRequest()  # the API's defaults are the command's
    render = commands.add_parser("render", help="render a Markdown file to card images or a PDF")
    render.add_argument("markdown", type=Path, help="the Markdown file ('-' for stdin)")
    # theme, mode and split: None unless given, so a front matter's values apply
    render.add_argument("--theme", default=None, help=f"default: {default.theme}")
    render.add_argument("--mode", default=None, help="theme mode, e.g. dark-mode")
    render.add_argument(
        "--split", default=None, choices=layout.SPLIT_MODES, help=f"default: {default.splitMode}"
    )
    render.add_argument(
        "--width", type=_number(*layout.CARD_LIMITS["width"]), default=default.width
    )
    render.add_argument(
        "--height", type=_number(*layout.CARD_LIMITS["height"]), default=default.height
    )
    render.add_argument(
        "--scale", type=_integer(*layout.CARD_LIMITS["scale"]), default=default.scale
    )
    render.add_argument("--overflow-hidden", action="store_true")
    render.add_argument(
        "--format",
        default=default.format,
        choices=layout.FORMATS,
        help="one file per card (png, jpeg, webp) or one cards.pdf of all",
    )
    render.add_argument(
        "--quality", type=_integer(1, 100), default=default.quality, help="jpeg, webp"
    )
    render.add_argument("--fonts", type=Path, default=layout.DEFAULT_FONTS_DIR)
    render.add_argument("-o", "--out", type=Path, default=Path("out"))
    render.set_defaults(run=run_render)


def card_request(
    args: argparse.Namespace, markdown: str, lookup: Callable[[str], layout.Theme] | None = None
) -> CardRequest:
    """The render command's arguments as the normalised request the HTTP API would make of
    the same fields: checked by the API's own parser (the Markdown's length included) and
    normalised as the API does (theme and mode checked), with the API's messages.

    Raises:
        CommandError: A field the API would refuse, an unknown theme or theme mode.
    """
    from app.cards.request import normalise
    from app.errors import ApiError
    from app.models import parse_generate

    fields = {
        "markdown": markdown,
        "theme": args.theme,
        "themeMode": args.mode,
        "width": args.width,
        "height": args.height,
        "splitMode": args.split,
        "overHiddenMode": args.overflow_hidden,
        "scale": args.scale,
        "format": args.format,
        "quality": args.quality,
    }
    try:
        return normalise(parse_generate(msgspec.json.encode(fields)), lookup or theme_lookup())
    except ApiError as error:
        raise CommandError(error.message) from error


def theme_lookup() -> Callable[[str], layout.Theme]:
    """The render command's themes: the built-in ones, decoded one at a time, or with
    ``INKCARD_THEMES_DIR`` set, the service's catalogue of built-in and custom themes."""
    from app.settings import SettingsError, load_settings

    try:
        folder = load_settings().themes_dir
    except SettingsError as error:
        raise CommandError(str(error)) from error
    if not folder:
        return themes.load_one
    return themes.builtin().with_custom(folder).get


def run_render(args: argparse.Namespace) -> int:
    text, base = _read_markdown(args.markdown)
    lookup = theme_lookup()
    card = card_request(args, text, lookup)
    theme = lookup(card.theme)
    from app.settings import Settings

    defaults = Settings()  # the service's budgets, as on its embedded defaults
    options = card.render_options(defaults.max_output_pixels, defaults.max_image_pixels)
    with _engine_errors():
        doc = layout.parse_post(text, card.mdx)
        fonts = layout.FontBook.load(args.fonts)
        files = layout.render(doc, theme, fonts, options, read_local_images(doc.images, base))
    with _write_errors(args.out):
        args.out.mkdir(parents=True, exist_ok=True)
        extension = layout.EXTENSIONS[card.format]
        for number, data in enumerate(files, start=1):
            path = args.out / ("cards.pdf" if card.format == "pdf" else f"{number}.{extension}")
            path.write_bytes(data)
            print(path)
    return 0


@contextmanager
def _engine_errors() -> Iterator[None]:
    """A refusal of the engine (a font, a limit, the Markdown) or running out of memory as
    one line."""
    try:
        yield
    except layout.EngineError as error:
        raise CommandError(str(error)) from error
    except MemoryError:
        raise CommandError(
            "out of memory drawing the cards; use a smaller --scale, smaller cards or "
            "--split autoSplit",
            code=1,
        ) from None


@contextmanager
def _write_errors(out: Path) -> Iterator[None]:
    """A failure to write into ``out`` as one line."""
    try:
        yield
    except OSError as error:
        raise CommandError(f"cannot write {out}: {error.strerror or error}") from error


def _read_markdown(source: Path) -> tuple[str, Path]:
    """The Markdown text and the folder its images are read from ('-' is stdin).

    At most ``MAX_MARKDOWN_BYTES`` and one more are read, so an endless or huge input is
    refused without being read whole.
    """
    if str(source) == "-":
        data, base = sys.stdin.buffer.read(MAX_MARKDOWN_BYTES + 1), Path.cwd()
    else:
        try:
            with source.open("rb") as file:
                data, base = file.read(MAX_MARKDOWN_BYTES + 1), source.parent
        except OSError as error:
            raise CommandError(f"cannot read {source}: {error.strerror or error}") from error
    if len(data) > MAX_MARKDOWN_BYTES:
        raise CommandError(
            f"markdown must be at most {MAX_MARKDOWN_CHARS:,} characters "
            f"({source} is longer than {MAX_MARKDOWN_BYTES:,} bytes)"
        )
    try:
        return data.decode("utf-8"), base
    except UnicodeDecodeError as error:
        raise CommandError(f"{source} is not UTF-8 text ({error.reason})") from error


def read_local_images(sources: Iterable[str], base: Path) -> dict[str, bytes]:
    """The CLI may read image files next to the Markdown (the HTTP API never does).

    A file is read only when it is no larger than the largest image the service downloads;
    a larger one, like a missing one, is drawn as the placeholder (said on stderr).
    """
    from app.settings import FETCH_MAX_BYTES

    found: dict[str, bytes] = {}
    for src in sources:
        if "://" in src or src.startswith("data:"):
            continue
        try:
            path = (base / src).resolve()
            if not path.is_file():
                continue
        except (OSError, ValueError):  # a name too long for a path, say: no such file
            continue
        try:
            with path.open("rb") as file:
                data = file.read(FETCH_MAX_BYTES + 1)
        except OSError as error:
            print(f"inkcard: image {src}: cannot read: {error.strerror or error}", file=sys.stderr)
            continue
        if len(data) > FETCH_MAX_BYTES:
            print(
                f"inkcard: image {src} is larger than {FETCH_MAX_BYTES:,} bytes; drawn as a"
                " placeholder",
                file=sys.stderr,
            )
            continue
        found[src] = data
    return found


# ---------------------------------------------------------------------------------------------
# gallery


def add_gallery_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    gallery = commands.add_parser(
        "gallery", help="render a sample post in every theme and mode, plus a contact sheet"
    )
    gallery.add_argument("-o", "--out", type=Path, required=True, help="folder to write into")
    gallery.add_argument("--post", type=Path, help="a Markdown file instead of the sample post")
    gallery.add_argument("--scale", type=_number(0.25, 4), default=2, help="default 2")
    gallery.add_argument(
        "--sheet-only", action="store_true", help="write only contact-sheet.png (for docs/gallery)"
    )
    gallery.add_argument(
        "--sizes",
        action="store_true",
        help="write only <theme>.jpg: its modes at six card sizes (for docs/gallery/sizes)",
    )
    gallery.add_argument("--fonts", type=Path, default=layout.DEFAULT_FONTS_DIR)
    gallery.set_defaults(run=run_gallery)


def run_gallery(args: argparse.Namespace) -> int:
    """`<theme>[-<mode>].png` for every theme-mode and `contact-sheet.png`, one path a line."""
    from app.cards import gallery

    post = _read_markdown(args.post)[0] if args.post else gallery.SAMPLE_POST
    with _write_errors(args.out), _engine_errors():
        fonts = layout.FontBook.load(args.fonts)
        if args.sizes:
            paths = gallery.write_sizes(args.out, themes.builtin(), fonts, post)
        else:
            paths = gallery.write_gallery(
                args.out, themes.builtin(), fonts, args.scale, post, cards=not args.sheet_only
            )
    for path in paths:
        print(path)
    return 0


# ---------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The ``inkcard`` argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="inkcard", description="Markdown to card images.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_render_command(sub)
    add_gallery_command(sub)
    p = sub.add_parser("serve", help="run the HTTP service")
    p.add_argument("--host", help="bind address (default 127.0.0.1, or INKCARD_HOST)")
    p.add_argument(
        "--port", type=_integer(1, MAX_PORT), help="port (default 8000, or INKCARD_PORT)"
    )
    p.add_argument("--workers", type=_integer(1), help="uvicorn worker processes (default 1)")
    p.set_defaults(run=_service_command(cmd_serve))
    p = sub.add_parser("mcp", help="serve the MCP tools over stdio (for desktop agents)")
    p.add_argument("--api-key", help="the API key the tools use (default: INKCARD_API_KEY)")
    p.set_defaults(run=_service_command(cmd_mcp))
    _add_admin_commands(sub)
    add_themes_command(sub)
    add_storage_command(sub)
    add_database_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``inkcard`` command."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except CommandError as exc:
        print(f"inkcard: {exc}", file=sys.stderr)
        return exc.code


def _service_command(run: Callable[[argparse.Namespace], int]) -> Callable[..., int]:
    """`run` with the service's own errors (bad settings, unknown key) said in one line."""

    def guarded(args: argparse.Namespace) -> int:
        from app.ledger.credits import UnknownKey
        from app.settings import SettingsError

        try:
            return run(args)
        except SettingsError as exc:
            raise CommandError(str(exc)) from exc
        except UnknownKey as exc:
            raise CommandError(f"no key has the prefix {exc.args[0]}", code=1) from exc

    return guarded
