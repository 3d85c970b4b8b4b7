"""Every card answer carries the engine's quality report (`quality`): generate over HTTP (and
its replay), the OpenAPI document, `inkcard render --report`; a cover has none."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard import layout
from inkcard.app.schema.generate import card_quality
from tests.app.test_api_errors import post

Client = TestClient[Litestar]
CORPUS = Path(__file__).resolve().parents[1] / "cases" / "posts"
FIELDS = {
    "score",
    "fill",
    "emptyBand",
    "overflow",
    "smallestTextPx",
    "lowestContrast",
    "justifyStretch",
    "brokenRules",
    "strandedEnd",
    "notes",
}
PARAGRAPH = "这是一段普通的正文，讲一件小事，写得不长也不短，读起来很顺。" * 2
CODE = "```python\n" + "\n".join(f"value_{n} = compute({n})" for n in range(18)) + "\n```"
# The code block fits a card, not what the paragraph leaves of the first: it moves whole.
HALF_EMPTY = {"markdown": f"{PARAGRAPH}\n\n{CODE}", "splitMode": "autoSplit"}


def _images(client: Client, key: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    response = post(client, key, body)
    assert response.status_code == 200, response.text
    images: list[dict[str, Any]] = response.json()["images"]
    return images


def test_every_card_answer_carries_its_quality(client: Client, key: str) -> None:
    images = _images(client, key, HALF_EMPTY)
    assert len(images) == 2
    for image in images:
        assert set(image["quality"]) == FIELDS
        assert image["quality"]["brokenRules"] == []
        assert image["quality"]["strandedEnd"] is False
    first = images[0]["quality"]
    assert first["fill"] < 0.55 and first["score"] < 60  # the card the code block left
    assert images[1]["quality"]["score"] > first["score"]
    # A retry within the window is a replay: the same answer, the report included.
    assert _images(client, key, HALF_EMPTY) == images


def test_overflow_hidden_reports_what_it_cut(client: Client, key: str) -> None:
    long_post = "\n\n".join([PARAGRAPH] * 12)
    [image] = _images(client, key, {"markdown": long_post, "overHiddenMode": True})
    assert image["quality"]["overflow"] is True
    [grown] = _images(client, key, {"markdown": long_post})
    assert grown["quality"]["overflow"] is False


def test_a_pdf_reports_its_lowest_scoring_card(client: Client, key: str) -> None:
    pngs = _images(client, key, HALF_EMPTY)
    [pdf] = _images(client, key, {**HALF_EMPTY, "format": "pdf"})
    assert pdf["quality"] == min((image["quality"] for image in pngs), key=lambda q: q["score"])


def test_a_cover_has_no_quality(client: Client, key: str) -> None:
    response = client.post("/api/generate/cover", headers={"x-api-key": key}, json={"text": "标题"})
    assert response.status_code == 200, response.text
    assert [image["quality"] for image in response.json()["images"]] == [None]


def test_the_openapi_document_describes_quality(client: Client) -> None:
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    record = schemas["CardQuality"]
    assert set(record["properties"]) == FIELDS
    for name in layout.BREAK_RULES:
        assert name in record["properties"]["brokenRules"]["description"]
    assert "quality" in schemas["ImageRecord"]["properties"]


def test_render_report_prints_each_card_and_its_quality(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from inkcard.app.cli import main

    post_file = tmp_path / "post.md"
    post_file.write_text(HALF_EMPTY["markdown"], "utf-8")
    out = tmp_path / "out"
    assert main(["render", str(post_file), "--split", "autoSplit", "-o", str(out), "--report"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["file"] for line in lines] == [str(out / "1.png"), str(out / "2.png")]
    assert all(set(line["quality"]) == FIELDS for line in lines)
    assert lines[0]["quality"]["score"] < lines[1]["quality"]["score"]
    assert main(["render", str(post_file), "-o", str(out)]) == 0  # without: the paths alone
    assert capsys.readouterr().out == f"{out / '1.png'}\n"


def test_fit_auto_answers_the_better_scoring_cards(client: Client, key: str) -> None:
    post_text = (CORPUS / "04-long-article-zh.md").read_text("utf-8")
    body = {"markdown": post_text, "theme": "traditional-chinese", "splitMode": "autoSplit"}
    own = _images(client, key, body)
    fitted = _images(client, key, {**body, "fit": "auto"})
    mean = [sum(i["quality"]["score"] for i in images) / len(images) for images in (own, fitted)]
    assert mean[1] > mean[0]
    assert len(fitted) <= len(own)  # never spread over more cards
    # the room its cards left before the last is what the score now weighs: at 1.06 the
    # article's cards are 89-96 % full after its title card where the theme's type left
    # one 58 % (and 0.94, a card fewer, three at 70-77 %)
    emptiest = [min(i["quality"]["fill"] for i in images[1:-1]) for images in (own, fitted)]
    assert emptiest[1] > emptiest[0]
    response = post(client, key, {**body, "fit": "best"})
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_fit"
    assert "none, auto" in response.json()["message"]


def test_a_stranded_section_end_reaches_the_wire() -> None:
    """The engine's `stranded` (a card opening with the short end of the section before)
    is the answer's `strandedEnd`."""
    measured = layout.Quality(100, 0.9, 0.0, False, 12.0, 12.0, ())
    plain, stranded = card_quality(measured), card_quality(replace(measured, stranded=True))
    assert plain is not None and stranded is not None
    assert stranded.strandedEnd and not plain.strandedEnd
