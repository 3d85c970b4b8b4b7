"""The pattern repros of bench_hostile_repros.py (items h1a-h1e): bodies that made one of the
service's regular expressions backtrack, each sent to the real service by that script.

- h1a: a front matter of 40 ``#\\r\\n`` lines (232 bytes as JSON) from a key with no credits:
  the pattern that looked for the first key split each line two ways and stopped the event
  loop for days (``/healthz`` too, SIGTERM ignored). Expected now: a 402 at once. The old
  service is bounded by the client timeout, then killed with SIGKILL.
- h1b, h1c: a plain Windows post (CRLF), 24 comment lines and then a list where a front
  matter's first key would be, on generate and on convert-and-draft: seconds of backtracking
  by accident.
- h1d, h1e: a Mermaid sequence line ``Alice->`` + 600 spaces + ``Bob`` in an article and on a
  card: the message pattern took about n**4 steps (10.7 s at 600 spaces).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

Result = dict[str, Any]
FREEZE = json.dumps({"markdown": "---\n" + "#\r\n" * 40 + "!\n---\n# x"}).encode()
assert len(FREEZE) == 232  # the report's body, byte for byte
CRLF_POST = (
    "---\r\n"
    + "".join(f"# draft note {i}\r\n" for i in range(24))
    + "tags: [windows, notes]\r\n---\r\n"
    + "# A post written on Windows\r\n\r\nIts lines end in CRLF.\r\n"
)
MERMAID = "# A sequence\n\n```mermaid\nsequenceDiagram\nAlice->" + " " * 600 + "Bob\n```\n"
FREEZE_TIMEOUT = 30.0  # seconds: the old service never answers


@cache
def zero_key(server: Any) -> str:
    """A key of ``server`` with no credits (made once)."""
    printed = server.cli("keys", "create", "--name", "no-credits", "--credits", "0")
    return next(word for word in printed.split() if word.startswith("ik_"))


def pattern_repros(s: Any) -> Iterator[tuple[str, Callable[[], Result]]]:
    """(item, the hostile request) of each repro; ``s`` is bench_hostile_repros' Server."""

    broke = zero_key(s)  # made now: the CLI's start-up must not delay the attack

    def freeze() -> Result:
        return s.call("POST", "/api/generate", key=broke, content=FREEZE, timeout=FREEZE_TIMEOUT)

    yield "h1a front matter of 40 #\\r\\n lines (232 bytes), key with 0 credits", freeze
    crlf = {"markdown": CRLF_POST}
    yield "h1b CRLF post, 24 comment lines then a tag list, card", lambda: s.generate(crlf)
    yield "h1c the same post, article HTML", lambda: s.article(crlf)
    mermaid = {"markdown": MERMAID}
    yield "h1d Mermaid Alice-> + 600 spaces + Bob, article HTML", lambda: s.article(mermaid)
    yield "h1e the same diagram on a card", lambda: s.generate(mermaid)
