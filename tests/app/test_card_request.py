"""One card request, one normaliser: the HTTP API and `inkcard render` decide alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard import themes
from inkcard.app.cards.request import CardRequest, normalise
from inkcard.app.cli.commands import build_parser, main
from inkcard.app.cli.render import card_request
from inkcard.app.schema import parse_generate
from tests.app.conftest import shared_app

CASES: list[tuple[dict[str, Any], list[str]]] = [
    ({}, []),
    (
        {"theme": "apple-notes", "themeMode": "dark-mode"},
        ["--theme", "apple-notes", "--mode", "dark-mode"],
    ),
    (
        {"theme": "cyberpunk", "themeMode": "dark-mode"},
        ["--theme", "cyberpunk", "--mode", "dark-mode"],
    ),
    (
        {
            "width": 500.4,
            "height": 700.6,
            "scale": 3,
            "splitMode": "autoSplit",
            "overHiddenMode": True,
        },
        [
            "--width",
            "500.4",
            "--height",
            "700.6",
            "--scale",
            "3",
            "--split",
            "autoSplit",
            "--overflow-hidden",
        ],
    ),
    ({"overHiddenMode": True}, ["--overflow-hidden"]),
    ({"format": "jpeg", "quality": 70}, ["--format", "jpeg", "--quality", "70"]),
    ({"format": "png", "quality": 70}, ["--format", "png", "--quality", "70"]),
]


def cli_request(flags: list[str], markdown: str = "# hi") -> CardRequest:
    return card_request(build_parser().parse_args(["render", "post.md", *flags]), markdown)


@shared_app
@pytest.mark.parametrize(("body", "flags"), CASES)
def test_the_cli_and_the_http_path_build_the_same_record(
    client: TestClient[Litestar], body: dict[str, Any], flags: list[str]
) -> None:
    http = client.app.state.services.cards.prepare(
        parse_generate(msgspec.json.encode({"markdown": "# hi", **body}))
    )
    assert cli_request(flags) == http.card
    # the service's catalogue and the CLI's one-file lookup agree
    assert http.card == normalise(
        parse_generate(msgspec.json.encode({"markdown": "# hi", **body})), themes.load_one
    )


@pytest.mark.parametrize(
    ("body", "flags", "label", "field"),
    [
        (
            {"theme": "apple-notes", "themeMode": "sepia-mode"},
            ["--theme", "apple-notes", "--mode", "sepia-mode"],
            "invalid_theme_mode",
            ("themeMode", "--mode"),
        ),
        (
            {"theme": "no-such-theme"},
            ["--theme", "no-such-theme"],
            "invalid_theme",
            ("theme", "--theme"),
        ),
    ],
)
def test_a_bad_theme_or_mode_says_the_same_on_both_in_its_own_words(
    client: TestClient[Litestar],
    key: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    body: dict[str, Any],
    flags: list[str],
    label: str,
    field: tuple[str, str],
) -> None:
    """The same refusal, the API's naming its field, the command's naming its flag."""
    response = client.post("/api/generate", json=body, headers={"x-api-key": key})
    assert response.status_code == 400 and response.json()["error"] == label
    message = response.json()["message"]
    assert message.startswith(f"{field[0]} must be ")
    post = tmp_path / "post.md"
    post.write_text("# hi", "utf-8")
    assert main(["render", str(post), "-o", str(tmp_path / "out"), *flags]) == 2
    said = message.replace(field[0], field[1], 1)
    assert capsys.readouterr().err == f"inkcard: {said}\n"
    assert not (tmp_path / "out").exists()


def test_a_theme_without_modes_takes_no_mode_on_either_path() -> None:
    """As the API always did: a mode asked of a theme without modes is not used."""
    [name, *_] = [n for n in themes.names() if not themes.modes(n)]
    assert cli_request(["--theme", name, "--mode", "dark-mode"]).mode is None


def test_the_cache_key_keeps_the_order_stored_cards_were_named_by() -> None:
    """The digest hashes the fields in this order, defaults left out: reordering them would
    rename (and so render again) every stored set."""
    from inkcard.app.cards.service import CardJob

    body = {"markdown": "# hi", "format": "jpeg", "quality": 70}
    card = normalise(parse_generate(msgspec.json.encode(body)), themes.load)
    job = CardJob(card=card, theme_data="t", fonts="f", images=(("a.png", "00"),))
    assert list(job.key()) == [
        *("markdown", "theme", "mode", "width", "height", "split", "mdx"),
        *("overflow_hidden", "scale", "theme_data", "fonts", "images", "format", "quality"),
    ]
    png_card = normalise(parse_generate(b'{"markdown": "# hi"}'), themes.load)
    png = CardJob(card=png_card, theme_data="t", fonts="f")
    assert "images" not in png.key() and "format" not in png.key() and "quality" not in png.key()


def test_the_service_parses_the_post_once_and_hands_the_worker_its_doc(
    client: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker gets the Doc the service parsed (image sources included), not only text."""
    from tests.app.apphelpers import new_key

    cards = client.app.state.services.cards
    jobs: list[Any] = []
    real_run = cards.pool.run

    async def capture(job: Any, timeout: float, key: object = None) -> Any:
        jobs.append(job)
        return await real_run(job, timeout, key)

    monkeypatch.setattr(cards.pool, "run", capture)
    markdown = "# Once\n\n![x](x.png) text"
    response = client.post(
        "/api/generate", json={"markdown": markdown}, headers={"x-api-key": new_key(client)}
    )
    assert response.status_code == 200, response.text
    [job] = jobs
    assert job.doc is not None
    assert job.doc.images == ("x.png",)
    assert job.doc.blocks


def test_a_post_that_names_no_image_is_never_parsed_by_the_service(
    client: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A text that can name no image is parsed by the render worker that draws it (once), never
    by the service: not when its cards are drawn, nor when the same request again finds them
    stored."""
    from inkcard.layout.parse import markdown as engine_markdown
    from tests.app.apphelpers import new_key

    parses: list[str] = []
    real = engine_markdown._PARSER.parse

    def counted(text: str, *args: Any, **kwargs: Any) -> Any:
        parses.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(engine_markdown._PARSER, "parse", counted)
    body = {"markdown": "# Stored\n\nNo pictures here, just text."}
    headers = {"x-api-key": new_key(client)}
    first = client.post("/api/generate", json=body, headers=headers)
    assert first.status_code == 200, first.text
    assert parses == []
    again = client.post("/api/generate", json=body, headers=headers)
    assert again.json() == first.json()
    assert parses == []
