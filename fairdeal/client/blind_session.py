"""One blind game followed in the terminal: `BlindSession` is `Session` (fairdeal/client/session.py) with the seat's
protocol part done between the feed's batches (BlindPlayer; the event stream brings the blind log as `blind` events,
a batch of its own when the log grew and the game did not move), its own hand shown and its moves narrowed
(blind_hand), each play sent with its open, and the timeout move played by the client itself when the clock runs out
(the service cannot: it does not know the hand)."""

from __future__ import annotations

import time

import click

from fairdeal.client import resume
from fairdeal.client.blind import BlindPlayer, abort_line
from fairdeal.client.blind_hand import own_game, timeout_move
from fairdeal.client.http import Problem
from fairdeal.client.session import Session
from fairdeal.client.stream import EventStream, backoff
from fairdeal.client.text import move_text
from fairdeal.core.blind.seat import BlindSeat
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import Rules

CLOCK_SLACK = 5.0  # seconds a timeout move is sent again while the service says the clock has not run out


class BlindSession(Session):
    def __init__(self, *args, player: BlindPlayer, rules: Rules, **kwargs):
        super().__init__(*args, **kwargs)
        self.blind, self.rules = player, rules
        # the event stream with the blind log's `blind` events (a long-poll with blind_after where it has none)
        self.stream = EventStream(self.c, self.id, blind=player)
        self.told: set[str] = set()  # what was said once (an abort, a fault, each hand's cards)

    def _say(self, line: str) -> None:
        click.echo(line, err=True)

    def _poll(self, wait: float) -> dict:
        """Without a stream: the long-poll, which also answers when the blind log grows (blind_after)."""
        return self.c.get(
            f"/games/{self.id}/events?after={self.seq}&blind_after={self.blind.after}&wait={wait:g}",
            timeout=wait + 30,
        )

    def feed(self, wait: float) -> dict:
        """The feed's next batch, then this seat's protocol steps while it owes one (each answered at once by the
        server's bots, so the log is read again); the game as this seat sees it with its own hand."""
        while True:
            game = super().feed(wait)
            if self.stream is None:  # the long-poll answered: read the log
                backoff(self.blind.read, self.patience, self._say)
            else:  # the stream brings the log itself (`blind` events): the view says whose turn it is now
                self.blind.note_view(game)
            self._tell()
            if game.get("status") == "over":
                return game
            kind = backoff(self.blind.step, self.patience, self._say)
            if kind is None:
                return self._own(game)
            if kind == "reveal":
                click.echo("Your secret is revealed: now anyone can check every shuffle, lock and release.")
            wait = 0

    def _tell(self) -> None:
        abort = self.blind.answer.get("abort")
        if abort and "abort" not in self.told:
            self.told.add("abort")
            click.echo(abort_line(abort, self._who))
        said = ([self.blind.fault] if self.blind.fault else []) + self.blind.warnings
        for line in said:
            if line not in self.told:
                self.told.add(line)
                click.echo(line + " The verifier names the seat at fault from the signed messages.")
        print_ = self.blind.fingerprint()
        if print_ and "fingerprint" not in self.told:
            self.told.add("fingerprint")
            click.echo(f"The seats' blind commits (compare with the other players): {print_}")

    def _who(self, seat) -> str:
        if self.table is None or not isinstance(seat, int):
            return f"seat {seat}"
        return "you" if seat == self.table.seat else self.table.who(seat)

    def _own(self, game: dict) -> dict:
        view = game.get("view") or {}
        k, dealer = view.get("hand_number"), view.get("dealer")
        dealt = None
        if isinstance(k, int) and isinstance(dealer, int) and not self.blind.answer.get("abort"):
            dealt = self.blind.dealt(k, dealer)
        if dealt is not None and isinstance(k, int) and f"hand {k}" not in self.told:
            self.told.add(f"hand {k}")
            click.echo(f"Your cards of hand {k + 1} (read by this client alone; the server cannot see them) are in.")
        out = own_game(game, dealt, self.rules)
        due = self.blind.answer.get("due") or {}
        if due.get("type") != "move" or due.get("seat") != (self.table.seat if self.table else None):
            out["your_turn"] = False  # the deal is not done yet, or the view is older than the log
        return out

    def extra(self, game: dict, move: dict) -> dict | None:
        """A play goes with its open. A card the rules refuse is refused here, as the service would at an ordinary
        table: at a blind table it cannot, and the hand's replay would end the game, blaming this seat."""
        if move.get("kind") != "play":
            return None
        if move not in game.get("legal_moves", []):
            why = (game.get("why_not") or {}).get(move.get("card")) or f"You do not hold {move.get('card')}."
            raise Problem(422, {"code": "illegal-move", "detail": why})
        return {"open": self.blind.open_of(game["view"]["hand_number"], move["card"])}

    def timed_out(self, game: dict) -> str:
        """The clock ran out: this client plays the rule set's timeout move (the service cannot: it does not know
        the hand) and says so ("timeout": true); the verifier checks it against the policy once the deal is open."""
        move = timeout_move(self.rules, game)
        view = game.get("view") or {}
        said = move_text(move, "", view.get("rule_set", ""))
        click.echo(f"Your time is up: your client plays the timeout move for you: {said}.")
        until = time.monotonic() + CLOCK_SLACK
        while True:
            try:
                self.send(game, move, timeout=True)
                return "moved"
            except Problem as exc:
                if exc.code == "clock-not-out" and time.monotonic() < until:
                    time.sleep(0.25)  # this machine's clock is a little ahead of the service's
                    continue
                if exc.status == 409:
                    return "moved"  # the table moved on (an abort?): the feed tells
                raise

    def leave_body(self) -> dict:
        """The leave carries this seat's reveal: the game aborts at once (nothing is left to play, so σ exposes no
        card still in play), and with every σ in the log each deal can be checked (docs/blind.md, "Leaving")."""
        return {"blind_reveal": self.blind.me.reveal()}

    def end_lines(self) -> list[str]:
        abort = self.blind.answer.get("abort")
        if not abort:
            return []
        seat = abort.get("seat")
        if abort.get("why") == "left" and any(m["type"] == "reveal" and m["seat"] == seat for m in self.blind.log):
            return [
                f"Nobody is blamed in the signed end record: {self._who(seat)} left with the seat's secret revealed."
            ]
        return [f"Blamed in the signed end record: {self._who(seat)}."]


def blind_session(table: dict, seat: int, *args) -> BlindSession:
    """The session of a seat at a dealer-blind table, with the seat's σ and identity key from its state file
    (written when it sat down); the cards it receives are written back there too."""
    gid = table["id"]
    saved = resume.load(gid, seat).get("blind")
    if not saved:
        raise ValueError(f"The saved seat at table {gid} has no blind secrets: it cannot play this dealer-blind table.")
    me = BlindSeat.from_json(saved)

    def keep() -> None:
        state = resume.load(gid, seat)
        state["blind"] = me.to_json()
        resume.save(state)

    player = BlindPlayer(args[0], me, keep)
    rules = make_rules(table["rule_set"], table.get("settings"), table["players"])
    return BlindSession(*args, player=player, rules=rules)
