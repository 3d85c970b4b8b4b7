"""The math budget's calibration: hostile formulas, the steps counted for each and the CPU
seconds ziamath took, as JSON.

Run: `.venv/bin/python benchmarks/bench_math_steps.py [--rounds 3]`. Each formula (deep
nesting of every group kind, huge matrices, long `\\sqrt` and `\\left…\\right` chains, long
text, many operators: each at the largest a formula may be, and some past it) is typeset
from an empty cache `--rounds` times; printed per formula: its steps
(`mathcost.formula_steps`), ziamath's node builds (counted on its `Mnode`), whether it
typeset, the least thread CPU ms of the rounds and the µs per step. Then the summary: the
most µs per step of any formula that typeset, the most steps one formula may reach, and
what the largest allowed post (`mathtex.POST_STEPS`) costs at that worst rate: the target
(issue 42) is well under the 2 s of CPU the clock used to allow. Between them: the largest
allowed post of each of 8 formula kinds (`post_kinds`, asked of one `MathBudget`), and three
posts of inline sums laid out on cards as a request is (an inline formula is also typeset
as the pieces a line may break between), with their math and as plain text.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # `tests`: the hostile formulas the tests use too
sys.path.insert(0, str(ROOT / ".dev"))  # `inkcard`: src/ through the .dev/inkcard symlink

from inkcard import layout, themes  # noqa: E402 - the path above first
from inkcard.layout.text.formula import mathcost, mathtex  # noqa: E402
from tests.hostilemath import NESTINGS, hostile, matrix, nested  # noqa: E402 - shared with tests

SIZE = 20.0  # px: a card's body text
CARDS = layout.RenderOptions(split="autoSplit")
POST_ASKED = 600  # formulas a generated post asks for: more than a post may typeset


def formulas() -> dict[str, str]:
    """Every hostile formula, named: the nestings at 3, 5 and 6 deep, then the others."""
    cases = {f"{p} x{d}": nested(p, d) for p in NESTINGS for d in (3, 5, 6)}
    return cases | hostile()


def post_kinds() -> dict[str, str]:
    """The formula kinds a whole generated post is made of, named."""
    return {
        "small": "x",
        "fraction": "\\frac{a+b}{c}",
        "nested x^ 5": "x^{x^{x^{x^{x}}}}",
        "operators x40": "x+" * 40 + "x",
        "operators x240": "x+" * 240 + "x",
        "left-right x5": nested("\\left(@\\right)", 5),
        "matrix 12x12": matrix(12, 12),
        "text x250": "\\text{" + "a" * 250 + "}",
    }


def builds() -> list[int]:
    """ziamath's node builds, counted on its `Mnode` from now on (one number, in a list)."""
    from ziamath.nodes import mnode

    count = [0]
    original = mnode.Mnode.__init__

    def counting(self: object, *args: object, **kwargs: object) -> None:
        count[0] += 1
        original(self, *args, **kwargs)

    mnode.Mnode.__init__ = counting  # type: ignore[method-assign]
    return count


def measure(latex: str, rounds: int, count: list[int]) -> dict[str, object]:
    """One formula: its steps, builds, whether it typeset, its least CPU ms."""
    steps = mathtex.formula_cost(latex, True)
    best, built, drawn = float("inf"), 0, False
    for _ in range(rounds):
        mathtex.typeset.cache_clear()
        gc.collect()
        count[0] = 0
        start = time.thread_time()
        drawn = mathtex.typeset(latex, SIZE, True) is not None
        best = min(best, time.thread_time() - start)
        built = count[0]
    per = best * 1e6 / steps if steps else 0.0
    return {
        "steps": steps,
        "builds": built,
        "typeset": drawn,
        "cpu_ms": round(best * 1000, 1),
        "us_per_step": round(per, 2),
    }


def post(latex: str) -> dict[str, object]:
    """The largest post of formulas like `latex` (each made distinct): `POST_FORMULAS`
    of them asked of one fresh `MathBudget`, from an empty cache; its CPU ms."""
    mathtex.typeset.cache_clear()
    mathtex.formula_cost.cache_clear()
    budget = mathtex.MathBudget()
    gc.collect()
    start = time.thread_time()
    answers = [budget.typeset(f"{latex}+z_{{{i}}}", SIZE, True) for i in range(POST_ASKED)]
    cpu = time.thread_time() - start
    drawn = sum(answer is not None for answer in answers)
    return {"typeset": drawn, "cpu_ms": round(cpu * 1000, 1)}


def card_post(formulas: int, terms: int, math: bool) -> str:
    """A post of `formulas` paragraphs, each an inline sum of `terms` distinct terms (so
    each of its pieces is distinct too): as math, or the same text without the `$`."""
    mark = "$" if math else ""
    sums = ("+".join(f"v_{{{i}{j}}}" for j in range(terms)) for i in range(formulas))
    return "\n\n".join(f"第 {i} 条 {mark}{latex}{mark} 完。" for i, latex in enumerate(sums))


def card(formulas: int, terms: int) -> dict[str, object]:
    """The CPU ms of laying out `card_post` on autoSplit cards, with its math and without."""
    fonts = layout.FontBook.load(layout.DEFAULT_FONTS_DIR)
    theme = themes.load("apple-notes")
    row: dict[str, object] = {"card": f"{formulas} inline sums of {terms}"}
    for math in (False, True):
        mathtex.typeset.cache_clear()
        mathtex.formula_cost.cache_clear()
        gc.collect()
        start = time.process_time()
        layout.layout_pages(card_post(formulas, terms, math), theme, fonts, CARDS)
        row["math_ms" if math else "text_ms"] = round((time.process_time() - start) * 1000, 1)
    return row


def main() -> None:
    """Prints one JSON line per formula, then the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    mathtex.typeset("x", SIZE, True)  # ziamath imported and its font loaded before the clock
    count = builds()
    worst, most = 0.0, 0
    for name, latex in formulas().items():
        row = measure(latex, args.rounds, count)
        print(json.dumps({"formula": name, "chars": len(latex), **row}, ensure_ascii=False))
        if row["typeset"]:
            worst = max(worst, float(row["us_per_step"]))  # type: ignore[arg-type]
            most = max(most, int(row["steps"]))  # type: ignore[call-overload]
    posts = {name: post(latex) for name, latex in post_kinds().items()}
    for name, row in posts.items():
        print(json.dumps({"post": name, **row}))
    for count, terms in ((60, 20), (150, 6), (40, 40)):
        print(json.dumps(card(count, terms), ensure_ascii=False))
    summary = {
        "worst_us_per_step": worst,
        "most_steps_of_a_formula_typeset": most,
        "formula_cap_steps": mathtex.MAX_STEPS,
        "post_steps": mathtex.POST_STEPS,
        "post_cpu_s_at_worst_rate": round(mathtex.POST_STEPS * worst / 1e6, 2),
        "char_steps": mathcost.CHAR_STEPS,
        "most_cpu_ms_of_a_post": max(float(row["cpu_ms"]) for row in posts.values()),  # type: ignore[arg-type]
    }
    print(json.dumps({"summary": summary}))


if __name__ == "__main__":
    main()
