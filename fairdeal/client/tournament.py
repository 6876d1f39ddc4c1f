"""`fairdeal tournament`: organise and run a duplicate tournament on a service from the terminal, or show one's
standings (docs/tournaments.md; the API in docs/api.md, "Tournaments"). Each team given registers with a fresh
client seed committed with a nonce, revealed once registration closes; bots fill the other entries; the export is
saved and verified here, offline, before the standings are printed (the organiser's teams are played by the
policies, "play": "policies"). With --join a person enters someone's tournament: registers with a committed
seed, reveals it when registration closes, then plays each of its live tables as `fairdeal play` does (--auto:
the table's suggestion) until the tournament is over, and verifies the export."""

from __future__ import annotations

import json
import secrets
import sys
import time

import click

from fairdeal.client.http import Client, Problem, Unreachable
from fairdeal.client.session import Session
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
    body = {"rule_set": rule_set, "format": fmt, "rounds": rounds, "play": "policies"}
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


def join(c: Client, tid: str, name: str, members: list[str], auto: bool, wait: float = 3600.0) -> tuple[dict, dict]:
    """Enter tournament `tid` as a person and play its tables to the end: (the tournament, its export)."""
    seed, nonce = secrets.token_hex(16), new_nonce()
    answer = c.post(
        f"/tournaments/{tid}/entries",
        {"name": name, "members": members, "client_seed_commitment": entry_commitment(tid, seed, nonce)},
    )
    entry = answer["you"]["entry"]
    click.echo(f"registered as entry {entry} of tournament {tid}; waiting for registration to close")
    deadline = time.monotonic() + wait
    revealed, played = False, set()
    while True:
        if time.monotonic() > deadline:
            raise click.ClickException(f"tournament {tid} is not over after {wait:.0f} s")
        t = c.get(f"/tournaments/{tid}")
        if t["status"] == "over":
            return t, c.get(f"/tournaments/{tid}/export")
        if t["status"] == "revealing" and not revealed:
            c.post(f"/tournaments/{tid}/entries/{entry}/reveal", {"client_seed": seed, "nonce": nonce})
            revealed = True
            click.echo("seed revealed; waiting for the start")
        nxt = c.get(f"/tournaments/{tid}/me")["next_table"] if t["status"] == "playing" else None
        if nxt is not None and nxt["game_id"] not in played:
            played.add(nxt["game_id"])
            click.echo(f"round {nxt['round']}: table {nxt['table']} ({nxt['game_id']}), seat {nxt['seat']}")
            rules = t["rules"]
            game = Session(c, nxt["game_id"], auto, None, rules["id"], rules["players"]).run()
            click.echo(f"table {nxt['game_id']}: {game['status']}")
            continue
        time.sleep(POLL)


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
@click.option("--join", "join_id", default=None, metavar="ID", help="Enter this tournament as a person and play it.")
@click.option("--name", default=None, help="With --join: your entry's name (default: your first member's).")
@click.option("--member", "join_members", multiple=True, help="With --join: a member of your entry; repeatable.")
@click.option("--auto", is_flag=True, help="With --join: play each table's suggestion (for demos and tests).")
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
    join_id: str | None = None,
    name: str | None = None,
    join_members: tuple[str, ...] = (),
    auto: bool = False,
) -> None:
    """Run a duplicate tournament (you organise it; bots fill it) and verify it, or --show one's standings."""
    c = Client(url)
    try:
        me = c.post("/players", {"name": (name or (join_members or ["player"])[0]) if join_id else "organiser"})
        c.token = me["token"]
        if show_id:
            click.echo(standings_text(c.get(f"/tournaments/{show_id}")))
            return
        if join_id:
            if not join_members:
                raise click.BadParameter("--join needs your entry's members: --member NAME (repeat for a team)")
            t, export = join(c, join_id, name or join_members[0], list(join_members), auto)
        else:
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
