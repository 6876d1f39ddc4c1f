"""`fairdeal`: serve, sweep, keys, export. Shared options pick the data dir and the store, like rq's --url."""
from __future__ import annotations

import os
import sys

import click

from service.config import Config

EVENT_FEED_NOTE = ("The event feed (long-poll and server-sent events) holds a request open while it waits, "
                   "so the app runs under gunicorn's threaded worker class (gthread).")


class Ctx:
    def __init__(self, data_dir: str, redis_url: str | None):
        self.config = Config.from_env(data_dir=data_dir, redis_url=redis_url)

    def services(self):
        from service.app import build_services
        return build_services(self.config)


@click.group()
@click.option("--data-dir", "-d", envvar="FAIRDEAL_DATA", default="./var", show_default=True,
              help="Where the signing keys (and the embedded store) live. Env: FAIRDEAL_DATA.")
@click.option("--redis-url", "--url", "-u", envvar="FAIRDEAL_REDIS_URL", default=None,
              help="redis://host:port/0, or redis+cluster://host:port for Redis Cluster. Without it the "
                   "embedded SQLite store in the data dir is used. Env: FAIRDEAL_REDIS_URL.")
@click.pass_context
def main(ctx: click.Context, data_dir: str, redis_url: str | None) -> None:
    """The fairdeal game service."""
    ctx.obj = Ctx(data_dir, redis_url)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", "-p", default=8000, show_default=True, type=int)
@click.option("--workers", "-w", default=2, show_default=True, type=int)
@click.option("--threads", default=16, show_default=True, type=int, help="Threads per gunicorn worker.")
@click.option("--dev", is_flag=True, help="Use Flask's threaded development server instead of gunicorn.")
@click.pass_obj
def serve(obj: Ctx, host: str, port: int, workers: int, threads: int, dev: bool) -> None:
    """Run the API (under gunicorn with gthread workers when available)."""
    os.environ["FAIRDEAL_DATA"] = obj.config.data_dir
    if obj.config.redis_url:
        os.environ["FAIRDEAL_REDIS_URL"] = obj.config.redis_url
    obj.services()  # create the data dir and the signing key before any worker starts
    store = "Redis " + obj.config.redis_url if obj.config.redis_url else \
        "embedded SQLite in " + os.path.abspath(obj.config.data_dir)
    click.echo(f"fairdeal: store {store}; http://{host}:{port}/", err=True)
    click.echo(EVENT_FEED_NOTE, err=True)
    try:
        if dev:
            raise ImportError
        from gunicorn.app.base import BaseApplication
    except ImportError:
        click.echo("fairdeal: running Flask's threaded server (one process).", err=True)
        from service.app import create_app
        create_app(obj.config).run(host=host, port=port, threaded=True)
        return

    class App(BaseApplication):
        def load_config(self):
            for k, v in {"bind": f"{host}:{port}", "workers": workers, "threads": threads,
                         "worker_class": "gthread", "timeout": 60, "accesslog": None}.items():
                self.cfg.set(k, v)

        def load(self):
            from service.app import create_app
            return create_app(Config.from_env())

    App().run()


@main.command()
@click.option("--interval", default=1.0, show_default=True, help="Seconds between sweeps.")
@click.option("--once", is_flag=True, help="Sweep once and exit.")
@click.pass_obj
def sweep(obj: Ctx, interval: float, once: bool) -> None:
    """Advance games nobody calls: apply timeout moves and abandon silent games."""
    from service import logs, sweeper
    logs.setup()
    sweeper.run(obj.services(), interval, once)


@main.group(invoke_without_command=True)
@click.pass_context
def keys(ctx: click.Context) -> None:
    """Show the signing keys (created on first run); `keys rotate` makes a new current key."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(list_keys)


@keys.command("list")
@click.pass_obj
def list_keys(obj: Ctx) -> None:
    """List the public keys, the current one marked."""
    from service.signing import KeyRing
    for k in KeyRing(obj.config.data_dir).public_keys():
        click.echo(f"{'*' if k['current'] else ' '} {k['key']}  id {k['key_id']}  created {k['created']}")


@keys.command()
@click.pass_obj
def rotate(obj: Ctx) -> None:
    """Make a new current signing key. Old keys stay: games committed under them are signed with them,
    and their public keys stay published at /keys."""
    from service.signing import KeyRing
    entry = KeyRing(obj.config.data_dir).rotate()
    click.echo(f"new current key {entry['key']} (id {entry['key_id']})")


@main.command()
@click.option("--output", "-o", type=click.File("w"), default="-", help="File to write (default: stdout).")
@click.option("--since", type=float, default=None, help="Only games finished after this Unix time.")
@click.option("--limit", type=int, default=None)
@click.pass_obj
def export(obj: Ctx, output, since: float | None, limit: int | None) -> None:
    """Finished games' transcripts as JSON Lines, for auditors (`fairdeal-verify` checks each line)."""
    from service.export import export as run_export
    n = run_export(obj.services(), output, since, limit)
    click.echo(f"exported {n} transcripts", err=True)


if __name__ == "__main__":
    sys.exit(main())


# The terminal client: sit down against bots, play, verify (service/play.py).
from service.play import play  # noqa: E402

main.add_command(play)
