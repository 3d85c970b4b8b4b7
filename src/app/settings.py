"""Environment (``INKCARD_*``) → one frozen ``Settings`` record.

This is the only module that reads ``os.environ``. Every other module receives a ``Settings``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from ipaddress import IPv4Network, IPv6Network, ip_network
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import msgspec

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
    generate_cost: int = 0
    """Credits one successful ``POST /api/generate`` costs."""
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


def _parse_bool(name: str, raw: str) -> bool:
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise SettingsError(f"{_PREFIX}{name.upper()} must be 1 or 0 (got {raw!r})")


def load_settings(environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
    """Read ``INKCARD_*`` variables once and return the settings.

    Args:
        environ: The environment to read; ``os.environ`` when omitted.
        **overrides: Field values that win over the environment (used by the CLI and tests).

    Raises:
        SettingsError: A variable has a value of the wrong type or out of range.
    """
    env = os.environ if environ is None else environ
    raw: dict[str, object] = {}
    for field in msgspec.structs.fields(Settings):
        value = env.get(_PREFIX + field.name.upper())
        if value is None:
            continue
        if field.type is bool:
            raw[field.name] = _parse_bool(field.name, value)
        else:
            raw[field.name] = value
    raw.update(overrides)
    try:
        settings = msgspec.convert(raw, Settings, strict=False)
    except msgspec.ValidationError as exc:
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
        raise SettingsError("INKCARD_STORAGE=gcs needs INKCARD_GCS_BUCKET")
    if settings.storage == "s3" and not settings.s3_bucket:
        raise SettingsError("INKCARD_STORAGE=s3 needs INKCARD_S3_BUCKET")
    try:
        _ = settings.proxy_networks
    except ValueError as exc:
        raise SettingsError(f"{_PREFIX}TRUSTED_PROXIES: {exc}") from None
    for name in (
        "port",
        "workers",
        "render_processes",
        "render_threads",
        "max_body_bytes",
        "max_output_pixels",
        "max_image_pixels",
        "renders_per_key",
    ):
        if getattr(settings, name) < 1:
            raise SettingsError(f"{_PREFIX}{name.upper()} must be at least 1")
    for name in (
        "render_queue",
        "generate_cost",
        "bootstrap_credits",
        "render_stall_seconds",
        "requests_per_minute",
    ):
        if getattr(settings, name) < 0:
            raise SettingsError(f"{_PREFIX}{name.upper()} must be 0 or more")
    if 0 < settings.render_memory_mb < MIN_RENDER_MEMORY_MB:  # a worker could never start
        raise SettingsError(
            f"{_PREFIX}RENDER_MEMORY_MB must be 0 (no limit) or at least {MIN_RENDER_MEMORY_MB}"
        )
    for name in ("timeout", "database_busy_timeout", "article_timeout", "idempotency_hours"):
        if not 0 < getattr(settings, name) < float("inf"):  # also refuses nan
            raise SettingsError(f"{_PREFIX}{name.upper()} must be a positive number of seconds")
    if not 0 < settings.body_timeout < float("inf"):
        raise SettingsError(f"{_PREFIX}BODY_TIMEOUT must be a positive number of seconds")


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
