"""Real HTTP for the service tests: the Api client's interface over urllib, and `fairdeal serve` under a real
gunicorn (gevent workers) on a free loopback port."""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.service.redis_servers import free_port
from tests.waiting import scaled, wait_for


class Http:
    """The Api client's interface over real HTTP."""

    def __init__(self, base: str):
        self.base = base

    class Resp:
        def __init__(self, status, body: bytes, ctype: str, headers=None):
            self.status_code, self._body, self.mimetype = status, body, ctype.split(";")[0]
            self.headers = headers or {}

        def get_json(self):
            return json.loads(self._body)

        def get_data(self, as_text=False):
            return self._body.decode() if as_text else self._body

    def _req(self, method, path, json_body=None, headers=None):
        data = json.dumps(json_body).encode() if json_body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=dict(headers or {}))
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return self.Resp(r.status, r.read(), r.headers.get("Content-Type", ""), r.headers)
        except urllib.error.HTTPError as e:
            return self.Resp(e.code, e.read(), e.headers.get("Content-Type", ""), e.headers)

    def post(self, path, json=None, headers=None):
        return self._req("POST", path, json, headers)

    def get(self, path, headers=None):
        return self._req("GET", path, None, headers)


def _children(pid: int, at_least: int = 0) -> list[str]:
    """The processes `pid` started (Linux: /proc); with `at_least`, once there are that many (gunicorn forks its
    workers one by one, later on a busy machine), waiting for them with a deadline that scales."""
    path = pathlib.Path(f"/proc/{pid}/task/{pid}/children")
    if not path.exists():
        pytest.skip("no /proc children list on this system")
    if at_least:
        return wait_for(
            lambda: (lambda kids: kids if len(kids) >= at_least else None)(path.read_text().split()),
            timeout=15,
            what=f"{at_least} child processes of {pid}",
        )
    return path.read_text().split()


def is_sweeper(pid: str) -> bool:
    """Whether the process is a `fairdeal ... sweep` (Linux: its command line)."""
    try:
        return b"sweep" in pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False


@contextlib.contextmanager
def serving(
    data_dir,
    redis_url: str | None = None,
    workers: int = 2,
    log_name: str = "serve.log",
    port: int | None = None,
    **env_extra,
):
    """`fairdeal serve` on a free port with the data dir (and Redis, else the embedded store), its address and
    worker count from the environment as in a container (FAIRDEAL_BIND, FAIRDEAL_WORKERS); yields its base URL
    once it answers (with that many workers) and stops it afterwards. `port`: that one (a restart on the same
    address), else a free one."""
    port = port or free_port()
    env = dict(
        os.environ,
        FAIRDEAL_DATA=str(data_dir),
        FAIRDEAL_BIND=f"127.0.0.1:{port}",
        FAIRDEAL_WORKERS=str(workers),
        **env_extra,
    )
    env.pop("FAIRDEAL_REDIS_URL", None)
    if redis_url:
        env["FAIRDEAL_REDIS_URL"] = redis_url
    log_path = os.path.join(str(data_dir), log_name)
    os.makedirs(str(data_dir), exist_ok=True)
    log = open(log_path, "wb")  # a file, not a pipe: a full pipe would block the server
    proc = subprocess.Popen(
        [sys.executable, "-m", "fairdeal.cli", "serve"], env=env, stdout=subprocess.DEVNULL, stderr=log
    )
    base = f"http://127.0.0.1:{port}"
    try:

        def ready() -> bool:
            if proc.poll() is not None:
                pytest.fail("fairdeal serve exited: " + open(log_path).read()[-2000:])
            urllib.request.urlopen(base + "/readyz", timeout=scaled(1)).read()
            return True

        wait_for(ready, timeout=15, interval=0.1, what="fairdeal serve answering /readyz")
        if workers > 1:  # every worker forked (`fairdeal serve` starts a sweeper beside them)
            wait_for(
                lambda: len([k for k in _children(proc.pid) if not is_sweeper(k)]) == workers,
                timeout=15,
                interval=0.1,
                what=f"FAIRDEAL_WORKERS={workers}: gunicorn running {workers} workers",
            )
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()  # reaped: no zombie left, and its CPU counts in the test process's children
        log.close()
