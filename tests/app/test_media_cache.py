"""The per-account table of images already on the platform: found, forgotten, and bounded,
on SQLite and PostgreSQL."""

from __future__ import annotations

from inkcard.app.articles.wechat.mediacache import Hosted, MediaCache, digest_of
from tests.app.conftest import both_engines

pytestmark = both_engines

DAY = 86_400.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_an_image_is_found_per_account_and_kind(database: str) -> None:
    cache = MediaCache(database)
    digest = digest_of(b"image bytes")
    cache.put("wx1", digest, "material", Hosted("MEDIA", "https://mmbiz.qpic.cn/a"))
    assert cache.find("wx1", digest, "material") == Hosted("MEDIA", "https://mmbiz.qpic.cn/a")
    assert cache.find("wx2", digest, "material") is None
    assert cache.find("wx1", digest, "article-image") is None
    cache.drop("wx1", digest, "material")
    assert cache.find("wx1", digest, "material") is None


def test_an_account_keeps_only_its_most_recently_used_rows(database: str) -> None:
    clock = Clock()
    cache = MediaCache(database, per_account=3, clock=clock)
    for n in range(3):
        clock.now += 1
        cache.put("wx1", digest_of(bytes([n])), "material", Hosted(f"M{n}", ""))
    clock.now += 1
    assert cache.find("wx1", digest_of(b"\x00"), "material") is not None  # used: kept
    clock.now += 1
    cache.put("wx1", digest_of(b"new"), "material", Hosted("NEW", ""))
    cache.put("wx2", digest_of(b"\x01"), "material", Hosted("OTHER", ""))  # its own bound
    kept = [n for n in range(3) if cache.find("wx1", digest_of(bytes([n])), "material")]
    assert kept == [0, 2]  # the least recently used went
    assert cache.find("wx2", digest_of(b"\x01"), "material") is not None
    with cache.store.read() as db:
        (rows,) = db.execute("SELECT count(*) FROM platform_media").fetchone()
    assert rows == 3 + 1


def test_a_row_unused_for_the_age_limit_goes(database: str) -> None:
    clock = Clock()
    cache = MediaCache(database, max_age_days=90, clock=clock)
    cache.put("wx1", digest_of(b"old"), "article-image", Hosted("", "https://x/old"))
    clock.now += 91 * DAY
    assert cache.find("wx1", digest_of(b"old"), "article-image") is None
    cache.put("wx2", digest_of(b"new"), "article-image", Hosted("", "https://x/new"))
    with cache.store.read() as db:
        (rows,) = db.execute("SELECT count(*) FROM platform_media").fetchone()
    assert rows == 1  # the stale row of another account was pruned by this write
