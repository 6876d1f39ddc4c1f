"""`fairdeal play`: sit down at a table against bots in the terminal, play, and verify the finished game.

A client of the HTTP API (docs/api.md) that uses only the standard library for HTTP, so it runs wherever the
service's extras are installed. The verification at the end runs the verifier's own code in-process and prints
the `fairdeal-verify` command that repeats it.
"""
from __future__ import annotations

import datetime as dt
import getpass
import json
import os
import secrets
import shlex
import sys
import urllib.error
import urllib.request
import uuid
from typing import Any

import click

from fairdeal.verifier import fairness
from fairdeal.verifier.cards import BadCard, card_from_str

DEFAULT_URL = "http://127.0.0.1:8000"
NOT_RUNNING = "Is the service running? Start it with: fairdeal serve"
LONG_POLL = 20            # seconds one wait on the event feed may last (the server caps it at 25)
LIST_AT_MOST = 24         # more legal moves than this (a big throw) are typed, not listed
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
WORD_MOVES = ("pass", "mine", "redeal", "stay", "drop", "newdeal")


# ------------------------------------------------------------------------------------------ HTTP

class Problem(Exception):
    """The service refused a request: its problem JSON (docs/api.md, Errors)."""

    def __init__(self, status: int, body: dict):
        self.status, self.code = status, body.get("code", "")
        self.detail = body.get("detail") or body.get("title") or f"HTTP {status}"
        super().__init__(self.detail)


class Unreachable(Exception):
    """No answer from the service at all."""


class Distrust(Exception):
    """The service's answer does not hold what it must (a seating it did not sign): we stop, revealing nothing."""


class Client:
    def __init__(self, base: str, token: str | None = None):
        self.base, self.token = base.rstrip("/"), token

    def call(self, method: str, path: str, body: Any = None, headers: dict | None = None,
             timeout: float = 30) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=dict(headers or {}))
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return json.loads(r.read() or b"null")
        except urllib.error.HTTPError as exc:
            try:
                problem = json.loads(exc.read())
            except ValueError:
                problem = {}
            raise Problem(exc.code, problem if isinstance(problem, dict) else {}) from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise Unreachable(str(getattr(exc, "reason", exc))) from None

    def get(self, path: str, timeout: float = 30) -> Any:
        return self.call("GET", path, timeout=timeout)

    def post(self, path: str, body: Any = None, headers: dict | None = None) -> Any:
        return self.call("POST", path, body if body is not None else {}, headers)


# ------------------------------------------------------------------------------------ reading input

def parse_setting(text: str) -> tuple[str, Any]:
    """NAME=VALUE; the value is JSON when it reads as JSON (true, 3, "x"), else the text itself."""
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise click.BadParameter(f"a setting is NAME=VALUE, not {text!r}")
    try:
        return name.strip(), json.loads(raw)
    except ValueError:
        return name.strip(), raw


def _card(text: str) -> str:
    try:
        return str(card_from_str(text.upper()))
    except BadCard as exc:
        raise ValueError(str(exc)) from None


def parse_move(text: str, numbered: list[dict], legal: list[dict], trump_word: str = "trump") -> dict:
    """A number from the list, or a move typed out: 10H, play 10H, bid 20, pass, trump H, throw 2C 3D.
    ValueError with the sentence when it reads as no move at all; whether the move is legal is the server's
    to say (its sentence is the one the player sees)."""
    words = text.strip().split()
    if not words:
        raise ValueError("Type a number from the list, or a move.")
    head, rest = words[0].lower(), words[1:]
    if head.isdigit() and not rest:
        i = int(head)
        if 1 <= i <= len(numbered):
            return numbered[i - 1]
        if not numbered:
            raise ValueError("Type the move itself; there is no list to choose from.")
        raise ValueError(f"There is no move {i}: choose 1 to {len(numbered)}.")
    if head in WORD_MOVES and not rest:
        return {"kind": head}
    if head == "bid" and len(rest) == 1:
        try:
            return {"kind": "bid", "value": int(rest[0])}
        except ValueError:
            raise ValueError(f"A bid is a number, as in 'bid 20', not {rest[0]!r}.") from None
    if head in ("trump", "drumpf") and len(rest) == 1:
        suit = rest[0].upper()[:1]
        if suit not in SUITS:
            raise ValueError("Name the suit as C, D, H or S (or clubs, diamonds, hearts, spades).")
        return {"kind": "trump", "value": suit}
    if head == "throw":
        cards = sorted(_card(w) for w in rest)
        same = [m for m in legal if m.get("kind") == "throw" and sorted(m.get("cards") or []) == cards]
        return same[0] if same else {"kind": "throw", "cards": cards}   # the server's own order when it has one
    if head == "play" and len(rest) == 1:
        return {"kind": "play", "card": _card(rest[0])}
    if not rest:
        try:
            return {"kind": "play", "card": _card(head)}
        except ValueError:
            pass
    raise ValueError(f"{text.strip()!r} is no move I know: type a number from the list, or a move such as "
                     f"10H, bid 20, pass, {trump_word} H, throw 2C 3D.")


def throw_hint(legal: list[dict]) -> str:
    """Too many throws to list: how many cards may go, with one legal throw as the example."""
    throws = sorted((m for m in legal if m.get("kind") == "throw"), key=lambda m: len(m["cards"]))
    least, most = len(throws[0]["cards"]), len(throws[-1]["cards"])
    example = next((m for m in throws if m["cards"]), throws[0])
    return (f"type 'throw' and {least} to {most} of your cards, e.g. '{move_text(example)}'"
            + (" ('throw' alone keeps them all)" if least == 0 else ""))


def suggested_or_first(game: dict) -> dict:
    return game["suggested"] if game.get("suggested") in game["legal_moves"] else game["legal_moves"][0]


# -------------------------------------------------------------------------------------------- text

def move_text(move: dict, trump_word: str = "trump") -> str:
    kind = move.get("kind")
    if kind == "play":
        return move["card"]
    if kind == "bid":
        return f"bid {move['value']}"
    if kind == "trump":
        return f"{trump_word} {SUITS.get(move.get('value'), move.get('value'))}"
    if kind == "throw":
        if "cards" not in move:
            return f"throw {move.get('count', '?')} card(s) face down"
        return "throw " + (" ".join(move["cards"]) if move["cards"] else "nothing")
    return str(kind)


class Table:
    """Who sits where: names by seat, and which seat is mine ("you")."""

    def __init__(self, game: dict):
        self.seat = game.get("seat")
        self.names = {s["seat"]: (s["name"] or f"seat {s['seat']}") for s in game["seats"]}

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "-"
        return "you" if seat == self.seat else self.names.get(seat, f"seat {seat}")

    def group(self, seats) -> str:
        return " & ".join(self.who(s) for s in seats)


def _word(view: dict) -> str:
    return view.get("trump_word") or "trump"


def state_lines(game: dict, table: Table) -> list[str]:
    """The public state, readably: scores, bidding, trump, the trick, the last trick, your hand."""
    v = game.get("view") or {}
    hand_no = v.get("hand_number")
    head = f"-- {v.get('rule_set', '')}"
    if hand_no is not None:
        head += f", hand {hand_no + 1}"           # hand numbers count from 0
    if v.get("dealer") is not None:
        head += f", {table.who(v['dealer'])} dealt"
    lines = [head + f", move {game.get('seq')} --"]
    scores, sides = v.get("scores"), v.get("sides")
    if scores is not None:
        lines.append("Scores: " + scores_text(scores, sides, table))
    if isinstance(v.get("bidding"), dict) and v["bidding"].get("log"):
        said = [f"{table.who(s)} {'bid ' + str(val) if kind == 'bid' else kind}" for s, kind, val in v["bidding"]["log"]]
        lines.append("Bidding: " + ", ".join(said))
    if v.get("bidder") is not None:
        lines.append(f"Bid: {table.who(v['bidder'])} {v.get('bid')}")
    if isinstance(v.get("bids"), list):
        taken = v.get("tricks_taken") or [None] * len(v["bids"])
        lines.append("Bids (tricks taken): " + ", ".join(
            f"{table.who(i)} {'-' if b is None else b} ({t})" for i, (b, t) in enumerate(zip(v["bids"], taken))))
    if isinstance(v.get("seats"), list) and v["seats"] and isinstance(v["seats"][0], dict):
        lines.append("Players: " + ", ".join(
            f"{table.who(s['seat'])} {s.get('status') or '?'} ({s.get('tricks', 0)} tricks)" for s in v["seats"]))
    if v.get("trump"):
        lines.append(f"{_word(v).capitalize()}: {SUITS.get(v['trump'], v['trump'])}")
    for key, label in (("teaser", "Kitty teaser (face up)"), ("turned_up", "Turned up")):
        if isinstance(v.get(key), str):
            lines.append(f"{label}: {v[key]}")
    done = v.get("tricks") or []
    if done and done[-1].get("winner") is not None:
        last = done[-1]
        lines.append(f"Last trick: {' '.join(c for _, c in last['plays'])}, won by {table.who(last['winner'])}"
                     + (f" with {last['winning_card']}" if last.get("winning_card") else ""))
    trick = v.get("trick")
    if trick and trick.get("plays"):
        lines.append("Trick: " + ", ".join(f"{table.who(s)} {c}" for s, c in trick["plays"]))
    if v.get("hand") is not None:
        lines.append("Your hand: " + (" ".join(v["hand"]) or "(empty)"))
    return lines


def scores_text(scores: list, sides: list | None, table: Table) -> str:
    if sides and len(sides) == len(scores):
        return ", ".join(f"{table.group(side)} {s}" for side, s in zip(sides, scores))
    return ", ".join(f"{table.who(i)} {s}" for i, s in enumerate(scores))


def hand_over_line(view: dict, table: Table) -> str | None:
    """One line when a hand (a deal) has ended: the bid made or not, and the scores after it."""
    last = view.get("last_hand")
    if not isinstance(last, dict):
        return None
    n = last["hand_number"] + 1 if isinstance(last.get("hand_number"), int) else "?"
    text = f"Hand {n} over"
    if last.get("thrown_in"):
        text += ": thrown in"
    elif last.get("bidder") is not None:
        text += f": {table.who(last['bidder'])} bid {last.get('bid')}"
        if "made" in last:
            text += ", made" if last["made"] else ", went down"
    if isinstance(last.get("scores"), list):
        text += ". Scores: " + scores_text(last["scores"], view.get("sides"), table)
    return text


def record_line(rec: dict, table: Table, trump_word: str) -> str | None:
    """Another seat's move, or a move the clock made for you."""
    if rec.get("type") != "move" or (rec.get("seat") == table.seat and rec.get("by") != "timeout"):
        return None
    how = " (clock ran out)" if rec.get("by") == "timeout" else ""
    return f"  {table.who(rec['seat'])}{how}: {move_text(rec['move'], trump_word)}"


def seconds_left(deadline: str | None) -> int | None:
    if not deadline:
        return None
    try:
        when = dt.datetime.fromisoformat(deadline.replace("Z", "+00:00"))
    except ValueError:
        return None
    return max(0, int((when - dt.datetime.now(dt.timezone.utc)).total_seconds()))


# -------------------------------------------------------------------------------------------- play

class Session:
    def __init__(self, client: Client, game_id: str, auto: bool, hands: int | None):
        self.c, self.id, self.auto, self.hands = client, game_id, auto, hands
        self.seq = 0          # the last record shown
        self.table: Table | None = None
        self.last_hand: str | None = None
        self.receipts: dict[int, str] = {}    # seq -> the hash the server gave back for each of my moves

    def feed(self, wait: float) -> dict:
        """The long-poll feed: the records after the last one shown and the seat's view."""
        ev = self.c.get(f"/games/{self.id}/events?after={self.seq}&wait={wait:g}", timeout=wait + 30)
        game = ev["game"]
        if self.table is None:
            self.table = Table(game)
        word = _word(game.get("view") or {})
        for rec in ev.get("records") or []:
            line = record_line(rec, self.table, word)
            if line:
                click.echo(line)
        self.seq = ev["seq"]
        over = hand_over_line(game.get("view") or {}, self.table)
        if over and over != self.last_hand:
            click.echo(over)
            self.last_hand = over
        return game

    def run(self) -> dict:
        game = self.feed(0)
        while game["status"] != "over":
            hand_no = (game.get("view") or {}).get("hand_number")       # from 0: hand_no hands are over
            if self.hands is not None and isinstance(hand_no, int) and hand_no >= self.hands:
                click.echo(f"{self.hands} hand(s) played: leaving the table (the game ends as abandoned).")
                self.c.post(f"/tables/{self.id}/leave")
                return self.feed(0)
            if game.get("your_turn"):
                if not self.turn(game):
                    click.echo("Leaving the table.")
                    self.c.post(f"/tables/{self.id}/leave")
                    return self.feed(0)
                game = self.feed(0)
            else:
                game = self.feed(LONG_POLL)
        return game

    def turn(self, game: dict) -> bool:
        """Make one move, asking again after a refusal. False: the player leaves."""
        numbered = None if self.auto else self.show(game)
        while True:
            if self.auto:
                move = suggested_or_first(game)
                click.echo(f"> {move_text(move, _word(game['view']))}")
            else:
                move = self.ask(game, numbered)
                if move is None:
                    return False
            try:
                ack = self.c.post(f"/games/{self.id}/moves", {"seq": game["seq"], "move": move},
                                  {"Idempotency-Key": f"{self.id}-{uuid.uuid4().hex}"})
                if isinstance(ack, dict) and ack.get("receipt"):
                    self.receipts[ack["seq"]] = ack["receipt"]
                return True
            except Problem as exc:
                click.echo(f"Refused: {exc.detail}")
                if self.auto:
                    raise
                if exc.status == 409:
                    return True          # the game moved on (a timeout move?): look again
                # a refused move changes nothing: the same choices stand

    def show(self, game: dict) -> list[dict]:
        """The state and the numbered legal moves; the cards you may not play dimmed, with the reason."""
        word = _word(game["view"])
        for line in state_lines(game, self.table):
            click.echo(line)
        legal, suggested = game["legal_moves"], game.get("suggested")
        numbered = legal if len(legal) <= LIST_AT_MOST else \
            [m for m in legal if m.get("kind") != "throw" or m == suggested]
        click.echo("Your move:")
        for i, m in enumerate(numbered, 1):
            mark = "   <- suggested" if m == suggested else ""
            click.echo(f"  {i:>2}. {move_text(m, word)}{mark}")
        if len(numbered) < len(legal):
            click.echo(("  or " if numbered else "  ") + throw_hint(legal))
        for card, why in (game.get("why_not") or {}).items():
            click.echo(click.style(f"   -  {card}: {why}", dim=True))
        return numbered

    def ask(self, game: dict, numbered: list[dict]) -> dict | None:
        """Read a choice. None: the player leaves (q, or the end of input)."""
        legal, suggested = game["legal_moves"], game.get("suggested")
        hint = ("number or move" if numbered else "move") + (", Enter = suggested" if suggested in legal else "") \
            + ", q = leave"
        while True:
            left = seconds_left(game.get("deadline"))
            clock = f" ({left} s left)" if left is not None else ""
            try:
                text = click.prompt(f"[{hint}]{clock}", default="", show_default=False)
            except click.Abort:
                return None      # end of input (Ctrl-D)
            if text.strip().lower() in ("q", "quit", "leave"):
                return None
            if not text.strip() and suggested in legal:
                return suggested
            try:
                return parse_move(text, numbered, legal, _word(game.get("view") or {}))
            except ValueError as exc:
                click.echo(str(exc))


# ------------------------------------------------------------------------------------------ the end

def result_lines(game: dict, table: Table) -> list[str]:
    lines = [f"Game over: {game.get('end_reason')}."]
    result = game.get("result") or {}
    if result.get("winners"):
        lines.append("Winners: " + table.group(result["winners"]))
    if result.get("scores") is not None:
        lines.append("Final scores: " + scores_text(result["scores"], result.get("sides"), table))
    return lines


def verify_saved(client: Client, game_id: str, out: str, seat: int, client_seed: str, table_key: str | None,
                 receipts: dict[int, str]) -> bool:
    """Save the published transcript, verify it here with the verifier's own code (the key from /keys, your
    client seed, the receipts of your moves) and print the command that repeats the check."""
    from fairdeal.verifier.checks import verify_transcript
    from fairdeal.verifier.cli import render_report
    data = client.get(f"/games/{game_id}/transcript")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    click.echo(f"Transcript saved to {out}")
    published = client.get("/keys")
    known = {k.get("key") for k in published.get("keys", []) if isinstance(k, dict)}
    key = table_key if table_key in known else published["current"]
    report = verify_transcript(data, key=key, client_seeds=[(seat, client_seed)], receipts=sorted(receipts.items()))
    click.echo(render_report(report, out))
    click.echo("\nCheck it yourself, offline:")
    last = f" --receipt {max(receipts)}:{receipts[max(receipts)]}" if receipts else ""
    click.echo(f"  fairdeal-verify {shlex.quote(out)} --key {key} "
               f"--client-seed {shlex.quote(f'{seat}:{client_seed}')}{last}")
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
@click.option("--auto", is_flag=True, help="Play the table's suggestion (else the first legal move): for demos.")
@click.option("--hands", type=click.IntRange(min=1), default=None,
              help="Leave the table after this many hands (the game then ends as abandoned).")
@click.option("--out", default=None, help="Where to save the transcript (default: fairdeal-game-<id>.json).")
def play(url, rule_set, settings, players, client_seed, name, clocks, auto, hands, out) -> None:
    """Sit down at a table against bots, play a game, and verify it when it ends."""
    if client_seed is not None:
        try:
            fairness.validate_client_seed(client_seed)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--client-seed") from None
    try:
        ok = _play(url, rule_set, settings, players, client_seed, name, clocks, auto, hands, out)
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


def new_client_seed() -> str:
    """The seed `fairdeal play` gives when the player names none: 128 random bits."""
    return secrets.token_hex(16)


def commit(c: Client, game_id: str, client_seed: str) -> dict:
    """The commit half of commit-then-reveal for the seat we hold (docs/fairness.md): a fresh nonce and the
    commitment, sent while the table is open. Returns {"table", "nonce"}: the nonce is kept for the reveal."""
    nonce = fairness.new_nonce()
    table = c.post(f"/tables/{game_id}/join",
                   {"client_seed_commitment": fairness.client_seed_commitment(game_id, client_seed, nonce)})
    return {"table": table, "nonce": nonce}


def check_seating(c: Client, game_id: str, seat: int, commitment: str, key: str | None) -> None:
    """Before revealing: the server has signed the seating, and it holds our commitment unchanged. A seat that
    reveals only after this holds the server's signature on every commitment it revealed against."""
    from fairdeal.verifier import keys
    from fairdeal.verifier.canonical import canonical_json
    header = c.get(f"/games/{game_id}/start")
    seating = header.get("seating") or {}
    if key is None or not keys.verify(key, canonical_json(seating), header.get("seating_signature") or ""):
        raise Distrust("the seating record is not signed by the table's key")
    seats = seating.get("seats") or []
    if seat >= len(seats) or seats[seat].get("client_seed_commitment") != commitment:
        raise Distrust("the signed seating does not hold this seat's commitment")


def _play(url, rule_set, settings, players, client_seed, name, clocks, auto, hands, out) -> bool:
    c = Client(url)
    client_seed = client_seed if client_seed is not None else new_client_seed()
    me = c.post("/players", {"name": (name or _login_name())[:40]})
    c.token = me["token"]
    body: dict[str, Any] = {"rule_set": rule_set}
    if settings:
        body["settings"] = settings
    if players is not None:
        body["players"] = players
    if clocks is not None:
        body["clocks"] = clocks
    table = c.post("/tables", body)
    gid = table["id"]
    click.echo(f"Table {gid}: {table['title']}, {table['players']} players")
    click.echo(f"Your client seed: {client_seed}")
    click.echo(f"Commitment (fingerprint of the server's secret seed, fixed before you sat down):\n"
               f"  {table['commitment']}")
    click.echo(f"Rules: {table['rules']}")
    if table.get("reminder"):
        click.echo(f"Reminder: {table['reminder']}")
    mine = commit(c, gid, client_seed)
    my_seat = next(s["seat"] for s in mine["table"]["seats"] if s["committed"])
    started = c.post(f"/tables/{gid}/start")
    if started["status"] == "revealing":
        check_seating(c, gid, my_seat, fairness.client_seed_commitment(gid, client_seed, mine["nonce"]),
                      table.get("key"))
        started = c.post(f"/tables/{gid}/reveal", {"client_seed": client_seed, "nonce": mine["nonce"]})
        click.echo("Your client seed is revealed (it matches the commitment you gave when you sat down).")
    click.echo("Seats: " + ", ".join(f"{s['seat']} {s['name']}{' (bot)' if s['bot'] else ' (you)'}"
                                     for s in started["seats"]))
    session = Session(c, gid, auto, hands)
    game = session.run()
    for line in result_lines(game, session.table):
        click.echo(line)
    return verify_saved(c, gid, out or f"fairdeal-game-{gid}.json", session.table.seat, client_seed,
                        table.get("key"), session.receipts)


def _login_name() -> str:
    try:
        return getpass.getuser() or "player"
    except Exception:  # noqa: BLE001 - no login name in some containers
        return os.environ.get("USER") or "player"


if __name__ == "__main__":
    play()
