"""`fairdeal tournament`: organise and run a duplicate tournament on a service from the terminal, or show one's
standings (docs/tournaments.md; the API in docs/api.md, "Tournaments"). Each team given registers with a fresh
client seed committed with a nonce, revealed once registration closes; bots fill the other entries; the export is
saved and verified here, offline, before the standings are printed."""

from __future__ import annotations

import json
import secrets
import sys
import time

import click

from fairdeal.client.http import Client, Problem, Unreachable
from fairdeal.core.fairness import new_nonce
from fairdeal.core.reporttext import render_tournament
from fairdeal.core.tournament.check import verify_tournament
from fairdeal.core.tournament.seeds import entry_commitment

DEFAULT_URL = "http://127.0.0.1:8000"
POLL = 0.5  # seconds between looks while the sweeper plays the rounds


def _team(text: str) -> tuple[str, list[str]]:
    name, sep, members = text.partition("=")
    if not sep or not name.strip() or not members.strip():
        raise click.BadParameter(f"a team is NAME=MEMBER[,MEMBER], not {text!r}")
    return name.strip(), [m.strip() for m in members.split(",")]


def standings_text(t: dict) -> str:
    names = {e["entry"]: e["name"] for e in t["entries"]}
    bots = {e["entry"] for e in t["entries"] if e["bot"]}
    lines = [
        f"tournament {t['id']} ({t['status']}): {t['rules']['id']}, {t['format']}, {t['rounds']} rounds",
        f"{'rank':>4}  {'entry':24} {'points':>7} {'mp':>5} {'buchholz':>9}",
    ]
    for s in t["standings"]:
        name = names[s["entry"]] + (" (bot)" if s["entry"] in bots else "")
        lines.append(f"{s['rank']:>4}  {name:24} {s['points']:>7} {s['matchpoints']:>5} {s['buchholz']:>9}")
    return "\n".join(lines)


def run(
    c: Client,
    rule_set: str,
    players: int | None,
    fmt: str,
    rounds: int,
    teams: list[tuple[str, list[str]]],
    bots: int,
    size: int,
    wait: float = 600.0,
) -> tuple[dict, dict]:
    """The whole tournament: (the tournament as the service shows it, its export)."""
    body = {"rule_set": rule_set, "format": fmt, "rounds": rounds}
    if players is not None:
        body["players"] = players
    t = c.post("/tournaments", body)
    tid = t["id"]
    kept = {}
    for name, members in teams:
        seed, nonce = secrets.token_hex(16), new_nonce()
        answer = c.post(
            f"/tournaments/{tid}/entries",
            {"name": name, "members": members, "client_seed_commitment": entry_commitment(tid, seed, nonce)},
        )
        kept[answer["you"]["entry"]] = (seed, nonce)
    for i in range(bots):
        c.post(
            f"/tournaments/{tid}/entries",
            {"name": f"bots {i + 1}", "members": [f"bot {i + 1}.{m + 1}" for m in range(size)], "bot": True},
        )
    c.post(f"/tournaments/{tid}/close")
    for entry, (seed, nonce) in kept.items():
        c.post(f"/tournaments/{tid}/entries/{entry}/reveal", {"client_seed": seed, "nonce": nonce})
    t = c.post(f"/tournaments/{tid}/start")
    deadline = time.monotonic() + wait
    while t["status"] != "over":  # the service's sweeper plays a round a pass
        if time.monotonic() > deadline:
            raise click.ClickException(
                f"tournament {tid} is still being played after {wait:.0f} s (round "
                f"{t['round']} of {t['rounds']}); see it with --show {tid}"
            )
        time.sleep(POLL)
        t = c.get(f"/tournaments/{tid}")
    return t, c.get(f"/tournaments/{tid}/export")


@click.command("tournament")
@click.option(
    "--server",
    "url",
    envvar="FAIRDEAL_SERVER",
    default=DEFAULT_URL,
    show_default=True,
    help="The service. Env: FAIRDEAL_SERVER.",
)
@click.option("--rules", "rule_set", default="spades", show_default=True, help="The rule set's id.")
@click.option("--players", type=int, default=None, help="Table size (default: the rule set's).")
@click.option("--format", "fmt", type=click.Choice(["swiss", "round-robin"]), default="swiss", show_default=True)
@click.option("--rounds", type=click.IntRange(1, 20), default=2, show_default=True)
@click.option(
    "--team",
    "teams",
    multiple=True,
    metavar="NAME=MEMBER[,MEMBER]",
    help="An entry to register (two members for a partnership rule set, one otherwise); repeatable.",
)
@click.option("--bots", type=click.IntRange(0, 128), default=3, show_default=True, help="Bot entries to add.")
@click.option("--show", "show_id", default=None, metavar="ID", help="Only show this tournament's standings.")
@click.option("--out", default=None, help="Where to save the export (default: fairdeal-tournament-<id>.json).")
def tournament(
    url: str,
    rule_set: str,
    players: int | None,
    fmt: str,
    rounds: int,
    teams: tuple[str, ...],
    bots: int,
    show_id: str | None,
    out: str | None,
) -> None:
    """Run a duplicate tournament (you organise it; bots fill it) and verify it, or --show one's standings."""
    c = Client(url)
    try:
        me = c.post("/players", {"name": "organiser"})
        c.token = me["token"]
        if show_id:
            click.echo(standings_text(c.get(f"/tournaments/{show_id}")))
            return
        parsed = [_team(t) for t in teams]
        size = len(parsed[0][1]) if parsed else (2 if (players or 4) == 4 and rule_set != "twenty-down" else 1)
        t, export = run(c, rule_set, players, fmt, rounds, parsed, bots, size)
    except Problem as exc:
        click.echo(f"the service refused: {exc.detail} ({exc.code or exc.status})", err=True)
        sys.exit(1)
    except Unreachable as exc:
        click.echo(f"no answer from {url} ({exc}): is `fairdeal serve` running?", err=True)
        sys.exit(2)
    path = out or f"fairdeal-tournament-{t['id']}.json"
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(export, fh)
    report = verify_tournament(export)
    click.echo(standings_text(t))
    click.echo(render_tournament(report, path))
    click.echo(f"verify it yourself: fairdeal-verify tournament {path} --key <the service's key, GET /keys>")
    sys.exit(report.exit_code)
