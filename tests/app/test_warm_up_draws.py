"""The worker's warm-up draws its card twice (``WARM_UP_CARD_DRAWS``): the second draw, the
first at a later card's cost, is what spares the first request the remaining first-use costs
(docs/benchmarks.md, "first request")."""

from __future__ import annotations

import subprocess
import sys

from inkcard import layout, themes
from inkcard.app.render.messages import WorkerConfig
from inkcard.app.render.worker import WARM_UP_CARD_DRAWS, warm_up
from inkcard.layout.draw.statics import clear_static_cache, static_cache_stats


def test_the_warm_up_card_is_drawn_twice_its_static_layer_replayed() -> None:
    fonts = layout.FontBook.load(str(layout.DEFAULT_FONTS_DIR))
    theme = themes.load("apple-notes")
    config = WorkerConfig(fonts_dir=str(layout.DEFAULT_FONTS_DIR), warm_up_theme=theme)
    clear_static_cache()
    assert warm_up(fonts, config) == ("card",)
    stats = static_cache_stats()
    assert WARM_UP_CARD_DRAWS == 2
    assert stats["recorded"] == 1  # the background, once
    assert stats["replayed"] + stats["rasterized"] >= 1  # and drawn again from the cache


WARM_UP_ALONE = """
import sys
from inkcard import layout, themes
from inkcard.app.render.messages import WorkerConfig
from inkcard.app.render.worker import warm_up
from inkcard.layout.draw import load_row_packer
fonts = layout.FontBook.load(str(layout.DEFAULT_FONTS_DIR))
load_row_packer()
theme = themes.load("apple-notes")
config = WorkerConfig(fonts_dir=str(layout.DEFAULT_FONTS_DIR), warm_up_theme=theme)
print(*warm_up(fonts, config), *sorted({"ziamath", "numpy"} & sys.modules.keys()))
"""


def test_a_warm_worker_holds_neither_the_math_engine_nor_numpy() -> None:
    """What a worker does not need for most cards stays out of its resident set until a
    request needs it: the math engine and its font (~15 MB, on the first formula) and numpy
    (10-14 MB; rows are packed by Pillow). docs/benchmarks.md, "Memory"."""
    run = [sys.executable, "-c", WARM_UP_ALONE]
    assert subprocess.run(run, capture_output=True, text=True, check=True).stdout.split() == [
        "card"
    ]


GRAPHS_IN_A_WORKER = """
import sys
from inkcard import layout, themes
from inkcard.app.render.messages import WorkerConfig
from inkcard.app.render.worker import warm_up
from inkcard.layout.draw import load_row_packer
fonts = layout.FontBook.load(str(layout.DEFAULT_FONTS_DIR))
load_row_packer()
theme = themes.load("apple-notes")
warm_up(fonts, WorkerConfig(fonts_dir=str(layout.DEFAULT_FONTS_DIR), warm_up_theme=theme))
post = '''# graphs

```mermaid
flowchart TD
  A[start] --> B{ok?}
  B -->|yes| C[done]
  B -->|no| A
```

```mermaid
stateDiagram-v2
  [*] --> Idle
  Idle --> Busy
  Busy --> [*]
```

```mermaid
classDiagram
  Animal <|-- Duck
  Animal : +int age
```
'''
cards = layout.render(post, theme, fonts, layout.RenderOptions())
print(len(cards), "grandalf.layouts" in sys.modules, "numpy" in sys.modules)
"""


def test_a_worker_drawing_graphs_loads_grandalf_without_numpy() -> None:
    """grandalf imports numpy when it can, for a layout the engine does not use: a worker
    that drew a flowchart kept numpy's 7-10 MB for good (docs/benchmarks.md, "Memory")."""
    run = [sys.executable, "-c", GRAPHS_IN_A_WORKER]
    out = subprocess.run(run, capture_output=True, text=True, check=True).stdout.split()
    assert out[1:] == ["True", "False"] and int(out[0]) >= 1


LOSSY_IN_A_WORKER = """
import sys
from inkcard import layout, themes
from inkcard.layout.draw import load_row_packer
fonts = layout.FontBook.load(str(layout.DEFAULT_FONTS_DIR))
load_row_packer()
theme = themes.load("glassmorphism")
for fmt in ("jpeg", "webp"):
    [card] = layout.render("# hi", theme, fonts, layout.RenderOptions(format=fmt))
    print(card[:4].hex(), end=" ")
print("numpy" in sys.modules)
"""


def test_a_worker_writing_jpeg_and_webp_loads_no_numpy() -> None:
    """JPEG and WebP are encoded by Skia from a bytearray of the card's pixels: a worker
    that wrote one kept numpy's 7-10 MB for good when they were a numpy array."""
    run = [sys.executable, "-c", LOSSY_IN_A_WORKER]
    out = subprocess.run(run, capture_output=True, text=True, check=True).stdout.split()
    assert out == ["ffd8ffe0", "52494646", "False"]  # JPEG's SOI + JFIF, WebP's RIFF
