"""Environment (``INKCARD_*``) → one frozen ``Settings`` record.

This is the only module that reads ``os.environ``. Every other module receives a ``Settings``.
"""

from __future__ import annotations

import base64
import dataclasses
import os
from collections.abc import Mapping
from ipaddress import IPv4Network, IPv6Network, ip_network
from pathlib import Path
from typing import Literal, get_args, get_origin
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import msgspec

from inkcard.app.prices import PRICES, Prices

MIB = 1024 * 1024
FETCH_MAX_BYTES = 10 * MIB  # the largest remote image the service downloads
MIN_RENDER_MEMORY_MB = 512  # a warm render process alone maps ~350 MB (fonts, Skia, numpy)


class SettingsError(ValueError):
    """An ``INKCARD_*`` variable holds a value the service cannot use."""


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """Service configuration. Field names match ``INKCARD_<FIELD>`` upper-cased."""

    host: str = "127.0.0.1"
    """Address ``inkcard serve`` binds to; also used for the default public URL."""
    port: int = 8000
    """Port ``inkcard serve`` listens on; also used for the default public URL."""
    workers: int = 1
    """uvicorn worker processes."""
    home: str = ""
    """Data directory of ``serve``, ``mcp`` and the CLI alike, whatever the working directory:
    the database and local files live in it unless ``database``/``storage_dir`` say otherwise.
    Empty: ``$XDG_DATA_HOME/inkcard``, or ``~/.local/share/inkcard``."""
    database: str = ""
    """Where API keys, the credit ledger, idempotency keys, platform tokens and request counts
    live: a SQLite file path, or a ``postgresql://`` URL shared by several replicas. Empty:
    ``<home>/inkcard.db``."""
    storage: Literal["local", "gcs", "s3"] = "local"
    """Where card PNGs go: the local disk, a Google Cloud Storage bucket or an S3 bucket."""
    storage_dir: str = ""
    """Root directory of ``local`` storage. Empty: ``<home>/files``."""
    public_url: str = ""
    """Base URL of stored files; empty means ``<scheme>://<host>/files`` of each request, as
    the client reached the service (local), ``https://storage.googleapis.com/<bucket>`` (gcs),
    or the bucket's object URL (s3)."""
    trusted_proxies: str = ""
    """Comma-separated addresses or networks (CIDR) of reverse proxies whose
    ``X-Forwarded-Proto`` and ``X-Forwarded-Host`` headers say how the client reached the
    service; empty: those headers are ignored."""
    gcs_bucket: str = ""
    """Bucket name for ``gcs`` storage."""
    gcs_project: str = ""
    """Google Cloud project for the storage client; empty lets the library decide."""
    gcs_retry_seconds: float = 10.0
    """How long one storage call may keep retrying transient GCS errors (0: no retries)."""
    fonts_dir: str = ""
    """Font directory; empty means the repository's ``fonts/``."""
    themes_dir: str = ""
    """Folder of custom card themes (``*.toml``, ``*.css``, ``<id>/card.toml``), added to the
    built-in ones; a custom theme of a built-in's name replaces it. Empty: built-ins only."""
    generate_cost: int = PRICES.generate
    """Credits one successful ``POST /api/generate`` costs (a cover call too; ``app.prices``)."""
    bootstrap_key: bool = True
    """Create and print one API key on the first ``inkcard serve`` with an empty key table."""
    bootstrap_credits: int = 100
    """Credits of the bootstrap key."""
    render_processes: int = max(1, os.cpu_count() or 1)
    """Card render processes of each uvicorn worker (each with the fonts loaded, kept warm)."""
    render_threads: int = max(1, os.cpu_count() or 1)
    """Article conversions (and their image fitting and cover cards) at once in each worker."""
    render_queue: int = 4
    """Requests allowed to wait for a render process (or article thread) before new ones get
    503."""
    render_memory_mb: int = 2048
    """Address space (MiB) each card render process may use (``RLIMIT_AS``); a render past it
    answers 500 ``render_failed`` and its process is replaced. The largest request the pixel
    budgets allow maps ~1.4 GB (docs/decisions/engine.md, "Memory per output pixel"). 0: no
    limit."""
    png_compression: Literal["fast", "small"] = "fast"
    """How card PNGs are deflated: ``fast`` (ISA-L, ~1.5 ms a default card) or ``small``
    (zlib at 6: about a fifth fewer bytes, ~40 ms more a card), for an operator who pays for
    storage more than CPU."""
    render_stall_seconds: float = 0.0
    """Tests only: a card whose Markdown holds ``<!-- inkcard-test-stall -->`` sleeps this long
    in its render process first (a render that hangs). 0: off."""
    timeout: float = 55.0
    """Seconds a generate call may take (render plus storage) before it answers 504."""
    database_busy_timeout: float = 3.0
    """Seconds a database write waits for another writer's lock before answering 503 ``busy``."""
    max_body_bytes: int = MIB
    """Largest request body accepted (413 above)."""
    max_output_pixels: int = 120_000_000
    """Pixels one generate call may draw, width × height × scale² summed over its cards."""
    max_image_pixels: int = 50_000_000
    """Pixels the distinct images of one generate call may decode to, read from headers."""
    renders_per_key: int = 2
    """Renders one API key may have in flight in each worker (429 above)."""
    requests_per_minute: int = 30
    """Paid calls one API key may start per clock minute, counted in the database so every
    worker and replica shares the count (429 ``rate_limited`` above). 0: no limit."""
    body_timeout: float = 15.0
    """Seconds a client may take to send its whole request body before 408 ``request_timeout``."""
    log_level: str = "INFO"
    """Level of the ``inkcard`` loggers."""
    metrics: bool = True
    """Serve ``GET /metrics`` (Prometheus text, no API key); 0: the route does not exist."""
    wechat_api_base: str = "https://api.weixin.qq.com"
    """Base URL of the WeChat platform API (a fixed-IP relay, or a fake server in tests)."""
    wechat_timeout: float = 20.0
    """Seconds one call to the WeChat platform may take before it counts as a timeout."""
    allow_private_fetch: bool = False
    """Let image fetches reach loopback and private addresses. For tests only."""
    fetch_max_bytes: int = FETCH_MAX_BYTES
    """Largest image the server downloads (counted while streaming)."""
    fetch_timeout: float = 10.0
    """Seconds one image download may take in all, redirects included."""
    fetch_max_redirects: int = 3
    """Redirects one image download may follow (each target is checked again)."""
    article_timeout: float = 55.0
    """Seconds one convert-and-draft call may take in all (504 above)."""
    idempotency_hours: float = 24.0
    """How long the answer to a request with an ``Idempotency-Key`` is kept for its retries."""
    api_key: str = ""
    """The API key the tools of ``inkcard mcp`` (stdio) use; the service itself ignores it."""
    platform_appid: str = ""
    """``inkcard mcp`` only: the WeChat AppID ``convert_article`` drafts into by default."""
    platform_app_secret: str = ""
    """``inkcard mcp`` only: that account's AppSecret (never logged)."""
    platform_account: str = ""
    """``inkcard mcp`` only: instead of those two, the name of an account the API key stored
    (``store_platform_account``), its secret kept sealed in the database."""
    account_key: str = ""
    """The server key that seals the AppSecrets of stored WeChat accounts
    (``PUT /api/platform/accounts/{name}``): a Fernet key (32 random bytes, url-safe base64);
    several comma-separated to rotate (the first seals, each opens). Empty: accounts cannot be
    stored or used (400 ``account_key_missing``). Never logged or shown."""
    s3_bucket: str = ""
    """Bucket name for ``s3`` storage."""
    s3_endpoint: str = ""
    """Endpoint URL of an S3-compatible service (MinIO, R2, OSS, COS); empty: AWS S3."""
    s3_region: str = ""
    """Region of the bucket; empty lets boto3 decide (``AWS_REGION``, else us-east-1)."""
    s3_addressing: Literal["auto", "path", "virtual"] = "auto"
    """How bucket names go into S3 URLs: ``auto`` is virtual-hosted on AWS and path-style on
    another endpoint; ``virtual`` for services that refuse path-style (Aliyun OSS)."""
    local_roots: str = ""
    """``inkcard mcp`` (stdio) only: the folders ``markdownFile`` and local images in the
    Markdown may be read from, separated by the path separator (``:``; ``;`` on Windows);
    empty: the user's home. Never used over HTTP."""

    @property
    def prices(self) -> Prices:
        """The price list in force: ``PRICES`` with a card call's price as set here."""
        return dataclasses.replace(PRICES, generate=self.generate_cost)

    @property
    def files_url(self) -> str:
        """Base URL of stored files outside any request, without a trailing slash."""
        return self.files_url_for(None)

    def files_url_for(self, origin: str | None) -> str:
        """Base URL of stored files for a client that reached the service at ``origin``
        (``scheme://host[:port]``, already checked; None: not in a request). The one rule:
        a public URL wins, a bucket has its own address, else the service serves the files."""
        if self.public_url:
            return self.public_url.rstrip("/")
        if self.storage == "gcs":
            return f"https://storage.googleapis.com/{self.gcs_bucket}"
        if self.storage == "s3":
            return self._s3_bucket_url
        return f"{origin or self.service_url}/files"

    @property
    def proxy_networks(self) -> tuple[IPv4Network | IPv6Network, ...]:
        """``trusted_proxies`` read as networks (a lone address is a network of one)."""
        parts = (part.strip() for part in self.trusted_proxies.split(","))
        return tuple(ip_network(part, strict=False) for part in parts if part)

    @property
    def _s3_bucket_url(self) -> str:
        """The bucket's own object URL base, addressed as the client addresses it."""
        if not self.s3_endpoint:
            region = f".{self.s3_region}" if self.s3_region else ""
            return f"https://{self.s3_bucket}.s3{region}.amazonaws.com"
        endpoint = self.s3_endpoint.rstrip("/")
        if self.s3_addressing == "virtual":
            scheme, _, host = endpoint.partition("://")
            return f"{scheme}://{self.s3_bucket}.{host}"
        return f"{endpoint}/{self.s3_bucket}"

    @property
    def service_url(self) -> str:
        """Where ``inkcard serve`` with these settings answers on this machine: a wildcard
        bind address is 127.0.0.1, an IPv6 address goes in brackets."""
        host = self.host
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        elif ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"


_PREFIX = "INKCARD_"
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}
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
_INT64 = 2**63  # the database's and msgspec's integers


def variable(name: str) -> str:
    """The environment variable of the setting ``name``."""
    return _PREFIX + name.upper()


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


def _parse_bool(name: str, raw: str) -> bool:
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise refusal(name, raw, "1 or 0 (or true/false, yes/no, on/off)")


def _whole_number_range(name: str) -> str:
    low, high = _WHOLE_NUMBERS.get(name, (-_INT64, None))
    if high is not None:
        return f"a whole number from {low} to {high}"
    return f"a whole number of at least {low}" if low > -_INT64 else "a whole number"


def _parse(name: str, kind: object, raw: str) -> object:
    """The text of ``INKCARD_<NAME>`` as the field's type; a refusal names what it takes."""
    if kind is bool:
        return _parse_bool(name, raw)
    if kind is int:
        try:
            number = int(raw.strip())
        except ValueError:
            raise refusal(name, raw, _whole_number_range(name)) from None
        if not -_INT64 <= number < _INT64:
            raise refusal(name, raw, _whole_number_range(name))
        return number
    if kind is float:
        try:
            return float(raw.strip())
        except ValueError:
            raise refusal(name, raw, "a number") from None
    if get_origin(kind) is Literal:
        choices = get_args(kind)
        if raw not in choices:
            raise refusal(name, raw, "one of " + ", ".join(choices))
    return raw


def load_settings(environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
    """Read ``INKCARD_*`` variables once and return the settings.

    Args:
        environ: The environment to read; ``os.environ`` when omitted.
        **overrides: Field values that win over the environment (used by the CLI and tests).

    Raises:
        SettingsError: A variable has a value of the wrong type or out of range; its one-line
            message names the variable, the value given and what it takes.
    """
    env = os.environ if environ is None else environ
    raw: dict[str, object] = {}
    for field in msgspec.structs.fields(Settings):
        value = env.get(variable(field.name))
        if value is not None:
            raw[field.name] = _parse(field.name, field.type, value)
    raw.update(overrides)
    try:
        settings = msgspec.convert(raw, Settings, strict=False)
    except msgspec.ValidationError as exc:  # an override of the wrong type: a caller's bug
        raise SettingsError(f"invalid INKCARD_* setting: {exc}") from None
    settings = _in_home(settings, env)
    _check(settings)
    return settings


def default_home(env: Mapping[str, str]) -> Path:
    """The XDG rule: ``$XDG_DATA_HOME/inkcard`` when that is an absolute path, else
    ``~/.local/share/inkcard`` (the user's home from ``HOME``, or the password database)."""
    xdg = env.get("XDG_DATA_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "inkcard"
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home / ".local" / "share" / "inkcard"


def _in_home(settings: Settings, env: Mapping[str, str]) -> Settings:
    """``settings`` with the data directory, and the database and files in it, filled in."""
    home = Path(settings.home).expanduser() if settings.home else default_home(env)
    return msgspec.structs.replace(
        settings,
        home=str(home),
        database=settings.database or str(home / "inkcard.db"),
        storage_dir=settings.storage_dir or str(home / "files"),
    )


def database_shown(database: str) -> str:
    """``database`` as messages may name it: a path as it is, a URL without its password."""
    parts = urlsplit(database)
    if not parts.scheme.startswith("postgres"):
        return database
    host = parts.netloc.rpartition("@")[2]  # as written: brackets and port kept
    user = f"{parts.username}@" if parts.username else ""
    query = [(k, v) for k, v in parse_qsl(parts.query) if k.lower() != "password"]
    return urlunsplit(parts._replace(netloc=user + host, query=urlencode(query)))


def _check(settings: Settings) -> None:
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
            raise refusal(name, value, _whole_number_range(name))
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


MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"
"""Where prometheus_client keeps each worker's values when several workers share them."""


def metrics_dir() -> Path | None:
    """The folder the workers' metric values are shared in, or None: one process counts."""
    value = os.environ.get(MULTIPROC_DIR, "")
    return Path(value) if value else None


def share_metrics_in(folder: Path | None) -> None:
    """Point (or, with None, stop pointing) prometheus_client at ``folder`` for the workers
    started after this; it reads the variable once, when first imported."""
    os.environ.pop(MULTIPROC_DIR.lower(), None)  # the old spelling it still honours
    if folder is None:
        os.environ.pop(MULTIPROC_DIR, None)
    else:
        os.environ[MULTIPROC_DIR] = str(folder)


def export_for_workers(settings: Settings) -> None:
    """Write the CLI's overrides back to the environment so uvicorn worker processes see them."""
    os.environ[_PREFIX + "HOST"] = settings.host
    os.environ[_PREFIX + "PORT"] = str(settings.port)
