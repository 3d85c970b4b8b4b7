"""Math with a budget: a formula too deeply nested or too big is shown as source before
ziamath sees it (its time doubles with each nested group), and one post's math stops at
`POST_FORMULAS` formulas, `POST_LATEX` characters or `POST_STEPS` steps of typesetting,
counted before each formula is typeset (`mathcost`), never timed.

What is refused is never typeset: the tests count ziamath's layouts (`laid_out`), not the
seconds they took (on a loaded machine those are anyone's guess), and the answers must not
change with the clock."""

from __future__ import annotations

import time
from xml.etree import ElementTree

import pytest

from inkcard import layout
from inkcard.layout.text import MathBudget
from inkcard.layout.text.formula import mathcost, mathtex
from inkcard.layout.text.formula.mathbreaks import piece_sources
from tests.cpu import Calls, counted
from tests.hostilemath import NESTINGS, hostile, nested


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


def post_of(count: int) -> list[str]:
    """`count` distinct formulas of some weight: a few hundred steps each."""
    return [f"\\sqrt{{x_{{{i}}}}} + \\frac{{a}}{{b^{{{i}}}}}" for i in range(count)]


def spent_on(budget: MathBudget, post: list[str]) -> list[bool]:
    """Which formulas of `post` the budget typesets, in order, from empty caches."""
    mathtex.typeset.cache_clear()
    mathtex.formula_cost.cache_clear()
    return [budget.typeset(latex, 20.0) is not None for latex in post]


def test_a_post_stops_typesetting_when_its_steps_are_spent(monkeypatch) -> None:
    """Each formula is charged the steps of reading it, then those of its layout: the
    formulas typeset are exactly those the counts allow, and no other is laid out."""
    post = post_of(60)
    formulas = laid_out(monkeypatch)
    answers = spent_on(MathBudget(steps=8_000), post)
    left, expected = 8_000, []
    for latex in post:
        left -= mathcost.reading_steps(len(latex))
        cost = mathtex.formula_cost(latex)
        expected.append(0 < cost <= left)
        left -= cost if expected[-1] else 0
    assert answers == expected
    assert answers[0] and not answers[-1]
    assert formulas.count == sum(answers)  # what is refused is never laid out


def test_an_inline_formula_is_charged_for_the_pieces_a_line_may_break_between() -> None:
    """Shaping sets an inline formula whole and as its pieces (`piece_sources`): uncounted,
    a post of long inline sums cost twice its count (1.9 s of layout for 1.0 s counted)."""
    latex = "a_{1}+b_{2}+c_{3}=d_{4}"
    whole = mathcost.reading_steps(len(latex)) + mathtex.formula_cost(latex)
    sources = piece_sources(latex)
    pieces = sum(mathcost.reading_steps(len(p)) + mathtex.formula_cost(p) for p in sources)
    assert len(sources) == 4 and pieces > whole
    assert MathBudget(steps=whole + pieces).typesets(latex, 20.0)
    assert not MathBudget(steps=whole + pieces - 1).typesets(latex, 20.0)
    shown = mathcost.reading_steps(len(latex)) + mathtex.formula_cost(latex, True)
    assert MathBudget(steps=shown).typesets(latex, 20.0, display=True)  # set whole only
    budget = MathBudget(steps=whole + pieces)
    assert budget.typesets(latex, 20.0) and budget.typesets(latex, 20.0)  # charged once


def test_the_decision_is_the_same_whatever_the_clock(monkeypatch) -> None:
    """The same post, the same formulas drawn: with every clock of the process jumping a
    minute at each reading (as on a machine slowed to a crawl), and again from warm caches
    (where a timed budget paid nothing for a formula typeset before)."""
    post = post_of(60)
    fresh = spent_on(MathBudget(steps=8_000), post)
    assert 0 < sum(fresh) < len(post)  # the budget runs out in the middle of the post
    budget = MathBudget(steps=8_000)
    warm = [budget.typeset(latex, 20.0) is not None for latex in post]
    now = [0.0]

    def crawling() -> float:
        now[0] += 60.0
        return now[0]

    for clock in ("thread_time", "process_time", "perf_counter", "monotonic", "time"):
        monkeypatch.setattr(time, clock, crawling)
    slowed = spent_on(MathBudget(steps=8_000), post)
    assert warm == fresh and slowed == fresh


def test_mathcost_counts_at_least_every_node_ziamath_builds(monkeypatch) -> None:
    """The count follows ziamath's own work (a row builds its children twice): a ziamath
    that built more than counted would spend more than the budget says."""
    mathtex._ziamath()  # imported as the engine imports it (its warnings quiet)
    from ziamath.nodes import mnode

    builds = counted(monkeypatch, mnode.Mnode, "__init__")
    formulas = [nested(pattern, 4) for pattern in NESTINGS] + list(hostile().values())
    drawn = 0
    for latex in formulas:
        mathtex.typeset.cache_clear()
        builds.count = 0
        if mathtex.typeset(latex, 20.0, True) is not None:
            drawn += 1
            assert builds.count * mathcost.ROW_STEPS <= mathtex.formula_cost(latex, True), latex
    assert drawn >= len(formulas) - 9  # 8 over a limit (refused unbuilt), the Han: no glyph


def test_a_formula_over_its_steps_shows_its_source_at_once(monkeypatch, box_fonts) -> None:
    """990 characters of `\\text{}` took ziamath 0.6 s; counted (59,440 steps, the cap is
    20,000), it is refused before any layout and the card shows its source."""
    latex = hostile()["text x990"]
    assert mathtex.formula_cost(latex, True) > mathtex.MAX_STEPS
    formulas = laid_out(monkeypatch)
    theme = layout.decode_theme('name = "plain"')
    pages = layout.layout_pages(f"$${latex}$$", theme, box_fonts, layout.RenderOptions())
    assert formulas.count == 0
    assert "a" * 990 in "".join(placed.row.text for page in pages for placed in page.rows)


def test_a_card_with_many_hostile_formulas_renders_at_once_with_them_as_source(
    monkeypatch,
) -> None:
    fonts = layout.FontBook.load(layout.DEFAULT_FONTS_DIR)
    theme = layout.decode_theme('name = "plain"')
    post = "\n\n".join(f"$${nested(pattern, 17)}$$" for pattern in NESTINGS) + "\n\n$x^2$"
    mathtex.typeset.cache_clear()
    latex, _ = mathtex._ziamath()
    # counts the formulas but x² typeset (x² may be set at each size larger type tries)
    formulas = counted(monkeypatch, latex, "__init__", lambda _, mathml, **__: _not_x2(mathml))
    rendered = layout.render_cards(post, theme, fonts, layout.RenderOptions(split="autoSplit"))
    assert formulas.count >= 1 and formulas.weight == 0  # every other one hit the 55 s limit
    assert rendered.files


def _not_x2(mathml: ElementTree.Element) -> int:
    """1 for a formula other than x² (its MathML's text "x2")."""
    return int("".join(mathml.itertext()) != "x2")
