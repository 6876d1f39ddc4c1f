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

The floor beside it: the same writes, byte for byte, replayed into a bare relay (bare_relay below: Flask, the same
store, one compare-and-append a message and nothing else: no form, no signature, no turn, no clock). What the
bare relay spends on the blind game's writes beyond the ordinary game's is what ANY protocol that carries these
messages through the server spends before it checks a thing; the target is judged against it too.

Run: python bench/bench_blind_service.py [rounds]   (about a minute a round)
"""

from __future__ import annotations

import io
import json
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
from flask import Flask, request  # noqa: E402

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

    def __init__(self, app, keep: bool = False):
        self.app = app
        self.cpu: dict[str, float] = defaultdict(float)
        self.count: dict[str, int] = defaultdict(int)
        self.keep = keep  # keep every POST's path and body, for the bare relay's replay
        self.posts: list[tuple[str, bytes]] = []

    def __call__(self, environ, start_response):
        what = f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}"
        kind = next((name for name, pattern in KINDS if pattern.match(what)), "other")
        if self.keep and kind.startswith("POST"):  # read outside the timing, handed on unchanged; kept if taken
            body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
            environ["wsgi.input"] = io.BytesIO(body)
            outer = start_response

            def start_response(status, headers, exc_info=None):
                if status.startswith("201"):
                    self.posts.append((environ["PATH_INFO"], body))
                return outer(status, headers, exc_info)

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
    meter = CpuMeter(app.wsgi_app, keep=True)
    app.wsgi_app = meter
    return app, meter


def bare_relay(folder: Path) -> Flask:
    """The floor: each message a client posts, appended to its log by compare-and-append, and nothing else. A
    move appends its record (and, at a blind table, its open to the blind log first), as bench/bare_app.py does
    for bench_service.py; a blind post appends the message to the blind log at the length just read."""
    app = Flask("bare-relay")
    store = SqliteStore(str(folder / "bare.sqlite3"))

    @app.post("/games/<game_id>/moves")
    def move(game_id):
        body = request.get_json()
        if body.get("open") is not None:
            length, _ = store.log_info(game_id + ":blind")
            store.append(game_id + ":blind", length, json.dumps(body["open"], sort_keys=True), time.time())
        record = json.dumps({"seq": body["seq"] + 1, "move": body["move"]}, sort_keys=True)
        res = store.append(game_id, body["seq"], record, time.time(), request.headers.get("Idempotency-Key"), "h")
        return ({"seq": res.length}, 201) if res.status == "ok" else ({"status": res.status}, 409)

    @app.post("/games/<game_id>/blind")
    def blind(game_id):
        body = request.get_json()
        length, _ = store.log_info(game_id + ":blind")
        res = store.append(game_id + ":blind", length, json.dumps(body, sort_keys=True), time.time())
        return ({"n": res.length}, 201) if res.status == "ok" else ({"status": res.status}, 409)

    return app


def bare_replay(folder: Path, posts: list[tuple[str, bytes]]) -> CpuMeter:
    """The played game's writes (those the service took: each path and body as posted) into the bare relay."""
    app = bare_relay(folder)
    meter = CpuMeter(app.wsgi_app)
    app.wsgi_app = meter
    client = app.test_client()
    for path, body in posts:
        r = client.post(path, data=body, content_type="application/json")
        assert r.status_code == 201, (path, r.get_json())
    return meter


def blind_round(folder: Path) -> tuple[CpuMeter, int]:
    app, meter = _app(folder)
    api = Api(app.test_client())
    tid, humans = blind_table(api, 4)
    meter.cpu.clear()
    meter.count.clear()
    meter.posts.clear()
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
    meter.posts.clear()
    g = play_to_end(api, tid, players, choose=suggested_or_first)
    return meter, g["seq"]


def extra(b: CpuMeter, moves: int, o: CpuMeter) -> float:
    """A blind game's extra CPU on the writes: each move's extra over an ordinary move, and every blind post."""

    def per(meter: CpuMeter) -> float:
        return meter.cpu["POST moves"] / max(meter.count["POST moves"], 1)

    return (per(b) - per(o)) * moves + b.cpu["POST blind"]


def main() -> None:
    print(f"{ms.load()} before the rounds", flush=True)
    runs: dict[str, list[tuple[CpuMeter, int]]] = {"blind": [], "ordinary": [], "bare blind": [], "bare ordinary": []}
    for _ in range(ROUNDS):
        for name, play in (("blind", blind_round), ("ordinary", ordinary_round)):
            folder = Path(
                tempfile.mkdtemp(prefix="fairdeal-bench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
            )
            try:
                meter, moves = play(folder)
                runs[name].append((meter, moves))
                runs["bare " + name].append((bare_replay(folder, meter.posts), moves))  # right after: alternating
            finally:
                shutil.rmtree(folder, ignore_errors=True)
    print(f"{ms.load()} after the rounds")

    def per(meter: CpuMeter, kind: str) -> float:
        return meter.cpu[kind] / max(meter.count[kind], 1)

    def pairs(a: str, b: str):
        return zip(runs[a], runs[b], strict=True)

    extras = [extra(b, moves, o) for (b, moves), (o, _) in pairs("blind", "ordinary")]
    floors = [extra(b, moves, o) for (b, moves), (o, _) in pairs("bare blind", "bare ordinary")]
    print(f"\n{ROUNDS} alternating rounds, CPU time inside the app (median, min to max)")
    print(f"{'':34}" + "".join(f"{name:>22}" for name in runs))

    def line(name: str, f) -> None:
        def cell(rs) -> str:
            xs = [f(m, n) for m, n in rs]
            return f"{statistics.median(xs):8.2f} ({min(xs):.2f}-{max(xs):.2f})"

        print(f"{name:34}" + "".join(f"{cell(rs):>22}" for rs in runs.values()))

    line("moves in the game", lambda m, n: n)
    for kind, _ in KINDS:
        line(f"{kind}: requests", lambda m, n, k=kind: m.count[k])
        line(f"{kind}: ms a request", lambda m, n, k=kind: 1000 * per(m, k))
        line(f"{kind}: ms in all", lambda m, n, k=kind: 1000 * m.cpu[k])
    # a deal's posts: every seat's shuffle, lock and release (12 at 4 seats); the game's last 4 are the reveals
    hands = [max((b.count["POST blind"] - 4) / 12, 1) for b, _ in runs["blind"]]

    def figure(what: str, xs: list[float]) -> float:
        med = statistics.median(xs)
        a_hand = [x / h for x, h in zip(xs, hands, strict=True)]
        print(
            f"{what}: {1000 * med:.1f} ms a game (rounds {1000 * min(xs):.1f} to {1000 * max(xs):.1f}), "
            f"{1000 * statistics.median(a_hand):.1f} ms a hand (rounds {1000 * min(a_hand):.1f} to "
            f"{1000 * max(a_hand):.1f})"
        )
        return med

    print()
    med = figure("extra server CPU (the writes)", extras)
    floor = figure("the bare relay's extra on the same writes (the floor)", floors)
    print(
        f"target < {1000 * TARGET:.0f} ms a game: {'met' if med < TARGET else 'NOT met'}; the floor alone "
        f"{'is under it' if floor < TARGET else 'is over it'}; the service's extra is {med / floor:.1f}x the floor"
    )


if __name__ == "__main__":
    main()
