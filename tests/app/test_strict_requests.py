"""A request that says something we do not read is a 400, and so is one with nothing to do: the
parsers (generate, cover, convert-and-draft, newspic-draft), the front matter, the schemas.

The bodies through a real `inkcard serve`, the CLI and the MCP stdio server are in
test_strict_serve.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import jsonschema_rs
import pytest

from inkcard.app import frontmatter
from inkcard.app.errors import ApiError, UnknownField, nearest_name
from inkcard.app.schema import (
    ArticleRequest,
    GenerateRequest,
    parse_article,
    parse_cover,
    parse_generate,
    parse_newspic,
    request_schema,
    tool_schema,
)
from inkcard.app.schema.wire import NOT_BLANK

Parser = Callable[[bytes], Any]
MARKDOWN_PARSERS = {
    "generate": parse_generate,
    "article": parse_article,
    "newspic": parse_newspic,
}


def refusal(parse: Parser, body: dict[str, Any]) -> ApiError:
    with pytest.raises(ApiError) as caught:
        parse(json.dumps(body).encode())
    return caught.value


# ---- unknown fields ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parse", "body", "name", "meant"),
    [
        (parse_generate, {"markdown": "# x"}, "Theme_Mode", "themeMode"),
        (parse_newspic, {"markdown": "# x"}, "Theme_Mode", "themeMode"),
        (parse_cover, {"text": "t"}, "Theme_Mode", "themeMode"),
        (parse_article, {"markdown": "# x"}, "primary_color", "primaryColor"),
    ],
)
def test_an_unknown_field_is_refused_naming_the_one_meant(
    parse: Parser, body: dict[str, Any], name: str, meant: str
) -> None:
    error = refusal(parse, {**body, name: "x"})
    assert (error.status, error.label) == (400, "unknown_field")
    assert error.message == f"unknown field `{name}`: did you mean `{meant}`?"


@pytest.mark.parametrize("parse", MARKDOWN_PARSERS.values())
def test_content_is_answered_with_markdown(parse: Parser) -> None:
    error = refusal(parse, {"content": "# Hello"})
    assert error.label == "unknown_field"
    assert error.message == "unknown field `content`: did you mean `markdown`?"


def test_a_cover_names_its_text() -> None:
    said = refusal(parse_cover, {"markdown": "# A title"}).message
    assert said == "unknown field `markdown`: did you mean `text`?"


def test_split_mode_names_split_mode_and_a_misspelling_its_field() -> None:
    said = refusal(parse_generate, {"markdown": "x", "split_mode": "autoSplit"}).message
    assert said == "unknown field `split_mode`: did you mean `splitMode`?"
    said = refusal(parse_generate, {"markdown": "x", "widht": 500}).message
    assert said == "unknown field `widht`: did you mean `width`?"


def test_without_a_close_name_every_field_is_listed() -> None:
    error = refusal(parse_generate, {"markdown": "x", "zzzzzz": 1})
    assert error.message.startswith("unknown field `zzzzzz`; the fields read here are `markdown`")
    assert "`quality`" in error.message


def test_the_first_unknown_field_in_the_body_is_named() -> None:
    body = b'{"markdown": "x", "bbb": 1, "aaa": 2}'
    with pytest.raises(UnknownField, match="`bbb`"):
        parse_generate(body)


def test_an_unknown_field_is_refused_even_when_null() -> None:
    assert refusal(parse_generate, {"markdown": "x", "colour": None}).label == "unknown_field"
    assert parse_generate(b'{"markdown": null, "theme": null}').markdown == "# Hello, Inkcard"


def test_a_long_or_odd_name_is_shown_short_and_printable() -> None:
    error = refusal(parse_generate, {"a\x00" + "b" * 5000: 1})
    assert error.message.startswith("unknown field `a\\u0000bbbb")
    assert "…`" in error.message and len(error.message) < 400


def test_the_publishing_bodies_say_where_the_account_goes() -> None:
    for parse in (parse_article, parse_newspic):
        said = refusal(parse, {"markdown": "x", "platformAppSecret": "s3cret"}).message
        assert "Platform-App-Secret header" in said and "s3cret" not in said
        said = refusal(parse, {"markdown": "x", "idempotencyKey": "k"}).message
        assert "Idempotency-Key header" in said


def test_an_image_post_has_no_format_or_quality() -> None:
    assert refusal(parse_newspic, {"markdown": "x", "format": "jpeg"}).label == "unknown_field"
    assert refusal(parse_newspic, {"markdown": "x", "quality": 80}).label == "unknown_field"


def test_nearest_name_folds_case_and_separators_first() -> None:
    names = ["markdown", "splitMode", "themeMode", "theme"]
    assert nearest_name("SPLIT-MODE", names) == "splitMode"
    assert nearest_name("them", names) == "theme"
    assert nearest_name("nothing_like_it", names) is None
    assert nearest_name("x" * 1000, names) is None


# ---- empty Markdown ---------------------------------------------------------------------------


EMPTY = [
    "",
    " ",
    "\n\n\t  \r\n",
    "\u3000\u2003",  # ideographic and em spaces
    "---\ntitle: Only this\n---\n",
    "---\ntitle: x\n---\n  \n",
]


@pytest.mark.parametrize("markdown", EMPTY)
@pytest.mark.parametrize("name", MARKDOWN_PARSERS)
def test_markdown_with_nothing_in_it_is_empty_markdown(name: str, markdown: str) -> None:
    error = refusal(MARKDOWN_PARSERS[name], {"markdown": markdown})
    assert (error.status, error.label) == (400, "empty_markdown")
    doing = "convert" if name == "article" else "draw"
    assert error.message.endswith(f"there is nothing to {doing}")
    if "---" in markdown:
        assert error.message.startswith("markdown holds only its front matter")


def test_without_markdown_cards_draw_the_sample_and_an_article_is_refused() -> None:
    assert parse_generate(b"{}").markdown == "# Hello, Inkcard"
    assert parse_newspic(b"{}").markdown == "# Hello, Inkcard"
    for body in ({}, {"markdown": None}, {"dryRun": True}):
        error = refusal(parse_article, body)
        assert (error.label, error.message) == (
            "empty_markdown",
            "markdown is missing: there is nothing to convert",
        )


def test_a_bad_field_is_named_before_the_markdown_is_found_missing() -> None:
    assert refusal(parse_article, {"theme": "brandZ"}).label == "invalid_theme"
    assert refusal(parse_generate, {"markdown": 5}).label == "invalid_markdown"


def test_a_cover_without_a_title_is_refused() -> None:
    for text in ("", "   \n"):
        assert refusal(parse_cover, {"text": text}).label == "invalid_text"


def test_markdown_with_a_character_is_kept() -> None:
    assert parse_generate(b'{"markdown": "."}').markdown == "."
    assert parse_article(b'{"markdown": "---\\ntitle: T\\n---\\nx"}').title == "T"


# ---- the front matter -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "meant"),
    [("tittle", "title"), ("them", "theme"), ("spilt", "split"), ("theme_mod", "themeMode")],
)
def test_a_near_miss_of_a_front_matter_key_is_unknown_field(key: str, meant: str) -> None:
    markdown = f"---\n{key}: x\n---\n# Body"
    error = refusal(parse_newspic, {"markdown": markdown})
    assert error.label == "unknown_field"
    assert error.message == f"unknown front matter key `{key}`: did you mean `{meant}`?"


def test_a_near_miss_counts_only_for_the_keys_the_operation_reads() -> None:
    markdown = "---\ntittle: x\nauther: y\n---\n# Body"
    parse_generate(json.dumps({"markdown": markdown}).encode())  # cards read no title
    error = refusal(parse_article, {"markdown": markdown})
    assert "`tittle`: did you mean `title`?" in error.message


def test_other_tools_keys_stay_ignored() -> None:
    markdown = (
        "---\ntitle: T\ndate: 2026-12-02\ntags: [a, b]\ncategories: [c]\ndraft: true\n"
        "slug: t\nauthors: [Ann, Bo]\nsubtitle: S\nlastmod: 2026-12-03\n---\n# Body"
    )
    article = parse_article(json.dumps({"markdown": markdown}).encode())
    assert (article.title, article.markdown) == ("T", "# Body")


def test_only_the_first_keys_not_ours_are_compared_with_ours() -> None:
    """Each comparison costs difflib's time: a block of a thousand keys is not a thousand."""
    others = "".join(f"key{i}: v\n" for i in range(frontmatter.NEAR_MISS_KEYS))
    late = f"---\n{others}tittle: x\n---\n# Body"
    assert parse_article(json.dumps({"markdown": late}).encode()).title == ""
    early = f"---\ntittle: x\n{others}---\n# Body"
    assert refusal(parse_article, {"markdown": early}).label == "unknown_field"


def test_a_front_matter_key_in_another_case_is_refused_not_read() -> None:
    error = refusal(parse_generate, {"markdown": "---\nTheme: pop-art\n---\n# x"})
    assert error.message == "unknown front matter key `Theme`: did you mean `theme`?"


@pytest.mark.parametrize(
    "first",
    ["- a", "-", "[a, b]", "!tag value", "&anchor value", "*alias", "|", ">-", "%YAML 1.2"],
)
def test_a_block_that_opens_as_yaml_but_not_a_key_is_invalid_front_matter(first: str) -> None:
    error = refusal(parse_generate, {"markdown": f"---\n{first}\n---\n# Body"})
    assert error.label == "invalid_front_matter"


def test_a_flow_mapping_is_read_as_the_mapping_it_is() -> None:
    found, body = frontmatter.split("---\n{theme: pop-art}\n---\n# Body")
    assert (found, body) == ({"theme": "pop-art"}, "# Body")


@pytest.mark.parametrize(
    "first",
    [
        "Plain prose between two rules.",
        "> a quote",
        "| a | b |",
        "![cover](https://example.com/a.png)",
        "*emphasis* then words",
        "*several emphasised words*",
        "[a link](https://example.com)",
        "&amp; an entity",
        "! an exclamation",
        "-- not a list",
        "%d percent",
    ],
)
def test_prose_between_two_rules_stays_markdown(first: str) -> None:
    markdown = f"---\n{first}\n---\n# Body"
    assert frontmatter.split(markdown) == ({}, markdown)


def test_a_list_front_matter_says_what_it_is() -> None:
    error = refusal(parse_article, {"markdown": "---\n- a\n- b\n---\n# Body"})
    assert error.label == "invalid_front_matter"
    assert error.message == (
        "the front matter must be a mapping of keys to values (title: …), not a list"
    )


# ---- the schemas say it too -------------------------------------------------------------------


def test_the_request_schemas_refuse_other_fields_and_empty_markdown() -> None:
    for struct, themes in ((GenerateRequest, ["apple-notes"]), (ArticleRequest, ["brandA"])):
        for schema in (request_schema(struct, themes), tool_schema(struct, themes)):
            assert schema["additionalProperties"] is False
            markdown = schema["properties"]["markdown"]
            text = markdown["anyOf"][0] if "anyOf" in markdown else markdown
            assert text["pattern"] == NOT_BLANK
    article = request_schema(ArticleRequest, ["brandA"], ("markdown",))
    assert article["required"] == ["markdown"]
    assert "null" not in json.dumps(article["properties"]["markdown"])


def test_the_documents_blank_is_the_parsers_blank() -> None:
    """A Markdown (or cover title) is empty when ``str.strip`` leaves nothing; the pattern
    the document shows says the same, read by Python's regex and by a JSON Schema one."""
    pattern = re.compile(NOT_BLANK)
    for code in [*range(0x3100), 0xFEFF]:  # every space Python or ECMA-262 knows
        char = chr(code)
        assert bool(pattern.search(char)) == bool(char.strip()), hex(code)
    document = jsonschema_rs.validator_for({"type": "string", "pattern": NOT_BLANK})
    for char in ("\x1d", "\x85", "\u3000", " \t"):
        assert not document.is_valid(char), repr(char)
    for char in ("\ufeff", "x", "\u200b"):
        assert document.is_valid(char), repr(char)
