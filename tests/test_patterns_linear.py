"""Every regular expression in ``src`` → linear time on the classic backtracking inputs.

The rule (CONTRIBUTING.md, "Patterns"): a pattern that may see user input is linear by
construction, with no nested or adjacent quantifiers that can take the same character, or it
runs only on an input capped first. ``tests/patternfind.py`` finds every pattern (compiled in
a module or a class, written inline in an ``re``/``regex`` call, or a ``msgspec.Meta``
constraint) and how the code runs it; ``tests/patternshapes.py`` derives the inputs that make
a backtracking engine try every split of a run from each pattern's parse tree; and
``tests/patternprobe.py`` times them in a child process it can kill. A pattern that grows
faster than its input fails here, with the input that shows it.

A pattern that is safe only because of a cap on its input goes in ``CAPPED`` with the cap,
why, and a check that the code really applies the cap before the pattern runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from inkcard.app.articles.wechat.transport import _RedactSecrets
from inkcard.app.frontmatter import _KEY_LINE
from inkcard.app.schema import URL_PATTERN
from tests.patternfind import Found, find_all
from tests.patternprobe import Pattern, Prober, superlinear
from tests.patternshapes import Shapes

# The patterns that once froze the service; the walker must keep catching their kind.
OLD_FRONT_MATTER_KEY = r"\A(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*[\"']?[\w-]+[\"']?[ \t]*:(?:\s|$)"
OLD_MERMAID_MESSAGE = (
    r"^(?P<a>[^:]+?)\s*(?P<arrow>-->>|->>|-->|->|--x|-x|--\)|-\))\s*[+-]?\s*"
    r"(?P<b>[^:]+?)\s*:(?P<text>.*)$"
)


@dataclass(frozen=True)
class Capped:
    """A pattern allowed to be superlinear: its input is at most ``cap`` characters."""

    cap: int
    why: str
    holds: Callable[[], bool]  # the code refuses or cuts an input over the cap before it


# place (module:NAME or module:line, as the walker names it) → its cap
CAPPED: dict[str, Capped] = {}

FOUND, UNREADABLE = find_all()


@pytest.fixture(scope="module")
def prober() -> Iterator[Prober]:
    child = Prober()
    yield child
    child.close()


def test_every_inline_pattern_can_be_read() -> None:
    """A pattern built at run time from local values cannot be walked: write it from
    constants (or as a module-level compiled pattern)."""
    assert UNREADABLE == []


def test_the_walk_finds_each_kind_of_pattern() -> None:
    def found(module: str, pattern: str) -> bool:
        return any(
            item.pattern == pattern and any(p.startswith(f"{module}:") for p in item.places)
            for item in FOUND
        )

    assert found("inkcard.app.frontmatter", _KEY_LINE.pattern)  # compiled at module level
    # a class attribute
    assert found("inkcard.app.articles.wechat.transport", _RedactSecrets._PATTERN.pattern)
    assert found("inkcard.layout.text.runs", r"\X")  # the regex module's
    assert found("inkcard.app.schema.article", URL_PATTERN)  # msgspec.Meta(pattern=URL_PATTERN)
    mermaid = "inkcard.layout.diagrams.mermaid"
    assert found(mermaid, r"<br\s*/?>")  # inline: re.sub(r"<br\s*/?>", ...)
    assert found(mermaid, r"#(\d{1,6});")  # inline, with a lambda after it
    assert len(FOUND) > 80


@pytest.mark.parametrize("item", FOUND, ids=lambda item: item.name)
def test_pattern_is_linear(prober: Prober, item: Found) -> None:
    capped = next((CAPPED[place] for place in item.places if place in CAPPED), None)
    if capped is not None:  # allowed to grow faster, on an input that cannot grow
        assert capped.holds(), f"{item.name}: its input is no longer capped at {capped.cap:,}"
        return
    shapes = Shapes(item.pattern, item.flags, item.engine).shapes()
    slow = superlinear(prober, item.probe(), shapes)
    assert not slow, f"{item.places} {item.pattern!r}: {slow[0]}"


def test_every_capped_pattern_is_still_in_src() -> None:
    places = {place for item in FOUND for place in item.places}
    assert set(CAPPED) <= places


@pytest.mark.parametrize(
    ("pattern", "mode"),
    [(OLD_FRONT_MATTER_KEY, "match"), (OLD_MERMAID_MESSAGE, "match")],
    ids=["front-matter-key", "mermaid-message"],
)
def test_the_walker_catches_the_patterns_that_froze_the_service(
    prober: Prober, pattern: str, mode: str
) -> None:
    item = Pattern("re", pattern, 0, frozenset({mode}))
    slow = superlinear(prober, item, Shapes(pattern, 0, "re").shapes())
    assert slow, "the walker let a known exponential pattern through"


def test_the_walker_passes_a_linear_pattern_the_same_shapes_would_trip(prober: Prober) -> None:
    """The front matter key as it is now: one line, no two quantifiers sharing a character."""
    pattern = r"[ \t]*[\"']?[\w-]+[\"']?[ \t]*:(?:\s|$)"
    item = Pattern("re", pattern, 0, frozenset({"match"}))
    assert superlinear(prober, item, Shapes(pattern, 0, "re").shapes()) == []
