"""`fairdeal`: the one command. Service commands (serve, sweep, keys, export) need the `service` extras; the
terminal client (`play`) needs only what the verifier needs, so it works in a verifier-only install.

Options shared by the service commands pick the data dir and the store, like rq's --url; every option has an
environment variable."""

from __future__ import annotations

import importlib.util
import sys

import click

from fairdeal.client.play import play
from fairdeal.client.tournament import tournament

SERVICE_COMMANDS = ("serve", "sweep", "keys", "export", "archive")
SERVICE_MODULES = ("flask", "redis")


class Ctx:
    """What the group's options say; the service commands build their Config from it."""

    def __init__(self, data_dir: str, redis_url: str | None):
        self.data_dir, self.redis_url = data_dir, redis_url


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(None, "--version", "-V", package_name="fairdeal", prog_name="fairdeal")
@click.option(
    "--data-dir",
    "-d",
    envvar="FAIRDEAL_DATA",
    default="./var",
    show_default=True,
    help="Where the signing keys (and the embedded store) live. Env: FAIRDEAL_DATA.",
)
@click.option(
    "--redis-url",
    "--url",
    "-u",
    envvar="FAIRDEAL_REDIS_URL",
    default=None,
    help="redis://host:port/0, or redis+cluster://host:port for Redis Cluster. Without it the "
    "embedded SQLite store in the data dir is used. Env: FAIRDEAL_REDIS_URL.",
)
@click.pass_context
def main(ctx: click.Context, data_dir: str, redis_url: str | None) -> None:
    """fairdeal: run the provably fair card-game service, or sit down at one of its tables."""
    ctx.obj = Ctx(data_dir, redis_url)


def _missing_extras(name: str, reason: str) -> click.Command:
    """A stand-in for a service command when the service extras are not installed: says how to get them."""

    @click.command(
        name, context_settings={"ignore_unknown_options": True, "allow_extra_args": True}, add_help_option=False
    )
    def stand_in() -> None:
        click.echo(
            f"fairdeal {name} needs the service extras ({reason}). Install them with: "
            f"pip install 'fairdeal[service]'  (from a checkout: pip install '.[service]')",
            err=True,
        )
        sys.exit(2)

    stand_in.help = "(needs the service extras: pip install 'fairdeal[service]')"
    return stand_in


def _missing_service_module() -> str | None:
    """The first service dependency this install lacks (None: the service extras are installed)."""
    return next((m for m in SERVICE_MODULES if importlib.util.find_spec(m) is None), None)


_missing = _missing_service_module()
if _missing is not None:  # a verifier-only install
    for _name in SERVICE_COMMANDS:
        main.add_command(_missing_extras(_name, f"no module named {_missing!r}"))
else:
    from fairdeal.service import cli as service_cli

    for _command in service_cli.COMMANDS:
        main.add_command(_command)

main.add_command(play)
main.add_command(tournament)

if __name__ == "__main__":
    sys.exit(main())
