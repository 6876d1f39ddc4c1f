"""Throwaway redis-server processes for the tests: one plain server, and a cluster of three primaries,
on free loopback ports in temp dirs. In CI (CI=true) a missing redis-server fails the tests."""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess

import pytest

from tests.waiting import scaled, wait_for


def free_port() -> int:
    """A free loopback port whose cluster bus port (port + 10000) is free too and below 65536."""
    rng = random.Random()
    for _ in range(200):
        port = rng.randrange(20000, 50000)
        try:
            for p in (port, port + 10000):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port")


def require_redis_server() -> str:
    path = shutil.which("redis-server")
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is not installed: the service tests need it (CI=true)")
        pytest.skip("redis-server is not installed")
    return path


def _wait_ping(port: int, timeout: float = 10.0) -> None:
    import redis

    wait_for(
        lambda: redis.Redis(host="127.0.0.1", port=port, socket_timeout=scaled(1)).ping(),
        timeout=timeout,
        what=f"redis-server on port {port} answering",
    )


def start_server(tmpdir: str, *extra: str, port: int | None = None) -> tuple[subprocess.Popen, int]:
    exe = require_redis_server()
    port = port or free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", tmpdir, *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_ping(port)
    except Exception:
        proc.kill()
        raise
    return proc, port


def start_cluster(tmpdir: str) -> tuple[list[subprocess.Popen], list[int]]:
    procs: list[subprocess.Popen] = []
    try:
        return _start_cluster(tmpdir, procs)
    except BaseException:
        stop(procs)  # never leave a half-made cluster running
        raise


def _start_cluster(tmpdir: str, procs: list) -> tuple[list[subprocess.Popen], list[int]]:
    ports = []
    for i in range(3):
        d = os.path.join(tmpdir, f"node{i}")
        os.makedirs(d, exist_ok=True)
        p, port = start_server(
            d, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000"
        )
        procs.append(p)
        ports.append(port)
    subprocess.run(
        [
            "redis-cli",
            "--cluster",
            "create",
            *[f"127.0.0.1:{p}" for p in ports],
            "--cluster-replicas",
            "0",
            "--cluster-yes",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=scaled(30),
    )
    import redis

    wait_for(
        lambda: (
            [redis.Redis(host="127.0.0.1", port=p).cluster("info").get("cluster_state") for p in ports]
            == ["ok"] * len(ports)
        ),
        timeout=15,
        interval=0.1,  # every node agrees, not only the first
        what="the cluster ready",
    )
    return procs, ports


def stop(procs) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(scaled(5))
        except subprocess.TimeoutExpired:
            p.kill()
