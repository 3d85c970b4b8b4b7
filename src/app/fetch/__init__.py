"""Image sources named by untrusted Markdown → their bytes, without reaching inside the network.

Only http and https on ports 80/443 are fetched, each connection to an address checked as
it is opened (``guard``: the block list, DNS rebinding, IPv4 inside IPv6); ``sources``
refuses what the URL alone shows and decodes ``data:`` URIs; ``turns`` shares the process's
connections fairly between API keys; ``fetcher`` downloads under the limits of a
``FetchPolicy`` (``policy``; its ``exempt`` lets tests, ``INKCARD_ALLOW_PRIVATE_FETCH=1``,
reach loopback). It may import ``app.settings`` and ``app.localfiles`` (the local files of
``inkcard mcp``), nothing else of ``app``. This face is what the other rooms use.
"""

from inkcard.app.fetch.fetcher import FetchBatch, ImageFetcher, read_local
from inkcard.app.fetch.guard import embedded_ipv4, is_blocked, system_resolve
from inkcard.app.fetch.policy import FetchPolicy
from inkcard.app.fetch.sources import FetchError, FetchRefused, describe, host_of
from inkcard.app.fetch.turns import FETCHES_PER_KEY, FETCHES_PER_REQUEST, POOL_CONNECTIONS

__all__ = [
    "FETCHES_PER_KEY",
    "FETCHES_PER_REQUEST",
    "POOL_CONNECTIONS",
    "FetchBatch",
    "FetchError",
    "FetchPolicy",
    "FetchRefused",
    "ImageFetcher",
    "describe",
    "embedded_ipv4",
    "host_of",
    "is_blocked",
    "read_local",
    "system_resolve",
]
