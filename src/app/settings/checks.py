"""What each setting may hold, checked once it is read: the bounds of the numbers, the URLs,
the storage's bucket, the trusted proxies, the log level, the database, the account keys;
and the one-line refusal that names the variable, the value given (never a secret) and
what to give instead."""

from __future__ import annotations

import base64
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .record import Settings, SettingsError, variable

MIN_RENDER_MEMORY_MB = 512  # a warm render process alone maps ~350 MB (fonts, Skia, numpy)
_SHOWN_CHARS = 60  # of a refused value, in its one-line message
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

# The bounds of the number settings: each refusal names the variable, its value and these.
_WHOLE_NUMBERS: dict[str, tuple[int, int | None]] = {
    "port": (1, 65_535),
    "workers": (1, None),
    "render_processes": (1, None),
    "render_threads": (1, None),
    "max_body_bytes": (1, None),
    "max_output_pixels": (1, None),
    "max_image_pixels": (1, None),
    "renders_per_key": (1, None),
    "fetch_max_bytes": (1, None),
    "render_queue": (0, None),
    "generate_cost": (0, None),
    "bootstrap_credits": (0, None),
    "requests_per_minute": (0, None),
    "fetch_max_redirects": (0, None),
}
_POSITIVE_SECONDS = (
    "timeout",
    "database_busy_timeout",
    "article_timeout",
    "body_timeout",
    "wechat_timeout",
    "fetch_timeout",
)
_SECONDS_OR_ZERO = ("render_stall_seconds", "gcs_retry_seconds")
_URLS = ("public_url", "s3_endpoint", "wechat_api_base")  # http(s), checked when not empty
INT64 = 2**63  # the database's and msgspec's integers


def _shown(value: object) -> str:
    """``value`` as a one-line message may quote it: plain when it is one printable word,
    else quoted; cut short when long."""
    text = f"{value:g}" if isinstance(value, float) else str(value)
    if not text or not text.isprintable() or " " in text:
        text = repr(text)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


def refusal(name: str, value: object, use: str) -> SettingsError:
    """The one-line refusal of ``value`` for the setting ``name``: the variable, the value
    given, and what to give instead."""
    return SettingsError(f"{variable(name)}={_shown(value)} is not valid: use {use}")


def whole_number_range(name: str) -> str:
    """What the whole-number setting ``name`` takes, in words (its bounds)."""
    low, high = _WHOLE_NUMBERS.get(name, (-INT64, None))
    if high is not None:
        return f"a whole number from {low} to {high}"
    return f"a whole number of at least {low}" if low > -INT64 else "a whole number"


def database_shown(database: str) -> str:
    """``database`` as messages may name it: a path as it is, a URL without its password."""
    parts = urlsplit(database)
    if not parts.scheme.startswith("postgres"):
        return database
    host = parts.netloc.rpartition("@")[2]  # as written: brackets and port kept
    user = f"{parts.username}@" if parts.username else ""
    query = [(k, v) for k, v in parse_qsl(parts.query) if k.lower() != "password"]
    return urlunsplit(parts._replace(netloc=user + host, query=urlencode(query)))


def check(settings: Settings) -> None:
    """Refuse (``SettingsError``) the first setting that holds what the service cannot use."""
    if settings.storage == "gcs" and not settings.gcs_bucket:
        raise SettingsError("INKCARD_STORAGE=gcs needs INKCARD_GCS_BUCKET (the bucket's name)")
    if settings.storage == "s3" and not settings.s3_bucket:
        raise SettingsError("INKCARD_STORAGE=s3 needs INKCARD_S3_BUCKET (the bucket's name)")
    try:
        _ = settings.proxy_networks
    except ValueError as exc:
        raise refusal(
            "trusted_proxies", settings.trusted_proxies, f"addresses or CIDR networks ({exc})"
        ) from None
    if settings.log_level.upper() not in LOG_LEVELS:
        raise refusal("log_level", settings.log_level, "one of " + ", ".join(LOG_LEVELS))
    _check_numbers(settings)
    for name in _URLS:
        _check_url(name, getattr(settings, name))
    _check_database(settings.database)
    _check_account_key(settings.account_key)


def _check_numbers(settings: Settings) -> None:
    for name, (low, high) in _WHOLE_NUMBERS.items():
        value = getattr(settings, name)
        if value < low or (high is not None and value > high):
            raise refusal(name, value, whole_number_range(name))
    if 0 < settings.render_memory_mb < MIN_RENDER_MEMORY_MB:  # a worker could never start
        raise refusal(
            "render_memory_mb",
            settings.render_memory_mb,
            f"0 (no limit) or a number of MiB of at least {MIN_RENDER_MEMORY_MB}",
        )
    for name in _POSITIVE_SECONDS:
        if not 0 < getattr(settings, name) < float("inf"):  # also refuses nan
            raise refusal(name, getattr(settings, name), "a number of seconds above 0")
    for name in _SECONDS_OR_ZERO:
        if not 0 <= getattr(settings, name) < float("inf"):
            raise refusal(name, getattr(settings, name), "0 or a number of seconds above it")
    if not 0 < settings.idempotency_hours < float("inf"):
        raise refusal("idempotency_hours", settings.idempotency_hours, "a number of hours above 0")


def _check_url(name: str, value: str) -> None:
    """An http(s) URL with a host and nothing a base URL cannot carry (user, query,
    fragment); empty passes. Its refusal never shows a password."""
    if not value:
        return
    try:
        parts = urlsplit(value)
        valid = (
            value.isprintable()
            and " " not in value
            and parts.scheme in ("http", "https")
            and bool(parts.hostname)
            and "@" not in parts.netloc
            and not parts.query
            and not parts.fragment
        )
        _ = parts.port  # a port that is not a number raises
    except ValueError:
        valid = False
    if not valid:
        shown = value if "@" not in value else value.partition("://")[0] + "://…"
        raise refusal(name, shown, "an http(s) URL, e.g. https://cards.example.com/files")


def _check_account_key(keys: str) -> None:
    """Each comma-separated key is 32 bytes in url-safe base64; a refusal never shows it."""
    if not keys:
        return
    for key in (part.strip() for part in keys.split(",")):
        try:
            valid = bool(key) and len(base64.urlsafe_b64decode(key.encode("ascii"))) == 32
        except ValueError:  # binascii.Error and non-ASCII alike
            valid = False
        if not valid:
            raise refusal(
                "account_key", "…", "Fernet keys (32 bytes in url-safe base64), comma-separated"
            )


def _check_database(database: str) -> None:
    scheme, found, _ = database.partition("://")
    if found and scheme not in ("postgresql", "postgres"):
        raise refusal("database", f"{scheme}://…", "a SQLite file path or a postgresql:// URL")
