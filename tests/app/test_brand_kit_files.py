"""A brand kit's files in the formats creators have: a WOFF2 font (unpacked to the sfnt the
engine reads, when the kit is saved) draws the cards exactly as the same font's OTF does; a
background image lies on the cards' face (a dark one is kept with a contrast warning)."""

from __future__ import annotations

import base64
import io
from collections.abc import Callable

import numpy as np
from fontTools.ttLib import TTFont
from litestar import Litestar
from litestar.testing import TestClient

from tests import pngcodec
from tests.app.test_brand_kits import download, get, new_key_of, post, put
from tests.brandassets import BODY_FONT, data_uri, noise_png

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


def stripes_png(dark: bool = False) -> bytes:
    """Soft diagonal stripes, 120 x 90 (pale, or near black with `dark`): a background."""
    yy, xx = np.mgrid[0:90, 0:120]
    band = ((xx + yy) // 15 % 2).astype(bool)
    pixels = np.zeros((90, 120, 3), np.uint8)
    pixels[:] = (30, 30, 40) if dark else (236, 244, 250)
    pixels[band] = (60, 40, 70) if dark else (250, 232, 214)
    return pngcodec.encode(pixels)


def test_a_background_lies_under_the_cards_and_a_dark_one_warns(
    make_client: Callable[..., Client],
) -> None:
    client = make_client()
    key, _ = new_key_of(client)
    saved = put(client, key, "paper", {"background": data_uri(stripes_png())})
    assert saved.status_code == 201, saved.text
    info = saved.json()
    assert info["background"]["width"] == 120 and info["backgroundFit"] == "cover"
    pale = [w for w in info["warnings"] if w.startswith("background")]
    assert len(pale) == 1 and "cyberpunk" in pale[0], info  # light text on a pale image
    assert "minimal" not in pale[0] and "japanese-magazine" not in pale[0]
    tiled = put(
        client, key, "tiles", {"background": data_uri(stripes_png()), "backgroundFit": "tile"}
    )
    assert tiled.status_code == 201 and tiled.json()["backgroundFit"] == "tile"

    body = {"markdown": "# Title\n\nPlain words in the body.", "theme": "minimal", "scale": 1}
    cards = {}
    for brand in (None, "paper", "tiles"):
        fields = {**body, "brand": brand} if brand else body
        answer = post(client, key, "/api/generate", fields)
        assert answer.status_code == 200, answer.text
        cards[brand] = pngcodec.decode(download(client, answer.json()["images"][0]))[..., :3]
    plain, paper, tiles = cards[None], cards["paper"], cards["tiles"]
    assert plain.shape == paper.shape
    corner = (slice(-40, None), slice(0, 40))  # the card's padding, bottom left: no text

    def peach(card: np.ndarray) -> int:
        return int((abs(card[corner].astype(int) - [250, 232, 214]).sum(axis=-1) < 12).sum())

    assert peach(plain) == 0 and peach(paper) > 100, "the stripes show on the card's face"
    assert (tiles[corner] != paper[corner]).any()  # tiled, not stretched over the card
    cover = {"text": "品牌封面", "theme": "minimal", "width": 440, "height": 586}
    covers = [
        pngcodec.decode(
            download(client, post(client, key, "/api/generate/cover", c).json()["images"][0])
        )[..., :3]
        for c in (cover, {**cover, "brand": "paper"})
    ]
    assert peach(covers[0]) == 0 and peach(covers[1]) > 100  # covers too

    dark = put(client, key, "night", {"background": data_uri(stripes_png(dark=True))})
    assert dark.status_code == 201, dark.text  # kept: a warning, not a refusal
    warnings = [w for w in dark.json()["warnings"] if w.startswith("background")]
    assert len(warnings) == 1 and "minimal" in warnings[0] and "4.5:1" in warnings[0]


def test_a_bad_background_is_a_400_and_nothing_is_stored(
    make_client: Callable[..., Client],
) -> None:
    client = make_client(warm=False)
    key, _ = new_key_of(client)
    image = data_uri(stripes_png())
    for body, label in (
        ({"background": image, "backgroundFit": "stretch"}, "invalid_background_fit"),
        ({"background": "data:text/plain;base64,aGk="}, "invalid_image"),
        ({"background": data_uri(noise_png(400, 400))}, "invalid_image"),
    ):
        refused = put(client, key, "bad", body)
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"] == label and refused.json()["message"]
    assert get(client, key, "/api/brands").json() == {"brands": []}
