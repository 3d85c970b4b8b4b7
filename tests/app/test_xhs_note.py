"""POST /api/platform/xhs-note against a real server (uvicorn on a port), its MCP tool and
`inkcard xhs-note`: the cards are generate's for the same fields, the cover is drawn, the
note's title, body and tags come from the fields, the front matter or the post, each
Xiaohongshu limit exceeded is a warning (and one at the limit is not), bad fields are a 400
that charges nothing, and all three doors give the same note."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from inkcard.app.cli import main
from tests.app.apphelpers import png_size
from tests.app.test_mcp import GENERATE_COST, Http, http, text_of  # noqa: F401 (the fixture)

PATH = "/api/platform/xhs-note"
POST = """---
title: 三步写出爆款笔记
tags: [AI写作, "#效率"]
---
# 普通人也能学会的 AI 写作

第一步 **定选题**：从 [评论区](https://example.com) 找问题，用 `grep` 也行 🎉。

![图](https://example.invalid/a.png)

## 清单

- 列提纲
- 写初稿
  - 先写开头

1. 改标题
2. 配图

> 好文章是改出来的

```python
print("#不是话题")
```
"""
SMALL = {"width": 200, "height": 266, "scale": 1}  # quick cards where only counts matter
MARKS = ("**", "](", "`", "![", "\n#", "\n- ", "\n> ", "```", "\n1. ")


def post(http: Http, key: str, body: Any) -> httpx.Response:  # noqa: F811
    return httpx.post(http.base + PATH, json=body, headers={"x-api-key": key}, timeout=120)


def generate(http: Http, key: str, body: Any) -> httpx.Response:  # noqa: F811
    return httpx.post(
        http.base + "/api/generate", json=body, headers={"x-api-key": key}, timeout=120
    )


def digests(images: list[dict[str, Any]]) -> list[str]:
    return [hashlib.sha256(httpx.get(image["url"]).content).hexdigest() for image in images]


def run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)


def codes(answer: dict[str, Any]) -> list[str]:
    return [warning["code"] for warning in answer["warnings"]]


def balance(http: Http, prefix: str) -> int:  # noqa: F811
    return int(http.credits.key_info(prefix).balance)


def test_the_note_has_generates_cards_a_cover_its_text_and_one_charge(http: Http) -> None:  # noqa: F811
    key, prefix = http.new_key()
    fields = {"markdown": POST, "theme": "brandA"}
    response = post(http, key, fields)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["success"] is True and answer["cost"] == GENERATE_COST
    assert balance(http, prefix) == 100 - GENERATE_COST
    # the cards are generate's, byte for byte, for the same fields (a note is autoSplit)
    cards = generate(http, key, {**fields, "splitMode": "autoSplit"}).json()["images"]
    assert digests(answer["images"]) == digests(cards)
    assert [image["fileName"] for image in answer["images"]] == [c["fileName"] for c in cards]
    # generate's default is one tall card: the note's differ from it
    tall = generate(http, key, fields).json()["images"]
    assert digests(tall) != digests(answer["images"])
    # the cover: a PNG of the cards' size at scale 2 (3:4), the title its alt text
    cover = httpx.get(answer["cover"]["url"]).content
    assert png_size(cover) == (880, 1172)
    assert answer["cover"]["altText"].startswith("三步写出爆款笔记")
    note = answer["note"]
    assert note["title"] == "三步写出爆款笔记"  # the front matter's, before the heading
    assert note["tags"] == ["AI写作", "效率"]  # the front matter's list, # taken off
    body = note["body"]
    assert body.startswith(
        "普通人也能学会的 AI 写作\n\n第一步 定选题：从 评论区 找问题，用 grep 也行 🎉。"
    )
    assert "• 列提纲\n• 写初稿\n  ◦ 先写开头" in body
    assert "1️⃣ 改标题\n2️⃣ 配图" in body
    assert "「好文章是改出来的」" in body and 'print("#不是话题")' in body
    assert not any(mark in body for mark in MARKS), body
    assert "图" not in body.replace("配图", "")  # the image is left out
    assert answer["copy"] == f"{note['title']}\n\n{body}\n\n#AI写作 #效率"
    assert answer["warnings"] == []
    # a retry within the window: the same answer, charged nothing
    before = balance(http, prefix)  # the two generate calls paid their own
    again = post(http, key, fields).json()
    assert again["images"] == answer["images"] and again["cover"] == answer["cover"]
    assert again["cost"] == 0 and balance(http, prefix) == before


def test_each_limit_over_is_a_warning_and_at_the_limit_none(http: Http) -> None:  # noqa: F811
    key, _ = http.new_key(1000)

    def warned(**fields: Any) -> list[str]:
        body = {"scale": 1, "markdown": "正文", "tags": ["a"], **fields}
        response = post(http, key, body)
        assert response.status_code == 200, response.text
        return codes(response.json())

    title_20 = "一二三四五六七八九十ABCDEFGHI🎉"  # 20 graphemes
    assert warned(title=title_20) == []
    assert warned(title=title_20 + "!") == ["xiaohongshu_title_too_long"]
    # an emoji with its skin tone, or a family joined by ZWJ, is one character
    assert warned(title="👍🏽" * 10 + "👨‍👩‍👧" * 10) == []
    assert warned(markdown="字" * 1000) == []
    assert warned(markdown="字" * 1001) == ["xiaohongshu_text_too_long"]
    ten = [f"tag{n}" for n in range(10)]
    assert warned(tags=ten) == []
    assert warned(tags=[*ten, "tag10"]) == ["xiaohongshu_too_many_tags"]
    parts = "\n\n---\n\n".join(f"第{n}张" for n in range(1, 19))  # 18 cards and the cover
    assert warned(markdown=parts, splitMode="hrSplit", **SMALL) == ["xiaohongshu_too_many_images"]
    fewer = "\n\n---\n\n".join(f"第{n}张" for n in range(1, 18))  # 17 cards and the cover
    assert warned(markdown=fewer, splitMode="hrSplit", **SMALL) == []


def test_tags_from_the_field_the_front_matter_or_the_posts_hashtags(http: Http) -> None:  # noqa: F811
    key, _ = http.new_key(1000)

    def note(**fields: Any) -> dict[str, Any]:
        response = post(http, key, {**SMALL, **fields})
        assert response.status_code == 200, response.text
        return dict(response.json()["note"])

    hashtags = "# 标题\n\n今天去了 #旅行# 和 C# 课，`#代码` 不算。\n\n#美食 #旅行 #探店#"
    found = note(markdown=hashtags)
    assert found["tags"] == ["旅行", "美食", "探店"]
    assert found["title"] == "标题" and not found["body"].startswith("标题")
    assert found["body"] == "今天去了 #旅行# 和 C# 课，#代码 不算。"  # the tag line left
    front = "---\ntags: 读书，成长, 效率\n---\n" + hashtags
    assert note(markdown=front)["tags"] == ["读书", "成长", "效率"]
    given = note(markdown=front, tags=["#自己的#", "第二"])
    assert given["tags"] == ["自己的", "第二"]
    assert "#美食 #旅行 #探店#" in given["body"]  # not the tags: the line stays
    assert note(markdown=front, tags=[])["tags"] == []


def test_bad_fields_are_a_clear_400_and_charge_nothing(http: Http) -> None:  # noqa: F811
    key, prefix = http.new_key()
    cases = {
        "invalid_tags": {"tags": ["有 空格"]},
        "invalid_format": {"format": "pdf"},
        "invalid_title": {"title": "长" * 101},
        "unknown_field": {"hashtags": ["a"]},
        "invalid_split_mode": {"splitMode": "pages"},
        "invalid_front_matter": {"markdown": "---\ntags: {a: b}\n---\n正文"},
    }
    for label, fields in cases.items():
        response = post(http, key, {"markdown": "正文", **fields})
        assert response.status_code == 400, (label, response.text)
        answer = response.json()
        assert answer["error"] == label and answer["cost"] == 0 and answer["success"] is False
        assert answer["message"]
    assert "tags" in post(http, key, {"tags": "a"}).json()["message"]
    assert balance(http, prefix) == 100


def test_the_mcp_tool_and_the_cli_give_the_routes_note(
    http: Http,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    key, _ = http.new_key()
    fields = {"markdown": POST, "theme": "brandA"}
    answer = post(http, key, fields).json()

    async def scenario() -> dict[str, Any]:
        async with http.session(key) as session:
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            assert {"title", "tags", "markdown", "splitMode"} <= set(
                tools["create_xhs_note"].input_schema["properties"]
            )
            result = await session.call_tool("create_xhs_note", fields)
            assert not result.is_error, result
            bad = await session.call_tool("create_xhs_note", {"tags": ["a b"]})
            assert bad.is_error and text_of(bad)["error"] == "invalid_tags"
            return dict(text_of(result))

    tool = anyio.run(scenario)
    for name in ("note", "copy", "warnings", "images", "cover"):
        assert tool[name] == answer[name], name
    source = tmp_path / "post.md"
    source.write_text(POST, encoding="utf-8")
    out = tmp_path / "note"
    assert main(["xhs-note", str(source), "--theme", "brandA", "-o", str(out)]) == 0
    written = json.loads((out / "note.json").read_text(encoding="utf-8"))
    assert written == {k: answer[k] for k in ("note", "copy", "warnings")}
    assert (out / "note.txt").read_text(encoding="utf-8") == answer["copy"] + "\n"
    cards = sorted(out.glob("[0-9]*.png"), key=lambda p: int(p.stem))
    assert [hashlib.sha256(p.read_bytes()).hexdigest() for p in cards] == digests(answer["images"])
    cover = httpx.get(answer["cover"]["url"]).content
    assert (out / "cover.png").read_bytes() == cover
    printed = capsys.readouterr().out.split()
    assert printed[-3:] == [str(out / n) for n in ("cover.png", "note.txt", "note.json")]


def test_the_cli_says_a_bad_flag_in_its_words_and_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "post.md"
    source.write_text("# 一个超过二十个字的标题一个超过二十个字的标题\n\n正文", encoding="utf-8")
    assert run(["xhs-note", str(source), "--format", "pdf", "-o", str(tmp_path)]) == 2
    assert "--format" in capsys.readouterr().err  # argparse's choices: no pdf
    out = tmp_path / "out"
    assert main(["xhs-note", str(source), "--scale", "1", "-o", str(out)]) == 0
    assert "xiaohongshu_title_too_long" in capsys.readouterr().err
