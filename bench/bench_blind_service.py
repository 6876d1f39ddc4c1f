"""The service's own CPU at a dealer-blind table, beside an ordinary table's (issue 26: "a whole game's extra
server CPU under 50 ms"). bench_blind.py models the server's honest path from its parts; this runs the real one.

Each round plays one whole 4-human Spades game through the app (Flask's test client, in process, the embedded
store in memory-backed storage), scripted seats (tests/service/blind_kit.py at the blind table; the suggestion at
the ordinary one), and times the CPU spent inside the app, request by request (a WSGI wrapper around the app:
the clients' own work, shuffling, masking, opening, is outside it). The rounds alternate: blind, ordinary.

Per request kind: POST /games/{id}/moves (at the blind table each play carries its signed open: form,
signature, position), POST /games/{id}/blind (shuffles, locks, releases, reveals: form with every element
decoded as a point, signature, turn), and the reads. The scripted seats poll (each reads the blind log and the
view before every step), which a client on the event feed does not: the reads are printed apart, and the extra
a game is judged on the writes: (blind moves' CPU a move - ordinary moves' CPU a move) x the blind game's moves,
plus every blind post.

Run: python bench/bench_blind_service.py [rounds]   (about a minute a round)
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import measure as ms  # noqa: E402

from fairdeal.service.app import create_app  # noqa: E402
from fairdeal.service.config import Config  # noqa: E402
from fairdeal.service.store.sqlite import SqliteStore  # noqa: E402
from tests.service.blind_kit import blind_table, play_out  # noqa: E402
from tests.service.client import Api, play_to_end, suggested_or_first  # noqa: E402

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
TARGET = 0.050  # seconds of extra server CPU a game
KINDS = [
    ("POST moves", re.compile(r"POST /games/[^/]+/moves$")),
    ("POST blind", re.compile(r"POST /games/[^/]+/blind$")),
    ("GET blind", re.compile(r"GET /games/[^/]+/blind$")),
    ("GET view", re.compile(r"GET /games/[^/]+$")),
]


class CpuMeter:
    """The app's CPU time, by request kind (WSGI middleware: the app's work only, not the test client's)."""

    def __init__(self, app):
        self.app = app
        self.cpu: dict[str, float] = defaultdict(float)
        self.count: dict[str, int] = defaultdict(int)

    def __call__(self, environ, start_response):
        what = f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}"
        kind = next((name for name, pattern in KINDS if pattern.match(what)), "other")
        t0 = time.process_time()
        try:
            return list(self.app(environ, start_response))  # the body made here, inside the timing
        finally:
            self.cpu[kind] += time.process_time() - t0
            self.count[kind] += 1


def _app(folder: Path):
    app = create_app(
        Config(data_dir=str(folder), rate_limits=False),
        store=SqliteStore(str(folder / "fairdeal.sqlite3")),
        now=time.time,
    )
    meter = CpuMeter(app.wsgi_app)
    app.wsgi_app = meter
    return app, meter


def blind_round(folder: Path) -> tuple[CpuMeter, int]:
    app, meter = _app(folder)
    api = Api(app.test_client())
    tid, humans = blind_table(api, 4)
    meter.cpu.clear()
    meter.count.clear()
    g = play_out(humans, api, tid)
    return meter, g["seq"]


def ordinary_round(folder: Path) -> tuple[CpuMeter, int]:
    app, meter = _app(folder)
    api = Api(app.test_client())
    players = [api.player(f"o{i}") for i in range(4)]
    tid = api.table(players[0], rule_set="spades", clocks="off")["id"]
    for i, p in enumerate(players[1:], start=1):
        r = api.post(f"/tables/{tid}/join", p, json={"seat": i})
        assert r.status_code == 200, r.get_json()
    api.start(players[0], tid)
    meter.cpu.clear()
    meter.count.clear()
    g = play_to_end(api, tid, players, choose=suggested_or_first)
    return meter, g["seq"]


def main() -> None:
    print(f"{ms.load()} before the rounds", flush=True)
    blind: list[tuple[CpuMeter, int]] = []
    ordinary: list[tuple[CpuMeter, int]] = []
    for _ in range(ROUNDS):
        for runs, play in ((blind, blind_round), (ordinary, ordinary_round)):
            folder = Path(
                tempfile.mkdtemp(prefix="fairdeal-bench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
            )
            try:
                runs.append(play(folder))
            finally:
                shutil.rmtree(folder, ignore_errors=True)
    print(f"{ms.load()} after the rounds")

    def per(meter: CpuMeter, kind: str) -> float:
        return meter.cpu[kind] / max(meter.count[kind], 1)

    extras = []
    for (b, moves), (o, _) in zip(blind, ordinary, strict=True):
        extras.append((per(b, "POST moves") - per(o, "POST moves")) * moves + b.cpu["POST blind"])
    print(f"\n{ROUNDS} alternating rounds, CPU time inside the app (median, min to max)")
    print(f"{'':34}{'blind':>22}{'ordinary':>22}")

    def line(name: str, fb, fo=None) -> None:
        def cell(runs, f) -> str:
            xs = [f(m, n) for m, n in runs]
            return f"{statistics.median(xs):8.2f} ({min(xs):.2f}-{max(xs):.2f})"

        print(f"{name:34}{cell(blind, fb):>22}{cell(ordinary, fo or fb):>22}")

    line("moves in the game", lambda m, n: n)
    for kind, _ in KINDS:
        line(f"{kind}: requests", lambda m, n, k=kind: m.count[k])
        line(f"{kind}: ms a request", lambda m, n, k=kind: 1000 * per(m, k))
        line(f"{kind}: ms in all", lambda m, n, k=kind: 1000 * m.cpu[k])
    # a deal's posts: every seat's shuffle, lock and release (12 at 4 seats); the game's last 4 are the reveals
    per_hand = [x / max((b.count["POST blind"] - 4) / 12, 1) for x, (b, _) in zip(extras, blind, strict=True)]
    print(
        f"\nextra server CPU a hand (the writes): {1000 * statistics.median(per_hand):.1f} ms "
        f"(rounds {1000 * min(per_hand):.1f} to {1000 * max(per_hand):.1f})"
    )
    med = statistics.median(extras)
    print(
        f"extra server CPU a game (the writes): {1000 * med:.1f} ms (rounds {1000 * min(extras):.1f} to "
        f"{1000 * max(extras):.1f}); target < {1000 * TARGET:.0f} ms: {'met' if med < TARGET else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
