"""Records layout builds by the thousand, and the lookups it repeats per block, made once.

A cluster per character, a few records per line and a row per line: built as slots
dataclasses (`bulk_record`), not frozen ones that set each field through
`object.__setattr__`, yet equal and hashed by value as frozen records are. A code block's
lexer is found once per language, not per block. A record is copied with changes
(`replaced`) as `dataclasses.replace` copies it.
"""

from __future__ import annotations

import dataclasses

import pygments.lexers
import pytest

from inkcard.layout.base.boxes import PlacedRow, Row
from inkcard.layout.base.records import replaced
from inkcard.layout.parse import code
from inkcard.layout.text.clusters import Cluster
from inkcard.layout.text.linebox import Metrics, TextLine
from inkcard.layout.text.linebreak import Edges, LineRange

BULK = (Cluster, Row, PlacedRow, TextLine, Metrics, LineRange, Edges)


@pytest.mark.parametrize("record", BULK, ids=lambda record: record.__name__)
def test_bulk_records_are_built_without_a_setattr_per_field(record: type) -> None:
    params = record.__dataclass_params__  # type: ignore[attr-defined]
    assert not params.frozen  # frozen only to the type checker (`bulk_record`)
    assert "__slots__" in vars(record)


def test_bulk_records_compare_and_hash_by_value() -> None:
    first, again = Row(12.0, (), text="a"), Row(12.0, (), text="a")
    assert first == again and hash(first) == hash(again)
    assert {first: 1}[again] == 1
    assert dataclasses.replace(first, gap=2.0) == Row(12.0, (), gap=2.0, text="a")
    assert LineRange(0, 3, 10.0) != LineRange(0, 4, 10.0)


def test_a_record_replaced_is_what_dataclasses_replace_makes() -> None:
    header = Row(20.0, (), text="header")
    row = Row(12.5, (), gap=3.0, text="line", header=header, source=(("Table", 4),))
    changes = {"gap": 0.0, "source": (("List", 2), ("Table", 4)), "header": None}
    copy = replaced(row, **changes)
    assert copy == dataclasses.replace(row, **changes)
    assert copy is not row and row.gap == 3.0 and row.header is header  # the original kept
    assert replaced(row) == row and replaced(row) is not row
    one = PlacedRow(row, 4.0)
    assert replaced(one, scale=0.5) == PlacedRow(row, 4.0, 0.5)
    with pytest.raises(KeyError):
        replaced(row, gaps=1.0)


def test_a_code_blocks_lexer_is_found_once_per_language(monkeypatch: pytest.MonkeyPatch) -> None:
    found: list[str] = []
    find = pygments.lexers.get_lexer_by_name

    def counted(name: str, **options: object) -> object:
        found.append(name)
        return find(name, **options)

    monkeypatch.setattr(pygments.lexers, "get_lexer_by_name", counted)
    code._lexer.cache_clear()
    palette = {"code_keyword": 0xFF0000FF}
    first = code.highlight("fn main() {}\n", "rust", palette, 0xFF000000)
    second = code.highlight("let x = 1;\n", "rust", palette, 0xFF000000)
    assert found == ["rust"]
    assert first[0][0] == ("fn", 0xFF0000FF) and second[0][0] == ("let", 0xFF0000FF)
