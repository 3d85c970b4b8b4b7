"""The HTTP API keeps to its own OpenAPI document: schemathesis against a real uvicorn.

The schemathesis command (its pytest loader does not work with pytest 9) reads
``/schema/openapi.json`` from a server on 127.0.0.1, sends bounded examples to every
operation (valid and invalid bodies, with and without the key) and runs all its checks: no
5xx, every status and body as documented, valid bodies accepted, invalid ones refused.
Schemathesis warnings (such as "most valid-looking bodies were refused") fail the run too.
Generating costs 1 credit, so charging and refunds run under the same traffic.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema_rs
import msgspec
import pytest
from cryptography.fernet import Fernet
from litestar import Litestar
from litestar.testing import TestClient

from inkcard.app.server.factory import create_app
from inkcard.app.settings import Settings
from tests.app.apphelpers import free_port, running_server

CREDITS = 10_000  # more than the run can spend (format x quality widen coverage): always 200
EXAMPLES = 25  # per operation and phase: bounds the renders (about 20 in a run)
CONFIG = """
[warnings]
fail-on = true

# Links are inferred from the document only: inferring them from answers (Location headers,
# URLs in bodies) is where schemathesis 4.32.5 crashes on a string such as "http://[x" in an
# answer ("Invalid IPv6 URL"); the service answers no Location and links nothing by URL.
[phases.stateful.inference]
algorithms = ["dependency-analysis"]

[checks.positive_data_acceptance]
expected-statuses = ["2xx", "401"]

[checks.negative_data_rejection]
# 413 is how a Markdown over its maxLength is refused.
expected-statuses = ["400", "401", "405", "413"]

# A preview name outside the listed ones names no resource: 404, as for any unknown path.
[[operations]]
include-path = "/api/previews/{name}"
checks.negative_data_rejection.expected-statuses = ["404"]

# A kit name is mostly no kit of the key: 404, as for any unknown resource.
[[operations]]
include-path = "/api/brands/{name}"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "404"]
# No platform headers are sent (they would reach the real platform): an image post is then
# 400 missing_platform_credentials, after its body was checked (so mostly 400: no warning).
[[operations]]
include-path = "/api/platform/newspic-draft"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401"]
warnings = false

# Likewise the draft box and publishing need the account: 400 missing_platform_credentials.
[[operations]]
include-path-regex = "^/api/platform/(drafts|publish)"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401"]
warnings = false

# An account's name is a path segment the document types only as a string: a name we do not
# take is 400 invalid_account, and forgetting one no PUT stored is 404 account_not_found.
[[operations]]
include-path = "/api/platform/accounts/{name}"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "404"]
checks.negative_data_rejection.expected-statuses = ["400", "401", "404", "405"]
warnings = false
"""
# A body can keep to the schema and still ask for a card over the pixel limit (a tall card
# at scale 4, as WebP): 400 card_too_large, a limit of the product no JSON Schema spells. So
# can a Markdown whose text is refused for what it says: MDX naming a component we do not know
# (400 invalid_mdx), a front matter that is not YAML (400 invalid_front_matter).
# And an image the generated body names (a cover or an image URL) is fetched from outside, which
# tests never reach: 502 image_upload_failed, the documented answer of a draft (or its dry run)
# whose image cannot be had. Those answers alone are let through the "valid data accepted" and
# "no server error" checks; every other refusal or 5xx of a valid body still fails the run.
HOOKS = """
import json
import schemathesis

# A brand kit's files are checked by reading them (a generated string is not a font or an
# image), a generated kit name is mostly no kit of the key, and one name in the path that
# breaks the name's rule is refused: what a JSON Schema cannot spell.
BRAND_LABELS = ("invalid_font", "invalid_image", "invalid_watermark", "invalid_brand")


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if response.status_code not in (400, 502):
        return True
    try:
        label = json.loads(response.content).get("error")
    except ValueError:
        return True
    if response.status_code == 502:
        return label != "image_upload_failed"
    return label not in BRAND_LABELS + ("card_too_large", "invalid_mdx", "invalid_front_matter")
"""


def run_schemathesis(base: str, key: str, workdir: Path) -> subprocess.CompletedProcess[str]:
    config = workdir / "schemathesis.toml"
    config.write_text(CONFIG, "utf-8")
    hooks = workdir / "hooks.py"
    hooks.write_text(HOOKS, "utf-8")
    command = [
        *(sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run"),
        f"{base}/schema/openapi.json",
        *("--header", f"x-api-key: {key}"),
        *("--checks", "all"),
        *("--max-examples", str(EXAMPLES)),
        *("--workers", "1"),
        *("--generation-database", "none"),
        *("--request-timeout", "120"),
        "--no-color",
    ]
    # The timeout only keeps a hung run from hanging the suite.
    env = {**os.environ, "SCHEMATHESIS_HOOKS": str(hooks)}
    return subprocess.run(
        command, cwd=workdir, env=env, capture_output=True, text=True, timeout=600, check=False
    )


def test_every_operation_keeps_to_the_openapi_document(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    port = free_port()
    settings = make_settings(
        port=port, generate_cost=1, log_level="WARNING", account_key=Fernet.generate_key().decode()
    )
    app = create_app(settings)
    with running_server(app, port) as base:
        key, info = app.state.services.credits.create_key("contract", CREDITS)
        result = run_schemathesis(base, key, tmp_path)
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "Operations:       21 selected / 21 total" in report, report
    assert "Tested: 21" in report, report
    assert key not in report, "the key must not reach the report"
    assert app.state.services.cards.render_count >= 1, (
        "no valid, authenticated body reached the engine"
    )
    spent = CREDITS - app.state.services.credits.key_info(info.prefix).balance
    assert 1 <= spent <= CREDITS


# Bodies at the edges the schemathesis run once found: the document and the service must agree
# on each (accepted: 200; refused: the status given).
EDGES: list[tuple[Any, int]] = [
    ({"scale": None}, 200),  # null is the default, for every field
    ({"scale": 2.0}, 200),  # JSON Schema counts 2.0 as an integer
    (None, 400),  # a null body is not an object: invalid_json (an empty body is all defaults)
    ({"themeMode": "dark-mode"}, 200),
    ({"": [], "themeMode": "dark-mode"}, 400),  # a field it does not have: unknown_field
    ({"markdown": "x", "split_mode": "hrSplit"}, 400),
    ({"markdown": " \n"}, 400),  # nothing to draw: empty_markdown
    ({"themeMode": "sepia"}, 400),  # not a mode of apple-notes
    ({"theme": "nope"}, 400),
    ({"scale": 2.5}, 400),
    ({"width": 99}, 400),
    ({"markdown": "x" * 100_001}, 413),
]


@pytest.mark.parametrize(("body", "status"), EDGES)
def test_the_document_and_the_service_agree_on_edge_bodies(
    client: TestClient[Litestar], key: str, body: Any, status: int
) -> None:
    doc = client.get("/schema/openapi.json").json()
    operation = doc["paths"]["/api/generate"]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    documented = jsonschema_rs.Draft202012Validator(schema).is_valid(body)
    assert documented == (status == 200)
    response = client.post(
        "/api/generate",
        content=msgspec.json.encode(body),
        headers={"x-api-key": key, "content-type": "application/json"},
    )
    assert response.status_code == status, response.text
    assert str(status) in operation["responses"]
