"""One render worker process: fonts loaded and a card drawn at start, then jobs in, answers out.

The pool (``app.render.pool``) starts these processes; a job crosses the boundary as plain
data (``app.render.messages``: Markdown, the decoded theme, fetched image bytes, options) and
comes back as PNG bytes, or as the ``ApiError`` the request answers with. This module, the
forkserver's one preload, imports the engine and the render records and nothing of the web
framework, so the forkserver that forks workers holds only what they need.
"""

from __future__ import annotations

import gc
import logging
import os
import resource
import time
from multiprocessing.connection import Connection

from inkcard import layout
from inkcard.app.render.jobs import answer, peak_rss_kb
from inkcard.app.render.messages import Ready, RenderJob, WorkerConfig, WorkerJob
from inkcard.layout.draw import load_row_packer, smaller_pngs

log = logging.getLogger("inkcard.worker")

WARM_UP_POST = r"""# 墨卡 Inkcard 🐍

把 **Markdown** 变成卡片, a *warm-up* card with `code` and [a link](https://example.com).

## 列表与表格

- one
- [x] done

1. first

| 写法 | 速度 |
|:---|---:|
| `enumerate` | 1.02x |

> Readability counts. —— *The Zen of Python*

很多人写了好几年 Python，还在用下标遍历列表。今天分享几个**立刻能用**的写法：用 enumerate
代替下标，用字典合并代替循环，用列表推导式代替 append。Short sentences in English keep
their own spacing, hyphenation and line breaks, as a mixed post does.

### 小结

1. 先读懂，再优化。
2. Measure before you change anything.

```python
print(f"{1 + 1}")
```
"""
"""Drawn by each worker before it says ready: a block of every common kind (code with its
highlighter, a table, emoji, CJK and Latin), so that the first request finds their code
paths, fonts and caches warm, not just the plain paragraph's. No math: the math engine and
its font (~15 MB of a worker's resident set) load on a worker's first formula, which pays
for it (docs/decisions/service.md, "Warm before ready")."""

WARM_UPS = ("card",)
WARM_UP_CARD_DRAWS = 2
"""The warm-up card is drawn twice. Only the second draw is as cheap as a later card, and a
card after one draw still pays first-use costs that no particular text explains (most in
filling and encoding its pixels: fresh heap pages); after two, the first request's card cost
14.6 ms of CPU instead of 17.2 (a later one 9 ms), for ~10 ms more CPU at start and ~1 MB."""


def limit_address_space(limit: int) -> None:
    """Hold this process to ``limit`` bytes of address space (0: leave it unlimited): an
    allocation past it fails (``MemoryError``, or Skia aborts the process) instead of the
    machine running out of memory. Only the soft limit is set."""
    if limit:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def serve(conn: Connection, config: WorkerConfig) -> None:
    """The worker's main loop: load, warm up, say ready, then answer jobs until ``None``.

    Ends quietly when the pool closes its end of the pipe (the service stopped), and after
    answering a job that ran out of memory (the pool starts a fresh worker)."""
    limit_address_space(config.memory_limit)
    # The engine no longer loads numpy (grandalf takes its fallback, JPEG and WebP come from
    # a bytearray); should anything, its BLAS gets one thread (no linear algebra here; a
    # thread per core costs ~40 ms of CPU at import).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    fonts = layout.FontBook.load(config.fonts_dir)
    load_row_packer()  # a worker draws many cards: Pillow packs PNG rows faster than Python
    if config.small_pngs:
        smaller_pngs()
    started = time.perf_counter()
    warmed = warm_up(fonts, config)
    warm_up_ms = (time.perf_counter() - started) * 1000
    # What start-up made (modules, fonts, caches) lives as long as the process: frozen out
    # of the collector, a full collection walks only what requests made. A 10-card request's
    # slowest layout of 40 went from 22-26 to 19-20 ms, its slowest drawing from 34-46 to 30-32.
    gc.collect()
    gc.freeze()
    renders = 0
    try:
        conn.send(Ready(os.getpid(), peak_rss_kb(), warmed, warm_up_ms))
        while (job := conn.recv()) is not None:
            renders += 1
            answered = answer(job, fonts, config, renders, conn)
            conn.send(answered)
            if answered.retiring:
                return
    except (EOFError, BrokenPipeError):
        return


def warm_up(fonts: layout.FontBook, config: WorkerConfig) -> tuple[str, ...]:
    """Runs a card job once as a request would (``answer``), so that the first request
    after a start costs what a later one does: a card of every common block
    (``WARM_UP_POST``, drawn ``WARM_UP_CARD_DRAWS`` times). Returns what was warmed
    (``WARM_UPS``); a warm-up that fails is logged, and the worker serves anyway (its first
    request then pays what the warm-up would have)."""
    jobs: dict[str, WorkerJob] = {
        "card": RenderJob(
            markdown=WARM_UP_POST, theme=config.warm_up_theme, options=layout.RenderOptions()
        ),
    }
    warmed = []
    for name, job in jobs.items():
        draws = WARM_UP_CARD_DRAWS if name == "card" else 1
        answers = [answer(job, fonts, config, renders=0) for _ in range(draws)]
        result = next((a for a in answers if a.error is not None), answers[0])
        if result.error is not None:
            log.error("warm-up %s failed: %s", name, result.error.message)
        else:
            warmed.append(name)
    return tuple(warmed)
