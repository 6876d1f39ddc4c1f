"""The workers' garbage-collector policy (fairdeal/service/gcfreeze.py): a pass frees the young garbage and freezes
the survivors; a cycle that dies frozen is freed at the next thaw; a thaw comes when the frozen count has doubled;
gunicorn's workers run the passes (`fairdeal serve`, the metrics say so)."""

from __future__ import annotations

import gc
import os
import re
import subprocess
import sys
import time
import urllib.request
import weakref

import pytest

from fairdeal.service.gcfreeze import Freezer
from fairdeal.service.metrics import Metrics
from tests.service.redis_servers import free_port


class Node:
    def __init__(self):
        self.other = self  # a reference cycle: only a collection frees it


@pytest.fixture(autouse=True)
def thawed():
    """Each test leaves this process's collector as it found it: nothing frozen. No automatic collection runs
    meanwhile (it would free the test's garbage before the pass does)."""
    gc.unfreeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()
        gc.collect()


def test_a_pass_frees_the_garbage_and_freezes_what_lives():
    live, dead = Node(), Node()
    gone = weakref.ref(dead)
    del dead
    before = gc.get_freeze_count()
    done = Freezer(60).run_pass()
    assert gone() is None, "garbage is collected, never frozen"
    assert done.thawed and done.found >= 2 and done.frozen > before
    assert abs(gc.get_freeze_count() - done.frozen) < 2000  # other threads of the test process may run between
    assert gc.is_tracked(live) and live.other is live
    # a frozen object that loses its last reference is freed at once, as ever
    frozen = gc.get_freeze_count()
    many = [[i] for i in range(20_000)]
    Freezer(60).run_pass()
    grown = gc.get_freeze_count()
    assert grown >= frozen + 18_000
    del many
    assert gc.get_freeze_count() <= grown - 18_000


def test_a_cycle_that_dies_frozen_waits_for_the_thaw_which_comes_when_the_frozen_count_has_doubled():
    freezer = Freezer(60, growth=2.0, floor=0)
    cycle = Node()
    gone = weakref.ref(cycle)
    first = freezer.run_pass()
    assert first.thawed and freezer.base == first.frozen
    del cycle
    second = freezer.run_pass()
    assert not second.thawed and gone() is not None, "frozen: no collection walks it"
    # the heap doubles: the next pass thaws, collects everything, and the dead cycle goes
    grown = [[i] for i in range(first.frozen + 1000)]
    third = freezer.run_pass()
    assert third.thawed and gone() is None and third.found >= 1
    assert freezer.base == third.frozen > first.frozen
    assert not freezer.run_pass().thawed
    del grown


def test_below_the_floor_no_pass_thaws():
    freezer = Freezer(60, floor=10**9)
    assert freezer.run_pass().thawed  # the first pass always collects everything
    grown = [[i] for i in range(3 * freezer.base)]
    assert not freezer.run_pass().thawed
    del grown


def test_each_pass_is_counted_by_kind_and_timed():
    metrics = Metrics()
    freezer = Freezer(60, metrics, floor=0)
    freezer.run_pass()
    freezer.run_pass()
    text = metrics.render().decode()
    assert 'fairdeal_gc_passes_total{kind="thaw"} 1.0' in text
    assert 'fairdeal_gc_passes_total{kind="freeze"} 1.0' in text
    assert "fairdeal_gc_pass_seconds_count 2.0" in text
    frozen = float(re.search(r"^fairdeal_gc_frozen_objects (\S+)", text, re.M).group(1))
    assert frozen > 0 and abs(frozen - gc.get_freeze_count()) < 2000


def test_no_pass_runs_when_turned_off():
    freezer = Freezer(0)
    freezer.start()
    assert freezer._thread is None


def _metrics(base: str) -> str:
    with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
        return r.read().decode()


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("how", ["fairdeal serve", "deploy/gunicorn.conf.py"])
def test_the_served_workers_run_the_passes(tmp_path, how):
    """`fairdeal serve`, and gunicorn with the shipped deploy/gunicorn.conf.py (only the port, the data folder
    and the pass interval set): each worker runs a pass every FAIRDEAL_GC_FREEZE seconds."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("FAIRDEAL_") and k != "PROMETHEUS_MULTIPROC_DIR"}
    env.update(FAIRDEAL_GC_FREEZE="0.5", FAIRDEAL_WORKERS="2", FAIRDEAL_DATA=str(tmp_path))
    if how == "fairdeal serve":
        cmd = [sys.executable, "-m", "fairdeal.cli", "-d", str(tmp_path), "serve", "--bind", f"127.0.0.1:{port}"]
    else:
        conf = os.path.join(ROOT, "deploy", "gunicorn.conf.py")
        cmd = [sys.executable, "-m", "gunicorn", "-c", conf, "--bind", f"127.0.0.1:{port}", "fairdeal.service.wsgi:app"]
    with open(tmp_path / "serve.log", "wb") as log:
        proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline, text, passes = time.monotonic() + 60, "", 0.0
        while time.monotonic() < deadline:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()[-2000:]
            try:
                text = _metrics(base)
            except OSError:
                time.sleep(0.2)
                continue
            passes = sum(float(v) for v in re.findall(r'^fairdeal_gc_passes_total\{kind="freeze"\} (\S+)', text, re.M))
            thaws = sum(float(v) for v in re.findall(r'^fairdeal_gc_passes_total\{kind="thaw"\} (\S+)', text, re.M))
            if thaws >= 2 and passes >= 2:  # both workers' first pass (a thaw), and passes after it
                break
            time.sleep(0.2)
        assert thaws >= 2 and passes >= 2, text
        frozen = float(re.search(r"^fairdeal_gc_frozen_objects (\S+)", text, re.M).group(1))
        assert frozen > 10_000, "the workers' modules and app are frozen"
    finally:
        proc.terminate()
        proc.wait(30)


def test_the_worker_hook_runs_the_passes_for_the_service_and_passes_over_another_app(monkeypatch):
    """serving.post_worker_init: the service's app gets its passes; another app under deploy/gunicorn.conf.py
    (bench/bare_app.py) boots as before, with none."""
    from types import SimpleNamespace

    from fairdeal.service import gcfreeze, serving

    started = []
    monkeypatch.setattr(gcfreeze.Freezer, "start", lambda self: started.append(self.every))
    serving.post_worker_init(SimpleNamespace(wsgi=lambda environ, start_response: []))
    assert started == []
    services = SimpleNamespace(config=SimpleNamespace(gc_freeze=60.0), metrics=None)
    serving.post_worker_init(SimpleNamespace(wsgi=SimpleNamespace(extensions={"fairdeal": services})))
    assert started == [60.0]
