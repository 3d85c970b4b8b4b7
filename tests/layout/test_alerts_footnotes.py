"""GitHub alerts are callouts and footnotes are numbered notes on cards, never raw markers."""

from __future__ import annotations

import pytest
from markdown_it.parser_inline import ParserInline
from markdown_it.rules_inline import StateInline

from inkcard import layout, themes
from inkcard.layout.parse.doc import Callout, Notes, Paragraph, Quote, Text
from inkcard.layout.parse.markdown import ALERT_LABELS, parse
from tests.glyphruns import drawn_glyphs, glyph_runs, text_rows

KINDS = ("note", "tip", "important", "warning", "caution")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("spelled", [str.upper, str.lower, str.capitalize])
def test_an_alert_marker_in_any_case_makes_a_callout(kind: str, spelled) -> None:
    [block] = parse(f"> [!{spelled(kind)}]\n> 正文 body").blocks
    assert block == Callout(
        kind, ALERT_LABELS[kind], (Paragraph((Text("正文 body"),)),), icon=False
    )


def test_an_unknown_alert_marker_stays_a_plain_quote() -> None:
    [block] = parse("> [!DANGER]\n> text").blocks
    assert isinstance(block, Quote)
    assert block.blocks[0].inlines[0] == Text("[!DANGER]")  # type: ignore[union-attr]


def test_an_alert_holds_every_block_of_its_quote() -> None:
    [block] = parse("> [!WARNING]\n> first\n>\n> - a\n> - b").blocks
    assert isinstance(block, Callout) and len(block.blocks) == 2


def test_footnote_references_are_superscript_numbers_in_reading_order() -> None:
    doc = parse("甲[^b]乙[^a]丙[^b]\n\n[^a]: 注一\n[^b]: 注二\n\n末段")
    paragraph, last, notes = doc.blocks
    assert [t.text for t in paragraph.inlines if "sup" in t.marks] == ["[1]", "[2]", "[1]"]  # type: ignore[union-attr]
    assert last == Paragraph((Text("末段"),))  # the notes come after the last content
    assert notes == Notes("注释", ((Text("注二"),), (Text("注一"),)))


def test_notes_of_an_english_post_are_labelled_in_english() -> None:
    [_, notes] = parse("Word[^1]\n\n[^1]: A note.").blocks
    assert notes == Notes("Notes", ((Text("A note."),),))


POST = """# 标题

正文[^1]和更多[^2]。

> [!NOTE]
> 说明文字。

> [!CAUTION]
> 小心。

---

第二部分。

[^1]: 第一条注释。
[^2]: 第二条注释。
"""


@pytest.mark.parametrize("theme", ["apple-notes", "darktech"])
def test_cards_show_labels_and_numbers_never_the_markers(fonts, theme: str) -> None:
    rows = text_rows(POST, themes.load(theme), fonts)
    text = "\n".join(row.text for row in rows)
    assert "[!" not in text and "[^" not in text
    for expected in ("备注 NOTE", "说明文字。", "注意 CAUTION", "[1]", "注释", "[2] 第二条注释。"):
        assert expected in text
    assert all(drawn_glyphs(row) for row in rows)
    assert text.index("第二部分") < text.index("注释") < text.index("第一条注释")


@pytest.mark.parametrize("split", ["hrSplit", "autoSplit"])
def test_the_notes_close_the_last_card_of_a_split_post(fonts, split: str) -> None:
    options = layout.RenderOptions(split=split, width=440, height=586)
    post = POST.replace("第二部分。", "\n\n".join(["第二部分的一段长文字。" * 12] * 6))
    pages = layout.layout_pages(post, themes.load("apple-notes"), fonts, options)
    texts = ["\n".join(p.row.text for p in page.rows) for page in pages]
    assert len(texts) >= 2
    assert [("第一条注释" in t) for t in texts] == [False] * (len(texts) - 1) + [True]


def test_a_callout_title_is_drawn_in_its_kind_colour(fonts) -> None:
    styles = layout.style.resolver.resolve(themes.load("darktech"), None)
    rows = text_rows("> [!TIP]\n> x", themes.load("darktech"), fonts)
    [title] = [row for row in rows if row.text == "提示 TIP"]
    assert {run.color for run in glyph_runs(title.items)} == {styles.palette["callout_tip"]}


@pytest.mark.parametrize("text", ["[^", "^[", "> [!NOTE]\n"])
def test_hostile_footnotes_and_alerts_are_read_in_a_few_steps_a_character(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """100 KB of unclosed footnote references (`[^`), inline footnotes (`^[`) or alert
    markers: the footnote rules look no deeper than links do (16 token skips a character,
    as `![`). Counted, not timed."""
    steps = 0
    skip = ParserInline.skipToken

    def counted(self: ParserInline, state: StateInline) -> None:
        nonlocal steps
        steps += 1
        skip(self, state)

    monkeypatch.setattr(ParserInline, "skipToken", counted)
    md = text * (100_000 // len(text))
    layout.parse_post(md)
    assert steps < 24 * len(md)
