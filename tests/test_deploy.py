"""The deployment files in deploy/ name only settings the service has, with values it accepts."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import yaml

from inkcard.app.settings import Settings, load_settings

REPO = Path(__file__).resolve().parents[1]
DEPLOY = REPO / "deploy"


def _compose() -> dict[str, object]:
    loaded = yaml.safe_load((DEPLOY / "compose.yaml").read_text("utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def _filled(value: str) -> str:
    """A compose value as compose fills it when its variables are unset: ``${VAR:-default}``
    is the default, every other ``${VAR...}`` reference (required ones) a sample value."""
    return re.sub(r"\$\{[^}]+\}", _sample, value)


def _sample(reference: re.Match[str]) -> str:
    _, default, value = reference.group()[2:-1].partition(":-")
    return value if default else "sample"


def test_every_inkcard_variable_of_the_replicas_is_a_setting_it_accepts() -> None:
    inkcard = _compose()["services"]["inkcard"]  # type: ignore[index]  # parsed YAML
    env = {name: _filled(str(value)) for name, value in inkcard["environment"].items()}
    fields = {f.name for f in msgspec.structs.fields(Settings)}
    ours = [name for name in env if name.startswith("INKCARD_")]
    assert ours, "the replicas set no INKCARD_ variables"
    for name in ours:
        assert name.removeprefix("INKCARD_").lower() in fields, name
    settings = load_settings(env)
    assert settings.storage == "gcs" and settings.bootstrap_key is False
    assert settings.database.startswith("postgresql://")


def test_the_balancer_limits_bodies_and_waits_as_the_service_does() -> None:
    conf = (DEPLOY / "nginx.conf").read_text("utf-8")
    defaults = load_settings({})
    body = re.search(r"client_max_body_size (\d+)m;", conf)
    assert body and int(body.group(1)) * 1024 * 1024 == defaults.max_body_bytes
    read = re.search(r"proxy_read_timeout (\d+)s;", conf)
    assert read and int(read.group(1)) > defaults.timeout
    assert "proxy_next_upstream off;" in conf  # a charged request is never sent twice


def test_compose_builds_a_fully_qualified_image_both_engines_find() -> None:
    inkcard = _compose()["services"]["inkcard"]  # type: ignore[index]  # parsed YAML
    # Docker reads an unqualified name as Docker Hub's and Podman as localhost/: only a name
    # with its registry part written out means the same image to both.
    registry = str(inkcard["image"]).split("/")[0]
    assert registry == "localhost" or "." in registry, inkcard["image"]
    build = inkcard["build"]  # neither engine has to find a prebuilt image
    assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == REPO / "Containerfile"


def test_the_balancer_names_no_resolver_a_static_upstream_would_ignore() -> None:
    conf = (DEPLOY / "nginx.conf").read_text("utf-8")
    directives = [line.split("#")[0].strip() for line in conf.splitlines()]
    resolves_per_request = any(line.startswith("proxy_pass") and "$" in line for line in directives)
    if not resolves_per_request:
        assert not [line for line in directives if line.startswith("resolver ")]


def test_the_image_runs_as_an_unprivileged_user() -> None:
    final_stage = re.split(r"(?im)^FROM ", (REPO / "Containerfile").read_text("utf-8"))[-1]
    users = re.findall(r"(?im)^USER\s+(\S+)", final_stage)
    assert users, "the final stage sets no USER: the service would run as root"
    user = users[-1].split(":")[0]
    assert user.isdigit() and int(user) >= 1000, user  # numeric: runAsNonRoot can check it
