"""A long code line wraps where a programmer parts it (`parse.codelines`): after an
argument's comma, inside the outermost bracket, before a keyword, never inside a string when
anything else fits, never leaving one short word on its last line, and in no more lines
than the greedy fill took."""

from __future__ import annotations

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun
from inkcard.layout.parse.codelines import LONGEST, places, wrap

ASYNCIO = """\
```python
async def fetch(client: httpx.AsyncClient, url: str) -> int:
    response = await client.get(url, timeout=10.0, follow_redirects=True)
    return len(response.content)

async def main(urls: list[str]) -> None:
    tasks = [asyncio.create_task(fetch(client, url)) for url in urls]
    for finished in asyncio.as_completed(tasks):
        try:
            size = await finished
            print(f"got {size} bytes")
        except httpx.HTTPStatusError as error:
            print(f"failed: {error.response.status_code}")
```
"""


class _prices:  # noqa: N801 (read as a mapping)
    """The price of the place each key ends the line before."""

    def __init__(self, line: str) -> None:
        self.line, self.places = line, places(line)

    def __getitem__(self, before: str) -> float:
        [price] = [p for at, p in self.places if self.line[:at].endswith(before)]
        return price


def test_an_arguments_comma_is_the_cheapest_place_and_a_string_the_dearest() -> None:
    prices = _prices('call(first, second, "a long message", third)')
    assert prices["call(first, "] < prices["call("] < prices['second, "a ']
    # inside a bracket, each level costs more: the outer comma before the inner one
    nested = _prices("outer(a, inner(b, c))")
    assert nested["outer(a, "] < nested["r(a, inner(b, "]


def test_a_comma_outside_brackets_is_no_argument_break() -> None:
    """`for i, name in ...`: a tuple's comma parts a name from its pair."""
    prices = _prices("for i, name in enumerate(names, start=1):")
    assert prices["for i, "] > prices["erate(names, "]


def test_a_comment_reads_as_prose_and_a_keyword_leads_its_line() -> None:
    prices = _prices("total = compute(x)  # the sum, kept for the report")
    assert prices["x)  # the "] < prices["total = "]
    keyword = _prices("except httpx.HTTPStatusError as error:")
    assert keyword["StatusError "] < keyword["Error as "]


def test_the_cheapest_set_leaves_no_stub_and_takes_no_more_lines_than_greedy() -> None:
    line = "except httpx.HTTPStatusError as error:"
    advances = [1.0] * len(line)
    starts = wrap(line, advances, first=33, rest=30, greedy=2)
    assert starts == [line.index("as error")]  # not "... as" / "error:"
    # a set that needs a line more than the greedy fill's is refused
    assert wrap(line, advances, first=15, rest=12, greedy=2) is None


def test_a_token_wider_than_the_line_is_left_to_the_greedy_fill() -> None:
    url = "https://example.com/" + "segment/" * 10
    assert wrap(f"get({url!r})", [1.0] * (len(url) + 7), first=30, rest=28, greedy=4) is None


def test_a_line_past_the_longest_is_filled_greedily() -> None:
    line = "f(" + ", ".join(["x"] * (LONGEST // 2)) + ")"
    assert wrap(line, [1.0] * len(line), first=40, rest=38, greedy=10**6) is None


def _code_rows(theme: str, width: int, height: int) -> list[str]:
    options = layout.RenderOptions(width=width, height=height, split="autoSplit")
    pages = layout.layout_pages(ASYNCIO, themes.load(theme), layout.FontBook.load(), options)
    return [p.row.text for page in pages for p in page.rows if p.row.text]


@pytest.mark.parametrize(
    ("theme", "width", "height"),
    [("coil-notebook", 440, 586), ("apple-notes", 440, 586), ("art-deco", 500, 500)],
)
def test_the_asyncio_lines_wrap_where_a_reader_parts_them(
    theme: str, width: int, height: int
) -> None:
    rows = _code_rows(theme, width, height)
    ends = [row.rstrip() for row in rows]
    assert not any(end.endswith(" as") for end in ends), rows  # `as` / `error:`
    assert "int:" not in [end.strip() for end in ends], rows  # `-> ` / `int:`
    assert not any(end.endswith("for i,") for end in ends), rows
    # no wrap inside the f-string `f"got {size} bytes"` while the call's bracket takes it,
    # nor a bracket's short tail left alone
    assert not any(end.endswith(('f"got', "{size}")) for end in ends), rows
    assert "tasks):" not in [end.strip() for end in ends], rows
    # every wrap a whole source line's, in order
    joined = "".join(rows).replace(" ", "")
    assert "asyncio.create_task(fetch(client,url))forurlinurls]" in joined


GIT_AMEND = '# Git\n\n```bash\ngit commit --amend -m "fix: 修正登录页的跳转"\n```\n'


@pytest.mark.parametrize("theme", ["brandC", "notebook", "coil-notebook"])
def test_a_code_line_that_nearly_fits_is_set_smaller_not_wrapped(theme: str) -> None:
    """A one-line command a few per cent wider than its panel wrapped under a » mark
    "although it nearly fits" (the git post at 440x586, eleventh look): a block at most
    `CODE_TIGHTEN` wider is set that much smaller, each source line one row; a block far
    wider wraps at the theme's size."""
    from inkcard.layout.blocks.panels import CODE_TIGHTEN
    from inkcard.layout.style import resolve

    fonts, theme_file = layout.FontBook.load(), themes.load(theme)
    options = layout.RenderOptions(width=440, height=586, split="autoSplit")
    size = resolve(theme_file, None)["code_block"].size

    def code_runs(post: str) -> list[tuple[str, float]]:
        [page] = layout.layout_pages(post, theme_file, fonts, options)
        rows = [p.row for p in page.rows if p.row.source[-1][0] == "CodeBlock"]
        return [(row.text, max(i.size for i in _glyph_runs(row.items))) for row in rows]

    [(text, drawn)] = code_runs(GIT_AMEND)
    assert "»" not in text and size / (1 + CODE_TIGHTEN) <= drawn < size, (text, drawn, size)
    longer = GIT_AMEND.replace("跳转", "跳转和注册页的表单校验")
    wrapped = code_runs(longer)
    assert len(wrapped) == 2 and {drawn for _, drawn in wrapped} == {size}, wrapped


def _glyph_runs(items: tuple[object, ...]) -> list[GlyphRun]:
    runs: list[GlyphRun] = []
    for item in items:
        if isinstance(item, GlyphRun):
            runs.append(item)
        elif isinstance(inner := getattr(item, "items", None), tuple):
            runs.extend(_glyph_runs(inner))
    return runs
