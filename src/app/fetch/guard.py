"""A host and port → a connection to an address checked at the moment it is opened.

The address check happens where the socket is opened: every TCP connect (the first request
and each redirect hop) resolves the host, refuses it if *any* resolved address is on the
block list, and connects to the very address it checked, so DNS rebinding has no second
lookup to exploit. IPv4 addresses embedded in IPv6 ones (mapped, NAT64, 6to4, Teredo) are
unwrapped and checked too; Python 3.11's ``is_private``/``is_global`` tables are not trusted
on their own. Only ports 80 and 443 are reached. This is the one door for httpcore.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Iterable
from typing import Any

import httpcore
import httpx

from inkcard.app.fetch.policy import FetchPolicy, IPAddress

ALLOWED_PORTS = frozenset({80, 443})

BLOCKED_NETWORKS = tuple(
    ipaddress.ip_network(cidr)
    for cidr in (
        # IPv4: this host, private, shared (CGNAT, Alibaba metadata), loopback, link-local
        # (cloud metadata), protocol assignments, documentation, benchmarking, multicast, reserved
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
        "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16",
        "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
        # IPv6: unspecified, loopback, IPv4-compatible, mapped, translated, NAT64, discard,
        # Teredo and other IETF ranges, documentation, 6to4, unique-local (AWS IMDS),
        # link-local, site-local, multicast
        "::/128", "::1/128", "::/96", "::ffff:0:0/96", "::ffff:0:0:0/96", "64:ff9b::/96",
        "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "2002::/16", "fc00::/7",
        "fe80::/10", "fec0::/10", "ff00::/8",
    )
)  # fmt: skip


class AddressRefused(Exception):
    """Raised inside the connection pool; turned into ``FetchRefused`` by the fetcher."""


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address inside a mapped, compatible, NAT64, 6to4 or Teredo IPv6 address."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    packed = address.packed
    if packed[:12] == bytes(12) or packed[:12] == bytes.fromhex("0064ff9b0000000000000000"):
        return ipaddress.IPv4Address(packed[12:])
    return None


def is_blocked(address: IPAddress | str) -> bool:
    """True unless ``address`` is a public unicast address (its embedded IPv4 included)."""
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    if any(ip in network for network in BLOCKED_NETWORKS if network.version == ip.version):
        return True
    if ip.is_multicast or ip.is_reserved or ip.is_loopback or ip.is_link_local:
        return True
    if isinstance(ip, ipaddress.IPv6Address):
        inner = embedded_ipv4(ip)
        return inner is not None and is_blocked(inner)
    return False


async def system_resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (numeric hosts come back normalised)."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]).split("%")[0] for info in infos]


class _GuardedBackend(httpcore.AsyncNetworkBackend):
    """Resolves, checks every address, then connects to the checked one."""

    def __init__(self, policy: FetchPolicy):
        self._inner = httpcore.AnyIOBackend()
        self._policy = policy

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        address = await self._checked_address(host, port)
        return await self._inner.connect_tcp(
            address, port, timeout=timeout, local_address=local_address,
            socket_options=socket_options,
        )  # fmt: skip

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.AsyncNetworkStream:
        raise AddressRefused("unix sockets are never fetched")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)

    async def _checked_address(self, host: str, port: int) -> str:
        resolve = self._policy.resolve or system_resolve
        try:
            addresses = [ipaddress.ip_address(a) for a in await resolve(host, port)]
        except (OSError, ValueError):
            raise httpcore.ConnectError(f"cannot resolve {host}") from None
        if not addresses:
            raise httpcore.ConnectError(f"cannot resolve {host}")
        exempt = self._policy.exempt
        for address in addresses:  # one bad address refuses the host: no mixed answers
            if exempt is not None and exempt(address, port):
                continue
            if is_blocked(address):
                raise AddressRefused(f"is on a non-public address ({address})")
            if port not in ALLOWED_PORTS:
                raise AddressRefused(f"is on port {port}; only 80 and 443 are fetched")
        return str(addresses[0])


class GuardedTransport(httpx.AsyncHTTPTransport):
    """An httpx transport whose every TCP connect goes through the address guard."""

    def __init__(self, policy: FetchPolicy, connections: int):
        super().__init__()
        # httpx takes no network backend, so its pool is replaced by one whose every TCP
        # connect goes through the guard; httpx still maps httpcore's errors to its own.
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(),
            max_connections=connections,
            network_backend=_GuardedBackend(policy),
        )
