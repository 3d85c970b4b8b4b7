"""The ``brands`` table: one row per (API key, kit name), the checked kit as msgpack.

A kit is saved whole or not at all (one statement), read back by its key and name when a
card request names it, listed, and deleted. A key holds at most ``MAX_BRANDS`` kits, so a
key cannot fill the database with them (each is up to ~9 MiB of fonts and images).
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from inkcard.app.errors import InvalidField, NotFound
from inkcard.app.ledger.database import open_store
from inkcard.app.schema.brand import BrandKitInfo
from inkcard.layout.style import BrandKit

MAX_BRANDS = 20


class StoredBrand(msgspec.Struct, frozen=True):
    """What a row holds: the engine's kit and the summary GET shows."""

    kit: BrandKit
    info: BrandKitInfo


class BrandStore:
    """Brand kits in the service database (SQLite or PostgreSQL)."""

    def __init__(self, database: str | Path, busy_timeout: float = 5.0):
        self.store = open_store(database, busy_timeout)

    def put(self, key_id: int, brand: StoredBrand) -> bool:
        """Save (or replace) the kit; True when it is new.

        Raises:
            InvalidField: ``too_many_brands``: the key already holds ``MAX_BRANDS`` others.
        """
        blob = msgspec.msgpack.encode(brand)
        name = brand.info.name
        with self.store.write() as db:
            count, same = db.execute(
                "SELECT COUNT(*), SUM(CASE WHEN name = ? THEN 1 ELSE 0 END) FROM brands"
                " WHERE key_id = ?",
                [name, key_id],
            ).fetchone()
            if not same and int(count) >= MAX_BRANDS:
                raise InvalidField(
                    f"a key holds at most {MAX_BRANDS} brand kits; delete one first",
                    label="too_many_brands",
                )
            db.execute(
                "INSERT INTO brands (key_id, name, kit, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (key_id, name) DO UPDATE SET kit = excluded.kit,"
                " updated_at = excluded.updated_at",
                [key_id, name, blob, brand.info.updatedAt],
            )
        return not same

    def get(self, key_id: int, name: str) -> StoredBrand | None:
        """The key's kit called ``name``; None when it has none."""
        with self.store.read() as db:
            row = db.execute(
                "SELECT kit FROM brands WHERE key_id = ? AND name = ?", [key_id, name]
            ).fetchone()
        return None if row is None else msgspec.msgpack.decode(bytes(row[0]), type=StoredBrand)

    def require(self, key_id: int, name: str, field: str = "brand") -> BrandKit:
        """The kit a request names; an unknown name is a 400 (nothing is charged).

        Raises:
            InvalidField: ``invalid_brand``.
        """
        found = self.get(key_id, name)
        if found is None:
            raise InvalidField(
                f"{field} names no brand kit of this key ({name[:40]!r}); GET /api/brands"
                " lists them",
                label="invalid_brand",
            )
        return found.kit

    def infos(self, key_id: int) -> list[BrandKitInfo]:
        """Every kit of the key, by name."""
        with self.store.read() as db:
            rows = db.execute(
                "SELECT kit FROM brands WHERE key_id = ? ORDER BY name", [key_id]
            ).fetchall()
        return [msgspec.msgpack.decode(bytes(row[0]), type=StoredBrand).info for row in rows]

    def delete(self, key_id: int, name: str) -> None:
        """Remove the key's kit called ``name``.

        Raises:
            NotFound: The key has no such kit.
        """
        with self.store.write() as db:
            gone = db.execute(
                "DELETE FROM brands WHERE key_id = ? AND name = ? RETURNING name", [key_id, name]
            ).fetchone()
        if gone is None:
            raise NotFound(f"no brand kit called {name!r}")
