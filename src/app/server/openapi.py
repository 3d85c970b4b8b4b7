"""The service's models → the OpenAPI entries of its operations (request schemas, errors, key).

The generate and convert-and-draft bodies are decoded by our own parsers (``app.schema``), so
their request schemas are derived from the msgspec models by ``app.schema.request_schema``
(every field may be null, the default); the generate schema also names the app's themes and
each theme's modes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import (
    Components,
    Example,
    OpenAPIMediaType,
    Operation,
    RequestBody,
    SecurityScheme,
)

from inkcard import themes
from inkcard.app.schema import (
    ARTICLE_REQUIRED,
    ARTICLE_THEMES,
    DEFAULT_THEME,
    ArticleRequest,
    GenerateRequest,
    request_schema,
)
from inkcard.app.schema.errors import ErrorCase, by_status, described, examples


def generate_request_schema(catalogue: themes.Catalogue) -> dict[str, Any]:
    """JSON Schema of the generate body as ``parse_generate`` and ``prepare`` decide it.

    Every field may be null (the default); ``theme`` is one of the catalogue's
    themes and ``themeMode`` one of that theme's modes (anything for a theme without modes).
    """
    return themed_request_schema(GenerateRequest, catalogue)


def themed_request_schema(struct: type, catalogue: themes.Catalogue) -> dict[str, Any]:
    """``request_schema`` of a body with generate's ``theme`` and ``themeMode``: each theme
    of ``catalogue`` with the modes it accepts."""
    schema = request_schema(struct, catalogue.accepted_names())
    schema["anyOf"] = [_theme_choice(catalogue, name) for name in catalogue.names()]
    return schema


def _theme_choice(catalogue: themes.Catalogue, name: str) -> dict[str, Any]:
    """One theme (by its ID or label) and the modes it accepts; the default theme also when
    ``theme`` is absent."""
    names = catalogue.aliases(name)
    if name == DEFAULT_THEME:
        choice: dict[str, Any] = {"properties": {"theme": {"enum": [*names, None]}}}
    else:
        choice = {"properties": {"theme": {"enum": names}}, "required": ["theme"]}
    modes = catalogue.modes(name)
    if modes:
        choice["properties"]["themeMode"] = {"enum": [*modes, None]}
    return choice


@dataclass
class JsonBodyOperation(Operation):
    """An OpenAPI entry whose body our own parser decodes, so its schema is given here;
    a subclass sets ``request_schema``."""

    request_schema: ClassVar[dict[str, Any]] = {}

    def __post_init__(self) -> None:
        required = self.request_schema.get("required", [])
        self.request_body = RequestBody(
            # Litestar writes a plain dict schema as given; it is not a litestar Schema object.
            content={"application/json": OpenAPIMediaType(schema=self.request_schema)},  # type: ignore[arg-type]
            description=body_description(required),
            required=bool(required),
        )


def body_description(required: list[str]) -> str:
    """What the request body's schema says, in words."""
    fields = "Every field is optional"
    if required:
        fields = " and ".join(f"`{name}`" for name in required) + " required, the rest optional"
    return (
        f"{fields}; a field not listed is 400 `unknown_field`; null means the default;"
        " `markdown` empty, only whitespace or only a front matter is 400 `empty_markdown`."
    )


@dataclass
class GenerateOperation(JsonBodyOperation):
    """OpenAPI entry of /api/generate: the body is decoded by ``parse_generate``.

    ``request_schema`` depends on the app's themes, so each app gets a subclass that sets it.
    """


API_KEY_SCHEME = "apiKey"


def openapi_components() -> Components:
    """What the OpenAPI document shares between operations besides the schemas: the key."""
    return Components(
        security_schemes={
            API_KEY_SCHEME: SecurityScheme(
                type="apiKey",
                name="x-api-key",
                security_scheme_in="header",
                description="An API key (``inkcard keys create``).",
            )
        }
    )


def error_body(label: str, message: str) -> dict[str, Any]:
    """The error body most operations answer (``ErrorBody``)."""
    return {"error": label, "message": message}


def article_error_body(label: str, message: str) -> dict[str, Any]:
    """The error body of the publishing calls (``ArticleErrorBody``)."""
    return {"success": False, "error": label, "message": message, "cost": 0}


def error_responses(
    body: type,
    cases: tuple[ErrorCase, ...],
    example: Callable[[str, str], dict[str, Any]] = error_body,
) -> dict[int, ResponseSpec]:
    """The OpenAPI responses of an operation's error ``cases`` (``app.schema.errors``): each
    status with the body ``body``, its labels and when each happens, and an example body of
    each label."""
    return {
        status: ResponseSpec(
            data_container=body,
            description=described(found),
            generate_examples=False,
            examples=[
                Example(summary=label, value=value)
                for label, value in examples(found, example).items()
            ],
        )
        for status, found in by_status(cases).items()
    }


def article_request_schema() -> dict[str, Any]:
    """JSON Schema of the body as ``parse_article`` decides it (null means the default; the
    Markdown is required: an article of nothing is empty_markdown)."""
    return request_schema(ArticleRequest, ARTICLE_THEMES, ARTICLE_REQUIRED)


@dataclass
class ArticleOperation(JsonBodyOperation):
    """OpenAPI entry of convert-and-draft: the body is decoded by ``parse_article``."""

    request_schema: ClassVar[dict[str, Any]] = article_request_schema()


@dataclass
class NewspicOperation(JsonBodyOperation):
    """OpenAPI entry of newspic-draft: the body is decoded by ``parse_newspic``; its card
    themes are the app's, so each app gets a subclass that sets ``request_schema``."""
