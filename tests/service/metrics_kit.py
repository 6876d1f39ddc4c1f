"""Reading the service's /metrics text in tests: the samples of one metric family member by name."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample


def samples(text: str, name: str) -> list[Sample]:
    """Every sample called `name` (e.g. "fairdeal_http_requests_total") in a Prometheus text exposition."""
    return [s for family in text_string_to_metric_families(text) for s in family.samples if s.name == name]
