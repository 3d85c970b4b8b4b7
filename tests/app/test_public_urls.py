"""Stored file URLs follow the host the client reached the service at; a forged Host header
or forwarding header cannot steer them; the start banner says where the playground is."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from inkcard.app.cli.commands import announce_serving
from inkcard.app.server.origin import checked_host
from inkcard.app.settings import SettingsError, load_settings

Serve = Callable[..., tuple[str, Any]]
POST = {"markdown": "# Hello\n\nOne card."}


def _generate(serve: Serve, headers: dict[str, str], **settings: Any) -> tuple[str, httpx.Response]:
    base, app = serve(**settings)
    key, _ = app.state.services.credits.create_key("urls", 10)
    response = httpx.post(
        f"{base}/api/generate", json=POST, headers={"x-api-key": key, **headers}, timeout=60
    )
    return base, response


def _card_url(serve: Serve, headers: dict[str, str], **settings: Any) -> tuple[str, str]:
    base, response = _generate(serve, headers, **settings)
    assert response.status_code == 200, response.text
    return base, str(response.json()["images"][0]["url"])


def test_file_urls_follow_the_host_the_client_used(serve: Serve) -> None:
    base, url = _card_url(serve, {"Host": "cards.example.org:8123"}, host="0.0.0.0")
    assert url.startswith("http://cards.example.org:8123/files/screenshots/")
    path = url.removeprefix("http://cards.example.org:8123")
    assert httpx.get(base + path, timeout=10).content[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    "host", ["evil.example/x?", 'a"b', "user@evil.example", "a b", "[::g]", "h:99999", "-x"]
)
def test_a_host_header_that_is_not_a_host_falls_back_to_the_bind_address(
    serve: Serve, host: str
) -> None:
    base, response = _generate(serve, {"Host": host})
    if response.status_code == 400:  # refused before our code (the framework checks some)
        return
    assert response.status_code == 200, response.text
    assert response.json()["images"][0]["url"].startswith(f"{base}/files/")


def test_forwarded_headers_count_only_from_trusted_proxies(serve: Serve) -> None:
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "cdn.example.org"}
    _, url = _card_url(serve, {**forwarded, "Host": "direct.example"})
    assert url.startswith("http://direct.example/files/")
    _, url = _card_url(serve, forwarded, trusted_proxies="10.0.0.0/8, 127.0.0.1")
    assert url.startswith("https://cdn.example.org/files/")


def test_a_public_url_wins_over_the_request(serve: Serve) -> None:
    _, url = _card_url(serve, {"Host": "direct.example"}, public_url="https://cdn.example.org/c/")
    assert url.startswith("https://cdn.example.org/c/screenshots/")


def test_host_syntax() -> None:
    assert checked_host("Example.ORG:80") == "example.org:80"
    assert checked_host("[::1]:8000") == "[::1]:8000"
    assert checked_host("192.168.1.9") == "192.168.1.9"
    for bad in ("", "a/b", "a:b", "[1.2]", "x" * 300, "a..b", "a:0", "é.example"):
        assert checked_host(bad) is None, bad


def test_trusted_proxies_must_be_addresses() -> None:
    assert len(load_settings({"INKCARD_TRUSTED_PROXIES": "10.0.0.0/8,::1"}).proxy_networks) == 2
    with pytest.raises(SettingsError, match="TRUSTED_PROXIES"):
        load_settings({"INKCARD_TRUSTED_PROXIES": "proxy.local"})


def test_the_banner_names_the_playground_and_warns_beyond_loopback(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="inkcard"):
        announce_serving(load_settings({}, host="127.0.0.1", port=8123))
        assert capsys.readouterr().out.startswith("Playground: http://127.0.0.1:8123/\n")
        assert not caplog.records
        announce_serving(load_settings({}, host="0.0.0.0"))
        announce_serving(load_settings({}, host="0.0.0.0", public_url="https://c.example"))
    [warning] = caplog.records
    assert "without INKCARD_PUBLIC_URL" in warning.getMessage()
