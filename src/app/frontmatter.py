"""YAML front matter: a ``---`` fenced block at the very start of the Markdown.

Writers' tools (Hexo, Hugo, wenyan, doocs/md) put a post's title, author and the like there.
``split`` takes it off the text, so it is never rendered, and answers its keys under the
names of the request fields they stand for; the request parsers (``app.models``) fill each
field the request leaves out from them, so a request field always wins.

The block counts only when the text starts with a ``---`` line, a closing ``---`` line
follows, and its first line of content looks like a YAML key (``title: …``): a post that
opens with a thematic break and a paragraph keeps both. Once it counts it must be a mapping
of plain values, or the request is a 400 ``invalid_front_matter``: the YAML is read without
type resolution (every value a string) and without aliases (no "billion laughs"), under a
size limit, so a hostile block costs little and never surprises the caller.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import yaml

from app.errors import InvalidField

LABEL = "invalid_front_matter"
MAX_CHARS = 8_192  # far above any real post's front matter; YAML is read only under it

# front matter key → the request field it fills; each field's spellings, first the documented
ALIASES: Mapping[str, tuple[str, ...]] = {
    "title": ("title",),
    "author": ("author",),
    "digest": ("digest", "description", "summary"),
    "coverImageUrl": ("cover", "coverImageUrl", "cover_image_url"),
    "content_source_url": ("source_url", "sourceUrl", "content_source_url"),
    "theme": ("theme",),
    "themeMode": ("mode", "themeMode", "theme_mode"),
    "splitMode": ("split", "splitMode", "split_mode"),
}
_FIELD_OF = {key: field for field, keys in ALIASES.items() for key in keys}

_OPENING = re.compile(r"\A\ufeff?---[ \t]*\r?\n")
_CLOSING = re.compile(r"^---[ \t]*\r?$", re.MULTILINE)
# One line that opens with a YAML key (``title:``). No two quantifiers here can take the same
# character, so a match costs one pass over the line (CONTRIBUTING.md, "Patterns").
_KEY_LINE = re.compile(r"[ \t]*[\"']?[\w-]+[\"']?[ \t]*:(?:\s|$)")


# libyaml's parser when the wheel has it (about ten times faster); BaseLoader: every scalar
# stays a string, no tags, no objects
_LOADER = getattr(yaml, "CBaseLoader", yaml.BaseLoader)


def _error(why: str) -> InvalidField:
    return InvalidField(f"the front matter {why}", label=LABEL)


def split(markdown: str) -> tuple[dict[str, str], str]:
    """(request field → value, the Markdown without its front matter).

    Without a front matter: ``({}, markdown)``. Keys nobody reads (``tags``, ``date``) are
    ignored whatever their value; an empty value counts as absent.

    Raises:
        InvalidField: ``invalid_front_matter``: too long, not YAML, not a mapping, an alias,
            or a key we read given a list or a mapping.
    """
    opening = _OPENING.match(markdown)
    if opening is None:
        return {}, markdown
    closing = _CLOSING.search(markdown, opening.end())
    block = markdown[opening.end() : closing.start()] if closing else ""
    if closing is None or not _opens_with_key(block):
        return {}, markdown
    if len(block) > MAX_CHARS:
        raise _error(f"is {len(block):,} characters long; at most {MAX_CHARS:,} are read")
    body = markdown[closing.end() :].removeprefix("\r").removeprefix("\n")
    return _fields(_load(block)), body


def _first_content_line(block: str) -> str | None:
    """The block's first line that is neither blank nor a YAML comment, if any.

    A loop over lines, not one pattern: a pattern that skips any number of blank and comment
    lines can split ``#\\r\\n`` two ways per line and backtrack exponentially."""
    for line in block.split("\n"):
        text = line.strip(" \t\r")
        if text and not text.startswith("#"):
            return line
    return None


def _opens_with_key(block: str) -> bool:
    line = _first_content_line(block)
    return line is not None and _KEY_LINE.match(line) is not None


def _load(block: str) -> dict[Any, Any]:
    try:
        for event in yaml.parse(block, Loader=_LOADER):  # events only: aliases not followed
            if isinstance(event, yaml.AliasEvent):
                where = _line(event.start_mark)
                raise _error(f"uses an alias (*name) at {where}; none are accepted")
        value = yaml.load(block, Loader=_LOADER)  # a BaseLoader: strings only
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or "not YAML"
        where = _line(getattr(exc, "problem_mark", None))
        raise _error(f"is not valid YAML: {problem}" + (f" ({where})" if where else "")) from None
    except RecursionError:
        raise _error("is nested too deeply") from None
    if not isinstance(value, dict):
        raise _error("must be a mapping of keys to values (title: …)")
    return value


def _line(mark: Any) -> str:
    """``line N`` of the Markdown (the block starts on its second line), if known."""
    return f"line {mark.line + 2}" if mark is not None else ""


def _fields(mapping: dict[Any, Any]) -> dict[str, str]:
    fields: dict[str, str] = {}
    for key, value in mapping.items():
        field = _FIELD_OF.get(key) if isinstance(key, str) else None
        if field is None:
            continue
        if not isinstance(value, str):
            raise _error(f"key {key} must be a single value, not a list or a mapping")
        if value.strip() and field not in fields:
            fields[field] = value.strip()
    return fields
