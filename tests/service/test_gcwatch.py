"""The garbage collector's pauses in the metrics (gcwatch.py): each collection timed by generation, one watch a
process however many apps it builds."""

import gc

import pytest

from fairdeal.service import gcwatch
from tests.service.metrics_kit import samples


@pytest.fixture
def sqlite_app(tmp_path, request):
    from tests.service.conftest import make_app

    return make_app(tmp_path, "sqlite", request)


def test_a_full_collection_is_timed_into_the_metrics(sqlite_app):
    before = samples(sqlite_app.test_client().get("/metrics").get_data(as_text=True), "fairdeal_gc_pause_seconds_count")
    counted = {s.labels["generation"]: s.value for s in before}
    gc.collect(2)
    gc.collect(2)
    after = samples(sqlite_app.test_client().get("/metrics").get_data(as_text=True), "fairdeal_gc_pause_seconds_count")
    now = {s.labels["generation"]: s.value for s in after}
    assert now["2"] >= counted.get("2", 0) + 2
    total = samples(sqlite_app.test_client().get("/metrics").get_data(as_text=True), "fairdeal_gc_pause_seconds_sum")
    assert {s.labels["generation"]: s.value for s in total}["2"] > 0


def test_one_watch_a_process_the_last_services_built(tmp_path, request):
    from tests.service.conftest import make_app

    make_app(tmp_path / "a", "sqlite", request)
    make_app(tmp_path / "b", "sqlite", request)
    watches = [cb for cb in gc.callbacks if isinstance(cb, gcwatch.GcWatch)]
    assert len(watches) == 1
    n = watches[0].collections[2]
    gc.collect(2)
    assert watches[0].collections[2] == n + 1
    assert watches[0].longest[2] > 0


def test_a_watch_installed_mid_collection_times_nothing_half():
    class Metrics:
        seen: list = []

        def observe(self, name, seconds, **labels):
            self.seen.append((name, seconds, labels))

    watch = gcwatch.GcWatch(Metrics(), clock=iter([1.0, 1.25]).__next__)
    watch("stop", {"generation": 2})  # its start was before it was installed: nothing to time
    assert Metrics.seen == []
    watch("start", {"generation": 2})
    watch("stop", {"generation": 2})
    assert Metrics.seen == [("fairdeal_gc_pause_seconds", 0.25, {"generation": 2})]
    assert watch.collections == [0, 0, 1]
