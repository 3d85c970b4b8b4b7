"""Card file names change with the theme file and the fonts, not only with the request.

Each app here is a fresh start on copies of the theme and font folders, sharing one storage
folder: an unchanged start must find yesterday's cards, and a start after a theme or font edit
must not.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard import layout, themes
from tests import pngcodec
from tests.app.apphelpers import files_path, new_key

Client = TestClient[Litestar]
BODY = {"markdown": "# Cache\n\nSome text and `code`.", "width": 300, "height": 300, "scale": 1}
THEME = "apple-notes"
BLUE = pngcodec.encode(np.full((20, 30, 3), (20, 40, 220), np.uint8))
GREEN = pngcodec.encode(np.full((20, 30, 3), (20, 200, 40), np.uint8))


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    """(themes, fonts): a copy of the built-in apple-notes theme and links to every font."""
    theme_dir = tmp_path / "themes" / THEME
    theme_dir.mkdir(parents=True)
    shutil.copy(themes.THEMES_DIR / THEME / themes.THEME_FILE, theme_dir)
    fonts_dir = tmp_path / "fonts"
    fonts_dir.mkdir()
    for source in Path(layout.DEFAULT_FONTS_DIR).iterdir():
        if source.is_file():
            (fonts_dir / source.name).symlink_to(source)
    return tmp_path / "themes", fonts_dir


def generate(client: Client) -> list[str]:
    """The card URLs of ``BODY`` on a fresh start of the app."""
    response = client.post("/api/generate", json=BODY, headers={"x-api-key": new_key(client)})
    assert response.status_code == 200, response.text
    return [image["url"] for image in response.json()["images"]]


def png(client: Client, url: str) -> bytes:
    response = client.get(files_path(url))
    assert response.status_code == 200
    return response.content


def test_an_unchanged_restart_serves_the_stored_cards(
    make_client: Callable[..., Client], folders: tuple[Path, Path]
) -> None:
    themes_dir, fonts_dir = folders
    first = make_client(themes_dir=str(themes_dir), fonts_dir=str(fonts_dir))
    urls = generate(first)
    assert first.app.state.services.cards.render_count == 1
    # A newer modification time with the same bytes is not a change: content is what counts.
    card_toml = themes_dir / THEME / themes.THEME_FILE
    os.utime(card_toml, (card_toml.stat().st_atime + 60, card_toml.stat().st_mtime + 60))
    again = make_client(themes_dir=str(themes_dir), fonts_dir=str(fonts_dir))
    assert generate(again) == urls
    assert again.app.state.services.cards.render_count == 0


def test_an_edited_theme_file_changes_the_urls(
    make_client: Callable[..., Client], folders: tuple[Path, Path]
) -> None:
    themes_dir, fonts_dir = folders
    before = make_client(themes_dir=str(themes_dir), fonts_dir=str(fonts_dir))
    old_urls = generate(before)
    card_toml = themes_dir / THEME / themes.THEME_FILE
    text = card_toml.read_text("utf-8")
    assert 'background = "#ffffff"' in text
    card_toml.write_text(text.replace('background = "#ffffff"', 'background = "#fffffe"', 1))
    assert generate(before) == old_urls, "fingerprints are taken at start-up, not per request"

    after = make_client(themes_dir=str(themes_dir), fonts_dir=str(fonts_dir))
    new_urls = generate(after)
    assert len(new_urls) == len(old_urls)
    assert set(new_urls).isdisjoint(old_urls)
    assert after.app.state.services.cards.render_count == 1
    assert png(after, new_urls[0]) != png(after, old_urls[0])


def test_a_swapped_font_file_changes_the_urls(
    make_client: Callable[..., Client], folders: tuple[Path, Path]
) -> None:
    themes_dir, fonts_dir = folders
    before = make_client(themes_dir=str(themes_dir), fonts_dir=str(fonts_dir))
    old_urls = generate(before)
    mono = fonts_dir / "JetBrainsMono-Regular.ttf"  # the face of the `code` span
    mono.unlink()
    shutil.copy(fonts_dir / "DejaVuSans.ttf", mono)

    after = make_client(themes_dir=str(themes_dir), fonts_dir=str(fonts_dir))
    new_urls = generate(after)
    assert set(new_urls).isdisjoint(old_urls)
    assert after.app.state.services.cards.render_count == 1
    assert png(after, new_urls[0]) != png(after, old_urls[0])


def test_copies_of_the_builtin_folders_make_the_builtin_urls(
    make_client: Callable[..., Client], folders: tuple[Path, Path]
) -> None:
    """Same bytes, same names: a copy of the built-in folders makes the built-in URLs."""
    themes_dir, fonts_dir = folders
    copied = generate(make_client(themes_dir=str(themes_dir), fonts_dir=str(fonts_dir)))
    builtin = make_client()
    assert generate(builtin) == copied
    assert builtin.app.state.services.cards.render_count == 0


def test_two_operators_custom_themes_of_one_name_never_share_files(
    make_client: Callable[..., Client], tmp_path: Path
) -> None:
    """The key holds the custom theme's bytes, not its name: same name, other CSS, other
    files in one storage; the same CSS in another folder finds the stored cards."""
    folders = [tmp_path / name for name in ("alice", "bob", "carol")]
    for folder, colour in zip(folders, ("#fde68a", "#bfdbfe", "#fde68a"), strict=True):
        folder.mkdir()
        (folder / "brand.css").write_text(f".brand {{ background: {colour}; }}\n")
    body = {**BODY, "theme": "brand"}

    def urls(client: Client) -> list[str]:
        response = client.post("/api/generate", json=body, headers={"x-api-key": new_key(client)})
        assert response.status_code == 200, response.text
        return [image["url"] for image in response.json()["images"]]

    alice, bob, carol = (make_client(themes_dir=str(folder)) for folder in folders)
    alice_urls, bob_urls = urls(alice), urls(bob)
    assert set(alice_urls).isdisjoint(bob_urls)
    assert png(bob, bob_urls[0]) != png(alice, alice_urls[0])
    assert urls(carol) == alice_urls, "same bytes, same cards"
    assert carol.app.state.services.cards.render_count == 0


def test_the_remote_images_bytes_join_the_key(make_client: Callable[..., Client]) -> None:
    """Same URL, other bytes: new cards; the same bytes again (a new start, no fetch cache):
    the stored cards. A card without remote images keeps the name it had before."""
    served = [BLUE]

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = served[0]
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/pic.png"
    body = {**BODY, "markdown": f"# Cache\n\n![pic]({url})"}

    def urls(client: Client) -> list[str]:
        response = client.post("/api/generate", json=body, headers={"x-api-key": new_key(client)})
        assert response.status_code == 200, response.text
        return [image["url"] for image in response.json()["images"]]

    try:
        first = make_client(allow_private_fetch=True)
        blue = urls(first)
        served[0] = GREEN
        assert urls(first) == blue, "within five minutes the fetched bytes are reused"
        green = urls(make_client(allow_private_fetch=True))
        assert set(green).isdisjoint(blue)
        served[0] = BLUE
        again = make_client(allow_private_fetch=True)
        assert urls(again) == blue
        assert again.app.state.services.cards.render_count == 0
        assert generate(make_client()) == generate(make_client(allow_private_fetch=True))
    finally:
        server.shutdown()
        server.server_close()
