"""A post's blocks laid out in two shares (shares.py): the second by `layout_share`, as
another process would, pickled; the first by `layout_cards`, which joins the second on.
The cards must be the very cards of one layout, in every theme, size and kind of block,
and a share that never comes must be laid out where it was wanted."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.flow.shares import SHARE_IDS, layable_apart
from inkcard.layout.parse.doc import CodeBlock, Heading, Image, Paragraph, Text
from tests import pngcodec

POSTS = Path(__file__).resolve().parents[1] / "cases" / "posts"

EVERY_BLOCK = """# 一篇什么都有的长文

开头一段，中文与 English words 混排，带 **粗体**、*斜体*、`code` 和 [链接](https://example.com)。
这一段足够长，会折成好几行：很多人写了好几年代码，还在用下标遍历列表，其实有更好的写法。

## 列表

1. 第一项，带一个嵌套的列表：
   - 嵌套一
   - 嵌套二，内容更长一些，会折行会折行会折行会折行会折行会折行会折行会折行。
2. 第二项
3. 第三项

- [x] 已完成的任务
- [ ] 没完成的任务

> 引用一段话，里面有 **强调**。
>
> 第二段引用，也足够长，足够长，足够长，足够长，足够长，足够长，足够长。

> [!NOTE]
> 一个提示框，里面有一句话。

| 写法 | 速度 | 说明 |
|:---|---:|:---:|
| `enumerate` | 1.02x | 推荐 |
| 下标 | 1.00x | 不推荐，但是这一格的字比较多，会折行 |

```python
def greet(name: str) -> str:
    # a comment that is long enough to wrap inside a narrow card, maybe
    return f"hello {name}"
```

带数学的一段：$E = mc^2$，以及更多文字。

```mermaid
graph TD
  A[开始] --> B[结束]
```

![一张图](https://example.com/a.png)

---

脚注在这里[^1]。

[^1]: 脚注的内容。

""" + "\n\n".join(
    f"## 第 {n} 节\n\n" + "这是第 {n} 节的正文，每一节都一样长，用来把文章撑到好几张卡片。" * 4
    for n in range(1, 9)
)


@pytest.fixture(scope="module")
def fonts() -> layout.FontBook:
    return layout.FontBook.load()


def shared_render(
    text: str, theme: layout.Theme, fonts: layout.FontBook, options: layout.RenderOptions
) -> tuple[layout.Rendered, int | None]:
    """The files of a render whose second share was laid out apart and pickled."""
    doc = layout.parse_post(text, options.mdx)
    start = layout.share_start(doc)
    assert start is not None, "the post should be long enough to share"
    parts = pickle.dumps(layout.layout_share(doc, theme, fonts, options, start))
    premade = layout.Premade(start, lambda: pickle.loads(parts))
    laid = layout.layout_cards(doc, theme, fonts, options, premade=premade)
    return layout.draw_cards(laid.pages, laid.images, fonts, options), start


CASES = [
    ("every block", EVERY_BLOCK, "apple-notes", 440, 586),
    ("every block", EVERY_BLOCK, "cyberpunk", 440, 586),
    ("every block", EVERY_BLOCK, "typewriter", 1080, 1440),  # a zoomed card
    ("corpus", "04-long-article-zh|01-efficiency-zh|03-english-notes", "watercolor", 440, 586),
    (
        "corpus",
        "04-long-article-zh|02-python-tips-mixed|07-japanese-korean",
        "minimalist",
        360,
        480,
    ),
]


@pytest.mark.parametrize(("label", "post", "theme", "width", "height"), CASES)
def test_a_shared_layout_makes_the_cards_of_one_layout(
    fonts: layout.FontBook, label: str, post: str, theme: str, width: int, height: int
) -> None:
    if label == "corpus":
        post = "\n\n".join((POSTS / f"{name}.md").read_text("utf-8") for name in post.split("|"))
    options = layout.RenderOptions(split="autoSplit", width=width, height=height, scale=1)
    style = themes.load(theme)
    whole = layout.render_cards(post, style, fonts, options)
    shared, start = shared_render(post, style, fonts, options)
    assert len(whole.files) >= 3
    assert start is not None and start > 0
    assert pngcodec.same_cards(shared.files, whole.files), pngcodec.card_differences(
        shared.files, whole.files
    )
    assert shared.alt_texts == whole.alt_texts


def test_a_share_that_never_comes_is_laid_out_where_it_was_wanted(fonts) -> None:
    options = layout.RenderOptions(split="autoSplit", scale=1)
    style = themes.load("apple-notes")
    doc = layout.parse_post(EVERY_BLOCK)
    start = layout.share_start(doc)
    assert start is not None
    asked: list[int] = []

    def lost() -> None:
        asked.append(start)
        return None

    whole = layout.render_cards(doc, style, fonts, options)
    laid = layout.layout_cards(doc, style, fonts, options, premade=layout.Premade(start, lost))
    assert asked == [start]  # asked once, when the layout reached it
    drawn = layout.draw_cards(laid.pages, laid.images, fonts, options).files
    assert pngcodec.same_cards(drawn, whole.files), pngcodec.card_differences(drawn, whole.files)


def test_blocks_that_spend_the_posts_allowances_or_rows_before_them_stay_with_the_post() -> None:
    assert layable_apart(Paragraph((Text("plain"),)))
    assert layable_apart(Heading(2, (Text("a heading"),)))
    assert layable_apart(CodeBlock("print(1)\n", "python"))
    assert not layable_apart(Paragraph((Text("E=mc^2", frozenset({"math"})),)))
    assert not layable_apart(CodeBlock("graph TD\n A-->B\n", "mermaid"))
    assert not layable_apart(Image("https://example.com/a.png", "alt"))


def test_a_short_post_is_not_shared() -> None:
    assert layout.share_start(layout.parse_post("# Title\n\nOne paragraph.")) is None
    assert not layout.may_have_share("# Title\n\nOne paragraph.")
    assert layout.share_start(layout.parse_post(EVERY_BLOCK)) is not None
    assert layout.may_have_share(EVERY_BLOCK)


def test_the_share_names_its_blocks_and_panels_apart_from_the_posts(fonts) -> None:
    """Ids of blocks and panels are compared by the page breaker and the continuation cues:
    a share numbers its own from `SHARE_IDS` on, past any the post's flow reaches."""
    post = EVERY_BLOCK + "\n\n> 最后的引用\n\n```python\nprint('last')\n```\n"
    options = layout.RenderOptions(split="autoSplit", scale=1)
    doc = layout.parse_post(post)
    start = layout.share_start(doc)
    assert start is not None
    parts = layout.layout_share(doc, themes.load("apple-notes"), fonts, options, start)
    rows = [row for part in parts if part is not None for row in part.rows]
    blocks = [tag[1] for row in rows for tag in row.source]
    panels = [frame.id for row in rows for frame in row.frames]
    assert blocks and min(blocks) >= SHARE_IDS
    assert panels and min(panels) >= SHARE_IDS
