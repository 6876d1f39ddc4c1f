"""One game followed in the terminal: `Session` tells every record in order (each trick's winner and each hand's
result right after its last move) from the service's event stream, waiting out outages with backoff, and asks a
seated player for moves with the clock counting down; leaving is confirmed first and says what it does."""

from __future__ import annotations

import copy
import datetime as dt
import time
import uuid
from typing import Any

import click

from fairdeal.client.hands import HandTracker
from fairdeal.client.http import Client, Problem
from fairdeal.client.prompt import TIMEOUT, read_line
from fairdeal.client.rules import fetch_rules, order_lines
from fairdeal.client.stream import EventStream, backoff
from fairdeal.client.text import (
    LIST_AT_MOST,
    Table,
    examples,
    hand_summary,
    last_hand,
    move_text,
    parse_move,
    record_line,
    spades_trick,
    state_lines,
    suggested_or_first,
    throw_hint,
    trick_line,
    trump_word,
)

LONG_POLL = 20  # seconds one wait on the event feed may last (the server caps it at 25)
PATIENCE = 600  # seconds the client waits out an outage (retrying with backoff) before it gives up


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

    def __init__(
        self,
        client: Client,
        game_id: str,
        auto: bool = False,
        hands: int | None = None,
        rule_set: str = "",
        players: int = 4,
        patience: float = PATIENCE,
        keep=None,
    ):
        self.c, self.id, self.auto, self.hands = client, game_id, auto, hands
        self.patience = patience
        self.keep = keep  # called after each of my moves (the seat's state file keeps the receipts)
        self.stream: EventStream | None = EventStream(client, game_id)
        self.left = False  # whether this player left the table (the game may go on without them)
        self.told_own_to = 0  # own moves up to this seq are told too (the game so far, after coming back)
        self.rules_help: dict | None = None  # GET /tables/{id}/rules, read when the player first asks
        self.tricks_told = 0  # tricks told so far (a watcher is shown the table after each)
        self.seq = 0  # the last record shown
        self._table: Table | None = None
        self.tracker = HandTracker(rule_set, players)
        self.plays: list = []  # the plays of the trick in progress, as the records told them
        self.receipts: dict[int, str] = {}  # seq -> the hash the server gave back for each of my moves

    @property
    def table(self) -> Table:
        """The table's seats and words: known from the first event on (feed() reads it from the game)."""
        assert self._table is not None, "no event read yet"
        return self._table

    @table.setter
    def table(self, table: Table) -> None:
        self._table = table

    def feed(self, wait: float) -> dict:
        """The records after the last one shown, told in order (each trick's winner and each hand's result right
        after its last move), and the seat's view after them."""
        ev = backoff(lambda: self._next(wait), self.patience, lambda line: click.echo(line, err=True))
        game = ev["game"]
        if self._table is None:
            self._table = Table(game)
        view = game.get("view") or {}
        records = [r for r in ev.get("records") or [] if r.get("seq", 0) > self.seq]
        tricks_before = self.tricks_told
        for line in self._story(records, view):
            click.echo(line)
        if self.table.seat is None and self.tricks_told != tricks_before and game.get("status") != "over":
            # a watcher has no turn to show the table at: after each trick, the table as it stands
            for line in state_lines(game, self.table):
                if not line.startswith("Your "):
                    click.echo(line)
        self.seq = max(self.seq, ev["seq"])
        return game

    def _next(self, wait: float) -> dict:
        """The next batch of news: from the event stream, else (a service without one) a long-poll."""
        if self.stream is not None:
            try:
                self.stream.after = max(self.stream.after, self.seq)
                records, game = self.stream.next_batch()
                return {"game": game, "records": records, "seq": game.get("seq", self.seq)}
            except Problem as exc:
                if exc.status not in (404, 405, 406):
                    raise
                self.stream = None
        return self._poll(wait)

    def _poll(self, wait: float) -> dict:
        """One long-poll of the feed."""
        return self.c.get(f"/games/{self.id}/events?after={self.seq}&wait={wait:g}", timeout=wait + 30)

    def _story(self, records: list[dict], view: dict) -> list[str]:
        """The lines of a batch of records. The view after them knows the tricks of the hand in play and, in
        last_hand, those of the hand that ended last: a trick of an earlier hand of the same batch (a deal
        played out while this seat sat out) is told only where the plays alone tell it (Spades)."""
        last = last_hand(view)
        ends = [i for i, end in enumerate(_ends(self.tracker, records)) if end is not None]
        last_end = ends[-1] if ends else None  # after it: the hand in play; up to it: last_hand's hand
        first_of_last = (ends[-2] + 1) if len(ends) > 1 else 0
        lines = []
        for i, rec in enumerate(records):
            line = record_line(rec, self.table, view, own=rec.get("seq", 0) <= self.told_own_to)
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
                self.tricks_told += 1
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
                number = self.tracker.ended - 1  # the hand_number of the hand that ended
                if i == last_end and last and last.get("hand_number") == number:
                    lines += hand_summary(last, view, self.table)  # only the latest hand's result is in the view
                else:
                    lines.append(f"Hand {number + 1} over.")
        return lines

    def run(self) -> dict:
        game = self.feed(0)
        answered = None  # the seq this seat last moved at: a batch the feed held from before that move is stale
        while game["status"] != "over":
            hand_no = (game.get("view") or {}).get("hand_number")  # from 0: hand_no hands are over
            if self.hands is not None and isinstance(hand_no, int) and hand_no >= self.hands:
                click.echo(f"{self.hands} hand(s) played: leaving the table.")
                return self.leave()
            if game.get("your_turn") and game.get("seq") != answered:
                done = self.turn(game)
                if done is None:
                    return self.leave()
                answered = game.get("seq") if done == "moved" else None
                # after our move the feed has it at once; after our clock ran out it answers with the table's move
                game = self.feed(0 if done == "moved" else LONG_POLL)
            else:
                game = self.feed(LONG_POLL)
        return game

    def end_lines(self) -> list[str]:
        """Lines said after the result (a blind table's blame)."""
        return []

    def leave_body(self) -> dict:
        """What the leave request carries (a dealer-blind seat's reveal)."""
        return {}

    def leave(self) -> dict:
        """Leave the table: the game goes on with the table's bot in this seat (or ends, if the host chose so)."""
        self.c.post(f"/tables/{self.id}/leave", self.leave_body())
        self.left = True
        table = self.c.get(f"/tables/{self.id}")
        if table["status"] == "over":
            game = self.feed(0)
            while game["status"] != "over":  # a stream may hold batches from before the end: read on to it
                game = self.feed(0)
            return game
        game = self.c.get(f"/games/{self.id}")
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
                assert numbered is not None  # show() numbers the moves unless auto
                move = self.ask(game, numbered)
                if move is TIMEOUT:
                    return self.timed_out(game)
                if move is None:
                    return None
            try:
                self.send(game, move)
                return "moved"
            except Problem as exc:
                if exc.status == 409:
                    click.echo("The table has moved on (did your clock run out?):")
                    return "moved"  # the feed shows what happened
                click.echo(f"Refused: {exc.detail}")
                if self.auto:
                    raise
                # a refused move changes nothing: the same choices stand

    def timed_out(self, game: dict) -> str:
        """The clock ran out before a move was chosen: the table moves for this seat."""
        click.echo("Your time is up: the table moves for you.")
        return "timeout"

    def extra(self, game: dict, move: dict) -> dict | None:
        """Members the move request carries beside seq and move (a blind table's open)."""
        return None

    def send(self, game: dict, move: dict, timeout: bool = False) -> dict:
        """Send one move, again with the same Idempotency-Key while the service does not answer; keep its
        receipt. A refusal is raised (Problem)."""
        key = f"{self.id}-{game['seq']}-{uuid.uuid4().hex}"  # one key for every resend of this move
        extra = dict(self.extra(game, move) or {}, **({"timeout": True} if timeout else {}))

        def attempt():
            return self.c.move(
                self.id,
                game["seq"],
                move,
                key=key,
                on_retry=lambda n, exc: click.echo(
                    f"No answer from the service ({exc}); sending the same move again ({n})..."
                ),
                extra=extra or None,
            )

        ack = backoff(attempt, self.patience, lambda line: click.echo(line, err=True))
        if isinstance(ack, dict) and ack.get("receipt"):
            self.receipts[ack["seq"]] = ack["receipt"]
            if self.keep:
                self.keep(self.receipts)
        return ack

    def show(self, game: dict) -> list[dict]:
        """The state and the numbered legal moves; the cards you may not play dimmed, with the reason."""
        view = game.get("view") or {}
        word, rid = trump_word(view), view.get("rule_set", "")
        for line in state_lines(game, self.table):
            click.echo(line)
        legal, suggested = game["legal_moves"], game.get("suggested")
        numbered = (
            legal if len(legal) <= LIST_AT_MOST else [m for m in legal if m.get("kind") != "throw" or m == suggested]
        )
        click.echo("Your move:")
        for i, m in enumerate(numbered, 1):
            mark = "   <- suggested" if m == suggested else ""
            click.echo(f"  {i:>2}. {move_text(m, word, rid)}{mark}")
        if len(numbered) < len(legal):
            click.echo(("  or " if numbered else "  ") + throw_hint(legal))
        by_reason: dict[str, list[str]] = {}  # one line per reason: "You must follow clubs." once, not ten times
        for card, why in (game.get("why_not") or {}).items():
            by_reason.setdefault(why, []).append(card)
        for why, cards in by_reason.items():
            click.echo(click.style(f"   -  {' '.join(cards)}: {why}", dim=True))
        return numbered

    def ask(self, game: dict, numbered: list[dict]) -> Any:
        """Read a choice (the clock counting down in the prompt). None: the player leaves (q, or the end of
        input); TIMEOUT: the clock ran out first."""
        legal, suggested = game["legal_moves"], game.get("suggested")
        view = game.get("view") or {}
        hint = (
            ("number or move" if numbered else "move")
            + (", Enter = suggested" if suggested in legal else "")
            + ", ? = trump order, q = leave"
        )
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
            if text.strip() in ("?", "rules"):  # the trump suit's order, this hand's
                if self.rules_help is None:
                    self.rules_help = fetch_rules(self.c, self.id) or {}
                for line in order_lines(self.rules_help, view.get("trump")):
                    click.echo(line)
                continue
            if text.strip().lower() in ("q", "quit", "leave"):
                if self.confirm_leave(game, deadline):
                    return None
                continue
            if not text.strip() and suggested in legal:
                return suggested
            if not text.strip():
                click.echo(
                    "Type a number from the list, or a move"
                    + (" (there is no suggestion here)." if suggested not in legal else ".")
                )
                continue
            try:
                return parse_move(text, numbered, legal, trump_word(view))
            except ValueError as exc:
                click.echo(str(exc))

    def confirm_leave(self, game: dict, deadline: float | None) -> bool:
        """Ask before leaving: one stray q must not leave (or end a game for everyone)."""
        click.echo(leave_consequence(game))
        answer = read_line(lambda _s: "Leave the table? [y/N]: ", deadline)
        if answer is None:
            return True  # the end of input: nobody is there to play on
        return answer is not TIMEOUT and answer.strip().lower() in ("y", "yes")


def leave_consequence(game: dict) -> str:
    """What leaving does to this table's game, said before the player confirms."""
    if game.get("blind"):
        return (
            "At a dealer-blind table your keys are needed for every card still to come: leaving ends the game at "
            "once, aborted. Your client sends your secret with the leave, so every deal can still be checked."
        )
    if game.get("on_leave") == "end":
        return "Leaving ends the game for everyone (the host chose so when opening the table)."
    others = [s for s in game.get("seats") or [] if not s.get("bot") and s.get("seat") != game.get("seat")]
    if not others:
        return "You are the only player at this table: leaving ends the game (as abandoned)."
    return (
        "The table's bot will play your seat until you come back (fairdeal play --resume "
        f"{game.get('game_id')}); the others play on."
    )


def _ends(tracker: HandTracker, records: list[dict]) -> list:
    """What `tracker` would say of each record (a copy steps through them): a HandEnd or None."""
    probe = copy.deepcopy(tracker)
    return [probe.step(rec) for rec in records]
