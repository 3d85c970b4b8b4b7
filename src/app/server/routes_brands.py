"""``/api/brands``: a key's brand kits, saved, read, listed and deleted; thin handlers.

A kit is checked whole (``app.brands.kit``) in a thread before it is stored (reading a font
with fontTools takes tens of milliseconds); a kit that fails is a 400 and nothing is
stored. Saving a kit costs nothing; the cards drawn with it cost what they always do.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, ClassVar

import msgspec
from litestar import Request, Response, delete, get, put, route
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath

from inkcard.app.brands.kit import MAX_KIT_BODY_BYTES, checked_kit
from inkcard.app.brands.remote import with_fetched
from inkcard.app.brands.store import StoredBrand
from inkcard.app.errors import NotFound
from inkcard.app.schema import ErrorBody, errors
from inkcard.app.schema.brand import (
    BrandKitInfo,
    BrandKitRequest,
    BrandList,
    check_brand_name,
    parse_brand_kit,
)
from inkcard.app.server.openapi import API_KEY_SCHEME, JsonBodyOperation, error_responses
from inkcard.app.server.routes_cards import authenticate
from inkcard.app.services import Services

PATH = "/api/brands/{name:str}"


async def save_brand(
    request: Request[Any, Any, Any], name: FromPath[str], services: NamedDependency[Services]
) -> Response[BrandKitInfo]:
    """Save the brand kit ``name`` of this key (replacing one of that name): every font and
    image checked first; 201 when it is new, 200 when it replaced one."""
    key = await authenticate(request, services)
    check_brand_name(name)
    raw = await request.body()
    body = await asyncio.to_thread(parse_brand_kit, raw)
    body = await with_fetched(body, lambda url: services.fetcher.fetch(url, key=key.id))

    def check() -> StoredBrand:
        kit, info = checked_kit(name, body)
        return StoredBrand(kit, info)

    brand = await asyncio.to_thread(check)
    new = await asyncio.to_thread(services.brands.put, key.id, brand)
    return Response(brand.info, status_code=201 if new else 200)


async def read_brand(
    request: Request[Any, Any, Any], name: FromPath[str], services: NamedDependency[Services]
) -> BrandKitInfo:
    """The brand kit ``name`` of this key (its files summarised: sizes and digests)."""
    key = await authenticate(request, services)
    check_brand_name(name)
    found = await asyncio.to_thread(services.brands.get, key.id, name)
    if found is None:
        raise NotFound(f"no brand kit called {name[:40]!r}")
    return found.info


async def list_brands(
    request: Request[Any, Any, Any], services: NamedDependency[Services]
) -> BrandList:
    """Every brand kit of this key, by name."""
    key = await authenticate(request, services)
    return BrandList(await asyncio.to_thread(services.brands.infos, key.id))


async def delete_brand(
    request: Request[Any, Any, Any], name: FromPath[str], services: NamedDependency[Services]
) -> None:
    """Delete the brand kit ``name`` of this key (404 when it has none)."""
    key = await authenticate(request, services)
    check_brand_name(name)
    await asyncio.to_thread(services.brands.delete, key.id, name)


ALLOWED = "DELETE, GET, OPTIONS, PUT"


async def brand_options() -> Response[None]:
    """Which methods ``/api/brands/{name}`` takes: all three (Litestar's own answer names
    only those of the handler registered first)."""
    return Response(None, status_code=204, headers={"Allow": ALLOWED})


def kit_schema() -> dict[str, Any]:
    """The body's JSON Schema with its nested objects written in place (the document has no
    components of them); each top-level field may be null (the default)."""
    (_, parts) = msgspec.json.schema_components([BrandKitRequest], ref_template="{name}")

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            if set(node) == {"$ref"}:
                return inline(parts[node["$ref"]])
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(value) for value in node]
        return node

    schema: dict[str, Any] = inline(parts["BrandKitRequest"])
    schema["properties"] = {name: _nullable(field) for name, field in schema["properties"].items()}
    schema["type"] = "object"
    schema["additionalProperties"] = False
    return schema


def _nullable(field: dict[str, Any]) -> dict[str, Any]:
    """``field`` or null (the default), its description on the whole."""
    options = field.pop("anyOf", None) or [field]
    said = field.pop("description", None) or next(
        (o.get("description") for o in options if o.get("description")), None
    )
    if not any(o.get("type") == "null" for o in options):
        options = [*options, {"type": "null"}]
    return {"anyOf": options, **({"description": said} if said else {})}


@dataclass
class BrandKitOperation(JsonBodyOperation):
    """OpenAPI entry of ``PUT /api/brands/{name}``: the body is decoded by ``parse_brand_kit``."""

    request_schema: ClassVar[dict[str, Any]] = kit_schema()


def brand_routes(max_body_bytes: int) -> list[HTTPRouteHandler]:
    """The four brand-kit routes; a kit's body may be larger than other requests'."""
    security: list[dict[str, list[str]]] = [{API_KEY_SCHEME: []}]
    return [  # OPTIONS first: else Litestar makes one that names the first handler's only
        route(PATH, http_method="OPTIONS", include_in_schema=False)(brand_options),
        put(
            PATH,
            summary="Save a brand kit",
            description="Fonts, logo, byline, footer or footer image, watermark and page-number"
            " style, saved under `name` for this key and named by `brand` on generate and"
            " cover (docs/brand-kits.md). Free; 201 when new, 200 when it replaced one.",
            security=security,
            operation_class=BrandKitOperation,
            request_max_body_size=max(max_body_bytes, MAX_KIT_BODY_BYTES),
            responses={
                201: ResponseSpec(BrandKitInfo, description="The kit is new: its summary."),
                **error_responses(ErrorBody, errors.BRAND_SAVE),
            },
        )(save_brand),
        get(
            PATH,
            summary="Read a brand kit",
            security=security,
            responses=error_responses(ErrorBody, errors.BRAND_READ),
        )(read_brand),
        get(
            "/api/brands",
            summary="List brand kits",
            security=security,
            responses=error_responses(ErrorBody, errors.BRAND_LIST),
        )(list_brands),
        delete(
            PATH,
            summary="Delete a brand kit",
            security=security,
            status_code=204,
            responses=error_responses(ErrorBody, errors.BRAND_READ),
        )(delete_brand),
    ]
