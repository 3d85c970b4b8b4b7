"""`inkcard storage prune --older-than DAYS [--dry-run]`: retention for the configured storage
engine (local, gcs or s3), by the same ``INKCARD_*`` settings as the service."""

from __future__ import annotations

import argparse
import sys

MAX_DAYS = 1e5  # days: far beyond any retention (as 1e5, not in digits like the Markdown limit)


def _days(text: str) -> float:
    try:
        days = float(text)
    except ValueError:
        days = float("nan")
    if not 0 <= days <= MAX_DAYS:  # NaN fails too
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of days between 0 and {MAX_DAYS:g}"
        )
    return days


def cmd_storage_prune(args: argparse.Namespace) -> int:
    """Delete card sets older than ``--older-than`` days; print what went (or would go)."""
    from inkcard.app.cards.covers import FOLDER as COVERS
    from inkcard.app.cards.service import FOLDER as CARDS
    from inkcard.app.errors import StorageError
    from inkcard.app.settings import SettingsError, load_settings
    from inkcard.app.storage import make_storage
    from inkcard.app.storage.prune import prune

    try:
        settings = load_settings()
        storage = make_storage(settings)
        report = prune(storage, (CARDS, COVERS), args.older_than, dry_run=args.dry_run)
    except SettingsError as exc:
        print(f"inkcard: {exc}", file=sys.stderr)
        return 2
    except StorageError as exc:
        print(f"inkcard: {exc.message}", file=sys.stderr)
        return 1
    for name in report.names:
        print(name)
    verb = "would remove" if args.dry_run else "removed"
    print(
        f"{verb} {report.count} files, {report.bytes} bytes, older than {args.older_than:g} days"
        f" ({settings.storage} storage)"
    )
    return 0


def add_storage_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    storage = commands.add_parser("storage", help="look after stored card files")
    actions = storage.add_subparsers(required=True, metavar="ACTION")
    prune = actions.add_parser(
        "prune",
        help="delete stored cards older than DAYS (their URLs stop working)",
        description="Delete card sets (images and their manifest) whose newest file is older "
        "than DAYS, from the storage INKCARD_STORAGE names. Bucket lifecycle rules are the "
        "alternative for gcs and s3 (docs/operations.md).",
    )
    prune.add_argument(
        "--older-than", type=_days, required=True, metavar="DAYS", help="age in days (0.5: 12 h)"
    )
    prune.add_argument("--dry-run", action="store_true", help="list what would go, delete nothing")
    prune.set_defaults(run=cmd_storage_prune)
