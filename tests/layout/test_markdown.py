"""Markdown → `Doc`, as fixture tables of (input, expected blocks).

Expected blocks are compared after dropping empty text runs: the parser leaves `Text("")`
where markdown-it opens or closes markup at the edge of a run; they draw nothing, and
the tables should not pin them.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from inkcard.layout.parse.doc import (
    Block,
    CodeBlock,
    Doc,
    Heading,
    Image,
    ListBlock,
    ListItem,
    Paragraph,
    Quote,
    Rule,
    Table,
    Text,
)
from inkcard.layout.parse.markdown import image_sources, parse, split_at_rules

BR = Text("\n")


def run(text: str, *marks: str) -> Text:
    return Text(text, frozenset(marks))


def para(*inlines: Text | str) -> Paragraph:
    return Paragraph(tuple(run(i) if isinstance(i, str) else i for i in inlines))


def item(*blocks: Block, checked: bool | None = None) -> ListItem:
    return ListItem(tuple(blocks), checked)


def bullets(*items: ListItem, tight: bool = True) -> ListBlock:
    return ListBlock(False, 1, tight, items)


def cell(*inlines: Text | str) -> tuple[Text, ...]:
    return tuple(run(i) if isinstance(i, str) else i for i in inlines)


def without_empty_runs(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(
            without_empty_runs(v) for v in value if not (isinstance(v, Text) and v.text == "")
        )
    if isinstance(value, Doc):
        return Doc(without_empty_runs(value.blocks), value.images)
    if isinstance(value, msgspec.Struct):
        changes = {f: without_empty_runs(getattr(value, f)) for f in value.__struct_fields__}
        return msgspec.structs.replace(value, **changes)
    return value


CASES: list[tuple[str, str, tuple[Block, ...]]] = [
    # (id, markdown, blocks)
    ("atx-headings", "# One\n\n###### Six", (Heading(1, (run("One"),)), Heading(6, (run("Six"),)))),
    ("setext-heading", "Two\n---", (Heading(2, (run("Two"),)),)),
    (
        "heading-marks",
        "## A *b* `c`",
        (Heading(2, (run("A "), run("b", "em"), run(" "), run("c", "inline_code"))),),
    ),
    ("seven-hashes-is-text", "####### x", (para("####### x"),)),
    (
        "marks",
        "a **b** _c_ `d` ~~e~~ [f](http://x)",
        (
            para(
                "a ",
                run("b", "strong"),
                " ",
                run("c", "em"),
                " ",
                run("d", "inline_code"),
                " ",
                run("e", "del"),
                " ",
                run("f", "link"),
            ),
        ),
    ),
    (
        "nested-marks",
        "**bold _both_**",
        (para(run("bold ", "strong"), run("both", "strong", "em")),),
    ),
    ("code-in-link", "[a `b`](u)", (para(run("a ", "link"), run("b", "link", "inline_code")),)),
    ("soft-break-is-a-line-break", "one\ntwo", (para("one", BR, "two"),)),
    ("hard-breaks", "one  \ntwo\\\nthree", (para("one", BR, "two", BR, "three"),)),
    ("blank-line-splits-paragraphs", "a\n\nb", (para("a"), para("b"))),
    ("entities-and-escapes", "a &amp; \\*b\\* &copy;", (para("a & *b* ©"),)),
    (
        "image-splits-its-paragraph",
        "before ![alt](a.png) after",
        (para("before "), Image("a.png", "alt"), para(" after")),
    ),
    ("image-alone", "![only](b.png)", (Image("b.png", "only"),)),
    (
        "images-on-lines-drop-the-breaks",
        "text\n![i](x.png)\n![j](y.png)",
        (para("text"), Image("x.png", "i"), Image("y.png", "j")),
    ),
    ("linked-image-is-an-image", "[![i](x.png)](http://l)", (Image("x.png", "i"),)),
    ("image-in-heading-is-its-alt", "# ![i](x.png) h", (Heading(1, (run("i"), run(" h"))),)),
    ("fence-with-language", "```py title=x\nx = 1\n```", (CodeBlock("x = 1", "py"),)),
    ("tilde-fence", "~~~\nplain\n\n  kept\n~~~", (CodeBlock("plain\n\n  kept", ""),)),
    ("indented-code", "    code\n    more", (CodeBlock("code\nmore", ""),)),
    ("empty-fence", "```\n```", (CodeBlock("", ""),)),
    ("rules", "a\n\n---\n\n***\n\n___", (para("a"), Rule(), Rule(), Rule())),
    (
        "nested-quotes",
        "> q\n>\n> > inner",
        (Quote((para("q"), Quote((para("inner"),)))),),
    ),
    ("quote-lazy-line", "> a\nb", (Quote((para("a", BR, "b"),)),)),
    (
        "nested-bullets",
        "- a\n  - b\n- c",
        (bullets(item(para("a"), bullets(item(para("b")))), item(para("c"))),),
    ),
    ("loose-list", "- a\n\n- b", (bullets(item(para("a")), item(para("b")), tight=False),)),
    (
        "ordered-start",
        "3. x\n4. y",
        (ListBlock(True, 3, True, (item(para("x")), item(para("y")))),),
    ),
    (
        "ordered-in-bullets-and-new-delimiter",
        "1. a\n   - b\n2) c",
        (
            ListBlock(True, 1, True, (item(para("a"), bullets(item(para("b")))),)),
            ListBlock(True, 2, True, (item(para("c")),)),
        ),
    ),
    (
        "tasks",
        "- [ ] todo\n- [x] done\n- [X] Done\n- [] no\n- plain",
        (
            bullets(
                item(para("todo"), checked=False),
                item(para("done"), checked=True),
                item(para("Done"), checked=True),
                item(para("[] no")),
                item(para("plain")),
            ),
        ),
    ),
    (
        "task-with-marks",
        "- [x] **b** c",
        (bullets(item(para(run("b", "strong"), " c"), checked=True)),),
    ),
    (
        "ordered-task",
        "1. [ ] first",
        (ListBlock(True, 1, True, (item(para("first"), checked=False),)),),
    ),
    ("list-in-quote", "> - a\n> - b", (Quote((bullets(item(para("a")), item(para("b"))),)),)),
    (
        "table-alignments",
        "| a | b | c | d |\n|---|:--|:-:|--:|\n| 1 | *2* | `3` | 4 |",
        (
            Table(
                ("left", "left", "center", "right"),
                (cell("a"), cell("b"), cell("c"), cell("d")),
                ((cell("1"), cell(run("2", "em")), cell(run("3", "inline_code")), cell("4")),),
            ),
        ),
    ),
    (
        "table-short-and-long-rows",
        "| a | b |\n|---|---|\n| x |\n| 1 | 2 | 3 |",
        (
            Table(
                ("left", "left"), (cell("a"), cell("b")), ((cell("x"), ()), (cell("1"), cell("2")))
            ),
        ),
    ),
    ("table-header-only", "| h |\n|---|", (Table(("left",), (cell("h"),), ()),)),
    # tags of the shared allow-list keep their text, never show as markup
    ("html-block-keeps-text", "<div>hi</div>", (para("hi"),)),
    ("inline-html-keeps-text", "x <span>y</span> z", (para("x ", "y", " z"),)),
    ("unknown-html-is-text", "x <blink>y</blink> z", (para("x <blink>y</blink> z"),)),
    ("html-comment-is-text", "<!-- c -->", (para("<!-- c -->"),)),
    (
        "bare-url",
        "see https://example.com now",
        (para("see ", run("https://example.com", "link"), " now"),),
    ),
    ("www-url", "www.example.com", (para(run("www.example.com", "link")),)),
    ("angle-autolink", "<https://x.y>", (para(run("https://x.y", "link")),)),
    ("strikethrough", "a ~~b **c**~~", (para("a ", run("b ", "del"), run("c", "del", "strong")),)),
    ("empty", "", ()),
    ("whitespace", " \n\n\t\n", ()),
]


@pytest.mark.parametrize(("markdown", "blocks"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_markdown_to_blocks(markdown: str, blocks: tuple[Block, ...]) -> None:
    assert without_empty_runs(parse(markdown)) == Doc(blocks)


def test_image_alt_is_plain_text() -> None:
    assert parse("![a *b* `c`](x.png)") == Doc((Image("x.png", "a b c"),))


@pytest.mark.parametrize(
    ("markdown", "image"),
    [
        ("![cat|300x200](c.png)", Image("c.png", "cat", 300, 200)),
        ("![cat | 300](c.png)", Image("c.png", "cat", 300)),
        ("![a|b|40X20](c.png)", Image("c.png", "a|b", 40, 20)),  # only the last bar counts
        ("![|120](c.png)", Image("c.png", "", 120)),
        ("![cat|0x5](c.png)", Image("c.png", "cat|0x5")),  # no zero sizes: plain alt text
        ("![cat|300x](c.png)", Image("c.png", "cat|300x")),
        ("![cat|999999](c.png)", Image("c.png", "cat|999999")),  # at most five digits
        ("![cat|wide](c.png)", Image("c.png", "cat|wide")),
    ],
)
def test_image_size_syntax(markdown: str, image: Image) -> None:
    assert parse(markdown) == Doc((image,))


def test_image_size_is_dropped_from_alt_text_used_inline() -> None:
    assert parse("# ![logo|32](x.png) Title") == Doc((Heading(1, (run("logo"), run(" Title"))),))


def test_split_at_rules_drops_empty_parts() -> None:
    doc = parse("---\n\na\n\n---\n\n---\n\nb\n\n> c\n\n---")
    assert split_at_rules(doc) == [Doc((para("a"),)), Doc((para("b"), Quote((para("c"),))))]


def test_a_rule_inside_a_quote_does_not_split() -> None:
    doc = parse("> a\n>\n> ---\n>\n> b")
    assert split_at_rules(doc) == [doc]
    assert doc.blocks == (Quote((para("a"), Rule(), para("b"))),)


def test_image_sources_in_order_without_repeats() -> None:
    md = "![a](1.png) ![b](2.png)\n\n- ![c](1.png)\n\n| ![d](3.png) |\n|---|\n\n![e]()"
    assert image_sources(md) == ["1.png", "2.png", "3.png"]
