"""Settings → the limits of one image fetcher: sizes, deadlines, redirects, who is exempt."""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from inkcard.app.settings import FETCH_MAX_BYTES, Settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Exempt = Callable[[IPAddress, int], bool]
Resolver = Callable[[str, int], Awaitable[list[str]]]


@dataclass(frozen=True, slots=True)
class FetchPolicy:
    """Limits of one fetcher. ``exempt(address, port)`` True skips the address and port checks."""

    max_bytes: int = FETCH_MAX_BYTES
    timeout: float = 10.0  # the whole fetch, redirects included
    connect_timeout: float = 3.0
    read_timeout: float = 5.0
    max_redirects: int = 3
    exempt: Exempt | None = None
    resolve: Resolver | None = None  # None: the system resolver

    @classmethod
    def from_settings(cls, settings: Settings) -> FetchPolicy:
        return cls(
            max_bytes=settings.fetch_max_bytes,
            timeout=settings.fetch_timeout,
            max_redirects=settings.fetch_max_redirects,
            exempt=_everything if settings.allow_private_fetch else None,
        )


def _everything(address: IPAddress, port: int) -> bool:
    return True
