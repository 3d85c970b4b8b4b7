"""An HTTP request → where its client reached the service (``scheme://host[:port]``).

The URLs of stored files in an answer follow it when no public URL is configured, so a
client on another machine (or a browser that opened the playground by host name) gets URLs
it can load. The ``Host`` header is the client's to write: only a plain ``hostname[:port]``
or ``[ipv6][:port]`` is taken, anything else (a path, a user, spaces, quotes) gives None and
the configured address is used, so nothing can be injected into a URL. ``X-Forwarded-Proto``
and ``X-Forwarded-Host`` count only when the peer is one of ``INKCARD_TRUSTED_PROXIES``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from ipaddress import IPv4Network, IPv6Network, ip_address
from typing import Any

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = re.compile(
    rf"(?:{_LABEL}(?:\.{_LABEL})*\.?|\[[0-9A-Fa-f:.]{{2,45}}\])(?::[0-9]{{1,5}})?", re.ASCII
)
_SCHEMES = ("http", "https")
_MAX_HOST = 260

Networks = Sequence[IPv4Network | IPv6Network]


def checked_host(value: str) -> str | None:
    """``value`` if it is ``hostname[:port]`` or ``[ipv6][:port]`` (lower-cased), else None."""
    if len(value) > _MAX_HOST or not _HOST.fullmatch(value):
        return None
    if value.startswith("["):
        try:
            ip_address(value[1:].partition("]")[0])
        except ValueError:
            return None
    port = value.rpartition("]")[2].partition(":")[2]
    if port and not 0 < int(port) < 65_536:
        return None
    return value.lower()


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    """The first value of header ``name`` (the first of a comma-separated list), or None."""
    for key, value in scope.get("headers", ()):
        if key == name:
            try:
                return str(value.decode("ascii")).split(",")[0].strip()
            except UnicodeDecodeError:
                return None
    return None


def _trusted(scope: dict[str, Any], proxies: Networks) -> bool:
    client = scope.get("client")
    if not proxies or not client:
        return False
    try:
        peer = ip_address(client[0])
    except ValueError:
        return False
    return any(peer in network for network in proxies)


def request_origin(scope: dict[str, Any], proxies: Networks) -> str | None:
    """``scheme://host[:port]`` the client used, or None when no usable host was named."""
    scheme = str(scope.get("scheme", "http"))
    host_header = _header(scope, b"host")
    host = checked_host(host_header) if host_header else None
    if _trusted(scope, proxies):
        proto = (_header(scope, b"x-forwarded-proto") or "").lower()
        scheme = proto if proto in _SCHEMES else scheme
        forwarded = _header(scope, b"x-forwarded-host")
        host = (checked_host(forwarded) if forwarded else None) or host
    if host is None or scheme not in _SCHEMES:
        return None
    return f"{scheme}://{host}"
