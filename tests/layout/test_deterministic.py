"""The same request draws the same cards in every process (issues 41, 42, 45).

`layout.render` is a pure function of its arguments: its cards can be cached by a hash of
them. Iteration over a set of strings follows `PYTHONHASHSEED`, over a set of objects their
addresses, and a cache can carry one render's state into the next: any of these reaching
the cards would draw another card in another process. Each case is rendered here in
three fresh processes with different hash seeds, in a different order (so each process's
caches hold other cards when a case comes), and every card's image data (its PNG rows,
inflated) must agree. The files' bytes are not compared: ISA-L's deflate (draw/png.py)
now and then writes another stream for the same rows in another process
(docs/decisions/engine.md, "the same request, the same bytes"), which would make this
test fail by chance.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import inkcard

CASES_DIR = Path(__file__).parents[1] / "cases"
# (case, theme, split): the three that once differed between two runs, then one or more
# of every diagram kind (the graph layouts most: grandalf's sets), math and a CSS theme.
CASES = [
    ("custom-themes/inkwell.md", "business", "autoSplit"),
    ("mermaid/32-state-concurrent.md", "brandC", "noSplit"),
    ("mermaid/80-class-styled.md", "nature", "autoSplit"),
    ("mermaid/80-class-styled.md", "nature", "noSplit"),
    ("mermaid/02-flow-lr-subgraph.md", "pop-art", "noSplit"),
    ("mermaid/64-flow-subgraph-routing.md", "business", "noSplit"),
    ("mermaid/07-sequence-login.md", "business", "autoSplit"),
    ("mermaid/21-class-shop.md", "minimal", "noSplit"),
    ("mermaid/24-er-saas.md", "art-deco", "noSplit"),
    ("mermaid/31-state-fork-notes.md", "art-deco", "noSplit"),
    ("mermaid/81-state-styled.md", "nature", "noSplit"),
    ("mermaid/33-git-release-cjk.md", "brandA", "noSplit"),
    ("mermaid/05-mindmap-study.md", "watercolor", "noSplit"),
    ("mermaid/40-gantt-launch.md", "art-deco", "noSplit"),
    ("mermaid/43-timeline-web.md", "brandA", "noSplit"),
    ("mermaid/44-journey-coffee.md", "business", "noSplit"),
    ("mermaid/09-pie-time.md", "cyberpunk", "noSplit"),
    ("mermaid/50-quadrant-cjk.md", "nature", "noSplit"),
    ("mermaid/52-xychart-months.md", "minimal", "noSplit"),
    ("math/01-formulas.md", "art-deco", "autoSplit"),
]

# Run in each process: renders the cases (JSON on stdin, in that order) at the default
# 440x586, scale 2, and prints the SHA-256 digest of each card's image data (its IHDR and
# its IDAT stream inflated: the rows as drawn, whatever stream the deflater wrote) as JSON.
# With a churn, before each case it leaves every other one of that many small objects
# alive, so what the render makes lands at other addresses than in a process without (a
# set of objects hashed by address iterates in another order).
_RENDER = """
import hashlib, json, struct, sys, zlib
from inkcard import layout, themes

def image_data(png):
    at, parts = 8, {b"IHDR": [], b"IDAT": []}
    while at < len(png):
        size, kind = struct.unpack(">I4s", png[at : at + 8])
        parts.setdefault(kind, []).append(png[at + 8 : at + 8 + size])
        at += 12 + size
    return b"".join(parts[b"IHDR"]) + zlib.decompress(b"".join(parts[b"IDAT"]))

fonts = layout.FontBook.load()
out, kept = {}, []
churn, cases = json.load(sys.stdin)
for path, theme, split in cases:
    made = [[n] for n in range(churn)] + [object() for _ in range(churn)]
    kept.append(made[::2])
    text = open(path, encoding="utf-8").read()
    options = layout.RenderOptions(split=split)
    cards = layout.render(text, themes.load(theme), fonts, options)
    digests = [hashlib.sha256(image_data(card)).hexdigest() for card in cards]
    out[f"{path} {theme} {split}"] = digests
print(json.dumps(out))
"""


def _digests(seed: int, cases: list[tuple[str, str, str]], churn: int = 0) -> dict[str, list[str]]:
    """Every case's cards' image data digests, rendered in a fresh process with
    `PYTHONHASHSEED=seed` (and `churn` objects made before each case, every other kept)."""
    package_parent = str(Path(inkcard.__path__[0]).parent)  # .dev in a checkout
    path = os.pathsep.join([package_parent, os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONHASHSEED=str(seed), PYTHONPATH=path)
    work = [(str(CASES_DIR / case), theme, split) for case, theme, split in cases]
    done = subprocess.run(
        [sys.executable, "-c", _RENDER],
        input=json.dumps([churn, work]),
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    return dict(json.loads(done.stdout))


def test_cards_are_the_same_pixels_in_every_process() -> None:
    runs = [
        _digests(0, CASES),
        _digests(1, CASES[::-1]),
        _digests(2, CASES[1:] + CASES[:1], churn=777),
    ]
    first = runs[0]
    assert len(first) == len(CASES) and all(first.values())
    for seed, run in enumerate(runs[1:], start=1):
        differ = sorted(key for key in first if run[key] != first[key])
        assert not differ, f"PYTHONHASHSEED=0 and {seed} drew other cards for {differ}"
