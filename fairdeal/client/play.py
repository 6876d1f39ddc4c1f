"""`fairdeal play`: a table in the terminal. Sit down against bots (or open a table and wait for people), join
someone else's table, or watch one; play with a live clock; and verify the finished game on the spot.

A client of the HTTP API (docs/api.md) that uses only the standard library for HTTP, so it runs wherever the
verifier is installed. The game is told as the web table tells it: every move in order, "the table played 7H for
you" when the clock runs out, each trick's winner, each hand's result (the points each side took) right after its
last move. The verification at the end runs the verifier's own code in-process and prints the `fairdeal-verify`
command that repeats it.
"""
from __future__ import annotations

import copy
import datetime as dt
import getpass
import json
import os
import shlex
import sys
import time
from typing import Any

import click

from fairdeal.client import seating
from fairdeal.client.hands import HandTracker
from fairdeal.client.http import Client, Problem, Unreachable
from fairdeal.client.prompt import TIMEOUT, read_line
from fairdeal.client.seating import Distrust, check_seating, new_client_seed
from fairdeal.verifier import fairness
from fairdeal.client.text import (LIST_AT_MOST, Table, examples, hand_summary, last_hand, move_text, parse_move,
                                  record_line, result_lines, spades_trick, state_lines, suggested_or_first,
                                  throw_hint, trick_line, trump_word)

__all__ = ["play", "Table", "parse_move", "state_lines", "throw_hint", "Session", "parse_setting", "Distrust",
           "check_seating", "new_client_seed"]

DEFAULT_URL = "http://127.0.0.1:8000"
NOT_RUNNING = "Is the service running? Start it with: fairdeal serve"
LONG_POLL = 20            # seconds one wait on the event feed may last (the server caps it at 25)


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


def seconds_left(deadline: str | None) -> float | None:
    if not deadline:
        return None
    try:
        when = dt.datetime.fromisoformat(deadline.replace("Z", "+00:00"))
    except ValueError:
        return None
    return max(0.0, (when - dt.datetime.now(dt.timezone.utc)).total_seconds())


# -------------------------------------------------------------------------------------------- the game

class Session:
    """One game followed through the event feed: prints it in order and, for a seated player, asks for moves."""

    def __init__(self, client: Client, game_id: str, auto: bool = False, hands: int | None = None,
                 rule_set: str = "", players: int = 4):
        self.c, self.id, self.auto, self.hands = client, game_id, auto, hands
        self.seq = 0          # the last record shown
        self.table: Table | None = None
        self.tracker = HandTracker(rule_set, players)
        self.plays: list = []   # the plays of the trick in progress, as the records told them
        self.receipts: dict[int, str] = {}    # seq -> the hash the server gave back for each of my moves

    def feed(self, wait: float) -> dict:
        """The records after the last one shown, told in order (each trick's winner and each hand's result right
        after its last move), and the seat's view after them."""
        ev = self.c.wait_get(f"/games/{self.id}/events?after={self.seq}&wait={wait:g}", timeout=wait + 30)
        game = ev["game"]
        if self.table is None:
            self.table = Table(game)
        view = game.get("view") or {}
        records = [r for r in ev.get("records") or [] if r.get("seq", 0) > self.seq]
        for line in self._story(records, view):
            click.echo(line)
        self.seq = max(self.seq, ev["seq"])
        return game

    def _story(self, records: list[dict], view: dict) -> list[str]:
        """The lines of a batch of records. The view after them knows the tricks of the hand in play and, in
        last_hand, those of the hand that ended last: a trick of an earlier hand of the same batch (a deal
        played out while this seat sat out) is told only where the plays alone tell it (Spades)."""
        last = last_hand(view)
        ends = [i for i, end in enumerate(_ends(self.tracker, records)) if end is not None]
        last_end = ends[-1] if ends else None          # after it: the hand in play; up to it: last_hand's hand
        first_of_last = (ends[-2] + 1) if len(ends) > 1 else 0
        lines = []
        for i, rec in enumerate(records):
            line = record_line(rec, self.table, view)
            if line:
                lines.append(line)
            if (rec.get("move") or {}).get("kind") == "play":
                self.plays.append([rec["seat"], rec["move"]["card"]])
            end = self.tracker.step(rec)
            if self.tracker.trick_done is not None:
                if last_end is None or i > last_end:
                    tricks = view.get("tricks") or []
                elif i >= first_of_last:
                    tricks = (last or {}).get("tricks") or []
                else:
                    tricks = []
                done = self.tracker.trick_done
                trick = tricks[done] if done < len(tricks) else None
                if trick is None and view.get("rule_set") == "spades":
                    trick = spades_trick(self.plays)
                self.plays = []
                said = trick_line(trick, self.table)
                if said:
                    lines.append(said)
            if end is not None and end.how == "new-deal":
                lines.append("A new deal: the same dealer shuffles again.")
            elif end is not None:
                number = self.tracker.ended - 1                  # the hand_number of the hand that ended
                if i == last_end and last and last.get("hand_number") == number:
                    lines += hand_summary(last, view, self.table)   # only the latest hand's result is in the view
                else:
                    lines.append(f"Hand {number + 1} over.")
        return lines

    def run(self) -> dict:
        game = self.feed(0)
        while game["status"] != "over":
            hand_no = (game.get("view") or {}).get("hand_number")       # from 0: hand_no hands are over
            if self.hands is not None and isinstance(hand_no, int) and hand_no >= self.hands:
                click.echo(f"{self.hands} hand(s) played: leaving the table (the game ends as abandoned).")
                self.c.post(f"/tables/{self.id}/leave")
                return self.feed(0)
            if game.get("your_turn"):
                done = self.turn(game)
                if done is None:
                    click.echo("Leaving the table.")
                    self.c.post(f"/tables/{self.id}/leave")
                    return self.feed(0)
                # after our move the feed has it at once; after our clock ran out it answers with the table's move
                game = self.feed(0 if done == "moved" else LONG_POLL)
            else:
                game = self.feed(LONG_POLL)
        return game

    def turn(self, game: dict) -> str | None:
        """Make one move, asking again after a refusal: "moved", "timeout" (the clock ran out first, the table
        moves) or None (the player leaves)."""
        numbered = None if self.auto else self.show(game)
        view = game.get("view") or {}
        while True:
            if self.auto:
                move = suggested_or_first(game)
                click.echo(f"> {move_text(move, trump_word(view), view.get('rule_set', ''))}")
            else:
                move = self.ask(game, numbered)
                if move is TIMEOUT:
                    click.echo("Your time is up: the table moves for you.")
                    return "timeout"
                if move is None:
                    return None
            try:
                ack = self.c.move(self.id, game["seq"], move, on_retry=lambda n, exc: click.echo(
                    f"No answer from the service ({exc}); sending the same move again ({n})..."))
                if isinstance(ack, dict) and ack.get("receipt"):
                    self.receipts[ack["seq"]] = ack["receipt"]
                return "moved"
            except Problem as exc:
                if exc.status == 409:
                    click.echo("The table has moved on (did your clock run out?):")
                    return "moved"          # the feed shows what happened
                click.echo(f"Refused: {exc.detail}")
                if self.auto:
                    raise
                # a refused move changes nothing: the same choices stand

    def show(self, game: dict) -> list[dict]:
        """The state and the numbered legal moves; the cards you may not play dimmed, with the reason."""
        view = game.get("view") or {}
        word, rid = trump_word(view), view.get("rule_set", "")
        for line in state_lines(game, self.table):
            click.echo(line)
        legal, suggested = game["legal_moves"], game.get("suggested")
        numbered = legal if len(legal) <= LIST_AT_MOST else \
            [m for m in legal if m.get("kind") != "throw" or m == suggested]
        click.echo("Your move:")
        for i, m in enumerate(numbered, 1):
            mark = "   <- suggested" if m == suggested else ""
            click.echo(f"  {i:>2}. {move_text(m, word, rid)}{mark}")
        if len(numbered) < len(legal):
            click.echo(("  or " if numbered else "  ") + throw_hint(legal))
        for card, why in (game.get("why_not") or {}).items():
            click.echo(click.style(f"   -  {card}: {why}", dim=True))
        return numbered

    def ask(self, game: dict, numbered: list[dict]) -> Any:
        """Read a choice (the clock counting down in the prompt). None: the player leaves (q, or the end of
        input); TIMEOUT: the clock ran out first."""
        legal, suggested = game["legal_moves"], game.get("suggested")
        view = game.get("view") or {}
        hint = ("number or move" if numbered else "move") + (", Enter = suggested" if suggested in legal else "") \
            + ", q = leave"
        typed = f"  (you may type: {examples(legal, trump_word(view))})"
        click.echo(typed)
        left = seconds_left(game.get("deadline"))
        deadline = None if left is None else time.time() + left

        def prompt(seconds: int | None) -> str:
            return f"[{hint}]" + (f" ({seconds} s left)" if seconds is not None else "") + ": "
        while True:
            text = read_line(prompt, deadline)
            if text is TIMEOUT or text is None:
                return text
            if text.strip().lower() in ("q", "quit", "leave"):
                return None
            if not text.strip() and suggested in legal:
                return suggested
            try:
                return parse_move(text, numbered, legal, trump_word(view))
            except ValueError as exc:
                click.echo(str(exc))


def _ends(tracker: HandTracker, records: list[dict]) -> list:
    """What `tracker` would say of each record (a copy steps through them): a HandEnd or None."""
    probe = copy.deepcopy(tracker)
    return [probe.step(rec) for rec in records]


# ------------------------------------------------------------------------------------------ the end

def verify_saved(client: Client, game_id: str, out: str, seat: int | None, client_seed: str | None,
                 table_key: str | None, receipts: dict[int, str], commitment: str | None = None) -> bool:
    """Save the published transcript, verify it here with the verifier's own code (the key from /keys, your
    client seed, the receipts of your moves, the commitment the table showed before the first card) and print
    the command that repeats the check."""
    from fairdeal.verifier.checks import verify_transcript
    from fairdeal.verifier.cli import render_report
    data = client.get(f"/games/{game_id}/transcript")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    click.echo(f"Transcript saved to {out}")
    published = client.get("/keys")
    known = {k.get("key") for k in published.get("keys", []) if isinstance(k, dict)}
    key = table_key if table_key in known else published["current"]
    seeds = [(seat, client_seed)] if seat is not None and client_seed is not None else []
    report = verify_transcript(data, key=key, client_seeds=seeds, receipts=sorted(receipts.items()),
                               commitment=commitment)
    click.echo(render_report(report, out))
    click.echo("\nCheck it yourself, offline:")
    last = f" --receipt {max(receipts)}:{receipts[max(receipts)]}" if receipts else ""
    mine = f" --client-seed {shlex.quote(f'{seat}:{client_seed}')}" if seeds else ""
    noted = f" --commitment {commitment}" if commitment else ""
    click.echo(f"  fairdeal-verify {shlex.quote(out)} --key {key}{mine}{last}{noted}")
    return report.ok


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
@click.option("--server", "url", envvar="FAIRDEAL_SERVER", default=DEFAULT_URL, show_default=True,
              help="The service. Env: FAIRDEAL_SERVER.")
@click.option("--rules", "rule_set", default="120s-auction", show_default=True, help="The rule set's id.")
@click.option("--setting", "settings", multiple=True, metavar="NAME=VALUE", callback=_settings_option,
              help="A table setting (repeatable); the value is read as JSON when it can be.")
@click.option("--players", type=int, default=None, help="Table size (default: the rule set's).")
@click.option("--client-seed", default=None,
              help="Your seed, mixed into the deal (default: a random one). It is committed to when you sit down "
                   "and revealed once the table starts; any words will do.")
@click.option("--name", default=None, help="Your name at the table (default: your login name).")
@click.option("--clocks", default=None, metavar="off|CARD,OTHER", callback=_clocks_option,
              help="Seconds to play a card and for other moves, or 'off' (default: the table's).")
@click.option("--wait", "wait_for_players", is_flag=True,
              help="Open the table and wait for others to join (they use --join); Enter starts it, bots take the "
                   "empty seats.")
@click.option("--join", "join_id", default=None, metavar="TABLE", help="Sit down at someone else's table.")
@click.option("--seat", type=int, default=None, help="With --join: the seat to take (default: the first free one).")
@click.option("--watch", "watch_id", default=None, metavar="TABLE", help="Watch a table (any table, any time).")
@click.option("--lobby", is_flag=True, help="List the open tables and leave.")
@click.option("--auto", is_flag=True, help="Play the table's suggestion (else the first legal move): for demos.")
@click.option("--hands", type=click.IntRange(min=1), default=None,
              help="Leave the table after this many hands (the game then ends as abandoned).")
@click.option("--out", default=None, help="Where to save the transcript (default: fairdeal-game-<id>.json).")
def play(url, rule_set, settings, players, client_seed, name, clocks, wait_for_players, join_id, seat, watch_id,
         lobby, auto, hands, out) -> None:
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
            ok = _watch(c, watch_id, name, out)
        else:
            client_seed = client_seed if client_seed is not None else new_client_seed()
            _sign_up(c, name)
            if join_id:
                table, nonce = _join(c, join_id, seat, client_seed)
            else:
                table, nonce = _open(c, rule_set, settings, players, clocks, client_seed, wait_for_players)
            table = _until_dealt(c, table, client_seed, nonce)
            ok = table["status"] != "over" and _play_and_verify(c, table, client_seed, auto, hands, out)
    except Unreachable as exc:
        click.echo(f"No answer from {url} ({exc}). {NOT_RUNNING}", err=True)
        sys.exit(2)
    except Problem as exc:
        click.echo(f"The service refused: {exc.detail}", err=True)
        sys.exit(2)
    except Distrust as exc:
        click.echo(f"Not revealing your client seed: {exc}. The table cannot start; it is cancelled at its reveal "
                   f"deadline, with its signed trail.", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("\nInterrupted. The game goes on at the table; your clock plays for you.", err=True)
        sys.exit(130)
    sys.exit(0 if ok else 1)


def _sign_up(c: Client, name: str | None) -> dict:
    me = c.post("/players", {"name": (name or _login_name())[:40]})
    c.token = me["token"]
    return me


def _describe(table: dict) -> None:
    click.echo(f"Table {table['id']}: {table['title']}, {table['players']} players, hosted by {table['host']}")
    click.echo(f"Commitment (fingerprint of the server's secret seed, fixed before anyone sat down):\n"
               f"  {table['commitment']}")
    click.echo(f"Rules: {table['rules']}")
    if table.get("reminder"):
        click.echo(f"Reminder: {table['reminder']}")


def _seats_line(table: dict) -> str:
    you = (table.get("you") or {}).get("seat")
    return "Seats: " + ", ".join(
        f"{s['seat']} " + (f"{s['name']} (bot)" if s["bot"] else f"{s['name']} (you)" if s["seat"] == you
                           else s["name"] if s["taken"] else "empty")
        for s in table["seats"])


def _open(c: Client, rule_set, settings, players, clocks, client_seed, wait_for_players) -> tuple[dict, str]:
    """Open a table, commit to our seed at our seat, wait for players if asked, start it. (table, nonce)"""
    body: dict[str, Any] = {"rule_set": rule_set}
    if settings:
        body["settings"] = settings
    if players is not None:
        body["players"] = players
    if clocks is not None:
        body["clocks"] = clocks
    table = c.post("/tables", body)
    _describe(table)
    mine = seating.commit(c, table["id"], client_seed)
    click.echo(f"Your client seed: {client_seed} (only its commitment goes to the table until the start)")
    table = mine["table"]
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


def _join(c: Client, table_id: str, seat: int | None, client_seed: str) -> tuple[dict, str]:
    """Sit down at someone else's table with a commitment to our seed, and wait for its host to start it."""
    mine = seating.commit(c, table_id, client_seed, seat)
    table = mine["table"]
    _describe(table)
    click.echo(f"You sit at seat {table['you']['seat']}. Your client seed: {client_seed} (only its commitment goes "
               f"to the table until the start)")
    shown = None
    while table["status"] == "open":
        line = _seats_line(table)
        if line != shown:
            click.echo(line + "  (waiting for the host to start)")
            shown = line
        time.sleep(1.0)
        table = c.get(f"/tables/{table_id}")
    return table, mine["nonce"]


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
        click.echo(f"The table did not start: {table.get('end_reason')} (every seat's seed must be revealed in "
                   f"time). Its seed is revealed in its signed transcript: {table['links']['transcript']}")
        return table
    click.echo(_seats_line(table))
    return table


def _play_and_verify(c: Client, table: dict, client_seed: str, auto: bool, hands: int | None,
                     out: str | None) -> bool:
    gid = table["id"]
    session = Session(c, gid, auto, hands, table["rule_set"], table["players"])
    game = session.run()
    for line in result_lines(game, session.table):
        click.echo(line)
    return verify_saved(c, gid, out or f"fairdeal-game-{gid}.json", session.table.seat, client_seed,
                        table.get("key"), session.receipts, table.get("commitment"))


def _watch(c: Client, table_id: str, name: str | None, out: str | None) -> bool:
    _sign_up(c, name)
    table = c.post(f"/tables/{table_id}/watch")
    _describe(table)
    click.echo("You are watching.")
    while table["status"] in ("open", "revealing"):
        time.sleep(1.0)
        table = c.get(f"/tables/{table_id}")
    click.echo(_seats_line(table))
    session = Session(c, table_id, rule_set=table["rule_set"], players=table["players"])
    game = session.run()
    for line in result_lines(game, session.table):
        click.echo(line)
    return verify_saved(c, table_id, out or f"fairdeal-game-{table_id}.json", None, None, table.get("key"), {},
                        table.get("commitment"))


def _lobby(c: Client) -> bool:
    lobby = c.get("/lobby")
    if not lobby["tables"]:
        click.echo("No table is waiting for players. Open one: fairdeal play --wait")
    for t in lobby["tables"]:
        free = sum(1 for s in t["seats"] if not s["taken"])
        click.echo(f"{t['id']}  {t['title']}, hosted by {t['host']}: {free} of {t['players']} seats free")
        if t.get("reminder"):
            click.echo(f"    plays differently: {t['reminder']}")
        click.echo(f"    {t['rules']}")
        click.echo(f"    join: fairdeal play --server {c.base} --join {t['id']}")
    return True


def _login_name() -> str:
    try:
        return getpass.getuser() or "player"
    except Exception:  # noqa: BLE001 - no login name in some containers
        return os.environ.get("USER") or "player"


if __name__ == "__main__":
    play()
