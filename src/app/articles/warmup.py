"""The article path run once at start, so that the first article request costs what a later
one does: each article theme's CSS parsed for inlining (30-45 ms each on first use), the
Markdown parser, sanitizer, HTML tree and checks loaded. ``/readyz`` waits for it.

Math is typeset in the render workers (``app.render.worker`` warms them); here formulas are
placed as a worker's answer would be, without loading the math engine in this process.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from inkcard import themes
from inkcard.app.articles.convert import html as article
from inkcard.app.articles.drafts.checks import Warnings, check_html

log = logging.getLogger("inkcard.warmup")

WARM_UP_ARTICLE = r"""# 墨卡 Inkcard

把 **Markdown** 变成公众号文章, a *warm-up* article with `code`, [a link](https://example.com)
and math: $E = mc^2$.

## 列表与表格

- one
- [x] done

1. first

| 写法 | 速度 |
|:---|---:|
| `enumerate` | 1.02x |

> [!NOTE]
> Readability counts.

```python
print(f"{1 + 1}")
```

$$\int_0^1 x^2 \, dx$$

脚注[^1]。

[^1]: 一条脚注。
"""


def warm_article_path() -> None:
    """Converts ``WARM_UP_ARTICLE`` in every article theme and checks it as an answer is
    (its formulas shown as source)."""
    formulas = dict.fromkeys(article.math_of(WARM_UP_ARTICLE))
    for name in themes.article_names():
        check_html(article.to_article(WARM_UP_ARTICLE, name, formulas).html, Warnings())


class WarmUp:
    """Runs ``work`` (the article path, ``warm_article_path``) once; ``done`` once it has
    ended, whether or not it failed (a failure is logged: the first request then pays what
    the warm-up would have)."""

    def __init__(self, work: Callable[[], None] = warm_article_path):
        self._work = work
        self._done = threading.Event()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def run(self) -> None:
        started = time.perf_counter()
        try:
            self._work()
        except Exception:
            log.exception("article warm-up failed")
        finally:
            self._done.set()
        log.info("article path warm in %.0f ms", (time.perf_counter() - started) * 1000)
