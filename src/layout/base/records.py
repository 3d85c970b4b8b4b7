"""`bulk_record`: the dataclass of records layout builds by the thousand.

A frozen dataclass sets each field through `object.__setattr__` when it is built, four
times the cost of a plain slots class; a named tuple builds fast but reads each field at
twice a slots class's cost. Layout builds a shaped cluster per character and a few records
per line, and reads their fields in every pass, so these records are slots dataclasses
that the type checker holds to be frozen (nothing assigns to them once built) and that
compare and hash by value, as frozen ones do. `replaced` copies one with some fields
changed at about a third of `dataclasses.replace`'s cost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def bulk_record(cls: type[T]) -> type[T]:
    """`cls` as a slots dataclass, frozen to the type checker, hashed by value."""
    return dataclass(slots=True, unsafe_hash=True)(cls)


def replaced(record: T, **changes: Any) -> T:
    """`record` with the fields named in `changes` changed: what `dataclasses.replace`
    makes (a new record, built by its `__init__`), at about a third of the cost. Layout
    copies a row for each block it is nested in (`flow._tagged`, `flow.stack`): ~60 of the
    benchmark card's ~90 copies, `dataclasses.replace` leading the card's Python time
    (cProfile, 5 %), since it looks each field up by name to build keywords. A name that is
    not a field raises KeyError."""
    kind: type[Any] = type(record)
    read, index = _READERS.get(kind) or _fields(kind)
    values = read(record)
    for name, value in changes.items():
        values[index[name]] = value
    return kind(*values)  # type: ignore[no-any-return]  # kind is type(record)


Reader = tuple[Callable[[Any], list[Any]], dict[str, int]]
_READERS: dict[type[Any], Reader] = {}  # a few record classes: kept for the process


def _fields(kind: type[Any]) -> Reader:
    """A reader of a dataclass's field values, in order, into a new list; and each field's
    place in that list (kept in `_READERS`)."""
    names = tuple(field.name for field in fields(kind))
    get = attrgetter(*names)
    if len(names) == 1:
        reader: Reader = (lambda record: [get(record)]), {names[0]: 0}
    else:
        reader = (lambda record: list(get(record))), {name: at for at, name in enumerate(names)}
    _READERS[kind] = reader
    return reader
