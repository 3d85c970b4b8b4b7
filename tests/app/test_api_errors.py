"""Every documented error of POST /api/generate: status, label, message, and nothing left behind."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard import themes
from tests.app.apphelpers import new_key, stored_files
from tests.app.conftest import shared_app

Client = TestClient[Litestar]
FIFTY_ONE_PARTS = "\n\n---\n\n".join(f"part {i}" for i in range(51))
HEAVY = "\n\n".join(
    f"## Section {i}\n\n" + "Some words to lay out on many cards. " * 30 for i in range(60)
)


def post(client: Client, key: str, body: Any = None, **kwargs: Any) -> Any:
    if body is not None:
        kwargs["json"] = body
    return client.post("/api/generate", headers={"x-api-key": key}, **kwargs)


def assert_error(response: Any, status: int, label: str, *words: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "message"}
    assert body["error"] == label
    for word in words:
        assert word in body["message"]


@shared_app
@pytest.mark.parametrize(
    ("body", "label", "words"),
    [
        ({"width": 99}, "invalid_width", ["width", "100", "1600"]),
        ({"width": 1601}, "invalid_width", ["width", "100", "1600"]),
        ({"width": "440"}, "invalid_width", ["width", "number"]),
        ({"width": True}, "invalid_width", ["width"]),
        ({"height": 99}, "invalid_height", ["height", "100", "4000"]),
        ({"height": 4001}, "invalid_height", ["height", "4000"]),
        ({"scale": 0}, "invalid_scale", ["scale", "1", "4"]),
        ({"scale": 5}, "invalid_scale", ["scale", "4"]),
        ({"scale": 1.5}, "invalid_scale", ["scale", "integer"]),
        (
            {"splitMode": "pageSplit"},
            "invalid_split_mode",
            ["splitMode", "noSplit", "autoSplit", "hrSplit"],
        ),
        ({"splitMode": 1}, "invalid_split_mode", ["splitMode"]),
        ({"mdxMode": "yes"}, "invalid_mdx_mode", ["mdxMode", "true or false"]),
        ({"overHiddenMode": 1}, "invalid_over_hidden_mode", ["overHiddenMode", "true or false"]),
        ({"markdown": 42}, "invalid_markdown", ["markdown", "string"]),
        ({"theme": 3}, "invalid_theme", ["theme"]),
        ({"themeMode": ["dark-mode"]}, "invalid_theme_mode", ["themeMode"]),
    ],
)
def test_bad_field_values_are_400(
    client: Client, key: str, body: dict[str, Any], label: str, words: list[str]
) -> None:
    assert_error(post(client, key, body), 400, label, *words)


@shared_app
def test_unknown_theme_lists_the_valid_ones(client: Client, key: str) -> None:
    response = post(client, key, {"theme": "no-such-theme"})
    assert_error(response, 400, "invalid_theme", "theme", *themes.names())


@shared_app
def test_unknown_theme_mode_lists_the_valid_ones(client: Client, key: str) -> None:
    response = post(client, key, {"theme": "apple-notes", "themeMode": "sepia-mode"})
    assert_error(response, 400, "invalid_theme_mode", "themeMode", *themes.modes("apple-notes"))


@shared_app
@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b'"text"', b"42", b"null"])
def test_body_that_is_not_a_json_object_is_400(client: Client, key: str, raw: bytes) -> None:
    response = post(client, key, content=raw)
    assert_error(response, 400, "invalid_json", "JSON")


@shared_app
def test_body_over_one_mib_is_413(client: Client, key: str) -> None:
    raw = b'{"markdown": "' + b"a" * (1024 * 1024) + b'"}'
    assert_error(post(client, key, content=raw), 413, "payload_too_large", "1048576")


@shared_app
def test_markdown_over_100000_characters_is_413(client: Client, key: str, tmp_path: Path) -> None:
    assert_error(
        post(client, key, {"markdown": "a" * 100_001}),
        413,
        "payload_too_large",
        "markdown",
        "100,000",
    )
    assert post(client, key, {"markdown": "a" * 100_000, "scale": 1}).status_code == 200


def test_more_than_fifty_cards_is_400_and_leaves_no_files(
    client: Client, key: str, tmp_path: Path
) -> None:
    response = post(client, key, {"markdown": FIFTY_ONE_PARTS, "splitMode": "hrSplit", "scale": 1})
    assert_error(response, 400, "too_many_pages", "50")
    assert stored_files(tmp_path / "files") == []


def test_card_growing_past_the_pixel_budget_is_400(
    client: Client, key: str, tmp_path: Path
) -> None:
    words = "\n\n".join("word " * 40 for _ in range(450))
    response = post(client, key, {"markdown": words, "width": 100, "scale": 4})
    assert_error(response, 400, "card_too_large", "autoSplit")
    assert stored_files(tmp_path / "files") == []
    cut = post(client, key, {"markdown": words, "width": 100, "scale": 4, "overHiddenMode": True})
    assert cut.status_code == 200


def test_insufficient_credits_is_402_and_charges_nothing(
    make_client: Callable[..., Client],
) -> None:
    client = make_client(warm=False, generate_cost=3)
    credits = client.app.state.services.credits
    poor = new_key(client, credits=2)
    assert_error(post(client, poor, {}), 402, "insufficient_credits", "3")
    info = credits.authenticate(poor)
    assert info.balance == 2 == credits.ledger_sum(info.id)


@pytest.mark.parametrize(("cost", "words"), [(1, "costs 1 credit and"), (2, "costs 2 credits")])
def test_insufficient_credits_message_counts_properly(
    make_client: Callable[..., Client], cost: int, words: str
) -> None:
    client = make_client(warm=False, generate_cost=cost)
    assert_error(post(client, new_key(client, credits=0), {}), 402, "insufficient_credits", words)


def test_generate_cost_is_debited_on_success(make_client: Callable[..., Client]) -> None:
    client = make_client(generate_cost=3)
    credits = client.app.state.services.credits
    key = new_key(client, credits=7)
    # Three different cards: an identical request would be a free replay of the first.
    assert post(client, key, {"markdown": "# One"}).status_code == 200
    assert post(client, key, {"markdown": "# Two"}).status_code == 200
    assert_error(post(client, key, {"markdown": "# Three"}), 402, "insufficient_credits")
    info = credits.authenticate(key)
    assert info.balance == 1 == credits.ledger_sum(info.id)
    assert [row.kind for row in credits.ledger(info.prefix)] == ["debit", "debit", "grant"]


def test_bad_input_is_refused_before_any_charge(make_client: Callable[..., Client]) -> None:
    client = make_client(warm=False, generate_cost=1)
    credits = client.app.state.services.credits
    key = new_key(client, credits=5)
    assert post(client, key, {"theme": "nope"}).status_code == 400
    assert post(client, key, {"width": 5}).status_code == 400
    assert [row.kind for row in credits.ledger(key[:8])] == ["grant"]


def test_a_failed_request_is_refunded(make_client: Callable[..., Client]) -> None:
    client = make_client(generate_cost=1)
    credits = client.app.state.services.credits
    key = new_key(client, credits=5)
    response = post(client, key, {"markdown": FIFTY_ONE_PARTS, "splitMode": "hrSplit", "scale": 1})
    assert response.status_code == 400
    info = credits.authenticate(key)
    assert info.balance == 5 == credits.ledger_sum(info.id)
    assert [row.kind for row in credits.ledger(info.prefix)] == ["refund", "debit", "grant"]


def test_render_failure_is_500_render_failed(
    client: Client, key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = client.app.state.services.cards
    real = cards.render_job

    def themeless(job: Any, doc: Any = None, images: Any = None) -> Any:  # the engine fails
        return msgspec.structs.replace(real(job, doc, images), theme=None)

    monkeypatch.setattr(cards, "render_job", themeless)
    assert_error(post(client, key, {}), 500, "render_failed")
    assert stored_files(tmp_path / "files") == []


def test_storage_failure_is_502_and_leaves_no_files(
    client: Client, key: str, tmp_path: Path
) -> None:
    (tmp_path / "files" / "screenshots").write_bytes(b"a file where the folder should be")
    assert_error(post(client, key, {}), 502, "storage_error")
    assert stored_files(tmp_path / "files") == ["screenshots"]


def test_timeout_is_504_and_leaves_no_files(
    make_client: Callable[..., Client], tmp_path: Path
) -> None:
    client = make_client(timeout=0.01, generate_cost=1)
    key = new_key(client, credits=1)
    response = post(client, key, {"markdown": HEAVY, "splitMode": "autoSplit"})
    assert_error(response, 504, "timeout")
    time.sleep(3)  # let the abandoned render finish: it must not store anything
    assert stored_files(tmp_path / "files") == []
    assert client.app.state.services.credits.authenticate(key).balance == 1


@shared_app
def test_unknown_route_and_method_use_the_error_body(client: Client) -> None:
    assert_error(client.get("/api/nothing"), 404, "not_found")
    assert_error(client.get("/api/generate"), 405, "method_not_allowed")
