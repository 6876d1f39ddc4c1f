"""redis-server as deploy/ ships it: deploy/redis.conf with only its `port` and `dir` lines replaced, and the ACL
user docker-compose.yml creates (its password filled in), written as one effective config file. The server can
be killed (-9), stopped cleanly (SIGTERM, as `docker stop` does) and started again on the same port and files.

An `operator` user (all commands) is added for the tests alone: to trigger an AOF rewrite and read the ACL log,
as the person running Redis would. The service never uses it."""

from __future__ import annotations

import pathlib
import re
import signal
import subprocess

import redis
import yaml

from tests.service import redis_servers
from tests.waiting import scaled, wait_for

DEPLOY = pathlib.Path(__file__).resolve().parents[2] / "deploy"
PASSWORD = "pw-for-the-test"
OPERATOR = ("operator", "operator-pw-for-the-test")


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())


def compose_user_rules() -> list[str]:
    """The words after `--user` in docker-compose.yml's redis command, quotes removed, password filled in."""
    command = " ".join(compose()["services"]["redis"]["command"])
    words = command.split("--user", 1)[1].split()
    return [w.strip('"').replace("$$FAIRDEAL_REDIS_PASSWORD", PASSWORD) for w in words]


def effective_conf(conf_text: str, port: int, data_dir: str) -> str:
    """`conf_text` (deploy/redis.conf) with its port and dir lines replaced, and the compose user's line and the
    test's operator appended (redis-server reads its command-line options as config lines after the file)."""
    text, ports = re.subn(r"(?m)^port \d+$", f"port {port}", conf_text)
    text, dirs = re.subn(r"(?m)^dir \S+$", f'dir "{data_dir}"', text)
    assert ports == 1 and dirs == 1, "deploy/redis.conf names one port and one dir"
    user, password = OPERATOR
    return (
        text
        + "\n# ---- added by the tests\nuser "
        + " ".join(compose_user_rules())
        + "\n"
        + f"user {user} on >{password} ~* &* +@all\n"
    )


class DeployedRedis:
    def __init__(self, tmp_path: pathlib.Path, conf_text: str | None = None):
        self.exe = redis_servers.require_redis_server()
        self.port = redis_servers.free_port()
        self.dir = tmp_path / "redis"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.conf = tmp_path / "redis-effective.conf"
        text = (DEPLOY / "redis.conf").read_text() if conf_text is None else conf_text
        self.conf.write_text(effective_conf(text, self.port, str(self.dir)))
        self.proc: subprocess.Popen | None = None
        self.url = f"redis://fairdeal:{PASSWORD}@127.0.0.1:{self.port}/0"

    def start(self) -> DeployedRedis:
        self.log = open(self.dir / "redis.log", "ab")
        self.proc = subprocess.Popen([self.exe, str(self.conf)], stdout=self.log, stderr=subprocess.STDOUT)
        wait_for(lambda: self.operator().ping(), what=f"redis-server from {self.conf.name} answering")
        wait_for(lambda: self.operator().info("persistence")["loading"] == 0, what="redis-server loaded its files")
        return self

    def operator(self) -> redis.Redis:
        user, password = OPERATOR
        return redis.Redis(
            host="127.0.0.1",
            port=self.port,
            username=user,
            password=password,
            decode_responses=True,
            socket_timeout=scaled(5),
        )

    def service(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, decode_responses=True, socket_timeout=scaled(5))

    def kill9(self) -> None:
        self._stop(signal.SIGKILL)

    def stop_cleanly(self) -> None:
        """SIGTERM: Redis shuts down as on SHUTDOWN (the AOF flushed and fsynced); `docker stop` sends it."""
        self._stop(signal.SIGTERM)

    def _stop(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)
        try:
            self.proc.wait(scaled(10))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("redis-server did not stop") from None
        finally:
            self.log.close()
        self.proc = None

    def rewrite_aof(self) -> None:
        op = self.operator()
        op.bgrewriteaof()
        wait_for(
            lambda: (
                not int(op.info("persistence")["aof_rewrite_in_progress"])
                and not int(op.info("persistence")["aof_rewrite_scheduled"])
            ),
            what="BGREWRITEAOF finished",
        )
        assert op.info("persistence")["aof_last_bgrewrite_status"] == "ok"

    def log_text(self) -> str:
        return (self.dir / "redis.log").read_text(errors="replace")

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.log.close()
            self.proc = None
