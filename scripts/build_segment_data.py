"""Builds the Chinese segmenter's data files from jieba's own word list and HMM tables.

Usage: python scripts/build_segment_data.py [JIEBA_DIR]

JIEBA_DIR is the `jieba` package folder of jieba 0.42.1 from PyPI (the one holding dict.txt
and finalseg/); without it the installed package is used. Nothing is imported from jieba:
its probability modules are plain `P = {...}` literals, read with `ast.literal_eval`. To
rebuild, install jieba anywhere (it is no dependency of Inkcard), e.g.

    pip install --target /tmp/jieba jieba==0.42.1
    python scripts/build_segment_data.py /tmp/jieba/jieba

Writes, into src/layout/text/segment/data/ (committed, so a checkout, the wheel and the
container all carry them and nothing is downloaded or built at install or run time):

- words.marisa: a marisa-trie `Trie` of the dictionary's 349,045 words;
- freqs.u32: each word's frequency as a little-endian uint32 at the word's key id in the
  trie, then one more: the frequency total;
- hmm.marisa: a marisa-trie `RecordTrie("<4d")`, character → emission log-probabilities for
  the states B, E, M, S, rounded to six decimals as jieba-rs's hmm.model stores them (the
  segmenter must give jieba-rs's cuts, and unrounded values change some);
- hmm.json: the start and transition log-probabilities (B, E, M, S order).

A word listed twice (dict.txt has `B超` twice) keeps its last frequency and counts once in
the total, as jieba-rs loads it.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import struct
import sys
from pathlib import Path

import marisa_trie

OUT = Path(__file__).resolve().parent.parent / "src" / "layout" / "text" / "segment" / "data"
STATES = "BEMS"
MIN_FLOAT = -3.14e100  # jieba's floor for an impossible start, transition or emission


def _jieba_dir(argv: list[str]) -> Path:
    if argv:
        return Path(argv[0])
    spec = importlib.util.find_spec("jieba")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("jieba is not installed: pass its package folder (see the docstring)")
    return Path(next(iter(spec.submodule_search_locations)))


def _table(path: Path) -> dict[str, object]:
    """The `P = {...}` literal of one of jieba's finalseg/prob_*.py modules."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "P":
            table = ast.literal_eval(node.value)
            assert isinstance(table, dict)
            return table
    raise SystemExit(f"{path}: no P = {{...}}")


def _words(dict_txt: Path) -> dict[str, int]:
    freqs: dict[str, int] = {}
    for line in dict_txt.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if parts:
            freqs[parts[0]] = int(parts[1]) if len(parts) > 1 else 0
    return freqs


def _rounded(probs: dict[str, float], char: str) -> float:
    """Six decimals, as `%f` prints them: what jieba-rs's hmm.model holds."""
    return float(f"{probs[char]:f}") if char in probs else MIN_FLOAT


def main(argv: list[str]) -> None:
    source = _jieba_dir(argv)
    freqs = _words(source / "dict.txt")
    trie = marisa_trie.Trie(freqs)
    column = [0] * len(freqs)
    for word, freq in freqs.items():
        column[trie[word]] = freq
    column.append(sum(freqs.values()))
    OUT.mkdir(parents=True, exist_ok=True)
    trie.save(str(OUT / "words.marisa"))
    (OUT / "freqs.u32").write_bytes(struct.pack(f"<{len(column)}I", *column))

    start = _table(source / "finalseg" / "prob_start.py")
    trans = _table(source / "finalseg" / "prob_trans.py")
    emit = _table(source / "finalseg" / "prob_emit.py")
    chars = sorted({char for state in STATES for char in emit[state]})  # type: ignore[attr-defined]
    records = [(char, tuple(_rounded(emit[s], char) for s in STATES)) for char in chars]  # type: ignore[index]
    marisa_trie.RecordTrie("<4d", records).save(str(OUT / "hmm.marisa"))
    tables = {
        "source": "jieba 0.42.1 finalseg (emission rounded to 6 decimals, as jieba-rs)",
        "start": [start[s] for s in STATES],
        "trans": [[trans[a].get(b, MIN_FLOAT) for b in STATES] for a in STATES],  # type: ignore[attr-defined]
    }
    (OUT / "hmm.json").write_text(json.dumps(tables, indent=1) + "\n", encoding="utf-8")
    print(f"{len(freqs)} words (total {column[-1]}), {len(records)} HMM characters → {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])
