"""The `inkcard` command: `render` and `gallery` (in ``render.py``) draw cards, `xhs-note` (in
``xhsnote.py``) a Xiaohongshu note; `serve`, `keys`
and `credits` run and administer the HTTP service; `mcp` serves the MCP tools over stdio;
`themes` lists the themes and checks a custom theme file.

The HTTP framework (litestar, uvicorn, `app.server.factory`, the MCP SDK) is imported by `serve` and
`mcp` alone, and the database and settings only by the commands that use them, so `render`
works anywhere without touching either; the card engine only by the commands that draw or
list themes, so `mcp` answers its client without waiting for it. Bad arguments get one line
on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from inkcard.app.cli.common import CommandError, OneLineParser
from inkcard.app.cli.common import integer_type as _integer
from inkcard.app.cli.database import add_database_command
from inkcard.app.cli.render import add_gallery_command, add_render_command
from inkcard.app.cli.storage import add_storage_command
from inkcard.app.cli.themecheck import add_themes_command
from inkcard.app.cli.xhsnote import add_xhs_note_command

if TYPE_CHECKING:
    from inkcard.app.ledger.credits import Credits, KeyInfo
    from inkcard.app.settings import Settings


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


def listens_beyond_loopback(host: str) -> bool:
    """Whether a bind address lets other machines in (a wildcard, a name, a LAN address)."""
    import ipaddress

    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True


def announce_serving(settings: Settings, storage_warning: str | None = None) -> None:
    """Print where the playground is; warn (one log line) when other machines can reach the
    service and no public URL is set: file URLs then follow each request's host; and when
    the stored files' URLs do not answer (``storage_warning``)."""
    import logging

    from inkcard.app import logs
    from inkcard.app.settings import database_shown

    print(f"Playground: {settings.service_url}/", flush=True)
    print(f"Database: {database_shown(settings.database)}", flush=True)
    log = logging.getLogger("inkcard.serve")
    logs.configure_logging(settings.log_level)
    if storage_warning:
        log.warning("%s", storage_warning)
    if listens_beyond_loopback(settings.host) and not settings.public_url:
        log.warning(
            "listening on %s without INKCARD_PUBLIC_URL: file URLs follow each request's "
            "Host header; behind a proxy set INKCARD_PUBLIC_URL or INKCARD_TRUSTED_PROXIES",
            settings.host,
        )
    earlier = earlier_database(settings)
    if earlier:
        log.warning("%s to keep using it", earlier)


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the HTTP service with uvicorn."""
    import uvicorn

    from inkcard.app.ledger.credits import Credits
    from inkcard.app.settings import export_for_workers, load_settings, share_metrics_in

    overrides = {
        k: v for k, v in (("host", args.host), ("port", args.port), ("workers", args.workers)) if v
    }
    settings = load_settings(**overrides)
    storage_warning = proved_storage(settings)  # before any line: a failed start says one
    credits = Credits(settings.database)
    opened(settings, credits)
    notice = bootstrap_key(settings, credits)
    if notice:
        print(notice, flush=True)
    announce_serving(settings, storage_warning)
    common: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "access_log": False,
        # INKCARD_TRUSTED_PROXIES is the one rule for forwarding headers, not uvicorn's own.
        "proxy_headers": False,
        "timeout_graceful_shutdown": int(settings.timeout) + 5,
        "log_level": settings.log_level.lower(),
    }
    if settings.workers > 1:
        export_for_workers(settings)
        # The workers share their metrics through files in a folder of this run's own.
        with tempfile.TemporaryDirectory(prefix="inkcard-metrics-") as folder:
            share_metrics_in(Path(folder))
            uvicorn.run(
                "inkcard.app.server.factory:app_from_env",
                factory=True,
                workers=settings.workers,
                **common,
            )
    else:
        share_metrics_in(None)  # one process counts in memory
        from inkcard.app.cli.serving import run_one_process
        from inkcard.app.server.factory import create_app

        run_one_process(create_app(settings), **common)
    return 0


def proved_storage(settings: Settings) -> str | None:
    """The storage of ``settings`` built and proved writable (``SettingsError`` if not, one
    line); a warning when its files' URLs do not answer them."""
    from inkcard.app.cards.service import FOLDER
    from inkcard.app.storage import make_storage
    from inkcard.app.storage.startup import prove_storage

    return prove_storage(settings, make_storage(settings), FOLDER)


def opened(settings: Settings, credits: Credits) -> None:
    """The database migrated, or one line saying it could not be opened (no traceback)."""
    from inkcard.app.errors import ApiError
    from inkcard.app.settings import database_shown

    try:
        credits.ensure_schema()
    except ApiError as exc:
        shown = database_shown(settings.database)
        raise CommandError(f"INKCARD_DATABASE={shown} could not be opened: {exc.message}") from None


# ---------------------------------------------------------------------------------------------
# mcp


def cmd_mcp(args: argparse.Namespace) -> int:
    """Serve the MCP tools to one agent over stdin/stdout (logs go to stderr)."""
    import anyio

    from inkcard.app import logs
    from inkcard.app.errors import ApiError, InvalidApiKey
    from inkcard.app.mcp.stdio import run_stdio
    from inkcard.app.settings import load_settings

    settings = load_settings(**({"api_key": args.api_key} if args.api_key else {}))
    logs.configure_logging(settings.log_level)
    try:
        anyio.run(run_stdio, settings)
    except InvalidApiKey as exc:
        raise CommandError(f"{exc.label}: {exc.message} {in_database(settings)}") from exc
    except ApiError as exc:
        raise CommandError(f"{exc.label}: {exc.message}") from exc
    return 0


def in_database(settings: Settings) -> str:
    """Which key database a refusal looked in (never a password), and how to pick another."""
    from inkcard.app.settings import database_shown

    said = f"(database {database_shown(settings.database)}; "
    return said + (earlier_database(settings) or "INKCARD_HOME or INKCARD_DATABASE choose another)")


EARLIER_DATABASE = Path("data") / "inkcard.db"
"""Where versions before the data directory kept the database: under the working directory."""


def earlier_database(settings: Settings) -> str | None:
    """How to keep using a database an earlier version made here, if there is one."""
    found = EARLIER_DATABASE.resolve()
    if not found.is_file() or Path(settings.database).resolve() == found:
        return None
    return f"{EARLIER_DATABASE} here is from an earlier version: INKCARD_HOME={found.parent}"


# ---------------------------------------------------------------------------------------------
# keys and credits


def _credits() -> Credits:
    from inkcard.app.ledger.credits import Credits
    from inkcard.app.settings import load_settings

    credits = Credits(load_settings().database)
    credits.ensure_schema()
    return credits


SHORTEST_PREFIX = 7
"""The fewest characters of a key's prefix a command takes: `ik_` and four of its own."""


def _prefix(credits: Credits, key_or_prefix: str) -> str:
    """The stored prefix a whole key, a prefix as `keys list` shows it, or its start (at least
    ``SHORTEST_PREFIX`` characters, naming one key) stands for."""
    from inkcard.app.ledger.credits import PREFIX_CHARS, UnknownKey

    given = key_or_prefix.strip()
    if len(given) >= PREFIX_CHARS:
        return given[:PREFIX_CHARS]
    if len(given) < SHORTEST_PREFIX:
        raise CommandError(
            f"give at least {SHORTEST_PREFIX} characters of the key's prefix"
            " (as `inkcard keys list` shows it) or the whole key"
        )
    found = sorted({k.prefix for k in credits.list_keys() if k.prefix.startswith(given)})
    if not found:
        raise UnknownKey(given)
    if len(found) > 1:
        raise CommandError(f"{given} starts several keys' prefixes: {', '.join(found)}")
    return found[0]


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
    credits = _credits()
    print(_key_line(credits.revoke(_prefix(credits, args.prefix))))
    return 0


def cmd_credits_grant(args: argparse.Namespace) -> int:
    """Add credits to a key."""
    credits = _credits()
    print(_key_line(credits.grant(_prefix(credits, args.prefix), args.amount)))
    return 0


def cmd_credits_show(args: argparse.Namespace) -> int:
    """Show a key's balance and recent ledger rows."""
    credits = _credits()
    prefix = _prefix(credits, args.prefix)
    print(_key_line(credits.key_info(prefix)))
    for row in credits.ledger(prefix, args.limit):
        print(
            f"  {row.created_at}  {row.kind:<6}  {row.delta:>+6}  {row.operation:<10}"
            f"  {row.request_id or ''}"
        )
    return 0


MAX_GRANT = 1_000_000_000
"""The most credits one command creates a key with or grants: far above any real balance,
and far below the database's 64-bit integers, so no balance can overflow into a float."""
MAX_LEDGER_ROWS = 1_000_000
MAX_PORT = 65_535


def _add_prefix(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "prefix",
        help=f"the key's prefix as `inkcard keys list` shows it (at least its first"
        f" {SHORTEST_PREFIX} characters), or the whole key",
    )


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


def build_parser() -> argparse.ArgumentParser:
    """The ``inkcard`` argument parser with every subcommand."""
    from inkcard.app import VERSION

    parser = OneLineParser(prog="inkcard", description="Markdown to card images.")
    parser.add_argument("--version", action="version", version=f"inkcard {VERSION}")
    # Each subcommand's parser is a OneLineParser too; the adders take any ArgumentParser.
    sub = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", required=True, metavar="COMMAND"),
    )
    add_render_command(sub)
    add_gallery_command(sub)
    add_xhs_note_command(sub)
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
        from inkcard.app.settings import SettingsError, load_settings

        try:
            return run(args)
        except SettingsError as exc:
            raise CommandError(str(exc)) from exc
        except Exception as exc:
            # the ledger (sqlite-utils, ~0.1 s) is imported here only once it has raised:
            # `inkcard mcp` answers initialize without it
            from inkcard.app.ledger.credits import UnknownKey

            if not isinstance(exc, UnknownKey):
                raise
            said = f"no key has the prefix {exc.args[0]} {in_database(load_settings())}"
            raise CommandError(said, code=1) from exc

    return guarded
