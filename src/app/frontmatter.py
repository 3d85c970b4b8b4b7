"""YAML front matter: a ``---`` fenced block at the very start of the Markdown.

Writers' tools (Hexo, Hugo, wenyan, doocs/md) put a post's title, author and the like there.
``split`` takes it off the text, so it is never rendered, and answers its keys under the
names of the request fields they stand for; the request parsers (``app.schema``) fill each
field the request leaves out from them, so a request field always wins.

The block counts only when the text starts with a ``---`` line, a closing ``---`` line
follows, and its first line of content looks like YAML rather than prose: a key
(``title: …``), or a node that is not one (a ``- item``, a flow collection, a tag, an anchor
or alias, a block scalar, a directive). A post that opens with a thematic break and a
paragraph keeps both. Once it counts it must be a mapping of plain values, or the request is
a 400 ``invalid_front_matter``: the YAML is read without type resolution (every value a
string) and without aliases (no "billion laughs"), under a size limit, so a hostile block
costs little and never surprises the caller.

Keys the operation does not read are ignored (other tools' ``date``, ``tags``, …), unless one
is a near miss of a key it does read (``tittle``, ``spilt``): that is a 400 ``unknown_field``
naming the key it probably meant, not a title silently left out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from inkcard.app.errors import InvalidField, UnknownField, nearest_name

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
# Keys other tools define, ignored even where they look like ours (Hugo's `authors` list).
OTHER_TOOLS_KEYS = frozenset(
    {
        "date", "lastmod", "updated", "tags", "categories", "keywords", "draft", "slug",
        "permalink", "aliases", "layout", "weight", "authors", "subtitle", "excerpt",
        "image", "images", "series",
    }
)  # fmt: skip
NEAR_MISS = 0.8  # how alike (difflib's ratio) a key must be to one we read to be its misspelling
# Keys not ours compared with ours, at most: a post has a dozen; each costs ~0.15 ms of difflib,
# so a hostile 8 KB block of 1,000 keys costs no more than these (docs/decisions/articles.md).
NEAR_MISS_KEYS = 50

_OPENING = re.compile(r"\A\ufeff?---[ \t]*\r?\n")
_CLOSING = re.compile(r"^---[ \t]*\r?$", re.MULTILINE)
# One line that opens with a YAML key (``title:``). No two quantifiers here can take the same
# character, so a match costs one pass over the line (CONTRIBUTING.md, "Patterns").
_KEY_LINE = re.compile(r"[ \t]*[\"']?[\w-]+[\"']?[ \t]*:(?:\s|$)")


def _error(why: str) -> InvalidField:
    return InvalidField(f"the front matter {why}", label=LABEL)


def split(markdown: str, reads: Collection[str] = ALIASES.keys()) -> tuple[dict[str, str], str]:
    """(request field → value, the Markdown without its front matter).

    Without a front matter: ``({}, markdown)``. Keys nobody reads (``tags``, ``date``) are
    ignored whatever their value; an empty value counts as absent. ``reads``: the request
    fields (``ALIASES``' keys) the operation fills from the front matter; a key that is a near
    miss of one of their keys is refused.

    Raises:
        InvalidField: ``invalid_front_matter``: too long, not YAML, not a mapping, an alias,
            or a key we read given a list or a mapping.
        UnknownField: ``unknown_field``: a key that is not ours but nearly one ``reads`` has.
    """
    opening = _OPENING.match(markdown)
    if opening is None:
        return {}, markdown
    closing = _CLOSING.search(markdown, opening.end())
    block = markdown[opening.end() : closing.start()] if closing else ""
    if closing is None or not _opens_like_yaml(block):
        return {}, markdown
    if len(block) > MAX_CHARS:
        raise _error(f"is {len(block):,} characters long; at most {MAX_CHARS:,} are read")
    body = markdown[closing.end() :].removeprefix("\r").removeprefix("\n")
    return _fields(_load(block), reads), body


def _first_content_line(block: str) -> str | None:
    """The block's first line that is neither blank nor a YAML comment, if any.

    A loop over lines, not one pattern: a pattern that skips any number of blank and comment
    lines can split ``#\\r\\n`` two ways per line and backtrack exponentially."""
    for line in block.split("\n"):
        text = line.strip(" \t\r")
        if text and not text.startswith("#"):
            return line
    return None


def _opens_like_yaml(block: str) -> bool:
    """The block's first content line is a YAML key, or a YAML node that is not prose."""
    line = _first_content_line(block)
    if line is None:
        return False
    return _KEY_LINE.match(line) is not None or _opens_yaml_node(line.lstrip(" \t").rstrip())


def _opens_yaml_node(text: str) -> bool:
    """``text`` (a line, trimmed) opens a YAML node other than a key, said narrowly enough
    that Markdown prose does not: ``- item``; ``{…``; ``[…]`` (a link ``[a](b)`` is prose);
    a tag ``!name`` (an image ``![a](b)`` is prose); an anchor ``&name`` or alias ``*name``
    (emphasis ``*a b*`` is prose); a block scalar ``|``, ``>-`` (a quote ``> a`` is prose);
    a ``%YAML`` or ``%TAG`` directive. A loop over characters, no pattern."""
    first, rest = text[0], text[1:]
    if first == "-":
        return rest[:1] in ("", " ", "\t")
    if first == "{":
        return True
    if first == "[":
        return text.endswith("]")
    if first in "|>":
        return _block_scalar_header(rest)
    if first == "%":
        return rest.split(maxsplit=1)[:1] in (["YAML"], ["TAG"])
    if first in "!&*":
        return _node_property(first, rest)
    return False


def _block_scalar_header(rest: str) -> bool:
    """What follows ``|`` or ``>`` is a header: at most two of ``+``, ``-`` and a digit,
    then nothing but a comment."""
    indicators = len(rest) - len(rest.lstrip("+-123456789"))
    after = rest[indicators:]
    return indicators <= 2 and (not after or after.lstrip(" \t").startswith("#"))


def _node_property(sign: str, rest: str) -> bool:
    """``!``, ``&`` or ``*`` and a name that YAML reads as a tag, anchor or alias: not empty,
    no flow indicator in it, followed by a space or the line's end; for ``*`` no other ``*``
    on the line (that is emphasis), for ``&`` no name ending in ``;`` (an HTML entity)."""
    end = next((i for i, c in enumerate(rest) if c in " \t"), len(rest))
    name = rest[:end]
    if any(c in ",[]{}" for c in name):
        return False
    if sign == "*":
        return bool(name) and "*" not in rest
    if sign == "&":
        return bool(name) and not name.endswith(";")
    return bool(name)  # a lone "!" is an exclamation


def _load(block: str) -> dict[Any, Any]:
    import yaml  # here, on a post's first front matter: ~8 ms of a cold start without one

    # libyaml's parser when the wheel has it (about ten times faster); BaseLoader: every
    # scalar stays a string, no tags, no objects
    loader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
    try:
        for event in yaml.parse(block, Loader=loader):  # events only: aliases not followed
            if isinstance(event, yaml.AliasEvent):
                where = _line(event.start_mark)
                raise _error(f"uses an alias (*name) at {where}; none are accepted")
        value = yaml.load(block, Loader=loader)  # a BaseLoader: strings only
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or "not YAML"
        where = _line(getattr(exc, "problem_mark", None))
        raise _error(f"is not valid YAML: {problem}" + (f" ({where})" if where else "")) from None
    except RecursionError:
        raise _error("is nested too deeply") from None
    if not isinstance(value, dict):
        kind = "a list" if isinstance(value, list) else "a single value"
        raise _error(f"must be a mapping of keys to values (title: …), not {kind}")
    return value


def _line(mark: Any) -> str:
    """``line N`` of the Markdown (the block starts on its second line), if known."""
    return f"line {mark.line + 2}" if mark is not None else ""


def _fields(mapping: dict[Any, Any], reads: Collection[str]) -> dict[str, str]:
    fields: dict[str, str] = {}
    others = 0  # keys not ours seen so far
    for key, value in mapping.items():
        field = _FIELD_OF.get(key) if isinstance(key, str) else None
        if field is None:
            others += 1
            if others <= NEAR_MISS_KEYS:
                _refuse_near_miss(key, reads)
            continue
        if not isinstance(value, str):
            raise _error(f"key {key} must be a single value, not a list or a mapping")
        if value.strip() and field not in fields:
            fields[field] = value.strip()
    return fields


def _refuse_near_miss(key: Any, reads: Collection[str]) -> None:
    """Refuse ``key`` when it is not ours but nearly one of the keys of ``reads``: the same
    but for case, ``_`` and ``-``, or at least ``NEAR_MISS`` alike.

    Raises:
        UnknownField: Naming the key and the one it probably meant.
    """
    if not isinstance(key, str) or key in OTHER_TOOLS_KEYS:
        return
    ours = [alias for field in reads for alias in ALIASES.get(field, ())]
    meant = nearest_name(key, ours, cutoff=NEAR_MISS)
    if meant is not None:
        raise UnknownField.naming(key, [meant], what="front matter key")


TAG_SEPARATORS = ",，、"  # ASCII and full-width commas, the enumeration comma


def tags(markdown: str) -> list[str] | None:
    """The front matter's ``tags`` (an xhs-note's topics): a YAML list of strings, or one
    string of them apart by commas or spaces; None when there is no front matter or no ``tags`` key.
    ``split`` ignores the key (other tools' tags are not ours); the note reads it here.

    Raises:
        InvalidField: ``invalid_front_matter``: the block is not YAML (as ``split``), or
            ``tags`` is a mapping or a list of lists.
    """
    opening = _OPENING.match(markdown)
    if opening is None:
        return None
    closing = _CLOSING.search(markdown, opening.end())
    block = markdown[opening.end() : closing.start()] if closing else ""
    if closing is None or not _opens_like_yaml(block) or len(block) > MAX_CHARS:
        return None  # not a front matter (or one ``split`` refuses first)
    value = _load(block).get("tags")
    if value is None:
        return None
    if isinstance(value, str):
        for separator in TAG_SEPARATORS:
            value = value.replace(separator, " ")
        return value.split()
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [item.strip() for item in value if item.strip()]
    raise _error("key tags must be a list of tags or one string of them apart by commas")
