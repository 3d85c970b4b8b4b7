"""Math with a budget: a formula too deeply nested or too big is shown as source before
ziamath sees it (its time doubles with each nested group), and one post's math stops at
`POST_FORMULAS` formulas, `POST_LATEX` characters or `POST_SECONDS` of typesetting.

What is refused is never typeset: the tests count ziamath's layouts (`laid_out`), not the
seconds they took (on a loaded machine those are anyone's guess)."""

from __future__ import annotations

import pytest

from inkcard import layout
from inkcard.layout.text import MathBudget
from inkcard.layout.text.formula import mathtex
from tests.cpu import Calls, counted

# Each doubles ziamath's time per level: 17 deep took a render worker past 55 s.
NESTINGS = [
    "x^{@}",
    "\\frac{@}{y}",
    "{@ \\over y}",
    "\\dfrac{@}{2}",
    "\\overset{@}{=}",
    "\\underset{@}{=}",
    "\\stackrel{@}{=}",
    "\\overline{@}",
    "\\sum_{@}^{n}",
    "\\begin{matrix}@\\end{matrix}",
    "\\left(\\frac{@}{2}\\right)",
    "{@}",
]


def nested(pattern: str, depth: int) -> str:
    latex = "x"
    for _ in range(depth):
        latex = pattern.replace("@", latex)
    return latex


def laid_out(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """Counts the formulas ziamath lays out (its time is in its `Latex`), from an empty
    cache of answers."""
    mathtex.typeset.cache_clear()
    latex, _ = mathtex._ziamath()  # imported as the engine imports it (its warnings quiet)
    return counted(monkeypatch, latex, "__init__")


@pytest.mark.parametrize("pattern", NESTINGS)
def test_deeply_nested_latex_is_refused_before_it_is_typeset(pattern: str, monkeypatch) -> None:
    formulas = laid_out(monkeypatch)
    assert mathtex.typeset(nested(pattern, 17), 20.0, True) is None
    assert formulas.count == 0  # ~60 s of typesetting before


@pytest.mark.parametrize("pattern", NESTINGS)
def test_nesting_real_formulas_use_still_typesets(pattern: str) -> None:
    assert mathtex.typeset(nested(pattern, 3), 20.0, True) is not None


@pytest.mark.parametrize(
    ("latex", "depth"),
    [
        ("x", 0),
        ("{a}", 1),
        ("\\{a\\}", 0),  # escaped braces are characters, not groups
        ("\\left(\\frac{a}{b}\\right)", 2),
        ("\\leftarrow{x}", 1),  # \leftarrow is not \left
        ("\\begin{pmatrix}a\\end{pmatrix}", 1),
        ("\\begin{matrix}\\begin{matrix}a\\end{matrix}\\end{matrix}", 2),
        ("}}}{", 1),  # unbalanced closers never make the depth negative
    ],
)
def test_group_depth_counts_braces_left_right_and_environments(latex: str, depth: int) -> None:
    assert mathtex.group_depth(latex) == depth


def test_a_formula_of_too_many_nodes_is_refused_before_it_is_typeset(monkeypatch) -> None:
    formulas = laid_out(monkeypatch)
    assert mathtex.typeset("x+" * 450 + "x", 20.0, True) is None  # 901 nodes: ~0.5 s before
    assert formulas.count == 0
    assert mathtex.typeset("x+" * 100 + "x", 20.0, True) is not None
    assert formulas.count == 1


def test_a_post_stops_typesetting_after_its_formulas_and_characters() -> None:
    by_count = MathBudget(formulas=2)
    answers = [by_count.typeset(f"x_{i}", 20.0) for i in range(3)]
    assert answers[0] is not None and answers[1] is not None and answers[2] is None
    assert by_count.typeset("x_0", 20.0) is answers[0]  # asked again: the same, for free
    by_length = MathBudget(latex=10)
    assert by_length.typeset("a+b+c", 20.0) is not None  # 5 characters
    assert by_length.typeset("d+e+f+g", 20.0) is None  # 7 more: over 10
    assert by_length.typeset("d", 20.0) is not None  # 1 more still fits


def test_a_post_stops_typesetting_when_its_seconds_are_spent(monkeypatch) -> None:
    """2,000 formulas: ~5 s without a budget. Once its 0.2 s are spent, no formula is laid
    out: every one typeset is an answer, and the rest are None (a handful typeset)."""
    formulas = laid_out(monkeypatch)
    budget = MathBudget(seconds=0.2)
    answers = [budget.typeset(f"\\sqrt{{x_{{{i}}}}} + y^{{{i}}}", 20.0) for i in range(2000)]
    assert answers[0] is not None and answers[-1] is None
    spent = answers.index(None)
    assert all(answer is None for answer in answers[spent:])
    assert formulas.count == spent


def test_a_card_with_many_hostile_formulas_renders_at_once_with_them_as_source(
    monkeypatch,
) -> None:
    fonts = layout.FontBook.load(layout.DEFAULT_FONTS_DIR)
    theme = layout.decode_theme('name = "plain"')
    post = "\n\n".join(f"$${nested(pattern, 17)}$$" for pattern in NESTINGS) + "\n\n$x^2$"
    formulas = laid_out(monkeypatch)
    rendered = layout.render_cards(post, theme, fonts, layout.RenderOptions(split="autoSplit"))
    assert formulas.count == 1  # x² alone; every other one hit the 55 s limit before
    assert rendered.files
