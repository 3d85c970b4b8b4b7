"""Punctuation compression and the line-break details around it, as numbers.

The box font draws every character as a 1-em box and has no `halt`, so it measures our own
adjustment in whole and half ems; the shipped faces measure `halt` (Noto Sans CJK) and the
fallback (the Kai face has no `halt`).
"""

from __future__ import annotations

import pytest

from inkcard import layout
from inkcard.layout.base.boxes import Fill, GlyphRun, Group, Item, Page, Rect
from inkcard.layout.draw.encode import rasterize
from inkcard.layout.draw.painter import Painter
from inkcard.layout.text.inline import layout_text
from inkcard.layout.text.linebox import Metrics, TextLine
from inkcard.layout.text.punctuation import Kind, adjacent_trims, kind
from inkcard.layout.text.shape import Span, SpanStyle, shape
from tests.conftest import CORPUS

EM = 10.0
METRICS = Metrics(14.0, 10.0)


def style(family: str = "sans", size: float = EM, **more: object) -> SpanStyle:
    return SpanStyle(family, size, False, False, 0xFF000000, **more)  # type: ignore[arg-type]


def widths(text: str, fonts: layout.FontBook, family: str = "sans") -> list[float]:
    """Each cluster's advance in em."""
    return [round(c.width / EM, 3) for c in shape([Span(text, style(family))], fonts)]


def lay(text: str, fonts: layout.FontBook, ems: float, **kw: object) -> list[TextLine]:
    return layout_text([Span(text, style())], fonts, x=0.0, width=ems * EM, metrics=METRICS, **kw)  # type: ignore[arg-type]


def texts(lines: list[TextLine]) -> list[str]:
    return [line.text for line in lines]


# --- the rules, as data ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("（", Kind.OPEN), ("“", Kind.OPEN), ("）", Kind.CLOSE), ("，", Kind.CLOSE),
     ("。", Kind.CLOSE), ("、", Kind.CLOSE), ("・", Kind.MIDDLE), ("！", None), ("中", None)],
)  # fmt: skip
def test_kinds(text: str, expected: Kind | None) -> None:
    assert kind(text, japanese=False) is expected


def test_colon_is_closing_in_chinese_and_middle_in_japanese() -> None:
    assert kind("：", japanese=False) is Kind.CLOSE
    assert kind("：", japanese=True) is Kind.MIDDLE


def test_adjacent_trims() -> None:
    text = "”）；“（・（"
    kinds = [kind(t, japanese=False) for t in text]
    assert adjacent_trims(kinds, list(text)) == [
        (False, True),  # ” before ）
        (False, True),  # ） before ；
        (False, True),  # ； before “
        (False, False),  # “ after a closing mark: the closing mark gave its half
        (True, False),  # （ after an opening mark
        (False, False),  # ・ keeps its quarters
        (True, False),  # （ after a middle mark
    ]


# --- widths of compressed pairs ---------------------------------------------------------


def test_box_font_comma_quote_is_one_and_a_half_em(box_fonts) -> None:
    assert widths("，“", box_fonts) == [0.5, 1.0]
    assert sum(widths("，“", box_fonts)) == 1.5


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("”），", [0.5, 0.5, 1.0]),  # closing runs: all but the last lose half
        ("（（中", [1.0, 0.5, 1.0]),  # opening runs: all but the first lose half
        ("）（", [0.5, 1.0]),
        ("中，中", [1.0, 1.0, 1.0]),  # a lone mark keeps its em
        ("！”", [1.0, 1.0]),  # ！ divides sentences and is never squeezed
    ],
)
def test_box_font_pairs(box_fonts, text: str, expected: list[float]) -> None:
    assert widths(text, box_fonts) == expected


def test_noto_sans_uses_halt_and_moves_opening_ink_left(fonts) -> None:
    clusters = shape([Span("，“（", style())], fonts)
    assert [round(c.width / EM, 3) for c in clusters] == [0.5, 1.0, 0.5]
    assert clusters[2].xs[0] == pytest.approx(-0.5 * EM)  # （ after “: its blank left half goes
    assert clusters[0].xs[0] == 0.0  # ，keeps its ink where it was


def test_kai_without_halt_uses_the_fallback(fonts) -> None:
    assert widths("）。", fonts, "kai") == [0.5, 1.0]


def test_proportional_quotes_are_left_alone_in_latin_text(fonts) -> None:
    """The Kai face draws “” narrow: next to Latin text they have no blank to give."""
    quote, bracket = widths("a”(", fonts, "kai")[1:]
    assert quote < 0.5 and bracket < 0.5


def test_narrow_quotes_in_chinese_are_widened_then_compressed(fonts) -> None:
    """Next to CJK text Kai's narrow ” is set full width, so it collapses before ）."""
    assert widths("中”）", fonts, "kai") == [1.0, 0.5, 1.0]


def test_inline_code_is_not_compressed(box_fonts) -> None:
    code = style(background=0xFFEEEEEE)
    assert [c.width / EM for c in shape([Span("，“", code)], box_fonts)] == [1.0, 1.0]


# --- line edges -------------------------------------------------------------------------------


def test_opening_bracket_at_a_line_start_loses_its_blank(box_fonts) -> None:
    lines = lay("中中中中（中中）", box_fonts, 4)
    assert texts(lines) == ["中中中中", "（中中）"]
    second = lines[1]
    assert second.width == 3.5 * EM  # （ half, 中中, ） whole at the paragraph end
    first_run = next(i for i in second.items if isinstance(i, GlyphRun))
    assert first_run.xs[:2] == (-0.5 * EM, 0.5 * EM)  # the bracket's blank hangs off


def test_closing_mark_at_a_line_end_squeezes_in(box_fonts) -> None:
    """Four characters and a ； fit a line 4.5 em wide: the ； loses its blank half (three
    characters follow, so no runt is involved)."""
    assert texts(lay("中中中中；中中中", box_fonts, 4.5)) == ["中中中中；", "中中中"]
    assert lay("中中中中；中中中", box_fonts, 4.5)[0].width == 4.5 * EM
    assert texts(lay("中中中中；中中中", box_fonts, 4.4))[:2] == ["中中中", "中；中"]


def test_closing_mark_keeps_its_em_where_it_fits(box_fonts) -> None:
    assert lay("中中中；中中", box_fonts, 4)[0].width == 4 * EM


def test_justified_line_keeps_its_compression(box_fonts) -> None:
    """Justification spreads only what is left: the ，“ pair stays 1.5 em apart."""
    lines = lay("中，“中中中中中中中中中中中", box_fonts, 9.6, align="justify")
    run = next(i for i in lines[0].items if isinstance(i, GlyphRun))
    assert run.xs[2] - run.xs[1] == 0.5 * EM  # ，→“: no stretch inside the pair
    assert run.xs[-1] + EM == pytest.approx(9.6 * EM)  # the line is filled to its end


def corpus_glyphs(items: tuple[Item, ...], dy: float = 0.0) -> list[tuple[int, float]]:
    """(glyph id, y) of every glyph in drawing order, through groups."""
    out: list[tuple[int, float]] = []
    for item in items:
        if isinstance(item, Group):
            out.extend(corpus_glyphs(item.items, dy + item.dy))
        elif isinstance(item, GlyphRun):
            out.extend((g, dy + y) for g, y in zip(item.glyphs, item.ys, strict=True))
    return out


def test_corpus_04_retrieval_line_fits_on_one_line(fonts, apple_notes) -> None:
    """ "（也就是“检索增强”）；" used to leave "强”）；" on a line of its own."""
    markdown = (CORPUS / "posts" / "04-long-article-zh.md").read_text("utf-8")
    [card] = layout.layout_pages(markdown, apple_notes, fonts, layout.RenderOptions())
    wanted = [
        g for c in shape([Span("（也就是“检索增强”）；", style(size=16))], fonts) for g in c.glyphs
    ]
    glyphs = corpus_glyphs(card.items)
    ids = [g for g, _ in glyphs]
    start = next(i for i in range(len(ids)) if ids[i : i + len(wanted)] == wanted)
    ys = {round(y, 3) for _, y in glyphs[start : start + len(wanted)]}
    assert len(ys) == 1


# --- no lone last character ----------------------------------------------------------------


def test_lone_last_character_takes_one_from_the_line_before(box_fonts) -> None:
    assert texts(lay("中中中中中。", box_fonts, 4)) == ["中中中", "中中。"]


def test_two_characters_on_the_last_line_take_a_third(box_fonts) -> None:
    """Two characters alone under a full line read as a stub ("钉子。", "为准。"); three do
    not (`pretty.CJK_RUNT`)."""
    assert texts(lay("中中中中中中。", box_fonts, 4)) == ["中中中", "中中中。"]
    assert texts(lay("中中中中中中中。", box_fonts, 4)) == ["中中中中", "中中中。"]


def test_a_short_last_line_takes_a_whole_word_not_half_of_one(box_fonts) -> None:
    """The stub "文章。" was mended as "…回答问题、总 / 结文章。", parting 总结: the word goes
    down whole ("总结文章。")."""
    assert texts(lay("我们回答问题总结文章。", box_fonts, 9)) == ["我们回答问题", "总结文章。"]
    longer = lay("大语言模型比如翻译写代码回答问题总结文章。", box_fonts, 19)
    assert texts(longer)[-1] == "总结文章。"


def test_no_adjustment_when_the_line_before_would_become_short(box_fonts) -> None:
    assert texts(lay("中中。", box_fonts, 2)) == ["中", "中。"]
    assert texts(lay("中中中", box_fonts, 1)) == ["中", "中", "中"]


def test_each_hard_broken_paragraph_end_is_checked(box_fonts) -> None:
    assert texts(lay("中中中中中\n中中", box_fonts, 4)) == ["中中中", "中中", "中中"]


# --- zero-width space, soft hyphen, hyphenation ------------------------------------------------


def test_zero_width_space_is_a_break_opportunity(box_fonts) -> None:
    assert texts(lay("abc\u200bdef", box_fonts, 4.5)) == ["abc", "def"]
    assert texts(lay("abcdef", box_fonts, 4.5)) == ["abcd", "ef"]  # forced without it


def test_soft_hyphen_draws_a_hyphen_only_where_used(box_fonts) -> None:
    broken = lay("abc\u00addef", box_fonts, 4.5)
    assert texts(broken) == ["abc-", "def"]
    assert broken[0].width == 4 * EM
    assert sum(len(i.glyphs) for i in broken[0].items if isinstance(i, GlyphRun)) == 5
    assert texts(lay("abc\u00addef", box_fonts, 10)) == ["abcdef"]


def test_loose_line_hyphenates_a_long_word(box_fonts) -> None:
    """ "the " alone would fill a third of the line; in-ter-na- fills it."""
    assert texts(lay("the internationalization effort", box_fonts, 12))[0] == "the interna-"


def test_a_full_enough_line_does_not_hyphenate(box_fonts) -> None:
    assert texts(lay("a fine internationalization", box_fonts, 8))[0] == "a fine "


def test_urls_and_code_are_never_hyphenated(box_fonts) -> None:
    assert "-" not in "".join(texts(lay("see example.communication", box_fonts, 12)))
    code = [Span("see ", style()), Span("internationalization", style(background=1))]
    lines = layout_text(code, box_fonts, x=0.0, width=12 * EM, metrics=METRICS)
    assert "-" not in "".join(texts(lines))


def test_real_font_hyphenation(fonts) -> None:
    text = "The internationalization of typographical conventions"
    lines = layout_text([Span(text, style(size=16))], fonts, x=0, width=260, metrics=METRICS)
    assert lines[0].text.endswith("-")
    assert "".join(t.text.removesuffix("-") for t in lines) == text


# --- inline pieces cut by a line break --------------------------------------------------------


def fills(line: TextLine) -> list[Fill]:
    return [i for i in line.items if isinstance(i, Fill)]


def test_code_split_over_lines_is_tight_with_square_cut_ends(box_fonts) -> None:
    code = style(background=0xFFEEEEEE, radius=3.0, pad_x=2.0)
    # longer than a short span (which would move to the next line whole)
    spans = [Span("aa ", style()), Span("bb cc dd ee ff gg hh ii jj", code)]
    first, *_, second = layout_text(spans, box_fonts, x=0.0, width=6.5 * EM, metrics=METRICS)
    assert (first.text, second.text) == ("aa bb ", "ii jj")
    [head] = fills(first)
    assert head.square == (False, True)
    assert head.rect.x == 3 * EM  # the true start: rounded, over its padding
    assert head.rect.x + head.rect.width == 5 * EM + 2.0  # ends at the last b, not the space
    [tail] = fills(second)
    assert tail.square == (True, False)
    assert tail.rect.x == 0.0 and tail.rect.width == 5 * EM + 2.0


def test_highlight_split_over_lines_has_square_cut_ends(box_fonts) -> None:
    mark = style(highlight=0xFFFFFF00, radius=4.0)
    spans = [Span("aa ", style()), Span("bb cc", mark), Span(" dd", style())]
    first, second = layout_text(spans, box_fonts, x=0.0, width=6.5 * EM, metrics=METRICS)
    assert [f.square for f in fills(first)] == [(False, True)]
    assert fills(first)[0].rect.width == 2 * EM  # "bb", not the space after it
    assert [f.square for f in fills(second)] == [(True, False)]


def test_square_ends_are_drawn_square(fonts) -> None:
    fill = Fill(Rect(10, 10, 40, 20), 0xFFFF0000, 8.0, (True, False))
    page = Page(60, 40, 0xFFFFFFFF, (fill,))
    pixels = rasterize(Painter(fonts.typefaces()).record(page), 60, 40, 0xFFFFFFFF, 1)
    assert pixels[10, 10].tolist() == [255, 0, 0]  # top left: square
    assert pixels[10, 49].tolist() == [255, 255, 255]  # top right: rounded away


def test_code_blocks_are_never_hyphenated(box_fonts) -> None:
    spans = [Span("the internationalization", style())]
    lines = layout_text(spans, box_fonts, x=0.0, width=12 * EM, metrics=METRICS, prose=False)
    assert texts(lines) == ["the ", "internationalization"[:12], "internationalization"[12:]]


def test_the_last_word_of_a_paragraph_is_never_hyphenated(box_fonts) -> None:
    """Where "remember?" does not fit after "what will I", a hyphen would leave "ber?" alone
    on the last line (the greedy break at 15 ems made "remem- / ber?"): the whole word goes
    to the next line instead."""
    for ems in range(12, 20):
        lines = texts(lay("what will I remember?", box_fonts, ems))
        assert not any(line.endswith("-") for line in lines), (ems, lines)
    # Not the last word: the same word still hyphenates on a loose line.
    assert any(t.endswith("-") for t in texts(lay("the internationalization works", box_fonts, 12)))
