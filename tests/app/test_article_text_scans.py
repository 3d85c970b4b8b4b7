"""The article path's text scans that replaced backtracking patterns → the same answers as
those patterns on thousands of generated inputs: CSS comments, rules and declarations, an
inline style's px values, the space before CJK punctuation in a draft's digest."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from inkcard.app.articles.convert import tables, themecss
from inkcard.app.articles.drafts import draftbody


def texts(count: int, tokens: list[str], seed: int) -> list[str]:
    pick = random.Random(seed)
    return ["".join(pick.choices(tokens, k=pick.randint(0, 12))) for _ in range(count)]


def same(old: Callable[[str], Any], new: Callable[[str], Any], cases: list[str]) -> None:
    differ = [(case, old(case), new(case)) for case in cases if old(case) != new(case)]
    assert differ == [], differ[:5]


CSS = ["/*", "*/", "/", "*", "a", "p", " ", "\n", "{", "}", ";", ":", '"', "color", "::before"]


def test_css_comments_go_as_the_pattern_took_them() -> None:
    def old(css: str) -> str:
        return re.sub(r"/\*.*?\*/", "", css, flags=re.S)

    same(old, themecss._without_comments, texts(6000, CSS, 1))


def test_css_rules_are_found_as_the_pattern_found_them() -> None:
    def old(css: str) -> list[tuple[str, str]]:
        return re.findall(r"([^{}]+)\{([^{}]*)\}", css)

    same(old, themecss._RULE.findall, texts(6000, CSS, 2))


def test_declarations_split_where_the_pattern_split_them() -> None:
    def old(body: str) -> list[str]:
        return re.split(r";(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", body)

    same(old, themecss._split_outside_quotes, texts(6000, CSS, 3))


def test_an_inline_styles_px_values_are_read_as_before() -> None:
    def old(style: str) -> Any:
        found = re.findall(r"(?:^|;)\s*width\s*:\s*(-?\d+(?:\.\d+)?)px", style)
        return float(found[-1]) if found else None

    tokens = ["width", "min-width", ":", ";", " ", "12px", "-3.5px", "px", "1", "em", "a"]
    same(old, lambda style: tables._px(style, "width"), texts(6000, tokens, 4))


def test_spaces_before_cjk_punctuation_go_as_before() -> None:
    def old(text: str) -> str:
        return re.sub(r"\s+(?=[。！？，、；：）」』])", "", text)

    tokens = [" ", "  ", "\t", "\u3000", "a", "中", "。", "，", "」", "!"]
    same(
        old,
        lambda text: draftbody._SPACE_BEFORE_CJK_PUNCTUATION.sub("", text),
        texts(6000, tokens, 5),
    )
