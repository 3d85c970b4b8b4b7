"""deploy/alerts.yml: Prometheus alerting rules that name only metrics and labels the service
exposes (``Metrics.series``), each with a severity and a summary, covering what operations
needs alerting on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from inkcard.app.metrics import Metrics

RULES = Path(__file__).resolve().parents[2] / "deploy" / "alerts.yml"
# PromQL words the rules may use besides metric and label names.
PROMQL = {
    "sum", "rate", "increase", "histogram_quantile", "by", "without", "and", "or", "unless",
    "max", "min", "avg", "count", "clamp_min", "offset",
}  # fmt: skip
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_SELECTOR = re.compile(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{([^}]*)\}")
_MATCHER = re.compile(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*\"")
_GROUPING = re.compile(r"\b(?:by|without)\s*\(([^)]*)\)")
_WORD = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
_RANGE = re.compile(r"\[[0-9smhdw]+\]")


def rules() -> list[dict[str, Any]]:
    document = yaml.safe_load(RULES.read_text("utf-8"))
    return [rule for group in document["groups"] for rule in group["rules"]]


def check_expression(expr: str, series: dict[str, tuple[str, ...]]) -> list[str]:
    """What in ``expr`` the service does not expose: metric names, matcher or grouping labels."""
    problems: list[str] = []
    used: set[str] = set()
    for name, matchers in _SELECTOR.findall(expr):
        for label, _ in _MATCHER.findall(matchers):
            if name in series and label not in series[name]:
                problems.append(f"{name} has no label {label}")
    bare = _RANGE.sub("", _SELECTOR.sub(lambda m: m.group(1), expr))
    groupings = _GROUPING.findall(bare)
    bare = _GROUPING.sub("", _STRING.sub("", bare))
    for word in _WORD.findall(bare):
        if word in PROMQL:
            continue
        if word not in series:
            problems.append(f"{word} is not a metric the service exposes")
        used.add(word)
    labels = {label for name in used if name in series for label in series[name]}
    for grouping in groupings:
        problems.extend(
            f"grouping by {label}, which no metric of the expression has"
            for label in (part.strip() for part in grouping.split(","))
            if label and label not in labels
        )
    return problems


@pytest.mark.parametrize("rule", rules(), ids=lambda rule: str(rule.get("alert")))
def test_each_alert_names_only_exposed_metrics_and_labels(rule: dict[str, Any]) -> None:
    assert set(rule) <= {"alert", "expr", "for", "labels", "annotations"}
    assert re.fullmatch(r"Inkcard[A-Za-z]+", rule["alert"])
    assert rule["labels"]["severity"] in ("page", "warning")
    assert rule["annotations"]["summary"]
    if "for" in rule:
        assert re.fullmatch(r"[0-9]+[smh]", rule["for"])
    assert re.search(r"[<>]=?\s*[0-9.]+$", rule["expr"].strip())  # a threshold, not a series
    assert check_expression(rule["expr"], Metrics().series()) == []


def test_the_checker_catches_unknown_metrics_and_labels() -> None:
    series = Metrics().series()
    assert check_expression('sum(rate(inkcard_requests_total{status="500"}[5m])) > 1', series) == []
    assert check_expression("rate(inkcard_request_total[5m]) > 1", series) == [
        "inkcard_request_total is not a metric the service exposes"
    ]
    assert check_expression('inkcard_render_queue{pool="cards"} > 1', series) == [
        "inkcard_render_queue has no label pool"
    ]
    assert check_expression("sum by (key) (inkcard_overloaded_total) > 1", series) == [
        "grouping by key, which no metric of the expression has"
    ]


def test_the_alerts_cover_what_operations_needs() -> None:
    covered = " ".join(rule["expr"] for rule in rules())
    for needed in (
        'status=~"5..", status!="503"',  # 5xx rate
        'status="503"',  # 503 share
        "histogram_quantile(0.99",  # p99 latency
        'inkcard_render_worker_restarts_total{reason="timeout"}',  # render kills
        "inkcard_storage_errors_total",
        "inkcard_platform_errors_total",
        "inkcard_credits_refunded_total",
    ):
        assert needed in covered
    names = [rule["alert"] for rule in rules()]
    assert len(names) == len(set(names))
