"""A brand kit's files in the formats creators have: a WOFF2 font (unpacked to the sfnt the
engine reads, when the kit is saved) draws the cards exactly as the same font's OTF does."""

from __future__ import annotations

import base64
import io
from collections.abc import Callable

from fontTools.ttLib import TTFont
from litestar import Litestar
from litestar.testing import TestClient

from tests import pngcodec
from tests.app.test_brand_kits import download, new_key_of, post, put
from tests.brandassets import BODY_FONT

Client = TestClient[Litestar]


def woff2_of(sfnt: bytes) -> bytes:
    """The font packed as WOFF2 (Brotli), as a web font kit sends it."""
    with TTFont(io.BytesIO(sfnt)) as font:
        font.flavor = "woff2"
        out = io.BytesIO()
        font.save(out)
    return out.getvalue()


def test_a_woff2_font_is_unpacked_and_draws_the_cards(make_client: Callable[..., Client]) -> None:
    client = make_client()
    key, _ = new_key_of(client)
    woff2 = woff2_of(BODY_FONT)
    assert woff2[:4] == b"wOF2" and len(woff2) < len(BODY_FONT)
    for name, font in (("web", woff2), ("otf", BODY_FONT)):
        saved = put(client, key, name, {"fonts": {"body": base64.b64encode(font).decode()}})
        assert saved.status_code == 201, saved.text
        info = saved.json()["fonts"]["body"]
        assert info["family"] == "Courier Prime" and info["latin"] == 1.0
        assert info["bytes"] > len(woff2)  # stored unpacked, not as the WOFF2 sent
    as_uri = "data:font/woff2;base64," + base64.b64encode(woff2).decode()
    assert put(client, key, "uri", {"fonts": {"body": as_uri}}).status_code == 201

    body = {"markdown": "# Title\n\nPlain words in the body.", "theme": "minimal", "scale": 1}

    def card(brand: str | None) -> object:
        fields = {**body, "brand": brand} if brand else body
        answer = post(client, key, "/api/generate", fields)
        assert answer.status_code == 200, answer.text
        return pngcodec.decode(download(client, answer.json()["images"][0]))

    plain, web, otf = card(None), card("web"), card("otf")
    assert (web != plain).any()  # type: ignore[operator]  # the body is in Courier Prime
    assert (web == otf).all()  # type: ignore[operator]  # glyph for glyph the OTF's
