"""Property: whatever JSON arrives, /api/generate answers 200, 400 or 413 with a documented body."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar import Litestar
from litestar.testing import TestClient

FIELDS = [
    "markdown",
    "theme",
    "themeMode",
    "width",
    "height",
    "splitMode",
    "mdxMode",
    "overHiddenMode",
    "scale",
]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=5,
)
likely = {
    "markdown": st.text(max_size=200),
    "theme": st.sampled_from(["apple-notes", "nope", ""]),
    "themeMode": st.sampled_from(["light-mode", "dark-mode", "x"]),
    "width": st.integers(50, 1700),
    "height": st.integers(50, 4100),
    "splitMode": st.sampled_from(["noSplit", "autoSplit", "hrSplit", "split"]),
    "mdxMode": st.booleans(),
    "overHiddenMode": st.booleans(),
    "scale": st.integers(0, 5),
}
bodies = (
    st.fixed_dictionaries({}, optional={f: likely[f] | json_values for f in FIELDS}) | json_values
)
LABELS = {
    "invalid_json",
    "unknown_field",  # a generated object's own keys
    "empty_markdown",
    "invalid_front_matter",
    "invalid_markdown",
    "invalid_theme",
    "invalid_theme_mode",
    "invalid_width",
    "invalid_height",
    "invalid_split_mode",
    "invalid_mdx_mode",
    "invalid_mdx",
    "invalid_over_hidden_mode",
    "invalid_scale",
    "too_many_pages",
    "card_too_large",
    "payload_too_large",
}


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=bodies)
def test_any_json_gets_a_documented_answer(
    client: TestClient[Litestar], key: str, body: Any
) -> None:
    response = client.post("/api/generate", json=body, headers={"x-api-key": key})
    assert response.status_code in (200, 400, 413), response.text
    payload = response.json()
    if response.status_code == 200:
        assert len(payload["images"]) >= 1
    else:
        assert set(payload) == {"error", "message"} and payload["error"] in LABELS
