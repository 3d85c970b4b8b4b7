"""The service's configuration as one frozen record, ``Settings``: each field with its default
and what it means, and what the fields derive (the price list in force, the files' base URL,
the trusted proxies' networks, the service's own URL). A field is read from the variable
``variable`` names (``INKCARD_<FIELD>``, by ``environment.py``)."""

from __future__ import annotations

import dataclasses
import os
from ipaddress import IPv4Network, IPv6Network, ip_network
from typing import Literal

import msgspec

from inkcard.app.prices import PRICES, Prices

MIB = 1024 * 1024
FETCH_MAX_BYTES = 10 * MIB  # the largest remote image the service downloads
PREFIX = "INKCARD_"


def variable(name: str) -> str:
    """The environment variable of the setting ``name``."""
    return PREFIX + name.upper()


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
