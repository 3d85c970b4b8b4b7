"""Diagram CPU at the parser's limits: the largest diagram of each kind, laid out as a card
lays it out, as JSON.

Run: `.venv/bin/python benchmarks/bench_diagram_limits.py [--seed 7] [--cards]`. For each
kind, one generated diagram at (or just under) the limits of `mermaid.py` (200 nodes, 400
edges or messages, 200 periods and events) goes through `draw_to_fit` with a fresh post
budget on a 440x586 card's content box, as `layout.blocks.diagram` calls it: every form it
tries is counted. Printed per kind: process CPU seconds and whether it was drawn (its size)
or shown as source (the note). `--cards`: besides, each of them and each post of
tests/cases/mermaid/ laid out whole as 440x586 cards (`layout.layout_pages`, autoSplit,
apple-notes and darktech: the parts, strips and bands a card cuts too), process CPU
seconds each and the slowest. Targets (issue 42): the largest case within limits under
2 s; every case under 1 s (`benchmarks/bench_mermaid.py` times the drawings alone).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / ".dev"))  # `inkcard`: src/ through the .dev/inkcard symlink

from inkcard import layout, themes  # noqa: E402 - the path above must come first
from inkcard.layout.base.fonts import FontBook  # noqa: E402
from inkcard.layout.diagrams.fit import DiagramBudget, draw_to_fit  # noqa: E402
from inkcard.layout.diagrams.labels import LabelSetter  # noqa: E402
from inkcard.layout.errors import DiagramError  # noqa: E402

NODES, EDGES = 200, 400
CASES = ROOT / "tests" / "cases" / "mermaid"
CARD_THEMES = ("apple-notes", "darktech")
WARM_UP = "# a\n\n```mermaid\nflowchart TD\n  A --> B\n```\n"  # grandalf's import, fonts
CONTENT = (392.0, 476.0)  # px: a 440x586 apple-notes card's content box


def _flowchart(rng: random.Random) -> str:
    tree = [f"n{i}[节点 {i}] --> n{rng.randrange(i)}" for i in range(1, NODES)]
    extra = [
        f"n{rng.randrange(NODES)} --> n{rng.randrange(NODES)}" for _ in range(EDGES - NODES + 1)
    ]
    return "\n".join(["flowchart TD", *tree, *extra])


def _classes(rng: random.Random) -> str:
    lines = ["classDiagram"] + [
        f"class C{i} {{\n +int a{i}\n +run{i}() void\n}}" for i in range(NODES)
    ]
    return "\n".join(lines + [f"C{rng.randrange(i)} <|-- C{i}" for i in range(1, NODES)])


def _entities(rng: random.Random) -> str:
    lines = ["erDiagram"] + [f"E{i} {{\n int id PK\n string name\n}}" for i in range(NODES)]
    return "\n".join(lines + [f'E{rng.randrange(i)} ||--o{{ E{i} : "has"' for i in range(1, NODES)])


def _states(rng: random.Random) -> str:
    lines = ["stateDiagram-v2", "[*] --> S0"]
    return "\n".join(lines + [f"S{rng.randrange(i)} --> S{i} : e{i}" for i in range(1, NODES - 2)])


def _sequence(rng: random.Random) -> str:
    lines = ["sequenceDiagram"] + [f"participant P{i}" for i in range(8)]
    return "\n".join(
        lines + [f"P{rng.randrange(8)}->>P{rng.randrange(8)}: 消息 {i}" for i in range(EDGES)]
    )


def _gantt(rng: random.Random) -> str:
    lines = ["gantt", "dateFormat YYYY-MM-DD", "section A", "t0 :a0, 2026-01-01, 3d"]
    return "\n".join(
        lines + [f"t{i} :a{i}, after a{i - 1}, {rng.randint(1, 4)}d" for i in range(1, NODES)]
    )


def _gitgraph(rng: random.Random) -> str:
    lines = ["gitGraph"]
    for i in range(NODES // 4):
        lines += [
            f"branch b{i}",
            f"checkout b{i}",
            "commit",
            "commit",
            "checkout main",
            f"merge b{i}",
        ]
    return "\n".join(lines)


def _xychart(rng: random.Random) -> str:
    values = ", ".join(str(rng.randrange(100)) for _ in range(100))
    return "xychart-beta\n" + "\n".join(
        ("bar" if k % 2 else "line") + f" [{values}]" for k in range(8)
    )


def _quadrant(rng: random.Random) -> str:
    points = (f"P{i}: [{rng.random():.2f}, {rng.random():.2f}]" for i in range(60))
    return "quadrantChart\n" + "\n".join(points)


def _mindmap(rng: random.Random) -> str:
    lines = ["mindmap", "  root((中心))"]
    return "\n".join(
        lines + [f"    n{i}" if i % 5 == 0 else f"      m{i}" for i in range(NODES - 1)]
    )


def _timeline(rng: random.Random) -> str:
    return "timeline\n" + "\n".join(f"  {1800 + i} : 事件 {i}" for i in range(NODES // 2 - 1))


KINDS: dict[str, Callable[[random.Random], str]] = {
    "flowchart": _flowchart,
    "class": _classes,
    "er": _entities,
    "state": _states,
    "sequence": _sequence,
    "gantt": _gantt,
    "gitgraph": _gitgraph,
    "xychart": _xychart,
    "quadrant": _quadrant,
    "mindmap": _mindmap,
    "timeline": _timeline,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cards", action="store_true", help="time whole posts as cards too")
    args = parser.parse_args()
    fonts = FontBook.load()
    setter = LabelSetter(fonts)
    out: dict[str, object] = {}
    for name, make in KINDS.items():
        source = make(random.Random(args.seed))
        started = time.process_time()
        try:
            drawing = draw_to_fit(DiagramBudget(), source, setter.measure, *CONTENT)
            result = f"drawn {drawing.width:.0f}x{drawing.height:.0f}"
        except DiagramError as error:
            result = f"source: {error}"
        out[name] = {"cpu_s": round(time.process_time() - started, 3), "result": result}
    if args.cards:
        posts = {
            f"largest {n}": f"# {n}\n\n```mermaid\n{m(random.Random(args.seed))}\n```\n"
            for n, m in KINDS.items()
        }
        posts.update((p.stem, p.read_text("utf-8")) for p in sorted(CASES.glob("*.md")))
        out["cards_cpu_s"] = cards = _cards(fonts, posts)
        out["slowest case"] = max((v, k) for k, v in cards.items() if not k.startswith("largest"))
        out["slowest largest"] = max((v, k) for k, v in cards.items() if k.startswith("largest"))
    print(json.dumps(out, ensure_ascii=False, indent=1))


def _cards(fonts: FontBook, posts: dict[str, str]) -> dict[str, float]:
    """Process CPU seconds to lay out each post as 440x586 cards, the slower of the themes
    (a warm-up post first: imports and font caches are not the post's)."""
    options = layout.RenderOptions(width=440, height=586, split="autoSplit")
    loaded = [themes.load(name) for name in CARD_THEMES]
    layout.layout_pages(WARM_UP, loaded[0], fonts, options)
    out = {}
    for name, post in posts.items():
        spent = []
        for theme in loaded:
            started = time.process_time()
            layout.layout_pages(post, theme, fonts, options)
            spent.append(time.process_time() - started)
        out[name] = round(max(spent), 3)
    return out


if __name__ == "__main__":
    main()
