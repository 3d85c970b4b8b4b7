"""A code block a card break cuts says so: three dots where the panel is cut."""

from __future__ import annotations

from inkcard import layout
from inkcard.layout.base.boxes import Fill, Page
from inkcard.layout.pages.cues import DOT_RADIUS, DOTS

TOP, BOTTOM = 20, 20 + 522  # the plain card's content box


def cards(md: str) -> list[Page]:
    theme = layout.decode_theme('name = "plain"\n')
    options = layout.RenderOptions(split="autoSplit")
    return layout.layout_pages(md, theme, layout.FontBook.load(), options)


def dots(page: Page) -> list[Fill]:
    return [i for i in page.items if isinstance(i, Fill) and i.radius == DOT_RADIUS]


def code(lines: int) -> str:
    return "```\n" + "".join(f"line {n}\n" for n in range(lines)) + "```\n"


def test_a_code_block_taller_than_a_card_shows_where_it_is_cut() -> None:
    first, second = cards(code(30))
    below, above = dots(first), dots(second)
    assert len(below) == DOTS and len(above) == DOTS
    last_line = max(p.y + p.row.height for p in first.rows) + TOP
    first_line = min(p.y for p in second.rows) + TOP
    # under the last line on the card it leaves, over the first on the card it goes on to
    assert all(last_line < d.rect.y and d.rect.bottom <= BOTTOM for d in below)
    assert all(d.rect.y >= TOP and d.rect.bottom < first_line for d in above)


def test_a_whole_code_block_and_a_split_paragraph_show_no_cue() -> None:
    md = code(4) + "\n" + "\n\n".join("中" * 25 * 6 for _ in range(6))
    pages = cards(md)
    assert len(pages) > 1
    assert all(not dots(page) for page in pages)


def test_a_long_code_block_breaks_between_source_lines_not_inside_a_wrapped_one() -> None:
    """Each source line wraps to two rows; a card ends after a whole source line."""
    source = "".join(
        f"value_{n} = compute(first_{n}, second_{n}, third_{n})  # end{n}\n" for n in range(24)
    )
    pages = cards(f"```\n{source}```\n")
    assert len(pages) > 1
    for page in pages[:-1]:
        assert page.rows[-1].row.text.rstrip().endswith(tuple(f"# end{n}" for n in range(24)))


def test_a_wrapped_code_line_never_leaves_its_indent_alone_on_a_row() -> None:
    """An indented call too long for the rest of its line breaks inside, not after the
    indent (which left a row of spaces that looked like a blank line)."""
    call = "        " + "build_container_for_the_registry_at_example_com(tag)"
    pages = cards(f"```\n{call}\n{call}\n```\n")
    texts = [p.row.text for page in pages for p in page.rows if p.row.source]
    assert texts and all(text.strip() for text in texts)


def _glyph_xs(page: Page, index: int) -> list[float]:
    from inkcard.layout.base.boxes import GlyphRun

    items = page.rows[index].row.items
    return sorted(x for run in items if isinstance(run, GlyphRun) for x in run.xs)


def test_a_wrapped_code_line_hangs_under_its_indent_behind_a_mark() -> None:
    """Python's indentation reads right across a wrap: each wrap of a source line starts
    with the wrap mark at the line's own indent, its text one step further in."""
    from inkcard.layout.blocks.panels import WRAP_MARK

    call = "    results = gather(" + ", ".join(f"client.get(url_{n})" for n in range(6)) + ")"
    [page] = cards(f"```\ndef fetch():\n{call}\n    return results\n```\n")
    texts = [p.row.text for p in page.rows if p.row.text]
    assert texts[0] == "def fetch():" and texts[-1] == "    return results"
    assert len(texts) > 3 and not any(WRAP_MARK[0] in text for text in texts), texts
    assert "".join(texts[1:-1]).replace(" ", "") == call.replace(" ", "")  # drawn, not text
    start, *_ = first = _glyph_xs(page, 0)  # "def fetch():" starts the line
    column = first[1] - first[0]  # a monospaced column
    for index in range(2, len(texts) - 1):  # the mark at the line's 4-space indent, the
        mark, _, text, *_ = _glyph_xs(page, index)  # text one step (two columns) further in
        assert abs(mark - (start + 4 * column)) < 1.0, texts
        assert abs(text - (start + 6 * column)) < 1.0, texts


def test_a_wrapped_command_breaks_at_a_space_not_inside_an_option() -> None:
    """A source line wraps where a reader parts it: at the space before `--force-reinstall`,
    not after `--force-` (a hyphen or slash inside a token is no break in code); a token wider
    than the line still breaks, after its last inner mark that keeps half the line."""
    command = "pip install --upgrade --no-cache-dir --force-reinstall inkcard-render"
    [page] = cards(f"```bash\n{command}\n```\n")
    lines = [p.row.text for p in page.rows if p.row.text]
    assert len(lines) > 1
    for line in lines[:-1]:
        assert line.endswith(" "), lines  # every wrap at a space
    path = "/".join(f"segment-{n}" for n in range(20))
    [page] = cards(f"```\n{path}\n```\n")
    wrapped = [p.row.text for p in page.rows if p.row.text]
    assert len(wrapped) > 1 and all(line[-1] in "-/" for line in wrapped[:-1]), wrapped


def test_a_split_code_block_never_ends_a_card_on_a_line_that_opens_a_block() -> None:
    source = "".join(
        f"try:\n    value_{n} = compute({n})\nexcept ValueError:\n    pass\n" for n in range(12)
    )
    pages = cards(f"```\n{source}```\n")
    assert len(pages) > 1
    for page in pages[:-1]:
        assert not page.rows[-1].row.text.rstrip().endswith(":"), page.rows[-1].row.text


def test_a_code_split_costs_least_after_a_blank_line_and_more_the_deeper_it_opens() -> None:
    from inkcard.layout.base.boxes import Row
    from inkcard.layout.pages.breaks.breakprices import CODE_LEVEL, CODE_MID_CHUNK, _mid_chunk

    def row(text: str) -> Row:
        return Row(20.0, (), text=text)

    assert _mid_chunk(row(""), row("async def main():")) == 0.0  # between two functions
    assert _mid_chunk(row("x = 1"), row("y = 2")) == CODE_MID_CHUNK
    deep = _mid_chunk(row("        size = 1"), row("        print(size)"))
    assert deep == CODE_MID_CHUNK + 2 * CODE_LEVEL


def test_the_asyncio_tutorial_keeps_its_four_line_function_on_one_card(fonts) -> None:
    """At 500x500 the tutorial's `fetch` was cut after its first line (brandA, dreamy,
    glassmorphism, minimalist, warm) or left its `return` atop the next card (art-deco,
    brandC, cyberpunk, minimal, notebook, pop-art, traditional-chinese): a split inside a
    function costs more than one after a blank line, and `fetch` stands whole on a card."""
    from pathlib import Path

    from inkcard import themes

    post = Path(__file__).resolve().parents[1] / "cases" / "hard" / "02-asyncio-tutorial.md"
    options = layout.RenderOptions(width=500, height=500, split="autoSplit")
    for name in ("brandA", "dreamy", "pop-art", "traditional-chinese", "minimal"):
        pages = layout.layout_pages(post.read_text("utf-8"), themes.load(name), fonts, options)
        holding = [
            n
            for n, page in enumerate(pages)
            for p in page.rows
            if "def fetch" in p.row.text or "return len(response" in p.row.text
        ]
        assert len(holding) == 2 and holding[0] == holding[1], (name, holding)
