"""`fairdeal serve` as processes: a sweeper child beside the gunicorn workers (stopped with the server, or none
with --no-sweeper), and /metrics as one view of every worker and that sweeper (prometheus_client's multiprocess
mode), whichever worker answers the scrape."""

from __future__ import annotations

import os
import pathlib
import re
import signal
import subprocess
import sys
import threading
import urllib.request

import pytest

from tests.service.client import Api
from tests.service.http import Http, _children, is_sweeper, serving
from tests.waiting import scale, scaled, wait_for


def scrape(base: str) -> str:
    return urllib.request.urlopen(base + "/metrics", timeout=10).read().decode()


def value(text: str, series: str) -> float:
    """The value of one series (name and labels as exposed), 0 when it is not there."""
    m = re.search("^" + re.escape(series) + r" ([0-9.e+-]+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


def test_metrics_are_one_view_of_the_workers_and_the_sweeper(tmp_path):
    with serving(tmp_path, workers=2, FAIRDEAL_ABANDON_AFTER="0.5", FAIRDEAL_RATE_LIMITS="off") as base:
        api = Api(Http(base))
        p = api.player()
        gid = api.table(p, rule_set="spades")["id"]
        api.start(p, gid)
        # nobody touches the game: the sweeper ends it, and its counters are in the server's /metrics (it counts
        # the sweep after the game's end and the index update that follow it: wait for both, on a busy machine)
        wait_for(
            lambda: (
                lambda s: (
                    s
                    if value(s, 'fairdeal_games_ended_total{reason="abandoned"}') >= 1
                    and value(s, "fairdeal_sweeps_total") >= 1
                    else None
                )
            )(scrape(base)),
            timeout=30,
            interval=0.2,
            what="the sweeper abandoning the silent game",
        )
        scrapes = [scrape(base) for _ in range(8)]  # both workers answer some of them
        posts = [value(s, 'fairdeal_http_requests_total{method="POST",route="/tables",status="201"}') for s in scrapes]
        assert posts == [1.0] * len(scrapes), posts  # every scrape sees the one POST, whoever served it
        assert all('pid="' not in s for s in scrapes)
        last = scrapes[-1]
        assert (
            value(last, 'fairdeal_games{state="finished"}') == 1 and value(last, 'fairdeal_games{state="running"}') == 0
        )
        # the commit and the end carry a log leaf (append_with_leaf: one by a worker, one by the sweeper); the start
        # and any bot moves before the player's turn are plain appends, so only their sum has a floor
        leafed = value(last, 'fairdeal_store_seconds_count{op="append_with_leaf"}')
        assert leafed >= 2
        assert leafed + value(last, 'fairdeal_store_seconds_count{op="append"}') >= 3
        assert "# TYPE fairdeal_waiting_clients gauge" in last


def test_the_waiting_clients_gauge_counts_a_wait_while_it_is_open(tmp_path):
    with serving(tmp_path, workers=2, FAIRDEAL_RATE_LIMITS="off", FAIRDEAL_SWEEPER="off") as base:
        api = Api(Http(base))
        p = api.player()
        gid = api.table(p, rule_set="spades", clocks="off")["id"]
        api.start(p, gid)
        seq = api.view(p, gid)["seq"]
        wait = 3 * scale()  # the wait stays open long enough to be seen, on a busy machine too
        waiter = threading.Thread(target=lambda: api.get(f"/games/{gid}/events?after={seq}&wait={wait:.0f}", p))
        waiter.start()
        wait_for(
            lambda: value(scrape(base), "fairdeal_waiting_clients") == 1,
            timeout=2.5,
            what="the open wait counted in fairdeal_waiting_clients",
        )
        waiter.join()
        wait_for(
            lambda: value(scrape(base), "fairdeal_waiting_clients") == 0,
            timeout=2.5,
            what="the ended wait leaving fairdeal_waiting_clients",
        )


def serve_proc(tmp_path, *args, **env):
    from tests.service.redis_servers import free_port

    port = free_port()
    e = dict(os.environ, FAIRDEAL_DATA=str(tmp_path), FAIRDEAL_BIND=f"127.0.0.1:{port}", FAIRDEAL_WORKERS="1", **env)
    e.pop("FAIRDEAL_REDIS_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "fairdeal.cli", "serve", *args],
        env=e,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def ready() -> bool:
        if proc.poll() is not None:
            pytest.fail("fairdeal serve exited")
        urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=scaled(1)).read()
        return True

    try:
        wait_for(ready, timeout=15, interval=0.1, what="fairdeal serve answering /readyz")
    except BaseException:
        proc.kill()
        raise
    return proc


def sweepers(proc, children: int) -> list[str]:
    """The sweepers among the server's children, once it has `children` (its one worker, and a sweeper or not)."""
    return [k for k in _children(proc.pid, at_least=children) if is_sweeper(k)]


@pytest.mark.parametrize("how", ["option", "env"])
def test_no_sweeper_starts_none(tmp_path, how):
    proc = serve_proc(
        tmp_path,
        *(["--no-sweeper"] if how == "option" else []),
        **({"FAIRDEAL_SWEEPER": "off"} if how == "env" else {}),
    )
    try:
        assert sweepers(proc, 1) == []
    finally:
        proc.terminate()
        proc.wait(scaled(20))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_the_sweeper_stops_with_the_server(tmp_path, sig):
    proc = serve_proc(tmp_path)
    [sweeper] = sweepers(proc, 2)
    proc.send_signal(sig)
    proc.wait(scaled(20))

    def gone() -> bool:
        try:
            return pathlib.Path(f"/proc/{sweeper}/stat").read_text().split()[2] == "Z"  # a zombie is over
        except OSError:
            return True

    wait_for(gone, timeout=15, interval=0.1, what=f"the sweeper ending with the server ({sig.name})")
