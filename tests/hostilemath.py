"""Hostile LaTeX: formulas that cost ziamath the most for their length, named; shared by the
math budget's tests and its calibration (benchmarks/bench_math_steps.py).

Each nesting pattern doubles ziamath's time per level (17 deep took a render worker past
55 s); the other formulas are long chains, big tables and long runs of text, each at about
the largest a formula may be, and some past it.
"""

from __future__ import annotations

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
    "\\sqrt{@}",
    "\\sqrt[3]{@+1}",
    "\\boxed{@}",
    "\\begin{matrix}@\\end{matrix}",
    "\\left(@\\right)",
    "\\left(\\frac{@}{2}\\right)",
    "{@}",
]


def nested(pattern: str, depth: int) -> str:
    """`pattern` with its `@` replaced by itself `depth` times (`x` at the heart)."""
    latex = "x"
    for _ in range(depth):
        latex = pattern.replace("@", latex)
    return latex


def matrix(rows: int, cols: int, cell: str = "a") -> str:
    """A `rows` x `cols` matrix of `cell`."""
    body = "\\\\".join("&".join(cell for _ in range(cols)) for _ in range(rows))
    return f"\\begin{{pmatrix}}{body}\\end{{pmatrix}}"


def hostile() -> dict[str, str]:
    """Formulas other than nestings that cost ziamath the most per character, named."""
    return {
        "operators x240": "x+" * 240 + "x",
        "letters x240": "a" * 240,
        "mathrm x240": "\\mathrm{" + "a" * 240 + "}",
        "text x990": "\\text{" + "a" * 990 + "}",
        "number x990": "1" * 990,
        "operatorname x980": "\\operatorname{" + "a" * 980 + "}",
        "matrix 12x12": matrix(12, 12),
        "matrix 20x20": matrix(20, 20),
        "matrix 6x6 of fractions": matrix(6, 6, "\\frac{a}{b}"),
        "sqrt chain x80": "\\sqrt{x}" * 80,
        "left-right chain x60": "\\left(x\\right)" * 60,
        "left-right of a tall matrix": "\\left(" + matrix(30, 2) + "\\right)",
        "middle x40": "\\left(" + "x\\middle|" * 40 + "x\\right)",
        "overbrace x100": "\\overbrace{" + "a+" * 100 + "a}^{n}",
        "xrightarrow x300": "\\xrightarrow{" + "a" * 300 + "}",
        "widehat x300": "\\widehat{" + "a" * 300 + "}",
        "integrals x240": "\\int" * 240,
        "big sums x80": "\\sum_{i=1}^{n}" * 80,
        "cases x40": "\\begin{cases}"
        + "\\\\".join(f"x_{i}&i>{i}" for i in range(40))
        + "\\end{cases}",
        "aligned x40": "\\begin{aligned}"
        + "\\\\".join(f"a&=b_{i}" for i in range(40))
        + "\\end{aligned}",
        "han x300": "\\text{" + "成本" * 150 + "}",
    }
