"""layout.text.segment cuts Chinese exactly as rjieba (jieba-rs) does, without its load time.

The segmenter replaced rjieba only on the condition that no heading breaks differently, so the
oracle is rjieba itself (a test-only dependency): every line and every heading of every
Markdown file in the repository, then seeded generated strings of the kinds that take jieba's
odd paths — ASCII identifiers among Chinese, digits and percentages, punctuation of both
widths, emoji, full-width forms, rare and extension ideographs, `\\r\\n`, and long runs of
unknown characters that only the HMM cuts (with ties among its -3.14e100 floors).
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import rjieba

from inkcard.layout.text.segment import cut
from inkcard.layout.text.segment.data import DATA, words

REPO = Path(__file__).resolve().parents[2]
_SKIP_DIRS = {".git", ".venv", "node_modules", "_output", ".hypothesis", "__pycache__"}

COMMON = (
    "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学"
    "对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头"
    "面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向"
)
RARE = "㐀㐁㐂䶵䶿鿕鿖鿿丢丟豈更車賈" + "".join(
    map(chr, (0x20000, 0x20001, 0x2A6DF, 0x2A700, 0x2B740, 0x2B820, 0x2CEB0, 0x2F800))
)
ASCII = "abcXYZ0123456789._-%+#&"
PUNCTUATION = "，。！？、；：“”‘’（）《》【】—…·「」,.!?;:'\"()[]{}<>/\\|@$^*=~`"
SPACES = (" ", "\t", "\n", "\r\n", "\r", "\u3000", "\u00a0")
FULL_WIDTH = "ＡＢＣａｂｃ０１２３％＃＋．－＿"
EMOJI = ("😀", "👍🏽", "👨‍👩‍👧", "🇨🇳", "❤️", "©", "™")
PIECES = (
    "photo.png", "tech-company", "media_id", "v1.2.3", "12.5%", "3.14", "WES-5.4.5", "abc-",
    "-x", "a..b", "1.2.", "x_y_z", "C++", "C#", "AT&T", "GPT-4o", "Python3.11", "50%%", "a%b",
    "中国科学院", "南京市长江大桥", "研究生命起源", "结婚的和尚未结婚的",
    "工信处女干事每月经过下属科室",
)  # fmt: skip


def _markdown_texts() -> list[str]:
    texts: set[str] = set()
    for path in REPO.rglob("*.md"):
        if _SKIP_DIRS.intersection(path.relative_to(REPO).parts):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            texts.add(line)
            if line.startswith("#"):
                texts.add(line.lstrip("#").strip())
    return sorted(texts)


def _mixed(rng: random.Random) -> str:
    pools = (
        lambda: rng.choice(COMMON),
        lambda: rng.choice(RARE),
        lambda: rng.choice(ASCII),
        lambda: rng.choice(PUNCTUATION),
        lambda: rng.choice(SPACES),
        lambda: rng.choice(FULL_WIDTH),
        lambda: rng.choice(EMOJI),
        lambda: rng.choice(PIECES),
        lambda: "".join(rng.choice(COMMON) for _ in range(rng.randint(3, 12))),
    )
    return "".join(rng.choice(pools)() for _ in range(rng.randint(1, 25)))


def _unknown_name(rng: random.Random) -> str:
    """Long runs of any ideographs, most outside the dictionary: the HMM's work."""
    low, high = rng.choice(((0x4E00, 0x9FFF), (0x9F00, 0x9FFF), (0x3400, 0x9FFF)))
    return "".join(chr(rng.randint(low, high)) for _ in range(rng.randint(2, 60)))


def _any_characters(rng: random.Random) -> str:
    chars = (chr(rng.randint(0x20, 0x2FFFF)) for _ in range(rng.randint(1, 30)))
    return "".join(c for c in chars if not 0xD800 <= ord(c) <= 0xDFFF)


def _differences(texts: list[str]) -> list[tuple[str, list[str], list[str]]]:
    return [(t, ours, theirs) for t in texts if (ours := cut(t)) != (theirs := rjieba.cut(t))]


def test_every_markdown_line_and_heading_in_the_repository_cuts_as_rjieba_does() -> None:
    texts = _markdown_texts()
    assert len(texts) > 5000  # the docs, the goldens' posts and the samples were all read
    assert _differences(texts) == []


@pytest.mark.parametrize("make", (_mixed, _unknown_name, _any_characters))
def test_generated_hard_strings_cut_as_rjieba_does(make: Callable[[random.Random], str]) -> None:
    rng = random.Random(45)
    texts = [make(rng) for _ in range(3000)]
    assert _differences(texts) == []


@pytest.mark.parametrize(
    ("text", "words"),
    (
        ("荔枝生死时速", ["荔枝", "生死时速"]),
        ("我用asyncio写了v1.2.3版", ["我用", "asyncio", "写", "了", "v1.2.3", "版"]),
        (
            "photo.png和tech-company的media_id",
            ["photo.png", "和", "tech-company", "的", "media_id"],
        ),
        ("涨了12.5%x", ["涨", "了", "12.5%", "x"]),
        ("B超检查AT&T和c++", ["B超", "检查", "AT&T", "和", "c++"]),
        ("小明硕士毕业于中国科学院计算所", ["小明", "硕士", "毕业", "于", "中国科学院", "计算所"]),
        ("a\r\nb\u3000Ｆ全角", ["a", "\r\n", "b", "\u3000", "Ｆ", "全角"]),
        ("㐀㐁", ["㐀㐁"]),
        ("", []),
    ),
)
def test_known_cuts(text: str, words: list[str]) -> None:
    """Spelled out, so a wrong cut fails here even where rjieba is not installed."""
    assert cut(text) == words


def test_the_dictionary_files_agree_with_each_other() -> None:
    """freqs.u32 holds one frequency per trie key and then their total, as the build wrote."""
    known = words()
    count = len(known.trie)
    assert count == 349_045
    assert len(known.freqs) == count + 1
    assert known.freqs[count] == sum(known.freqs[:count]) == 60_101_964
    assert known.starting("中国科学院大学") == [(1, 243191), (2, 129470), (5, 873)]  # dict.txt's
    assert sorted(p.name for p in DATA.iterdir()) == [
        "LICENSE-jieba.txt", "freqs.u32", "hmm.json", "hmm.marisa", "words.marisa",
    ]  # fmt: skip


def test_a_heading_loads_neither_rjieba_nor_the_hmm_unless_it_needs_it() -> None:
    """A fresh process: a heading of dictionary words maps the dictionary alone; rjieba is
    never imported, and the HMM tables open with the first run of unknown characters."""
    probe = (
        "import sys\n"
        "from inkcard.layout.text.words import inside_words\n"
        "from inkcard.layout.text.segment.data import hmm\n"
        "inside_words('荔枝生死时速')\n"
        "print(hmm.cache_info().currsize, 'rjieba' in sys.modules)\n"
        "inside_words('龘靐齉')\n"
        "print(hmm.cache_info().currsize, 'rjieba' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True,
        cwd=REPO, env={"PYTHONPATH": str(REPO / ".dev"), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.stdout.split() == ["0", "False", "1", "False"]
