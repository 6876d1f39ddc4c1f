"""The move endpoint under gunicorn (2 gevent workers: deploy/gunicorn.conf.py, the serving model of `fairdeal
serve`) against a bare Flask app doing the same Redis compare-and-append under the same gunicorn settings, both
measured in this run, on loopback only, with a throwaway redis-server.

Each of N client connections (threads with keep-alive HTTP connections) plays its own game: it reads the view
of the seat to move (GET) and posts that seat's move (POST, with an Idempotency-Key). The baseline does the
same pair against the bare app (GET = the log length, POST = the Lua compare-and-append). Spades tables with
four human seats, clocks off, so every POST is one append and no bot work hides in it.

Targets (issue 25): service throughput >= 75% of the bare app's (the median of the per-round ratios, each
service round against the bare round before it); service POST p99 < 50 ms at 32 connections on a quiet machine.
Beside the throughput, the server's CPU per move (its processes' CPU time over the round / moves), whose
bare/service ratio other work on a shared machine moves less. A connection gunicorn closed while it sat idle
(keepalive 5 s: during the other threads' set-up) is opened again (Conn), not a dead thread.
Bounded: --rounds (default 3) phases of --seconds (default 4) per app, --max-moves per connection and phase;
exits by itself. The phases alternate between the two apps so that other load on the machine hits both.

    python bench/bench_service.py [--connections 32] [--seconds 4] [--rounds 3]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402

TARGET_RATIO = 0.75


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(procs: list[subprocess.Popen]) -> None:
    """Terminate the processes a benchmark started (killed if they do not stop within 10 s)."""
    for p in procs:
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()


def wait_http(port: int, path: str, proc: subprocess.Popen, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit(f"server on port {port} exited")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            c.request("GET", path)
            c.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"server on port {port} did not come up")


class Conn:
    """One keep-alive connection. gunicorn closes a connection idle for its `keepalive` (5 s: a thread that waits
    through the others' set-up); a request on a reused connection that the server closed gets no answer at all,
    so it was not processed: it is sent once more on a new connection, as HTTP clients do (urllib3's retry of
    a stale pooled connection). A failure on a fresh connection is an error."""

    DROPPED = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)
    reconnects = 0  # over all connections (information)

    def __init__(self, port: int):
        self.port = port
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.used = False

    def call(self, method: str, path: str, body=None, headers=None):
        h = {"Content-Type": "application/json", **(headers or {})}
        data = json.dumps(body) if body is not None else None
        try:
            status, text = self._send(method, path, data, h)
        except self.DROPPED:
            if not self.used:
                raise
            Conn.reconnects += 1
            self.c.close()
            self.c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            status, text = self._send(method, path, data, h)
        self.used = True
        return status, (json.loads(text) if text else None)

    def _send(self, method: str, path: str, data, headers) -> tuple[int, bytes]:
        self.c.request(method, path, body=data, headers=headers)
        r = self.c.getresponse()
        return r.status, r.read()


# ------------------------------------------------------------------------------ the two clients


class ServiceGame:
    """A spades table with four human seats (one token each), clocks off."""

    def __init__(self, conn: Conn):
        self.conn = conn
        tokens = []
        for i in range(4):
            _, p = conn.call("POST", "/players", {"name": f"b{i}"})
            tokens.append({"Authorization": "Bearer " + p["token"]})
        _, t = conn.call("POST", "/tables", {"rule_set": "spades", "clocks": "off"}, tokens[0])
        for i in range(1, 4):
            conn.call("POST", f"/tables/{t['id']}/join", {"seat": i}, tokens[i])
        conn.call("POST", f"/tables/{t['id']}/start", None, tokens[0])
        self.gid, self.tokens = t["id"], tokens
        _, v = conn.call("GET", f"/games/{self.gid}", None, tokens[0])
        self.to_move = v["to_move"]

    def step(self) -> tuple[float, bool]:
        """One GET of the mover's view and one POST of its move; returns (POST seconds, game still on)."""
        h = self.tokens[self.to_move]
        _, v = self.conn.call("GET", f"/games/{self.gid}", None, h)
        if v["status"] == "over":
            return 0.0, False
        move = v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]
        t0 = time.perf_counter()
        status, r = self.conn.call(
            "POST",
            f"/games/{self.gid}/moves",
            {"seq": v["seq"], "move": move},
            {**h, "Idempotency-Key": uuid.uuid4().hex},
        )
        elapsed = time.perf_counter() - t0
        if status != 201:
            raise RuntimeError(f"move refused: {status} {r}")
        self.to_move = r["game"]["to_move"]
        return elapsed, self.to_move is not None


class BareGame:
    def __init__(self, conn: Conn):
        self.conn, self.gid = conn, uuid.uuid4().hex

    def step(self) -> tuple[float, bool]:
        _, v = self.conn.call("GET", f"/games/{self.gid}")
        t0 = time.perf_counter()
        status, r = self.conn.call(
            "POST",
            f"/games/{self.gid}/moves",
            {"seq": v["seq"], "move": {"kind": "pass"}},
            {"Idempotency-Key": uuid.uuid4().hex},
        )
        elapsed = time.perf_counter() - t0
        if status != 201:
            raise RuntimeError(f"append refused: {status} {r}")
        return elapsed, v["seq"] < 400


def run_load(port: int, game_cls, connections: int, seconds: float, max_moves: int, server=None) -> dict:
    latencies: list[list[float]] = [[] for _ in range(connections)]
    errors: list[str] = []
    ready = threading.Barrier(connections + 1)
    go = threading.Event()
    stop_at = [0.0]

    def worker(i: int) -> None:
        conn = Conn(port)
        try:
            game = game_cls(conn)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(repr(exc))
            ready.wait()
            return
        ready.wait()
        go.wait()
        try:
            while time.perf_counter() < stop_at[0] and len(latencies[i]) < max_moves:
                elapsed, going = game.step()
                if elapsed:
                    latencies[i].append(elapsed)
                if not going:
                    game = game_cls(conn)
        except Exception as exc:  # noqa: BLE001
            errors.append(repr(exc))

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(connections)]
    for t in threads:
        t.start()
    ready.wait()
    pids = [server.pid] + measure.children(server.pid) if server is not None else []
    cpu0 = measure.cpu_seconds(pids)
    start = time.perf_counter()
    stop_at[0] = start + seconds
    go.set()
    for t in threads:
        t.join(seconds + 60)
    wall = time.perf_counter() - start
    server_cpu = measure.cpu_seconds(pids) - cpu0
    lat = sorted(x for xs in latencies for x in xs)
    if not lat:
        raise SystemExit(f"no move succeeded: {errors[:3]}")
    return {
        "moves": len(lat),
        "seconds": wall,
        "throughput": len(lat) / wall,
        "p50_ms": 1000 * statistics.median(lat),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "errors": len(errors),
        "first_error": errors[0] if errors else None,
        "cpu_per_move_ms": 1000 * server_cpu / len(lat) if pids else float("nan"),
    }


def start_redis(folder: str, *extra: str, port: int | None = None) -> tuple[subprocess.Popen, int]:
    """A throwaway redis-server on a free loopback port (no persistence; `extra`: more of its options, e.g.
    "--maxclients", "30000"), once it answers PING (every benchmark's Redis starts here)."""
    import redis

    port = port or free_port()
    args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder]
    proc = subprocess.Popen(["redis-server", *args, *extra], stdout=subprocess.DEVNULL)
    client = redis.Redis(port=port, socket_connect_timeout=1)
    deadline = time.monotonic() + 20
    while True:
        try:
            client.ping()
            return proc, port
        except redis.ConnectionError:
            if proc.poll() is not None or time.monotonic() > deadline:
                stop([proc])
                raise SystemExit(f"redis-server did not start on port {port}") from None
            time.sleep(0.05)
        finally:
            client.close()


def start_gunicorn(app: str, port: int, env: dict, log_path: str) -> subprocess.Popen:
    cmd = [
        sys.executable,
        "-m",
        "gunicorn",
        "-c",
        os.path.join(ROOT, "deploy", "gunicorn.conf.py"),
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        "2",
        app,
    ]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=open(log_path, "wb"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=4.0, help="per phase")
    ap.add_argument("--rounds", type=int, default=3, help="alternating bare/service phases per app")
    ap.add_argument("--max-moves", type=int, default=100_000, help="per connection and phase")
    ap.add_argument(
        "--rate-limits",
        action="store_true",
        help="keep the service's rate limits on (raised so that no request is refused: the figure "
        "then includes their cost, one Redis call per limit); off by default, as the bare app "
        "has none and one address plays every seat here",
    )
    args = ap.parse_args()
    if not shutil.which("redis-server"):
        print("redis-server is not installed", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="fairdeal-bench-")
    redis_proc, rport = start_redis(tmp)
    procs = [redis_proc]
    try:
        env = dict(
            os.environ,
            FAIRDEAL_REDIS_URL=f"redis://127.0.0.1:{rport}/0",
            FAIRDEAL_DATA=tmp,
            PYTHONPATH=ROOT,
            FAIRDEAL_RATE_LIMITS="on" if args.rate_limits else "off",
        )
        if args.rate_limits:
            env.update(
                {
                    f"FAIRDEAL_LIMIT_{k}": "10000000/minute"
                    for k in ("PLAYERS", "TABLES", "MOVES", "WAITS", "ADDRESS", "BAD_TOKENS")
                }
            )
        ports, servers = {}, {}
        for name, app, probe in (
            ("bare", "bench.bare_app:app", "/games/probe"),
            ("service", "fairdeal.service.wsgi:app", "/healthz"),
        ):
            ports[name] = free_port()
            proc = start_gunicorn(app, ports[name], env, os.path.join(tmp, f"{name}.log"))
            procs.append(proc)
            servers[name] = proc
            wait_http(ports[name], probe, proc)
        print(f"{measure.load()} before the rounds", flush=True)
        # the phases alternate (bare, service, bare, service, ...) so that a load change on the machine hits
        # both; each app's figures are those of its median round by throughput
        rounds: dict[str, list[dict]] = {"bare": [], "service": []}
        for _ in range(args.rounds):
            for name, game_cls in (("bare", BareGame), ("service", ServiceGame)):
                rounds[name].append(
                    run_load(ports[name], game_cls, args.connections, args.seconds, args.max_moves, servers[name])
                )
        print(f"{measure.load()} after the rounds")
        results = {name: sorted(rs, key=lambda r: r["throughput"])[len(rs) // 2] for name, rs in rounds.items()}
        for name in ("bare", "service"):
            print(
                f"{name} rounds (moves/s): "
                + ", ".join(f"{r['throughput']:.0f}" for r in rounds[name])
                + "; server CPU per move (ms): "
                + ", ".join(f"{r['cpu_per_move_ms']:.2f}" for r in rounds[name])
            )
        svc = results["service"]
        ratios = [s["throughput"] / b["throughput"] for b, s in zip(rounds["bare"], rounds["service"], strict=True)]
        ratio = statistics.median(ratios)
        cpu_ratios = [
            b["cpu_per_move_ms"] / s["cpu_per_move_ms"] for b, s in zip(rounds["bare"], rounds["service"], strict=True)
        ]
        print(
            f"move endpoint, gunicorn 2 gevent workers, {args.connections} connections, {args.rounds} rounds "
            f"of {args.seconds:.0f} s per app (median shown), loopback, redis-server {rport}, "
            f"rate limits {'on' if args.rate_limits else 'off'}"
        )
        print(f"{'':10} {'moves':>7} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
        for name in ("bare", "service"):
            r = results[name]
            print(
                f"{name:10} {r['moves']:>7} {r['throughput']:>9.1f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} "
                f"{r['errors']:>7}"
            )
        ok_ratio, ok_p99 = ratio >= TARGET_RATIO, svc["p99_ms"] < 50
        print(
            f"service/bare throughput: {100 * ratio:.0f}% (median of the per-round ratios, rounds "
            f"{100 * min(ratios):.0f} to {100 * max(ratios):.0f} %; target >= {100 * TARGET_RATIO:.0f}%: "
            f"{'met' if ok_ratio else 'NOT met'})"
        )
        print(
            f"server CPU per move, bare/service: {statistics.median(cpu_ratios):.2f} (rounds {min(cpu_ratios):.2f} "
            f"to {max(cpu_ratios):.2f}; the throughput ratio's CPU-time counterpart, steadier on a shared machine)"
        )
        print(f"connections the server had closed while idle, reopened: {Conn.reconnects}")
        print(f"service p99: {svc['p99_ms']:.1f} ms (target < 50 ms: {'met' if ok_p99 else 'NOT met'})")
        for name in ("bare", "service"):
            if results[name]["first_error"]:
                print(f"{name} first error: {results[name]['first_error']}")
        return 0 if ok_ratio and ok_p99 else 1
    finally:
        stop(procs)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
