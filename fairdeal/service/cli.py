"""The service's commands of `fairdeal` (fairdeal.cli adds them to the group): serve, sweep, keys, export."""
from __future__ import annotations

import os

import click

from fairdeal.service.config import Config

EVENT_FEED_NOTE = ("The event feed (long-poll and server-sent events) holds a request open while it waits: "
                   "gunicorn's gevent workers hold thousands of them each, at no CPU while they wait.")


def services(obj):
    """The service objects for the group's options (fairdeal.cli.Ctx)."""
    from fairdeal.service.app import build_services
    return build_services(config(obj))


def config(obj) -> Config:
    return Config.from_env(data_dir=obj.data_dir, redis_url=obj.redis_url)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, envvar="FAIRDEAL_HOST")
@click.option("--port", "-p", default=8000, show_default=True, type=int, envvar="FAIRDEAL_PORT")
@click.option("--workers", "-w", default=None, type=int, envvar="FAIRDEAL_WORKERS",
              help="gunicorn worker processes (default: one per core, at most 8). Env: FAIRDEAL_WORKERS.")
@click.option("--connections", default=None, type=int, envvar="FAIRDEAL_CONNECTIONS",
              help="Connections each worker holds at once, waiting ones included (default 10000). "
                   "Env: FAIRDEAL_CONNECTIONS.")
@click.option("--dev", is_flag=True, help="Use Flask's threaded development server instead of gunicorn.")
@click.pass_obj
def serve(obj, host: str, port: int, workers: int | None, connections: int | None, dev: bool) -> None:
    """Run the API under gunicorn with gevent workers (Flask's threaded server without gunicorn or --dev)."""
    from fairdeal.service import serving
    cfg = config(obj)
    os.environ["FAIRDEAL_DATA"] = cfg.data_dir
    if cfg.redis_url:
        os.environ["FAIRDEAL_REDIS_URL"] = cfg.redis_url
    services(obj)  # create the data dir and the signing key before any worker starts
    store = "Redis " + cfg.redis_url if cfg.redis_url else "embedded SQLite in " + os.path.abspath(cfg.data_dir)
    click.echo(f"fairdeal: store {store}; http://{host}:{port}/", err=True)
    try:
        if dev:
            raise ImportError
        from gunicorn.app.base import BaseApplication
        import gunicorn.workers.ggevent  # noqa: F401 - the worker class, with all it imports (gevent, ...)
    except (ImportError, RuntimeError):  # RuntimeError: gunicorn finds the installed gevent too old
        click.echo("fairdeal: running Flask's threaded server (one process, a thread per waiting request).",
                   err=True)
        from fairdeal.service.app import create_app
        create_app(cfg).run(host=host, port=port, threaded=True)
        return
    click.echo(EVENT_FEED_NOTE, err=True)
    options = serving.settings(f"{host}:{port}", workers or serving.default_workers(),
                               connections or serving.DEFAULT_CONNECTIONS)

    class App(BaseApplication):
        def load_config(self):
            for k, v in options.items():
                if k in self.cfg.settings:  # a setting this gunicorn version does not know is left out
                    self.cfg.set(k, v)
            self.cfg.set("on_starting", serving.on_starting)

        def load(self):
            from fairdeal.service.app import create_app
            return create_app(Config.from_env())

    App().run()


@click.command()
@click.option("--interval", default=1.0, show_default=True, help="Seconds between sweeps.")
@click.option("--once", is_flag=True, help="Sweep once and exit.")
@click.pass_obj
def sweep(obj, interval: float, once: bool) -> None:
    """Advance games nobody calls: apply timeout moves and abandon silent games."""
    from fairdeal.service import logs, sweeper
    logs.setup()
    sweeper.run(services(obj), interval, once)


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
        click.echo(f"{'*' if k['current'] else ' '} {k['key']}  id {k['key_id']}  created {k['created']}")


@keys.command()
@click.pass_obj
def rotate(obj) -> None:
    """Make a new current signing key. Old keys stay: games committed under them are signed with them,
    and their public keys stay published at /keys."""
    from fairdeal.service.signing import KeyRing
    entry = KeyRing(config(obj).data_dir).rotate()
    click.echo(f"new current key {entry['key']} (id {entry['key_id']})")


@click.command()
@click.option("--output", "-o", type=click.File("w"), default="-", help="File to write (default: stdout).")
@click.option("--since", type=float, default=None, help="Only games finished after this Unix time.")
@click.option("--limit", type=int, default=None)
@click.pass_obj
def export(obj, output, since: float | None, limit: int | None) -> None:
    """Finished games' transcripts as JSON Lines, for auditors (`fairdeal-verify` checks each line)."""
    from fairdeal.service.export import export as run_export
    n = run_export(services(obj), output, since, limit)
    click.echo(f"exported {n} transcripts", err=True)


COMMANDS = (serve, sweep, keys, export)
