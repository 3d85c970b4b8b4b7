"""`bulk_record`: the dataclass of records layout builds by the thousand.

A frozen dataclass sets each field through `object.__setattr__` when it is built, four
times the cost of a plain slots class; a named tuple builds fast but reads each field at
twice a slots class's cost. Layout builds a shaped cluster per character and a few records
per line, and reads their fields in every pass, so these records are slots dataclasses
that the type checker holds to be frozen (nothing assigns to them once built) and that
compare and hash by value, as frozen ones do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def bulk_record(cls: type[T]) -> type[T]:
    """`cls` as a slots dataclass, frozen to the type checker, hashed by value."""
    return dataclass(slots=True, unsafe_hash=True)(cls)
