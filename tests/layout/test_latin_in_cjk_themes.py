"""Latin text in a letter-spaced, justified CJK theme, as numbers.

Letter spacing goes to CJK and full-width text, capitals and figures, never to a word with
a lowercase letter; a justified block stretches CJK gaps, gives a Latin word space at most
a quarter em, and sets a paragraph without CJK flush left. The box font draws every
character as a 1-em box (spaces too), so widths are whole ems plus the spacing.
"""

from __future__ import annotations

import pytest

from inkcard import layout
from inkcard.layout.base.boxes import GlyphRun
from inkcard.layout.text.clusters import Cluster
from inkcard.layout.text.inline import layout_text
from inkcard.layout.text.linebox import Metrics, TextLine
from inkcard.layout.text.shape import Span, SpanStyle, shape

EM = 10.0
SPACING = 3.0
METRICS = Metrics(14.0, 10.0)


def style(family: str = "sans", size: float = EM, **more: object) -> SpanStyle:
    return SpanStyle(family, size, False, False, 0xFF000000, **more)  # type: ignore[arg-type]


def spaced(text: str, fonts: layout.FontBook, **more: object) -> list[Cluster]:
    return shape([Span(text, style(letter_spacing=SPACING, **more))], fonts)


def extras(clusters: list[Cluster]) -> str:
    """Which clusters took the spacing: 't' tracked, '.' natural."""
    return "".join("t" if c.width > EM else "." for c in clusters)


# Letter spacing ---------------------------------------------------------------------------


def test_lowercase_latin_words_are_never_letter_spaced(box_fonts) -> None:
    clusters = spaced("中文 Hello world, v2 中", box_fonts)
    assert extras(clusters) == "ttt" + "." * 16 + "t"  # "Hello world, v2 " natural
    assert [c.tracking for c in clusters[:2]] == [SPACING, SPACING]
    assert clusters[3].tracking == 0.0


def test_capitals_and_figures_keep_their_tracking(box_fonts) -> None:
    assert extras(spaced("NASA 2026 中", box_fonts)) == "tttt" + "t" + "tttt" + "t" + "t"
    upper = spaced("chapter one", box_fonts, text_transform="uppercase")
    assert extras(upper) == "ttttttt" + "t" + "ttt"


def test_no_spacing_after_a_capital_word_or_figure_before_a_lowercase_word(box_fonts) -> None:
    """ "How I Got": the tracked "I" and the space after it made a double gap (the space
    before it is "How"'s, natural); "2026 Inkcard" likewise. Between its own characters
    a capital word keeps its spacing, and before CJK or a capital word, all of it."""
    assert extras(spaced("How I Got", box_fonts)) == "...." + ".." + "..."
    assert extras(spaced("NASA 2026 Inkcard", box_fonts)) == "tttt" + "t" + "ttt." + "." + "......."
    assert extras(spaced("6 Habits 中", box_fonts)) == ".." + "......" + "." + "t"


def test_a_word_split_by_a_span_edge_is_still_one_word(box_fonts) -> None:
    look = style(letter_spacing=SPACING)
    clusters = shape([Span("A", look), Span("pple", replace_bold(look))], box_fonts)
    assert extras(clusters) == "....."


def replace_bold(look: SpanStyle) -> SpanStyle:
    return SpanStyle(look.family, look.size, True, False, look.color, letter_spacing=SPACING)


def test_negative_spacing_still_tightens_every_cluster(box_fonts) -> None:
    clusters = shape([Span("Ab 中", style(letter_spacing=-1.0))], box_fonts)
    assert [c.width for c in clusters] == [9.0, 9.0, 9.0, 9.0]


def test_a_line_measures_what_it_draws(box_fonts) -> None:
    [line] = layout_text(
        [Span("中文 Latin", style(letter_spacing=SPACING))],
        box_fonts,
        x=0.0,
        width=40 * EM,
        metrics=METRICS,
    )
    xs = [x for item in line.items if isinstance(item, GlyphRun) for x in item.xs]
    assert xs == [0.0, 13.0, 26.0, 39.0, 49.0, 59.0, 69.0, 79.0]  # the space after 文 tracked
    assert line.width == 89.0


def test_compression_still_sees_full_width_marks_when_spaced(fonts) -> None:
    """Kai has no `halt`: a full-width comma then an opening quote lose half an em."""
    size = 20.0
    plain = shape([Span("中，“中", style("kai", size))], fonts)
    tracked = shape([Span("中，“中", style("kai", size, letter_spacing=SPACING))], fonts)
    assert [round(t.width - p.width, 3) for p, t in zip(plain, tracked, strict=True)] == [
        SPACING
    ] * 4
    assert round(sum(p.width for p in plain), 3) < 4 * size  # compressed


# Justification ----------------------------------------------------------------------------


def lay(text: str, fonts: layout.FontBook, ems: float) -> list[TextLine]:
    return layout_text(
        [Span(text, style())], fonts, x=0.0, width=ems * EM, metrics=METRICS, align="justify"
    )


def pens(line: TextLine) -> list[float]:
    return [x for item in line.items if isinstance(item, GlyphRun) for x in item.xs]


def test_a_paragraph_without_cjk_is_set_flush_left(box_fonts) -> None:
    lines = lay("aaaa bb cccccc dd", box_fonts, 10)
    assert [line.text for line in lines] == ["aaaa bb ", "cccccc dd"]
    assert pens(lines[0]) == [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0]  # natural


def test_cjk_lines_are_still_justified_flush(box_fonts) -> None:
    lines = lay("中" * 20, box_fonts, 9.5)
    first = pens(lines[0])
    assert first[1] == pytest.approx(EM + 5.0 / 8)  # 5 px spread over 8 gaps
    assert first[-1] + EM == pytest.approx(9.5 * EM)


def test_a_line_too_short_to_spread_within_limits_is_set_flush_start(box_fonts) -> None:
    """30 px short over 4 slots: its two CJK slots would take 12.5 px (1.25 em) each, a
    line a designer would not post spread; it is set at its natural spacing instead."""
    lines = lay("中中 ab cd ef xxxxxxxx", box_fonts, 14)
    assert lines[0].text == "中中 ab cd ef "
    assert pens(lines[0]) == [10.0 * i for i in range(12)]
    assert lines[0].stretch == 0.0


def test_a_line_with_only_latin_slots_short_past_their_limit_is_set_flush_start(
    box_fonts,
) -> None:
    lines = lay("ab cd ef xxxxxxxx 中中", box_fonts, 12)
    assert lines[0].text == "ab cd ef "
    assert pens(lines[0]) == [10.0 * i for i in range(9)]  # 35 px short: natural spaces


def test_a_mixed_line_a_little_short_shares_it_evenly(box_fonts) -> None:
    lines = lay("中中中中中中中中 ab cd xxxxxxxxxx", box_fonts, 14.5)
    assert lines[0].text == "中中中中中中中中 ab cd "
    # 5 px over 9 slots: 7 CJK gaps, the space at the CJK/Latin boundary, the Latin space
    steps = [b - a for a, b in zip(pens(lines[0]), pens(lines[0])[1:], strict=False)]
    assert steps[:7] == pytest.approx([EM + 5 / 9] * 7)
    assert steps[7:] == pytest.approx([EM, EM + 5 / 9, EM, EM, EM + 5 / 9, EM, EM])  # "中 ab cd "
    assert lines[0].stretch == pytest.approx(0.5 / 9, abs=1e-3)


def test_an_ideograph_next_to_a_latin_letter_is_a_stretch_slot(box_fonts) -> None:
    lines = lay("中ab中中中中中中中中中中中中", box_fonts, 9.5)
    assert lines[0].text == "中ab中中中中中中"
    # slots after 中, after b, and the 5 gaps between the last six: 5 px over 7
    assert pens(lines[0])[:4] == pytest.approx([0.0, 10 + 5 / 7, 20 + 5 / 7, 30 + 10 / 7])


def test_italic_chinese_set_upright_sets_its_latin_upright_too(fonts) -> None:
    """With `cjk_italic = "none"` italic Chinese is upright in its usual face; a slanted
    19:00 or IFS beside it read as a fault, so the line is set upright. Kai (the default)
    keeps the clreq convention: upright Kai beside slanted Latin; English still slants."""
    from inkcard.layout.pages.quality import _post_runs

    def skews(extra: str, post: str) -> set[float]:
        theme = layout.decode_theme('name = "t"\n' + extra)
        pages = layout.layout_pages(post, theme, fonts, layout.RenderOptions())
        return {run.skew for run, _, _ in _post_runs(pages[0])}

    upright = '[roles.body]\nitalic = true\ncjk_italic = "none"\n'
    chinese = "小贴士：太古里晚上比白天好看，建议 19:00 以后再去，IFS 在 7 楼。"
    assert skews(upright, chinese) == {0.0}
    assert min(skews("[roles.body]\nitalic = true\n", chinese)) < 0  # Kai: Latin slants
    assert skews(upright, "Readability counts.") != {0.0}


def test_figures_in_a_kai_quote_stand_upright_where_latin_words_slant(fonts) -> None:
    """A quote is italic by default and its Chinese stands upright in Kai: the 3 of "微波 3
    分钟" and the 19:00 of "建议 19:00 以后" were slanted between upright characters, read as
    a fault. A figure beside CJK is part of the Chinese sentence; IFS, a Latin word, still
    slants (clreq's Western text in a Kai passage), as does a figure in an English quote."""

    def slanted(text: str) -> str:
        look = SpanStyle("sans", EM, False, True, 0xFF000000)  # italic
        clusters = shape([Span(text, look)], fonts)
        return "".join(c.text for c in clusters if c.style.italic and c.text.strip())

    assert slanted("建议 19:00 以后再去，IFS 在 7 楼，微波 3 分钟，100% 好看。") == "IFS"
    assert slanted("Readability counts 3 times.") == "Readabilitycounts3times."


def test_a_loose_line_takes_a_character_from_the_line_before(box_fonts) -> None:
    """Greedy breaks leave the second line 2 em short of 20 (a long word cannot come up):
    0.12 em over each of its 17 gaps, past LOOSE_GAP. One character from the first line
    leaves both lines 1 em short, 0.06 em a gap: both justified, neither loose."""
    lines = lay("中" * 38 + " " + "x" * 15 + " 中中", box_fonts, 20)
    assert [len(line.text.strip()) for line in lines] == [19, 19, 18]
    assert [line.stretch for line in lines] == pytest.approx([1 / 18, 1 / 18, 0.0], abs=1e-3)
    assert [pens(line)[18] + EM for line in lines[:2]] == pytest.approx([20 * EM] * 2)


def test_a_loose_line_no_break_helps_is_set_flush_start(box_fonts) -> None:
    """The tip quote's first line: nothing before it to give, so it is set solid."""
    [first, _] = lay("中" * 18 + " " + "x" * 15, box_fonts, 20)
    assert first.stretch == 0.0 and pens(first) == [10.0 * i for i in range(19)]


def test_a_line_a_runt_left_short_takes_from_the_line_before(box_fonts) -> None:
    """`pretty` sends "12" (one unit) down to keep "中。" from ending the paragraph alone,
    leaving the middle line 2 em short (0.12 em a gap). The first line gives it one
    character, the last line's break is kept: no runt comes back and nothing is loose."""
    lines = lay("中" * 38 + "12中。", box_fonts, 20)
    assert [line.text for line in lines] == ["中" * 19, "中" * 19, "12中。"]
    assert [line.stretch for line in lines] == pytest.approx([1 / 18, 1 / 18, 0.0], abs=1e-3)


def test_a_loose_first_line_pulls_the_next_piece_up_compressing_its_marks(box_fonts) -> None:
    """A two-line paragraph whose last line would be "中。" alone: `avoid_lone_last`
    sends a character down and left the first line 2 em short, loose, with no line
    before it to take from (set flush before). Its comma's blank half (0.5 em) and its
    full stop's make room for the rest: one line, the comma set half wide."""
    [line] = lay("中" * 9 + "，" + "中" * 9 + "。", box_fonts, 19)
    assert line.text == "中" * 9 + "，" + "中" * 9 + "。"
    assert pens(line)[9:11] == pytest.approx([9 * EM, 9.5 * EM])
    assert pens(line)[-2] == pytest.approx(17.5 * EM)  # the last character: nothing spread


def test_a_loose_line_whose_next_piece_cannot_fit_stays_flush(box_fonts) -> None:
    """With no mark to compress the next piece cannot come up: the loose first line is
    set at its natural spacing, as before."""
    lines = lay("中" * 20 + "。", box_fonts, 19.9)
    assert [line.text for line in lines] == ["中" * 17, "中中中。"]
    assert lines[0].stretch == 0.0 and pens(lines[0]) == [EM * i for i in range(17)]


def test_a_six_letter_word_is_never_hyphenated() -> None:
    """Glassmorphism's essay tile hyphenated "peo- / ple" and watercolor's table cell
    "sta- / tus": a six-letter word parted 3 + 3 reads as two fragments. A word of seven
    letters or more still takes the dictionary's points."""
    from inkcard.layout.text.words import hyphen_points

    def points(text: str) -> list[int]:
        return hyphen_points(list(text), [False] * len(text))

    assert points("people status ") == []
    assert points("understand ") != []


def test_a_name_with_a_capital_inside_is_never_hyphenated() -> None:
    """typewriter's subscription FAQ at 440x586 set "Chat- / GPT" in a menu path: a capital
    inside a word makes it a name (ChatGPT, JavaScript, iPhone, NASA) that a hyphen
    misspells. A capitalised word (Understanding) still takes the dictionary's points."""
    from inkcard.layout.text.words import hyphen_points

    def points(text: str) -> list[int]:
        return hyphen_points(list(text), [False] * len(text))

    for name in ("ChatGPT ", "JavaScript ", "iPhoneography ", "PROGRAMMING "):
        assert points(name) == [], name
    assert points("Understanding ") != []
