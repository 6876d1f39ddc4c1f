"""The service's commands of `fairdeal` (fairdeal.cli adds them to the group): serve, sweep, keys, export."""

from __future__ import annotations

import os
import shutil
from datetime import datetime, timezone

import click

from fairdeal.service.config import Config, ConfigError, without_password

EVENT_FEED_NOTE = (
    "The event feed (long-poll and server-sent events) holds a request open while it waits: "
    "gunicorn's gevent workers hold thousands of them each, at no CPU while they wait."
)


def services(obj):
    """The service objects for the group's options (fairdeal.cli.Ctx)."""
    from fairdeal.service.app import build_services

    return build_services(config(obj))


class BadConfig(click.ClickException):
    """A setting the service cannot use: one line naming the variable, exit status 2, no traceback."""

    exit_code = 2


def config(obj, **options) -> Config:
    try:
        return Config.from_env(data_dir=obj.data_dir, redis_url=obj.redis_url, **options)
    except ConfigError as e:
        raise BadConfig(str(e)) from None


def _bind(bind: str, host: str | None, port: int | None) -> str:
    """FAIRDEAL_BIND (or --bind) with --host and --port replacing its parts when given."""
    h, _, p = ("127.0.0.1", "", "8000") if bind.startswith("unix:") else bind.rpartition(":")
    return f"{host if host is not None else h}:{port if port is not None else p}"


@click.command()
@click.option(
    "--bind", "-b", default=None, help="host:port or unix:/path. Env: FAIRDEAL_BIND. [default: 127.0.0.1:8000]"
)
@click.option("--host", default=None, help="The host part of the bind address.")
@click.option("--port", "-p", default=None, type=int, help="The port part of the bind address.")
@click.option(
    "--workers",
    "-w",
    default=None,
    type=int,
    help="gunicorn worker processes. Env: FAIRDEAL_WORKERS. [default: one per core, at most 8]",
)
@click.option(
    "--connections",
    default=None,
    type=int,
    help="Connections each worker holds at once, waiting ones included. Env: FAIRDEAL_CONNECTIONS. [default: 10000]",
)
@click.option("--dev", is_flag=True, help="Use Flask's threaded development server instead of gunicorn.")
@click.option(
    "--sweeper/--no-sweeper",
    default=None,
    help="Start a sweeper process beside the server (stopped with it). Env: FAIRDEAL_SWEEPER. [default: on]",
)
@click.pass_obj
def serve(
    obj,
    bind: str | None,
    host: str | None,
    port: int | None,
    workers: int | None,
    connections: int | None,
    dev: bool,
    sweeper: bool | None,
) -> None:
    """Run the API under gunicorn with gevent workers (Flask's threaded server without gunicorn, or --dev), and a
    sweeper process beside it (--no-sweeper: run `fairdeal sweep` elsewhere)."""
    from fairdeal.service import serving

    cfg = config(obj, bind=bind, workers=workers, connections=connections, sweeper=sweeper)
    if host is not None or port is not None:
        cfg = config(obj, bind=_bind(cfg.bind, host, port), workers=workers, connections=connections, sweeper=sweeper)
    os.environ["FAIRDEAL_DATA"] = cfg.data_dir
    if cfg.redis_url:
        os.environ["FAIRDEAL_REDIS_URL"] = cfg.redis_url
    own_metrics_dir = not os.environ.get(serving.MULTIPROC_ENV)
    metrics_dir = serving.metrics_dir()  # before the app (and prometheus_client) is imported here
    services(obj)  # create the data dir and the signing key before any worker starts
    child = serving.start_sweeper(cfg.data_dir) if cfg.sweeper else None
    try:
        _serve(cfg, dev)
    finally:
        serving.stop_sweeper(child)
        if own_metrics_dir:
            shutil.rmtree(metrics_dir, ignore_errors=True)
            os.environ.pop(serving.MULTIPROC_ENV, None)


def _serve(cfg: Config, dev: bool) -> None:
    from fairdeal.service import serving

    bind = cfg.bind
    store = (
        "Redis " + without_password(cfg.redis_url)
        if cfg.redis_url
        else "embedded SQLite in " + os.path.abspath(cfg.data_dir)
    )
    click.echo(f"fairdeal: store {store}; listening on {bind}", err=True)
    try:
        if dev:
            raise ImportError
        import gunicorn.workers.ggevent  # noqa: F401 - the worker class, with all it imports (gevent, ...)
        from gunicorn.app.base import BaseApplication
    except (ImportError, RuntimeError):  # RuntimeError: gunicorn finds the installed gevent too old
        click.echo("fairdeal: running Flask's threaded server (one process, a thread per waiting request).", err=True)
        from fairdeal.service.app import create_app

        host, _, port = bind.rpartition(":")
        create_app(cfg).run(host=host.strip("[]"), port=int(port), threaded=True)
        return
    click.echo(EVENT_FEED_NOTE, err=True)
    options = serving.settings(cfg)

    class App(BaseApplication):
        def load_config(self):
            for k, v in options.items():
                if k in self.cfg.settings:  # a setting this gunicorn version does not know is left out
                    self.cfg.set(k, v)
            self.cfg.set("on_starting", serving.on_starting)
            self.cfg.set("child_exit", serving.child_exit)
            self.cfg.set("post_worker_init", serving.post_worker_init)

        def load(self):
            from fairdeal.service import gunicorn_problems
            from fairdeal.service.app import create_app

            gunicorn_problems.install()
            return create_app(Config.from_env())

    App().run()


@click.command()
@click.option(
    "--interval", default=None, type=float, help="Seconds between sweeps. Env: FAIRDEAL_SWEEP_INTERVAL. [default: 1]"
)
@click.option("--once", is_flag=True, help="Sweep once and exit.")
@click.option(
    "--metrics",
    "metrics_at",
    default=None,
    metavar="HOST:PORT",
    help="Serve this sweeper's metrics (Prometheus) there. Env: FAIRDEAL_SWEEP_METRICS. [default: none; "
    "a sweeper `fairdeal serve` starts shows in the server's /metrics]",
)
@click.pass_obj
def sweep(obj, interval: float | None, once: bool, metrics_at: str | None) -> None:
    """Advance games nobody calls: apply timeout moves and abandon silent games; archive finished games past
    their retention."""
    from fairdeal.service import logs, sweeper
    from fairdeal.service.app import build_services

    cfg = config(obj, sweep_interval=interval, sweep_metrics=metrics_at)
    logs.setup(cfg.log_level)
    svc = build_services(cfg)
    if cfg.sweep_metrics and not once:
        svc.metrics.serve(cfg.sweep_metrics)
    sweeper.run(svc, cfg.sweep_interval, once)


@click.group(invoke_without_command=True)
@click.pass_context
def keys(ctx: click.Context) -> None:
    """Show the signing keys (created on first run); `keys rotate` makes a new current key."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(list_keys)


@keys.command("list")
@click.pass_obj
def list_keys(obj) -> None:
    """List the public keys, the current one marked."""
    from fairdeal.service.signing import KeyRing

    for k in KeyRing(config(obj).data_dir).public_keys():
        retired = f"  retired {k['retired']}" if k["retired"] else ""
        click.echo(f"{'*' if k['current'] else ' '} {k['key']}  id {k['key_id']}  created {k['created']}{retired}")


@keys.command()
@click.pass_obj
def rotate(obj) -> None:
    """Make a new current signing key. Old keys stay: games committed under them are signed with them,
    and their public keys stay published at /keys."""
    from fairdeal.service.signing import KeyRing

    entry = KeyRing(config(obj).data_dir).rotate()
    click.echo(f"new current key {entry['key']} (id {entry['key_id']})")


class Moment(click.ParamType):
    """A point in time: a date (UTC midnight), an ISO 8601 time (UTC unless it says otherwise) or Unix
    seconds; converted to Unix seconds."""

    name = "TIME"

    def convert(self, value, param, ctx) -> float:
        if isinstance(value, (int, float)):
            return float(value)
        text = value.strip()
        try:
            return float(text)
        except ValueError:
            pass
        try:
            moment = datetime.fromisoformat(text[:-1] + "+00:00" if text[-1:] in "zZ" and text else text)
        except ValueError:
            self.fail(
                f"{value!r} is not a date (2026-11-01), an ISO 8601 time (2026-11-01T18:30:00Z) "
                "or Unix seconds (1793491200).",
                param,
                ctx,
            )
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        return moment.timestamp()


@click.command()
@click.option("--output", "-o", type=click.File("w"), default="-", help="File to write (default: stdout).")
@click.option(
    "--since",
    type=Moment(),
    default=None,
    help="Only games finished after this time: a date (2026-11-01, UTC), an ISO 8601 time "
    "(2026-11-01T18:30:00Z) or Unix seconds.",
)
@click.option("--limit", type=int, default=None)
@click.pass_obj
def export(obj, output, since: float | None, limit: int | None) -> None:
    """Finished games' transcripts as JSON Lines, for auditors (`fairdeal-verify` checks each line)."""
    from fairdeal.service.export import export as run_export

    n = run_export(services(obj), output, since, limit)
    click.echo(f"exported {n} transcripts", err=True)


@click.command()
@click.option(
    "--to",
    "archive_dir",
    default=None,
    type=click.Path(file_okay=False),
    help="Folder of the archive (JSON Lines, a file a day). Env: FAIRDEAL_ARCHIVE.",
)
@click.option(
    "--retention",
    default=None,
    type=float,
    help="Seconds a finished game stays in the store after it ended. Env: FAIRDEAL_RETENTION. [default: 604800]",
)
@click.pass_obj
def archive(obj, archive_dir: str | None, retention: float | None) -> None:
    """Archive the finished games past their retention (what the sweeper does each round), then delete them from
    the store. Without an archive folder nothing is deleted."""
    from fairdeal.service import retention as retain
    from fairdeal.service.app import build_services

    cfg = config(obj, archive_dir=archive_dir, retention=retention)
    if not cfg.archive_dir:
        raise BadConfig("no archive folder: give --to or FAIRDEAL_ARCHIVE (games are deleted only once archived)")
    n = retain.run_all(build_services(cfg))
    click.echo(f"archived {n} games to {cfg.archive_dir}", err=True)


COMMANDS = (serve, sweep, keys, export, archive)
