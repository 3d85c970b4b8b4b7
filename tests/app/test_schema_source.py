"""One schema source: every request field is described once, on its msgspec model, and the
OpenAPI document, the MCP tool schemas and the README's field tables all say the same."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard.app.mcp.tools import InkcardTools
from inkcard.app.schema import (
    MAX_MARKDOWN_CHARS,
    ArticleRequest,
    ArticleToolArguments,
    CoverRequest,
    GenerateRequest,
    GenerateToolArguments,
    NewspicRequest,
    NewspicToolArguments,
    field_descriptions,
)
from inkcard.app.schema import readme as schema_docs
from tests.app.conftest import shared_app

Client = TestClient[Litestar]
ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
OPERATIONS = {"/api/generate": GenerateRequest, "/api/platform/convert-and-draft": ArticleRequest}
MDX_AS_MARKDOWN = re.compile(r"read as markdown|for compatibility", re.IGNORECASE)


def request_properties(doc: dict[str, Any], path: str) -> dict[str, Any]:
    body = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    properties: dict[str, Any] = body["properties"]
    return properties


def descriptions_of(properties: dict[str, Any]) -> dict[str, str]:
    return {name: field.get("description", "") for name, field in properties.items()}


@pytest.mark.parametrize(
    "struct", [GenerateRequest, ArticleRequest, GenerateToolArguments, ArticleToolArguments]
)
def test_every_request_field_has_a_description(struct: type) -> None:
    names = {field.name for field in msgspec.structs.fields(struct)}
    assert set(field_descriptions(struct)) == names


def test_the_tool_arguments_are_the_request_fields_and_their_own() -> None:
    generate, article = (
        field_descriptions(GenerateToolArguments),
        field_descriptions(ArticleToolArguments),
    )
    assert generate.items() >= field_descriptions(GenerateRequest).items()
    assert set(generate) - set(field_descriptions(GenerateRequest)) == {"includeImages"}
    assert article.items() >= field_descriptions(ArticleRequest).items()
    assert set(article) - set(field_descriptions(ArticleRequest)) == {
        "platformAppid",
        "platformAppSecret",
        "account",
        "idempotencyKey",
    }


@shared_app
def test_the_openapi_request_schemas_carry_the_model_descriptions(client: Client) -> None:
    doc = client.get("/schema/openapi.json").json()
    for path, struct in OPERATIONS.items():
        properties = request_properties(doc, path)
        assert descriptions_of(properties) == field_descriptions(struct), path
        markdown = properties["markdown"]  # the article's is required: a string, never null
        text = markdown["anyOf"][0] if "anyOf" in markdown else markdown
        assert text["maxLength"] == MAX_MARKDOWN_CHARS


@shared_app
def test_the_mcp_tool_schemas_carry_the_model_descriptions(client: Client) -> None:
    tools = {tool.name: tool for tool in InkcardTools(client.app.state.services).tools()}
    for name, struct in (
        ("generate_cards", GenerateToolArguments),
        ("convert_article", ArticleToolArguments),
    ):
        properties = tools[name].input_schema["properties"]
        assert descriptions_of(properties) == field_descriptions(struct), name
        assert properties["markdown"]["maxLength"] == MAX_MARKDOWN_CHARS
        for field in properties.values():  # an agent is offered plain types, never null
            # (a choice of plain types, aigc's true or {producer, id}, is no null)
            assert {"type": "null"} not in field.get("anyOf", []), name
            assert field.get("default", "") is not None, name
    generate = tools["generate_cards"]
    # the split modes the tool's own description explains are the model's words
    assert field_descriptions(GenerateRequest)["splitMode"] in (generate.description or "")


@shared_app
def test_no_description_says_mdx_is_read_as_markdown(client: Client) -> None:
    mdx = field_descriptions(GenerateRequest)["mdxMode"]
    assert "components" in mdx and "invalid_mdx" in mdx
    tools = InkcardTools(client.app.state.services).tools()
    said = [
        json.dumps(client.get("/schema/openapi.json").json()),
        *(json.dumps(tool.model_dump(mode="json")) for tool in tools),
        *(
            text
            for struct in schema_docs.MODELS.values()
            for text in field_descriptions(struct).values()
        ),
    ]
    assert not [text for text in said if MDX_AS_MARKDOWN.search(text)]


@shared_app
def test_the_markdown_limit_is_written_once(client: Client) -> None:
    limit = re.compile(r"100[_,]?000(?!\d)")
    hits = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in sorted((ROOT / "src").rglob("*"))
        if path.suffix in {".py", ".js", ".html"}
        for line in path.read_text("utf-8").splitlines()
        if limit.search(line)
    ]
    assert hits == ["src/app/schema/wire.py: MAX_MARKDOWN_CHARS = 100_000"]
    # the playground's counter gets it from the server with the page
    assert f'data-max="{MAX_MARKDOWN_CHARS}"' in client.get("/").text


def test_a_field_several_requests_share_is_described_once() -> None:
    generate, article, newspic, cover = (
        field_descriptions(struct)
        for struct in (GenerateRequest, ArticleToolArguments, NewspicToolArguments, CoverRequest)
    )
    for name in ("platformAppid", "platformAppSecret", "account", "idempotencyKey"):
        assert article[name] == newspic[name], name  # the account and the retry key
    for name in ("draftMediaId", "draftMissing", "dryRun"):
        assert name in article and name in newspic, name
    assert article["draftMediaId"] == newspic["draftMediaId"]
    assert article["draftMissing"] == newspic["draftMissing"]
    for name in ("theme", "themeMode", "width", "height"):  # the card fields
        assert generate[name] == newspic[name], name
    # a cover's defaults are its own (WeChat's 900 x 383, no app chrome), said where it differs
    assert generate["themeMode"] == cover["themeMode"]
    assert "chrome" in cover["theme"] and "900 x 383" in cover["width"]
    assert field_descriptions(NewspicRequest).items() <= newspic.items()


# ---- the README's field tables -----------------------------------------------------------


def test_the_readme_field_tables_are_the_models() -> None:
    text = README.read_text("utf-8")
    assert {"GenerateRequest", "ArticleRequest"} <= set(schema_docs.tables(text))
    assert schema_docs.render(text) == text, (
        "a README field table differs from its model: run `python -m inkcard.app.schema.readme`"
    )


def test_a_changed_model_description_fails_the_readme_check() -> None:
    class Changed(GenerateRequest, frozen=True, kw_only=True):
        width: Annotated[float, msgspec.Meta(ge=100, le=1600, description="Another width.")] = 440

    text = README.read_text("utf-8")
    stale = schema_docs.render(text, {**schema_docs.MODELS, "GenerateRequest": Changed})
    assert stale != text
    assert "| `width` | number | 440 | Another width. |" in stale


def test_a_changed_readme_table_fails_the_check(tmp_path: Path) -> None:
    text = README.read_text("utf-8")
    width = field_descriptions(GenerateRequest)["width"]
    edited = text.replace(width, "Card width, any number you like.", 1)
    assert edited != text
    assert schema_docs.render(edited) != edited
    readme = tmp_path / "README.md"
    readme.write_text(edited, "utf-8")
    assert schema_docs.main([str(readme), "--check"]) == 1
    assert readme.read_text("utf-8") == edited  # --check writes nothing
    assert schema_docs.main([str(readme)]) == 0
    assert readme.read_text("utf-8") == text
    assert schema_docs.main([str(readme), "--check"]) == 0


def test_cells_keep_markdown_markup_literal() -> None:
    table = schema_docs.field_table(GenerateRequest)
    split = next(line for line in table.splitlines() if line.startswith("| `splitMode`"))
    assert r"\*\*\* or \_\_\_" in split  # thematic breaks, not emphasis
    assert split.count(" | ") == 3  # four cells: no | of the description splits one
