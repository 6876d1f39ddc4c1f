"""`fairdeal play`: a table in the terminal. Sit down against bots (or open a table and wait for people), join
someone else's table, or watch one; play with a live clock; and verify the finished game on the spot.

A client of the HTTP API (docs/api.md) that uses only the standard library for HTTP, so it runs wherever the
verifier is installed. The game is told as the web table tells it: every move in order, "the table played 7H for
you" when the clock runs out, each trick's winner, each hand's result (the points each side took) right after its
last move. The verification at the end runs the verifier's own code in-process and prints the `fairdeal-verify`
command that repeats it.
"""

from __future__ import annotations

import getpass
import json
import os
import sys
import time
from typing import Any

import click

from fairdeal.client import blind, resume, seating
from fairdeal.client.blind import BlindTrouble
from fairdeal.client.blind_session import blind_session
from fairdeal.client.ending import _fetch_later, verify_saved
from fairdeal.client.http import Client, Problem, Unreachable
from fairdeal.client.prompt import TIMEOUT, read_line
from fairdeal.client.rules import fetch_rules, order_lines, rules_lines
from fairdeal.client.seating import Distrust, check_seating, new_client_seed
from fairdeal.client.session import PATIENCE, Session, leave_consequence
from fairdeal.client.sheet import fetch_sheet, sheet_lines
from fairdeal.client.stream import GaveUp, backoff
from fairdeal.client.text import Table, parse_move, result_lines, state_lines, throw_hint
from fairdeal.core import fairness

__all__ = [
    "play",
    "Table",
    "parse_move",
    "state_lines",
    "throw_hint",
    "Session",
    "parse_setting",
    "Distrust",
    "check_seating",
    "new_client_seed",
]

DEFAULT_URL = "http://127.0.0.1:8000"
NOT_RUNNING = "Is the service running? Start it with: fairdeal serve"


# ------------------------------------------------------------------------------------------ reading input


def parse_setting(text: str) -> tuple[str, Any]:
    """NAME=VALUE; the value is JSON when it reads as JSON (true, 3, "x"), else the text itself."""
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise click.BadParameter(f"a setting is NAME=VALUE, not {text!r}")
    try:
        return name.strip(), json.loads(raw)
    except ValueError:
        return name.strip(), raw


# ------------------------------------------------------------------------------------------ command


def _settings_option(ctx, param, values) -> dict | None:
    return dict(parse_setting(v) for v in values) if values else None


def _clocks_option(ctx, param, text: str | None) -> Any:
    if text is None:
        return None
    if text == "off":
        return "off"
    card, sep, other = text.partition(",")
    try:
        return {"card": int(card), "other": int(other if sep else card)}
    except ValueError:
        raise click.BadParameter("clocks are 'off' or CARD,OTHER whole seconds, e.g. 60,90") from None


@click.command("play")
@click.option(
    "--server",
    "url",
    envvar="FAIRDEAL_SERVER",
    default=DEFAULT_URL,
    show_default=True,
    help="The service. Env: FAIRDEAL_SERVER.",
)
@click.option("--rules", "rule_set", default="120s-auction", show_default=True, help="The rule set's id.")
@click.option(
    "--setting",
    "settings",
    multiple=True,
    metavar="NAME=VALUE",
    callback=_settings_option,
    help="A table setting (repeatable); the value is read as JSON when it can be.",
)
@click.option("--players", type=int, default=None, help="Table size (default: the rule set's).")
@click.option(
    "--client-seed",
    default=None,
    help="Your seed, mixed into the deal (default: a random one). It is committed to when you sit down "
    "and revealed once the table starts; any words will do.",
)
@click.option("--name", default=None, help="Your name at the table (default: your login name).")
@click.option(
    "--clocks",
    default=None,
    metavar="off|CARD,OTHER",
    callback=_clocks_option,
    help="Seconds to play a card and for other moves, or 'off' (default: the table's).",
)
@click.option(
    "--wait",
    "wait_for_players",
    is_flag=True,
    help="Open the table and wait for others to join (they use --join); Enter starts it, bots take the empty seats.",
)
@click.option("--join", "join_id", default=None, metavar="TABLE", help="Sit down at someone else's table.")
@click.option(
    "--blind",
    "blind_table",
    is_flag=True,
    help="Open a dealer-blind table (Spades): the players' clients deal the cards between them and the server "
    "never sees a hand (docs/blind.md). A joiner follows the table's setting.",
)
@click.option("--seat", type=int, default=None, help="With --join: the seat to take (default: the first free one).")
@click.option("--watch", "watch_id", default=None, metavar="TABLE", help="Watch a table (any table, any time).")
@click.option("--lobby", is_flag=True, help="List the open tables and leave.")
@click.option("--auto", is_flag=True, help="Play the table's suggestion (else the first legal move): for demos.")
@click.option(
    "--hands",
    type=click.IntRange(min=1),
    default=None,
    help="Leave the table after this many hands (the table's bot plays on for you; alone with bots, the "
    "game ends as abandoned).",
)
@click.option(
    "--resume",
    "resume_id",
    default=None,
    metavar="TABLE",
    help="Come back to your seat at TABLE (after a crash, an outage or leaving), with the token saved "
    "when you sat down; --seat picks one of several.",
)
@click.option(
    "--on-leave",
    "on_leave",
    type=click.Choice(["stand-in", "end"]),
    default=None,
    help="When opening a table: whether a player who leaves is stood in for by the table's bot "
    "(default) or ends the game.",
)
@click.option(
    "--patience",
    type=click.FloatRange(min=0),
    default=PATIENCE,
    show_default=True,
    help="Seconds to wait out an outage of the service, retrying with backoff.",
)
@click.option(
    "--out",
    default=None,
    help="Where to save the transcript (default: fairdeal-game-<id>-seat<N>.json, or -watch.json).",
)
def play(
    url,
    rule_set,
    settings,
    players,
    client_seed,
    name,
    clocks,
    wait_for_players,
    join_id,
    blind_table,
    seat,
    watch_id,
    lobby,
    auto,
    hands,
    resume_id,
    on_leave,
    patience,
    out,
) -> None:
    """Sit down at a table (against bots, or with people), play a game, and verify it when it ends."""
    if client_seed is not None:
        try:
            fairness.validate_client_seed(client_seed)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--client-seed") from None
    c = Client(url)
    try:
        if lobby:
            ok = _lobby(c)
        elif watch_id:
            ok = _watch(c, watch_id, name, out, patience)
        elif resume_id:
            ok = _resume(c, resume_id, seat, auto, hands, out, patience)
        else:
            client_seed = client_seed if client_seed is not None else new_client_seed()
            me = _sign_up(c, name)
            if join_id:
                table, nonce = _join(c, join_id, seat, client_seed, me)
            else:
                table, nonce = _open(
                    c, rule_set, settings, players, clocks, client_seed, wait_for_players, on_leave, me, blind_table
                )
            table = _until_dealt(c, table, client_seed, nonce)
            ok = table["status"] != "over" and _play_and_verify(c, table, client_seed, auto, hands, out, patience)
    except (Unreachable, GaveUp) as exc:
        click.echo(f"No answer from {c.base} ({exc}). {NOT_RUNNING}", err=True)
        if GAME[0]:
            click.echo(
                f"Your seat is kept: come back with fairdeal play --server {c.base} --resume {GAME[0]}", err=True
            )
        sys.exit(2)
    except ValueError as exc:  # --resume without a saved seat
        click.echo(str(exc), err=True)
        sys.exit(2)
    except Problem as exc:
        click.echo(f"The service refused: {exc.detail}", err=True)
        sys.exit(2)
    except Distrust as exc:
        click.echo(
            f"Not revealing your client seed: {exc}. The table cannot start; it is cancelled at its reveal "
            f"deadline, with its signed trail.",
            err=True,
        )
        sys.exit(1)
    except BlindTrouble as exc:
        click.echo(f"Stopping, revealing nothing: {exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        back = f" Come back with: fairdeal play --server {c.base} --resume {GAME[0]}" if GAME[0] else ""
        click.echo(
            f"\nInterrupted. The game goes on at the table (the table's bot stands in for you while you are "
            f"away).{back}",
            err=True,
        )
        sys.exit(130)
    sys.exit(0 if ok else 1)


GAME: list = [None]  # the table this run sits at, for the messages that say how to come back


def _sign_up(c: Client, name: str | None) -> dict:
    me = c.post("/players", {"name": (name or _login_name())[:40]})
    c.token = me["token"]
    return me


def _keep_seat(c: Client, table: dict, me: dict, client_seed: str, nonce: str, mine=None) -> None:
    """Save what it takes to come back to this seat (the token, the seed and nonce, later the receipts; at a
    dealer-blind table the seat's σ and identity key, `mine`)."""
    GAME[0] = table["id"]
    resume.save(
        {
            "server": c.base,
            "game_id": table["id"],
            "seat": table["you"]["seat"],
            "token": c.token,
            "player": me.get("id"),
            "name": me.get("name"),
            "client_seed": client_seed,
            "nonce": nonce,
            "key": table.get("key"),
            "commitment": table.get("commitment"),
            "receipts": {},
            **({"blind": mine.to_json()} if mine is not None else {}),
        }
    )


def _describe(table: dict, c: Client | None = None) -> None:
    click.echo(f"Table {table['id']}: {table['title']}, {table['players']} players, hosted by {table['host']}")
    click.echo(
        f"Commitment (fingerprint of the server's secret seed, fixed before anyone sat down):\n  {table['commitment']}"
    )
    help_ = fetch_rules(c, table["id"]) if c is not None else None
    if help_:
        click.echo("Rules:")
        for line in rules_lines(help_) + order_lines(help_, None):
            click.echo(line)
        click.echo("(At your turn, ? shows the trump order again.)")
    else:
        click.echo(f"Rules: {table['rules']}")
    if table.get("reminder"):
        click.echo(f"Reminder: {table['reminder']}")


def _seats_line(table: dict) -> str:
    you = (table.get("you") or {}).get("seat")
    return "Seats: " + ", ".join(
        f"{s['seat']} "
        + (
            f"{s['name']} (bot)"
            if s["bot"]
            else f"{s['name']} (you)"
            if s["seat"] == you
            else s["name"]
            if s["taken"]
            else "empty"
        )
        for s in table["seats"]
    )


def _open(
    c: Client, rule_set, settings, players, clocks, client_seed, wait_for_players, on_leave=None, me=None, blind_=False
) -> tuple[dict, str]:
    """Open a table, commit to our seed at our seat, wait for players if asked, start it. (table, nonce)"""
    body: dict[str, Any] = {"rule_set": rule_set}
    if settings:
        body["settings"] = settings
    if players is not None:
        body["players"] = players
    if clocks is not None:
        body["clocks"] = clocks
    if on_leave is not None:
        body["on_leave"] = on_leave
    if blind_:
        body["blind"] = True
    table = c.post("/tables", body)
    _describe(table, c)
    me_blind = blind.new_seat(table, table["you"]["seat"]) if table.get("blind") else None
    mine = seating.commit(c, table["id"], client_seed, blind_commit=me_blind.commit() if me_blind else None)
    click.echo(f"Your client seed: {client_seed} (only its commitment goes to the table until the start)")
    table = mine["table"]
    _keep_seat(c, table, me or {}, client_seed, mine["nonce"], me_blind)
    if wait_for_players:
        table = _wait_for_players(c, table)
    return c.post(f"/tables/{table['id']}/start"), mine["nonce"]


def _wait_for_players(c: Client, table: dict) -> dict:
    """Until the host presses Enter (or every seat is taken): show who sits down."""
    gid = table["id"]
    click.echo(f"Waiting for players. They join with:\n  fairdeal play --server {c.base} --join {gid}")
    click.echo("Press Enter to start (bots take the empty seats).")
    shown = None
    while True:
        line = _seats_line(table)
        if line != shown:
            click.echo(line)
            shown = line
        if all(s["taken"] for s in table["seats"]):
            click.echo("Every seat is taken.")
            return table
        answer = read_line(lambda _s: "", time.time() + 1.0)
        if answer is not TIMEOUT:
            return table
        table = c.get(f"/tables/{gid}")


def _join(c: Client, table_id: str, seat: int | None, client_seed: str, me=None) -> tuple[dict, str]:
    """Sit down at someone else's table with a commitment to our seed (and at a dealer-blind table our blind
    commit, for the seat taken), and wait for its host to start it."""
    me_blind = None
    first = c.get(f"/tables/{table_id}")
    if first.get("blind"):
        seat = blind.first_free_seat(first) if seat is None else seat
        me_blind = blind.new_seat(first, seat)
    mine = seating.commit(c, table_id, client_seed, seat, blind_commit=me_blind.commit() if me_blind else None)
    table = mine["table"]
    _keep_seat(c, table, me or {}, client_seed, mine["nonce"], me_blind)
    return _wait_for_start(c, table, client_seed), mine["nonce"]


def _wait_for_start(c: Client, table: dict, client_seed: str) -> dict:
    table_id = table["id"]
    _describe(table, c)
    click.echo(
        f"You sit at seat {table['you']['seat']}. Your client seed: {client_seed} (only its commitment goes "
        f"to the table until the start)"
    )
    shown = None
    while table["status"] == "open":
        line = _seats_line(table)
        if line != shown:
            click.echo(line + "  (waiting for the host to start)")
            shown = line
        time.sleep(1.0)
        table = c.get(f"/tables/{table_id}")
    return table


def _until_dealt(c: Client, table: dict, client_seed: str, nonce: str) -> dict:
    """Reveal our seed when the table asks for the reveals, then wait for everybody's: the last reveal deals."""
    seat = table["you"]["seat"]
    revealed = False
    while table["status"] == "revealing":
        if not revealed and not table["seats"][seat].get("revealed"):
            table = seating.reveal(c, table, seat, client_seed, nonce)
            click.echo("Your client seed is revealed (it matches the commitment you gave when you sat down).")
            revealed = True
            continue
        time.sleep(0.5)
        table = c.get(f"/tables/{table['id']}")
    if table["status"] == "over":
        click.echo(
            f"The table did not start: {table.get('end_reason')} (every seat's seed must be revealed in "
            f"time). Its seed is revealed in its signed transcript: {table['links']['transcript']}"
        )
        return table
    click.echo(_seats_line(table))
    return table


def _play_and_verify(
    c: Client,
    table: dict,
    client_seed: str,
    auto: bool,
    hands: int | None,
    out: str | None,
    patience: float = PATIENCE,
    receipts: dict | None = None,
    told_to: int = 0,
) -> bool:
    gid = table["id"]
    seat = table["you"]["seat"]

    def keep(receipts: dict) -> None:
        try:
            state = resume.load(gid, seat)
        except ValueError:
            return
        state["receipts"] = {str(k): v for k, v in receipts.items()}
        resume.save(state)

    args = (c, gid, auto, hands, table["rule_set"], table["players"], patience, keep)
    session = blind_session(table, seat, *args) if table.get("blind") else Session(*args)
    session.receipts.update(receipts or {})
    session.told_own_to = told_to
    game = session.run()
    if game["status"] != "over":  # we left and the game goes on: nothing to save yet
        click.echo(f"You left seat {seat}. " + leave_consequence(game))
        _fetch_later(c, gid, seat, client_seed, table.get("key"), session.receipts, table.get("commitment"))
        return True
    for line in sheet_lines(fetch_sheet(c, gid), game.get("view") or {}, session.table) + result_lines(
        game, session.table
    ):
        click.echo(line)
    for line in session.end_lines():
        click.echo(line)
    ok = verify_saved(
        c,
        gid,
        out or resume.transcript_name(gid, seat),
        seat,
        client_seed,
        table.get("key"),
        session.receipts,
        table.get("commitment"),
    )
    resume.forget(gid, seat)
    return ok


def _resume(
    c: Client, table_id: str, seat: int | None, auto: bool, hands: int | None, out: str | None, patience: float
) -> bool:
    """Come back to a seat saved by an earlier run: take it back from the table's bot, tell the whole game so
    far (nothing is missed), and play on to the end and its verification."""
    state = resume.load(table_id, seat)
    c.base, c.token = state["server"], state["token"]
    GAME[0] = table_id
    table = backoff(lambda: c.get(f"/tables/{table_id}"), patience, lambda line: click.echo(line, err=True))
    _describe(table, c)
    receipts = {int(k): v for k, v in (state.get("receipts") or {}).items()}
    if table["status"] == "open":
        table = _wait_for_start(c, table, state["client_seed"])
    if table["status"] == "revealing":
        table = _until_dealt(c, table, state["client_seed"], state["nonce"])
    told_to = 0
    if table["status"] == "playing":
        table = c.post(f"/tables/{table_id}/return")
        told_to = c.get(f"/games/{table_id}")["seq"]
        click.echo(f"You are back at seat {table['you']['seat']} (move {told_to}). The game so far:")
    if table["status"] == "over" and not table.get("started"):
        return False
    table.setdefault("key", state.get("key"))
    table.setdefault("commitment", state.get("commitment"))
    return _play_and_verify(c, table, state["client_seed"], auto, hands, out, patience, receipts, told_to)


def _watch(c: Client, table_id: str, name: str | None, out: str | None, patience: float = PATIENCE) -> bool:
    _sign_up(c, name)
    table = c.post(f"/tables/{table_id}/watch")
    _describe(table, c)
    click.echo("You are watching.")
    while table["status"] in ("open", "revealing"):
        time.sleep(1.0)
        table = c.get(f"/tables/{table_id}")
    click.echo(_seats_line(table))
    session = Session(c, table_id, rule_set=table["rule_set"], players=table["players"], patience=patience)
    game = session.run()
    for line in sheet_lines(fetch_sheet(c, table_id), game.get("view") or {}, session.table) + result_lines(
        game, session.table
    ):
        click.echo(line)
    return verify_saved(
        c,
        table_id,
        out or resume.transcript_name(table_id, None),
        None,
        None,
        table.get("key"),
        {},
        table.get("commitment"),
    )


def _lobby(c: Client) -> bool:
    lobby = c.get("/lobby")
    if not lobby["tables"]:
        click.echo("No table is waiting for players. Open one: fairdeal play --wait")
    for t in lobby["tables"]:
        free = sum(1 for s in t["seats"] if not s["taken"])
        click.echo(f"{t['id']}  {t['title']}, hosted by {t['host']}: {free} of {t['players']} seats free")
        if t.get("reminder"):
            click.echo(f"    plays differently: {t['reminder']}")
        click.echo(f"    join: fairdeal play --server {c.base} --join {t['id']}")
    running = lobby.get("running") or []
    if running:
        click.echo("Games being played:")
    for t in running:
        seats = ", ".join(
            s["name"] + (" (bot)" if s["bot"] else " (left: the bot stands in)" if s.get("gone") else "")
            for s in t["seats"]
        )
        click.echo(f"{t['id']}  {t['title']}: {seats}")
        click.echo(f"    watch: fairdeal play --server {c.base} --watch {t['id']}")
    return True


def _login_name() -> str:
    try:
        return getpass.getuser() or "player"
    except Exception:  # noqa: BLE001 - no login name in some containers
        return os.environ.get("USER") or "player"


if __name__ == "__main__":
    play()
