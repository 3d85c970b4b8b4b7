"""Local files over MCP: ``markdownFile`` and local images in the Markdown, read by
``inkcard mcp`` (stdio, the SDK's own client) only under ``INKCARD_LOCAL_ROOTS``, never over
HTTP.

The folder ``root`` is the one allowed root; ``outside`` is beside it. A red image drawn on a
card shows as red pixels (a placeholder has none); every refusal is a tool error that names
the path and the reason and never shows what the file holds.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from mcp import ClientSession

from inkcard.app.localfiles import LocalFileRefused, LocalReader, roots_of
from inkcard.app.settings import load_settings
from tests import pngcodec
from tests.app.test_mcp import (
    Http,
    Stdio,
    assert_tool_error,
    http,  # noqa: F401  # the fixture
    images_of,
    run,
    stdio,  # noqa: F401  # the fixture
    text_of,
)

RED = pngcodec.encode(np.full((60, 80, 3), (220, 20, 30), np.uint8))
SECRET = "TOP-SECRET-CONTENTS"
SMALL_CARD = {"width": 300, "height": 240}


def red_pixels(png: bytes) -> int:
    pixels = pngcodec.decode(png)
    return int(((pixels[..., 0] > 180) & (pixels[..., 1] < 80) & (pixels[..., 2] < 80)).sum())


@dataclass
class Folders:
    root: Path
    outside: Path


@pytest.fixture
def folders(tmp_path: Path) -> Folders:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "pics").mkdir(parents=True)
    outside.mkdir()
    (root / "pics" / "red.png").write_bytes(RED)
    (root / "post.md").write_text("# Local\n\n![red](./pics/red.png)\n", "utf-8")
    (outside / "secret.md").write_text(f"# {SECRET}\n", "utf-8")
    (outside / "secret.png").write_bytes(RED)
    (root / "escape.md").symlink_to(outside / "secret.md")
    (root / "escape.png").symlink_to(outside / "secret.png")
    (root / "notes.txt").write_text(SECRET, "utf-8")
    return Folders(root, outside)


@pytest.fixture
def local(stdio: Stdio, folders: Folders) -> Iterator[tuple[Stdio, Folders]]:  # noqa: F811
    stdio.env["INKCARD_LOCAL_ROOTS"] = str(folders.root)
    yield stdio, folders


def test_stdio_markdown_file_and_its_local_images_are_drawn(local: tuple[Stdio, Folders]) -> None:
    agent, folders = local
    red_path = folders.root / "pics" / "red.png"

    async def scenario(session: ClientSession) -> list[bytes]:
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
        for name in ("generate_cards", "convert_article", "create_newspic_draft"):
            assert "markdownFile" in listed[name].input_schema["properties"]
        cards = []
        for arguments in (
            {"markdownFile": str(folders.root / "post.md")},  # ./pics/red.png from its folder
            {"markdown": f"![red]({red_path})"},
            {"markdown": f"![red]({red_path.as_uri()})"},
        ):
            result = await session.call_tool("generate_cards", {**arguments, **SMALL_CARD})
            assert not result.is_error, text_of(result)
            [png] = images_of(result)
            cards.append(png)
        post = str(folders.root / "post.md")
        newspic = await session.call_tool(
            "create_newspic_draft", {"markdownFile": post, "dryRun": True, **SMALL_CARD}
        )
        assert not newspic.is_error, text_of(newspic)
        return cards

    async def main() -> None:
        async with agent.session() as session:
            cards = await scenario(session)
        for png in cards:
            assert red_pixels(png) > 2000, "the local image is drawn, not a placeholder"

    run(main)


def test_stdio_article_carries_a_local_image_as_data(local: tuple[Stdio, Folders]) -> None:
    agent, folders = local

    async def main() -> None:
        async with agent.session() as session:
            result = await session.call_tool(
                "convert_article", {"markdownFile": str(folders.root / "post.md")}
            )
        assert not result.is_error, text_of(result)
        html = text_of(result)["html"]
        assert "data:image/png;base64," + base64.b64encode(RED).decode()[:40] in html

    run(main)


def test_stdio_refuses_files_outside_the_roots(local: tuple[Stdio, Folders]) -> None:
    agent, folders = local
    root, outside = folders.root, folders.outside
    markdown_files = {
        "outside": str(outside / "secret.md"),
        "symlink": str(root / "escape.md"),
        "dotdot": f"{root}/../outside/secret.md",
    }
    images = {
        "outside": f"![x]({outside / 'secret.png'})",
        "symlink": "![x](./escape.png)",
        "dotdot": "![x](../outside/secret.png)",
    }

    async def main() -> None:
        async with agent.session() as session:
            for how, path in markdown_files.items():
                result = await session.call_tool("generate_cards", {"markdownFile": path})
                said = assert_tool_error(result, "invalid_markdown_file")
                assert "outside the folders" in said and str(root) in said, (how, said)
                assert SECRET not in said
            (root / "images.md").write_text("\n\n".join(images.values()), "utf-8")
            for how, image in images.items():
                (root / "one.md").write_text(image, "utf-8")
                result = await session.call_tool(
                    "convert_article", {"markdownFile": str(root / "one.md")}
                )
                said = assert_tool_error(result, "invalid_image")
                assert "outside the folders" in said, (how, said)
            # a card draws the placeholder instead, and the call succeeds
            result = await session.call_tool(
                "generate_cards", {"markdownFile": str(root / "images.md"), **SMALL_CARD}
            )
            assert not result.is_error
            assert all(red_pixels(png) == 0 for png in images_of(result))
            missing = await session.call_tool(
                "generate_cards", {"markdownFile": str(root / "nope.md")}
            )
            assert "does not exist" in assert_tool_error(missing, "invalid_markdown_file")
            text = await session.call_tool("convert_article", {"markdown": "![x](./notes.txt)"})
            assert "relative path" in assert_tool_error(text, "invalid_image")
            (root / "t.md").write_text("![x](./notes.txt)", "utf-8")
            text = await session.call_tool("convert_article", {"markdownFile": str(root / "t.md")})
            said = assert_tool_error(text, "invalid_image")
            assert "not a PNG" in said and SECRET not in said

    run(main)
    assert agent.balance() == 100 - 2  # one card call drawn; every refusal cost nothing


def test_http_refuses_markdown_file_and_reads_no_local_image(http: Http, tmp_path: Path) -> None:  # noqa: F811
    (tmp_path / "post.md").write_text("# Local\n", "utf-8")
    (tmp_path / "red.png").write_bytes(RED)
    key, _ = http.new_key()

    async def main() -> None:
        async with http.session(key) as session:
            listed = {tool.name: tool for tool in (await session.list_tools()).tools}
            assert "markdownFile" not in listed["generate_cards"].input_schema["properties"]
            result = await session.call_tool(
                "generate_cards", {"markdownFile": str(tmp_path / "post.md")}
            )
            said = assert_tool_error(result, "invalid_markdown_file")
            assert "over stdio" in said
            drawn = await session.call_tool(
                "generate_cards", {"markdown": f"![red]({tmp_path / 'red.png'})", **SMALL_CARD}
            )
            assert not drawn.is_error
            assert all(red_pixels(png) == 0 for png in images_of(drawn))

    run(main)


def test_roots_default_to_home_and_split_on_the_path_separator(tmp_path: Path) -> None:
    assert roots_of(load_settings({})) == (Path.home().resolve(),)
    both = os.pathsep.join([str(tmp_path / "a"), str(tmp_path / "b")])
    expected = ((tmp_path / "a").resolve(), (tmp_path / "b").resolve())
    assert roots_of(load_settings({"INKCARD_LOCAL_ROOTS": both})) == expected


def test_a_reader_limits_size_and_needs_a_base_for_relative_paths(tmp_path: Path) -> None:
    (tmp_path / "big.png").write_bytes(RED)
    reader = LocalReader((tmp_path.resolve(),))
    with pytest.raises(LocalFileRefused, match="larger than 10 bytes"):
        reader.read(str(tmp_path / "big.png"), 10)
    with pytest.raises(LocalFileRefused, match="relative path"):
        reader.read("./big.png", 10**6)
    assert reader.with_base(tmp_path).read("./big.png", 10**6) == RED
    assert reader.with_base(tmp_path).read("big%2Epng", 10**6) == RED  # percent-encoded
