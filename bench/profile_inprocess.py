"""The service's own CPU per request, in one process with Flask's test client (no gunicorn, no sockets to the
client), to profile and to compare two trees when the machine is too loaded for bench_service.py/bench_idle.py.

    python bench/profile_inprocess.py moves [--moves 300] [--rounds 5] [--profile]
    python bench/profile_inprocess.py opens [--games 250] [--profile]
    python bench/profile_inprocess.py expiries [--store embedded|redis] [--games 250] [--profile]
    PYTHONPATH=/other/tree python /other/tree/bench/profile_inprocess.py moves     # the same on another tree

`moves`: spades tables of four human seats, clocks off, on a throwaway redis-server, PROMETHEUS_MULTIPROC_DIR set
as under gunicorn; each move is the mover's view (GET) and its move (POST with an Idempotency-Key), as
bench_service.py plays it. The baseline is bench/bare_app.py (the same Lua compare-and-append) on the same Redis.
The figure is the CPU time (process_time) spent inside each app's WSGI callable per move, both apps alternating
round by round; printed: the rounds, and the median and spread of the per-round ratio bare/service. Rate limits
off, as in bench_service.py.

`opens`: the embedded store, rate limits on (raised as docs/operations.md says for one address): the process's
CPU time (the test client included, the same for both trees) per stream opened and read up to its first `game`
event, over every seat of --games tables. --profile prints cProfile's figures (CPU time) instead.

`expiries`: a long-poll's expiry (`?wait=0.02` on a game where nothing happens: the watch, the wait, the answer),
on either store, rate limits on as for `opens`: the process's CPU per expiry over every seat of --games tables,
each seat's token used once a round (as a long-poll every 25 s finds the 1-s token cache cold).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402
from bench_service import free_port  # noqa: E402


def table(c) -> tuple[str, list[dict], int]:
    tokens = [
        {"Authorization": "Bearer " + c.post("/players", json={"name": f"b{i}"}).get_json()["token"]} for i in range(4)
    ]
    t = c.post("/tables", json={"rule_set": "spades", "clocks": "off"}, headers=tokens[0]).get_json()
    for i in range(1, 4):
        c.post(f"/tables/{t['id']}/join", json={"seat": i}, headers=tokens[i])
    c.post(f"/tables/{t['id']}/start", headers=tokens[0])
    return t["id"], tokens, c.get(f"/games/{t['id']}", headers=tokens[0]).get_json()["to_move"]


class Timed:
    """A WSGI app's CPU time, summed over its calls (the response read inside the call)."""

    def __init__(self, wsgi, profile: cProfile.Profile | None):
        self.wsgi, self.profile, self.cpu = wsgi, profile, 0.0

    def __call__(self, environ, start_response):
        t0 = time.process_time()
        if self.profile:
            self.profile.enable()
        try:
            return list(self.wsgi(environ, start_response))
        finally:
            if self.profile:
                self.profile.disable()
            self.cpu += time.process_time() - t0


def moves(args, tmp: str) -> None:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = os.path.join(tmp, "prom")
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", tmp],
        stdout=subprocess.DEVNULL,
    )
    try:
        time.sleep(0.5)
        os.environ.update(FAIRDEAL_REDIS_URL=f"redis://127.0.0.1:{port}/0", FAIRDEAL_RATE_LIMITS="off")
        import bare_app

        from fairdeal.service.app import create_app

        profile = cProfile.Profile(time.process_time) if args.profile else None
        app = create_app()
        svc, bare = Timed(app.wsgi_app, profile), Timed(bare_app.app.wsgi_app, None)
        app.wsgi_app, bare_app.app.wsgi_app = svc, bare  # type: ignore[method-assign]
        c, bc = app.test_client(), bare_app.app.test_client()
        games = [table(c) for _ in range(16)]
        bare_games = [uuid.uuid4().hex for _ in range(16)]

        def service_round(n: int) -> float:
            cpu0, i = svc.cpu, 0
            while i < n:
                gid, tokens, to_move = games[i % 16]
                v = c.get(f"/games/{gid}", headers=tokens[to_move]).get_json()
                if v["status"] == "over":
                    before = svc.cpu
                    games[i % 16] = table(c)
                    cpu0 += svc.cpu - before  # a new table's set-up is not a move: not counted
                    continue
                move = v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]
                r = c.post(
                    f"/games/{gid}/moves",
                    json={"seq": v["seq"], "move": move},
                    headers={**tokens[to_move], "Idempotency-Key": uuid.uuid4().hex},
                )
                assert r.status_code == 201, r.get_json()
                games[i % 16] = (gid, tokens, r.get_json()["game"]["to_move"])
                i += 1
            return (svc.cpu - cpu0) / n

        def bare_round(n: int) -> float:
            cpu0 = bare.cpu
            for i in range(n):
                v = bc.get(f"/games/{bare_games[i % 16]}").get_json()
                if v["seq"] >= 400:
                    bare_games[i % 16] = uuid.uuid4().hex
                    v = bc.get(f"/games/{bare_games[i % 16]}").get_json()
                r = bc.post(
                    f"/games/{bare_games[i % 16]}/moves",
                    json={"seq": v["seq"], "move": {"kind": "pass"}},
                    headers={"Idempotency-Key": uuid.uuid4().hex},
                )
                assert r.status_code == 201
            return (bare.cpu - cpu0) / n

        service_round(50), bare_round(50)  # warm: caches, scripts loaded
        if profile:
            service_round(args.moves)
            pstats.Stats(profile).sort_stats("cumulative").print_stats(60)
            return
        rounds = [(bare_round(args.moves), service_round(args.moves)) for _ in range(args.rounds)]
        ratios = [b / s for b, s in rounds]
        print("bare CPU per move (ms):    " + ", ".join(f"{1000 * b:.2f}" for b, _ in rounds))
        print("service CPU per move (ms): " + ", ".join(f"{1000 * s:.2f}" for _, s in rounds))
        print(
            f"bare/service: {statistics.median(ratios):.2f} (rounds {min(ratios):.2f} to {max(ratios):.2f}); "
            f"service {1000 * statistics.median(s for _, s in rounds):.2f} ms a move (GET view + POST move)"
        )
    finally:
        redis.terminate()


def opens(args, tmp: str) -> None:
    os.environ.pop("FAIRDEAL_REDIS_URL", None)
    os.environ.update(FAIRDEAL_LIMIT_ADDRESS="1000000/minute", FAIRDEAL_LIMIT_PLAYERS="1000000/minute")
    from fairdeal.service.app import create_app

    c = create_app().test_client()
    games = [table(c) for _ in range(args.games)]

    def open_all() -> int:
        for gid, tokens, _ in games:
            for h in tokens:
                r = c.get(f"/games/{gid}/stream", headers=h, buffered=False)
                for chunk in r.response:
                    if b"event: game" in chunk:
                        break
                r.close()
        return 4 * len(games)

    open_all()  # warm: every game replayed once, every token cached once
    if args.profile:
        profile = cProfile.Profile(time.process_time)
        profile.enable()
        open_all()
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(60)
        return
    t0 = time.process_time()
    n = open_all()
    print(f"CPU per stream opening: {1000 * (time.process_time() - t0) / n:.2f} ms over {n} (test client included)")


def expiries(args, tmp: str) -> None:
    os.environ.update(FAIRDEAL_LIMIT_ADDRESS="1000000/minute", FAIRDEAL_LIMIT_PLAYERS="1000000/minute")
    redis = None
    if args.store == "redis":
        port = free_port()
        redis = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        time.sleep(0.5)
        os.environ["FAIRDEAL_REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
    else:
        os.environ.pop("FAIRDEAL_REDIS_URL", None)
    try:
        from fairdeal.service.app import create_app

        c = create_app().test_client()
        games = [table(c) for _ in range(args.games)]
        seqs = {gid: c.get(f"/games/{gid}", headers=tokens[0]).get_json()["seq"] for gid, tokens, _ in games}

        def expire_all() -> int:
            for gid, tokens, _ in games:
                for h in tokens:
                    r = c.get(f"/games/{gid}/events?after={seqs[gid]}&wait=0.02", headers=h)
                    assert r.status_code == 200 and not r.get_json()["records"], r.get_json()
            time.sleep(1.1)  # past the token cache: each long-poll of 25 s finds it cold
            return 4 * len(games)

        expire_all()  # warm
        if args.profile:
            profile = cProfile.Profile(time.process_time)
            profile.enable()
            expire_all()
            profile.disable()
            pstats.Stats(profile).sort_stats("tottime").print_stats(40)
            return
        rounds = []
        for _ in range(args.rounds):
            t0 = time.process_time()
            n = expire_all()
            rounds.append(1000 * (time.process_time() - t0) / n)
        print(
            f"CPU per long-poll expiry ({args.store}): median {statistics.median(rounds):.2f} ms "
            f"(rounds {', '.join(f'{r:.2f}' for r in rounds)}) over {n} a round (test client included)"
        )
    finally:
        if redis is not None:
            redis.terminate()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=["moves", "opens", "expiries"])
    ap.add_argument("--store", choices=["embedded", "redis"], default="embedded", help="expiries: the store")
    ap.add_argument("--moves", type=int, default=300, help="moves a round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=250, help="tables whose every seat opens a stream")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="fairdeal-inprocess-")
    os.environ.update(FAIRDEAL_DATA=tmp, FAIRDEAL_LOG_LEVEL="WARNING")
    print(f"{measure.load()} before", flush=True)
    try:
        {"moves": moves, "opens": opens, "expiries": expiries}[args.what](args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{measure.load()} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
