"""The OpenAPI document lists, for every operation, each status it can answer with that
status's error labels, when each happens and an example body, from the one catalogue
(``app.schema.errors``) the README's error tables are written from; every field of every
body has a description."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard.app import errors as app_errors
from inkcard.app.articles.wechat import errors as wechat
from inkcard.app.schema import errors as catalogue
from inkcard.app.schema import readme as schema_docs
from inkcard.app.schema.readme import OPERATIONS

Client = TestClient[Litestar]
README = Path(__file__).parents[2] / "README.md"
PUBLISHING = ("/api/platform/convert-and-draft", "/api/platform/newspic-draft")
BODY_OPERATIONS = ("/api/generate", "/api/generate/cover", *PUBLISHING)
NEVER_ANSWERED = {
    "client_closed_request",  # the client has gone: nobody reads it
    "unavailable",  # MCP only, before the service has started
}


@pytest.fixture(scope="module")
def doc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    from inkcard.app.server.factory import create_app
    from inkcard.app.settings import load_settings

    folder = tmp_path_factory.mktemp("openapi")
    settings = load_settings(
        {}, database=str(folder / "db"), storage_dir=str(folder / "f"), render_processes=1
    )
    with TestClient(create_app(settings)) as client:
        yield client.get("/schema/openapi.json").json()


def _operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, methods in doc["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_every_error_status_lists_its_labels_with_an_example_of_each(
    doc: dict[str, Any],
) -> None:
    for path, method, operation in _operations(doc):
        for status, response in operation["responses"].items():
            if int(status) < 400:
                continue
            where = f"{method} {path} {status}"
            assert response["description"].startswith("- `"), where
            examples = response["content"]["application/json"]["examples"].values()
            labels = [example["summary"] for example in examples]
            assert labels, where
            for example in examples:
                body = example["value"]
                assert body["error"] == example["summary"] and body["message"], where
                assert f"`{body['error']}`" in response["description"], where
                if path in PUBLISHING:
                    assert body["success"] is False and body["cost"] == 0, where


@pytest.mark.parametrize("path", BODY_OPERATIONS)
def test_a_wrong_method_and_a_slow_body_are_listed(doc: dict[str, Any], path: str) -> None:
    responses = doc["paths"][path]["post"]["responses"]
    assert {"405", "408"} <= set(responses)
    examples = responses["408"]["content"]["application/json"]["examples"].values()
    assert "request_timeout" in [example["summary"] for example in examples]


def test_generate_lists_every_status_of_the_readme(doc: dict[str, Any]) -> None:
    listed = set(doc["paths"]["/api/generate"]["post"]["responses"])
    expected = {"200", "400", "401", "402", "404", "405", "408", "413", "429", "500", "502"}
    assert expected | {"503", "504"} == listed


def test_every_label_the_service_raises_is_in_the_catalogue() -> None:
    cases = (catalogue.READY, catalogue.PREVIEW, *OPERATIONS.values())
    listed = {label for group in cases for case in group for label in case.labels}
    raised = {
        error.label
        for module in (app_errors, wechat)
        for error in vars(module).values()
        if inspect.isclass(error) and issubclass(error, app_errors.ApiError)
    }
    assert raised - listed == NEVER_ANSWERED


def _undescribed(node: Any, where: str) -> Iterator[str]:
    if isinstance(node, dict):
        for name, field in node.get("properties", {}).items():
            if isinstance(field, dict) and "$ref" not in field and "description" not in field:
                yield f"{where}.{name}"
        for key, child in node.items():
            if key != "anyOf" or "properties" not in node:  # theme choices restate fields
                yield from _undescribed(child, f"{where}/{key}")
    elif isinstance(node, list):
        for number, child in enumerate(node):
            yield from _undescribed(child, f"{where}[{number}]")


def test_every_field_of_every_body_has_a_description(doc: dict[str, Any]) -> None:
    assert list(_undescribed(doc, "")) == []
    generate = doc["paths"]["/api/generate"]["post"]["requestBody"]["content"]
    fields = generate["application/json"]["schema"]["properties"]
    for name in ("splitMode", "mdxMode", "overHiddenMode"):
        assert len(fields[name]["description"]) > 40, name


def test_the_readme_error_tables_are_the_catalogue() -> None:
    text = README.read_text("utf-8")
    assert {"generate", "article"} <= set(schema_docs.tables(text))
    assert schema_docs.render(text) == text, "run `python -m inkcard.app.schema.readme`"
    assert len(text.splitlines()) <= 500
