"""`inkcard db backup PATH`: a consistent copy of the SQLite service database while the
service runs (SQLite's online backup). PostgreSQL is backed up with `pg_dump`
(docs/operations.md#backups-and-restore)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def cmd_db_backup(args: argparse.Namespace) -> int:
    """Write the database INKCARD_DATABASE names to ``args.path``; refuse to overwrite."""
    from inkcard.app.errors import DatabaseBusy
    from inkcard.app.ledger.database import open_store
    from inkcard.app.settings import SettingsError, load_settings

    target: Path = args.path
    if target.exists():
        print(f"inkcard: {target} already exists; name a new file", file=sys.stderr)
        return 2
    try:
        settings = load_settings()
        store = open_store(settings.database)
        store.backup(target)
    except SettingsError as exc:
        print(f"inkcard: {exc}", file=sys.stderr)
        return 2
    except NotImplementedError:
        print(
            "inkcard: the database is PostgreSQL: back it up with pg_dump"
            ' (pg_dump --format=custom --file=inkcard.dump "$INKCARD_DATABASE")',
            file=sys.stderr,
        )
        return 2
    except DatabaseBusy as exc:
        print(f"inkcard: {exc.message}", file=sys.stderr)
        return 1
    print(f"backed up {settings.database} to {target} ({target.stat().st_size} bytes)")
    return 0


def add_database_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    database = commands.add_parser("db", help="back up the service database")
    actions = database.add_subparsers(required=True, metavar="ACTION")
    backup = actions.add_parser(
        "backup",
        help="copy the SQLite database to PATH while the service runs",
        description="Copy the SQLite database INKCARD_DATABASE names to PATH, consistent, "
        "while the service keeps running (SQLite's online backup). Restore: stop the service, "
        "put the copy in the database's place, start it. PostgreSQL: use pg_dump.",
    )
    backup.add_argument("path", type=Path, help="the new file to write (must not exist)")
    backup.set_defaults(run=cmd_db_backup)
