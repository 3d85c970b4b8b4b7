"""A plain-text block set in columns (an ASCII board, a box-drawn tree) keeps its lines
whole: set smaller to fit its panel while its text stays legible, else wrapped and reported
(`blocks.panels._code_style`, `pages.quality.PENALTY_COLUMNS`)."""

from __future__ import annotations

from inkcard import layout
from inkcard.layout.blocks.panels import COLUMNS_SMALLER, COLUMNS_WRAPPED
from inkcard.layout.pages.quality import measure

THEME = 'name = "t"\n[roles.card]\npadding = [40, 30, 40, 30]\n'
BOARD = (
    "TODO        DOING (max 2 each)      REVIEW      DONE\n"
    "----        ------------------      ------      ----\n"
    "API-412     API-398  @mei           WEB-77      API-390\n"
    "WEB-81      WEB-80   @tom                       API-391"
)


def _rows(fonts: layout.FontBook, post: str):
    options = layout.RenderOptions(width=440, height=586, split="autoSplit", scale=1)
    pages = layout.layout_pages(post, layout.decode_theme(THEME), fonts, options)
    return pages, [placed.row for page in pages for placed in page.rows]


def test_a_board_too_wide_for_its_panel_is_set_smaller_not_wrapped(fonts) -> None:
    _, rows = _rows(fonts, f"```text\n{BOARD}\n```")
    code = [row for row in rows if row.text.strip()]
    assert len(code) == 4  # one row a source line: the columns stay in line
    assert code[0].note == COLUMNS_SMALLER


def test_the_same_width_of_python_still_wraps(fonts) -> None:
    python = "\n".join(
        f"value_{n} = compute_something_long(first_argument, second, third_{n})" for n in range(4)
    )
    _, rows = _rows(fonts, f"```python\n{python}\n```")
    code = [row for row in rows if row.text.strip()]
    assert len(code) > 4
    assert all(not row.note for row in code)


def test_a_board_too_wide_to_keep_legible_wraps_and_costs_the_card(fonts) -> None:
    wide = "\n".join(line + "      " + line for line in BOARD.split("\n"))
    pages, rows = _rows(fonts, f"```text\n{wide}\n```")
    code = [row for row in rows if row.text.strip()]
    assert len(code) > 4
    assert code[0].note == COLUMNS_WRAPPED
    quality = measure(pages[0])
    assert quality is not None and quality.score <= 75


def test_a_board_that_fits_keeps_the_code_size(fonts) -> None:
    narrow = "A    B\nC    D"
    _, rows = _rows(fonts, f"```\n{narrow}\n```")
    code = [row for row in rows if row.text.strip()]
    assert len(code) == 2 and not code[0].note


def test_code_with_aligned_comments_is_not_a_board(fonts) -> None:
    source = "\n".join(
        f"value_{n} = compute(first_{n}, second_{n}, third_{n})  # end{n}" for n in range(12)
    )
    _, rows = _rows(fonts, f"```\n{source}\n```")
    assert all(not row.note for row in rows)
