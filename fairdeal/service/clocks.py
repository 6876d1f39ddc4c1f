"""Clocks and scheduling: what is due in a game and when, run at every touch (`advance`: the seating and start
records, a reveal deadline, bot moves, stand-ins, timeout moves, abandonment, the end), and the sweeper's index of
when each game next needs a touch (`schedule`). When the service ends a game early is endings.py's; when a bot
stands in for a player who is away, standin.py's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairdeal.service import endings, standin, table_docs
from fairdeal.service.appends import Appender
from fairdeal.service.blind.seating import is_blind  # BLIND HOOK
from fairdeal.service.game import Game
from fairdeal.service.isotime import parse_iso
from fairdeal.service.lost_records import LostRecords
from fairdeal.service.store.base import Store

MAX_STEPS = 2000  # bots and timeouts run per touch, a bound against a rule set that never stops


def reveal_due(table: dict) -> float | None:
    """When a table waiting for its reveals is cancelled for the seats that did not reveal."""
    deadline = table.get("reveal_deadline")
    return parse_iso(deadline) if table["status"] == "revealing" and deadline else None


def gone(table: dict, seat: int) -> bool:
    """Whether the seat's player left the table (its time is up at once)."""
    return bool(table["seats"][seat].get("gone"))


def coarse(when: float, limit: float) -> float:
    """`when` rounded up to a twentieth of `limit` (a time limit that moves with every move)."""
    step = max(0.01, limit / 20)
    return -(-when // step) * step


class Clocks:
    def __init__(self, store: Store, config, now: Callable[[], float], appender: Appender, lost: LostRecords):
        self.store, self.config, self.now, self.appender, self.lost = store, config, now, appender, lost
        self.blind: Any = None  # BLIND HOOK: the dealer-blind tables' part (blind/table.py's Blind), set by Games

    def deadline(self, game: Game) -> float | None:
        """When the seat to move runs out of time (None: no clock). A seat whose player left has no time; a
        decision without a clock (the table's clock for its kind is off) has no timeout move at all: abandon_at
        ends the game if that seat's player left."""
        kind, live = game.decision_kind(), game.live
        if kind is None or live is None:  # a decision is waited for only in a started game
            return None
        seat = live.state.to_move
        assert seat is not None  # a decision waited for has its seat
        if seat in live.bot_seats:
            return game.last_at  # due at once (a bot moves as soon as it is its turn)
        secs = endings.clock_seconds(live, game.loaded_table, kind)
        if secs is None:
            return None
        return game.last_at if gone(game.loaded_table, seat) else game.last_at + secs

    def abandon_at(self, game: Game) -> float | None:
        return endings.abandon_at(game, self.config.abandon_after)

    def advance(self, game: Game) -> Any:
        """Run whatever is due now: seating and start records, a reveal deadline, bot moves, timeout moves,
        abandonment, the end. At a blind table, returns the blind log's Progress as this advance left it (read
        from the store at its start, with its own appends), for the caller that would read it again at once."""
        table, appender = game.loaded_table, self.appender
        if table["status"] == "revealing":
            appender.ensure_seated(game)
            due = reveal_due(table)
            if not game.ended and due is not None and due <= self.now():
                appender.finish(game, "not-revealed")
            self.schedule(game)
            return
        if game.length == 0:  # the table is there, its log is not: nothing is written over lost records
            raise self.lost.refusal(game.game_id, table, "no-commit", 0)
        if table["status"] == "playing" and not game.started:
            appender.ensure_started(game)
        if is_blind(table):  # BLIND HOOK: a blind table's steps, moves, aborts and end (fairdeal/service/blind/)
            progress = self.blind.advance(game)
            self.schedule(game, progress)
            return progress
        fresh = False  # the table document read from the store by this advance (a move's fast path reads none)
        for _ in range(MAX_STEPS):
            if game.ended or game.live is None:
                break
            live = game.live
            if live.state.is_over:
                appender.finish(game, "finished")
                continue
            now = self.now()
            seat = live.state.to_move
            assert seat is not None  # the game is not over: someone is to move
            stand_in = seat not in live.bot_seats and standin.stands_in(game, seat, now, self.config.standin_after)
            reason = endings.cut_short(game, self.config, now)  # before bots move too
            if reason == "abandoned" and stand_in:
                reason = None  # the seat to move is away and another player is here: the bot stands in instead
            if reason == "abandoned" and not fresh:  # who left is the table document's: end on the store's
                game.table, fresh = table_docs.load(self.store, game.game_id)[0], True
                continue
            if reason is not None:
                appender.finish(game, reason)
                continue
            if seat in live.bot_seats:
                appender.append_move(game, seat, live.bot_move(seat), "bot")
                continue
            if stand_in:  # the player is away (as the store's table document says now: standin.claim)
                fresh = True
                if self._still_away(game, seat, now, stand_in=True):
                    appender.append_move(game, seat, live.bot_move(seat), "stand-in")
                continue
            due = self.deadline(game)
            if due is not None and due <= now:
                if gone(game.loaded_table, seat):
                    fresh = True
                    if not self._still_away(game, seat, now, stand_in=False):
                        continue  # the player came back: its own clock, from the fresh table
                appender.append_move(game, seat, live.timeout_move(seat), "timeout")
                continue
            break
        self.schedule(game)

    def _still_away(self, game: Game, seat: int, now: float, stand_in: bool) -> bool:
        """The store's table document says it too (the bot stands in for the seat; or its player left, so its
        time is up at once), and the move about to be made is marked on it (standin.claim)."""
        after = self.config.standin_after
        if stand_in:
            return standin.claim(self.store, game, seat, lambda t: standin.stands_in(game, seat, now, after, t))
        return standin.claim(self.store, game, seat, lambda t: gone(t, seat))

    def next_check(self, game: Game, for_index: bool = False, blind: Any = None) -> float | None:
        """When the game next needs a touch (None: nothing is due, ever, without a move). `for_index`: the time
        written into the sweeper's index, where a stand-in's time is coarse too (see schedule). `blind`: a blind
        table's Progress just read (None: read it)."""
        if game.ended:
            return None
        if game.live is None:
            return reveal_due(game.loaded_table)
        if is_blind(game.table):  # BLIND HOOK
            return self.blind.next_check(game, blind)
        due, abandon = self.deadline(game), self.abandon_at(game)
        if abandon is not None:
            # the silence limit moves with every human move: schedule it coarsely (rounded up to a twentieth
            # of the limit) so that most moves need no index write
            abandon = coarse(abandon, self.config.abandon_after)
        stand_in = standin.next_at(game, self.config.standin_after)
        if stand_in is not None and for_index:
            stand_in = coarse(stand_in, self.config.standin_after)
        times = [t for t in (due, abandon, stand_in) if t is not None]
        return min(times) if times else None

    def schedule(self, game: Game, blind: Any = None) -> None:
        """Keep the sweeper's index (game -> next time something is due) current. At a table without clocks the
        stand-in time moves with every move; in the index it is rounded up to a twentieth of standin_after, so
        that most moves write nothing there (a store write a move was a third of a move's round trips). Only the
        sweeper reads the index, for the games nobody touches: a waiting client wakes at the exact time
        (feed.until_due), and any request's touch runs what is due."""
        when = self.next_check(game, for_index=True, blind=blind)
        key = None if when is None else round(when, 1)
        if key is not None and game.scheduled is None:  # replayed afresh (evicted): the index may hold it (a read
            stored = self.store.index_score("schedule", game.game_id)  # is cheaper than an fsynced write)
            game.scheduled = key if stored is not None and round(stored, 1) == key else None
        if key != game.scheduled:
            if when is None:  # key is None exactly when `when` is
                self.store.index_remove("schedule", game.game_id)
            else:
                self.store.index_set("schedule", game.game_id, when)
            game.scheduled = key
