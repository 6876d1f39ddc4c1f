"""A dealer-blind table's part of the move path (docs/blind.md, "The service"): the server relays and checks the
seats' signed messages, does its own seats' steps at once, records the plays opened, checks each hand's rules
when its cards are all open, and ends a game a seat stalls as aborted, blamed on that seat.

`Blind.advance` stands in for Games.advance's loop at a blind table (the hook in games.py): the server has no
timeout move, stand-in or suggestion for a hand it cannot see, so the one thing it does for a silent human is
wait until the deadline and the grace period, then abort.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

from fairdeal.core.blind import derive
from fairdeal.core.blind.deal import opens
from fairdeal.core.blind.group import element_from_hex, scalar_from_hex
from fairdeal.core.blind.messages import BadMessage, check_form, verify_signature
from fairdeal.core.cards import card_from_str
from fairdeal.core.games.base import Move
from fairdeal.service.blind import audit
from fairdeal.service.blind.log import DECK, Progress, entry_text, holders, log_id, positions
from fairdeal.service.blind.seats import ServerSeats
from fairdeal.service.errors import ApiError
from fairdeal.service.store.base import CONFLICT, DUPLICATE, KEY_REUSED, OK

log = logging.getLogger("fairdeal.blind")
MAX_STEPS = 2000


def is_blind(table: dict | None) -> bool:
    return bool(table and table.get("blind"))


class Blind:
    def __init__(self, store, config, metrics=None):
        self.store, self.config, self.metrics = store, config, metrics
        self.bots = ServerSeats(store)
        self._progress: dict[str, Progress] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------------------------ the blind log
    def progress(self, game_id: str, seats: int = 4) -> Progress:
        """This process's reading of the game's blind log, caught up with the store."""
        with self._lock:
            p = self._progress.get(game_id)
            if p is None:
                p = self._progress[game_id] = Progress(seats)
        start = max(p.count - 1, 0)
        texts = self.store.records(log_id(game_id), start)
        if p.count and (not texts or texts[0] != p.texts[-1]):
            p = Progress(seats)  # the store is behind this copy or went another way: read it afresh
            texts, start = self.store.records(log_id(game_id), 0), 0
            with self._lock:
                self._progress[game_id] = p
        for text in texts[p.count - start :]:
            p.apply(text)
        return p

    def _append(self, game_id: str, p: Progress, entry: dict, now: float) -> bool:
        """Compare-and-append on the blind log's length; False if another writer was first (read again)."""
        text = entry_text(dict(entry, at=round(now, 3)))
        res = self.store.append(log_id(game_id), p.count, text, now)
        if res.status == OK:
            p.apply(text)
            return True
        return False

    def member(self, game_id: str) -> dict[str, Any]:
        """The transcript member of a blind game ({} for any other game): Games adds it before it signs the end."""
        p = self.progress(game_id)
        return {"blind": p.member()} if p.count else {}

    @staticmethod
    def since(c, p: Progress) -> float:
        """When the step due now became due: the last write to either log."""
        return max(c.last_at, p.last_at)

    def step_seconds(self, table: dict) -> float:
        other = (table.get("clocks") or {}).get("other")
        return float(other) if other else float(self.config.blind_step)

    # ------------------------------------------------------------------------------ the seats' commits
    def write_commits(self, c, table: dict, p: Progress, now: float) -> bool:
        """The log's first N entries: every seat's commit in seat order (the bots' made now)."""
        n = table["players"]
        for seat in range(p.count, n):
            s = table["seats"][seat]
            msg = self.bots.seat(c.game_id, seat, n).commit() if s["bot"] else s.get("blind_commit")
            if msg is None:
                raise RuntimeError(f"game {c.game_id}: seat {seat} has no blind commit")
            if not self._append(c.game_id, p, {"m": msg}, now):
                return False
        return True

    # ------------------------------------------------------------------------------ advance
    def advance(self, games, c, table: dict) -> None:
        """Run what is due at a blind table: the server seats' steps and moves, a move whose open is in but
        whose record is not, each finished hand's check, the reveals, an abort past a deadline, the end."""
        n = table["players"]
        for _ in range(MAX_STEPS):
            if c.ended or c.live is None:
                return
            p = self.progress(c.game_id, n)
            now = games.now()
            if p.count < n:
                self.write_commits(c, table, p, now)
                continue
            if p.end is not None:  # the end entry is in: the end record follows it
                games.finish(c, "aborted" if p.end.get("abort") else "finished")
                continue
            if p.last_seq == c.seq + 1:  # an open whose move record a crash or a racer left unwritten
                self._record_open(games, c, p)
                continue
            blame = audit.first_fault(c, p) if p.abort is None else None
            if blame is not None:
                self.abort(games, c, p, blame, now)
                continue
            if not self._step(games, c, table, p, now):
                return
            if p.abort is not None and not c.ended:
                continue

    def _step(self, games, c, table: dict, p: Progress, now: float) -> bool:
        """One thing due now, done; False when the game waits for a human."""
        state, n = c.live.state, table["players"]
        bots = c.live.bot_seats
        late = now > self.since(c, p) + self.step_seconds(table) + self.config.blind_grace
        if state.is_over or p.abort is not None:  # the reveals: every seat still present
            gone = {s for s in range(n) if table["seats"][s].get("gone")}
            missing = [s for s in range(n) if s not in p.reveals]
            bot = next((s for s in missing if s in bots), None)
            if bot is not None:
                self._append(c.game_id, p, {"m": self.bots.seat(c.game_id, bot, n).reveal()}, now)
                return True
            if not [s for s in missing if s not in gone] or late:
                self._end(games, c, p, missing, now)
                return True
            return False
        k, dealer = state.hand_number, state.dealer
        step, owing = p.due(k)
        if step != "ready":
            bot = next((s for s in owing if s in bots), None)
            if bot is not None:
                self._bot_step(c, p, step, k, dealer, bot, n, now)
                return True
            if late or any(table["seats"][s].get("gone") for s in owing):
                why = "left" if any(table["seats"][s].get("gone") for s in owing) else "step-timeout"
                gone = [s for s in owing if table["seats"][s].get("gone")]
                self.abort(games, c, p, {"seat": (gone or owing)[0], "why": why, "deal": k, "step": step}, now)
                return True
            return False
        self._give_bots(c, p, k, dealer, n)
        seat = state.to_move
        if seat in bots:
            self.record(games, c, p, seat, c.live.bot_move(seat), "bot", None, now)
            return True
        due = self.move_deadline(games, c, table)
        if table["seats"][seat].get("gone") or (due is not None and now > due):
            why = "left" if table["seats"][seat].get("gone") else "move-timeout"
            self.abort(games, c, p, {"seat": seat, "why": why, "deal": k, "step": "move", "seq": c.seq + 1}, now)
            return True
        return False

    def move_deadline(self, games, c, table: dict) -> float | None:
        """When a human's move is past saving: its clock and the grace period (its own client plays the timeout
        move within them); at a table without clocks, the service's silence limit (abandon_after)."""
        due = games.deadline(c, table)
        if due is not None:
            return due + self.config.blind_grace
        return c.last_human_at + self.config.abandon_after

    def _bot_step(self, c, p: Progress, step: str, k: int, dealer: int, seat: int, n: int, now: float) -> None:
        bot, d = self.bots.seat(c.game_id, seat, n), p.deal(k)
        if step == "shuffle":
            msg = bot.shuffle(k, d.shuffles[-1]["deck"] if d.shuffles else None)
        elif step == "lock":
            msg = bot.lock(k, (d.locks or d.shuffles)[-1]["deck"])
        else:
            msg = bot.release(k, holders(dealer, n), p.box_keys())
        self._append(c.game_id, p, {"m": msg}, now)

    def _bot_hand(self, c, p: Progress, k: int, dealer: int, seat: int, n: int) -> dict[int, str]:
        d = p.deal(k)
        bot = self.bots.seat(c.game_id, seat, n)
        return self.bots.hand(bot, k, d.final_deck(), d.releases, holders(dealer, n), p.box_keys())

    def _give_bots(self, c, p: Progress, k: int, dealer: int, n: int) -> None:
        state = c.live.state
        for seat in c.live.bot_seats:
            if state.hidden(seat):
                state.give(seat, self.bots.cards(self._bot_hand(c, p, k, dealer, seat, n)))

    # ------------------------------------------------------------------------------ recording moves
    def record(
        self,
        games,
        c,
        p: Progress,
        seat: int,
        move: Move,
        by: str,
        opened: dict | None,
        now: float,
        idem: tuple = (None, None, ""),
    ):
        """Record a move: a play's open first (the bot's made here), then its move record. Returns the append's
        result and record, or None when the open lost a race (read again)."""
        if move.kind == "play":
            if opened is None:
                state = c.live.state
                hand = self._bot_hand(c, p, state.hand_number, state.dealer, seat, c.live.rules.players)
                j = next(j for j, card in hand.items() if card == str(move.card))
                opened = self.bots.seat(c.game_id, seat, c.live.rules.players).open(state.hand_number, j)
            if not self._append(c.game_id, p, {"m": opened, "seq": c.seq + 1, "by": by}, now):
                return None
        return games._append_move(c, seat, move, by, *idem)

    def _record_open(self, games, c, p: Progress) -> None:
        msg, seq, by = self._last_open(p)
        games._append_move(c, msg["seat"], Move.play(card_from_str(msg["card"])), by)

    @staticmethod
    def _last_open(p: Progress) -> tuple[dict, int, str]:
        last = max(p.deals)
        return p.deals[last].opens[-1]

    # ------------------------------------------------------------------------------ aborts and the end
    def abort(self, games, c, p: Progress, blame: dict, now: float) -> None:
        """No more moves or deal steps: the seats still present reveal (their clients see "due": reveal), then
        the game ends aborted, its end's blame naming the seat (and any seat that did not reveal)."""
        if p.abort is None and self._append(c.game_id, p, {"abort": blame}, now):
            log.info("blind game aborted", extra={"fields": {"game": c.game_id, **blame}})
            if self.metrics:
                self.metrics.inc("fairdeal_blind_aborts_total", why=blame["why"])

    def left(self, games, c, table: dict, seat: int | None) -> None:
        """A seat left a running blind table: its keys are needed for every card still to come, so the game
        ends now, aborted and blamed on it."""
        if seat is None or c.ended or c.live is None:
            return
        p = self.progress(c.game_id, table["players"])
        k = c.live.state.hand_number
        self.abort(games, c, p, {"seat": seat, "why": "left", "deal": k, "step": "leave"}, games.now())

    def _end(self, games, c, p: Progress, unrevealed: list[int], now: float) -> None:
        self._append(c.game_id, p, {"end": {"abort": p.abort, "unrevealed": unrevealed}}, now)
        p = self.progress(c.game_id)
        games.finish(c, "aborted" if p.end and p.end.get("abort") else "finished")

    # ------------------------------------------------------------------------------ a human's move
    def player_move(self, games, c, table: dict, seat: int, body: dict, idem_key, player_id: str) -> dict:
        """A move at a blind table: a play carries its open (checked: signature, the seat's position, not
        played before, the open against the final deck); `"timeout": true` says the seat's own client played
        its timeout move because its clock ran out."""
        from fairdeal.service.games import body_hash

        move_json, opened, timeout = body["move"], body.get("open"), body.get("timeout", False)
        if type(timeout) is not bool:
            raise ApiError(
                400,
                "bad-request",
                "'timeout' is true (your clock ran out and your client played the rule set's timeout move) or false.",
            )
        bhash = body_hash({"seat": seat, "seq": body["seq"], "move": move_json, "open": opened}) if idem_key else None
        for _ in range(3):
            try:
                self.advance(games, c, table)
                games.schedule(c, table)
                move = games._check_move(c, seat, body["seq"], move_json)
                p = self.progress(c.game_id)
                state = c.live.state
                if p.abort is not None:
                    raise ApiError(
                        409, "game-aborted", "This game is aborted: no more moves; the seats reveal.", abort=p.abort
                    )
                if p.due(state.hand_number)[0] != "ready":
                    raise ApiError(
                        409,
                        "deal-not-ready",
                        "The deal's shuffles, locks and releases are not all in yet.",
                        due=self.due(games, c, table, p),
                    )
                if timeout and not self._clock_out(games, c, table):
                    raise ApiError(409, "clock-not-out", "Your clock has not run out: send the move without 'timeout'.")
                if move.kind == "play":
                    opened = self.check_open(c, p, seat, move, opened)
                elif opened is not None:
                    raise ApiError(422, "bad-open", "Only a card played has an open.", why="not-a-play")
            except ApiError:
                if idem_key:
                    probe = self.store.append(c.game_id, -1, "", games.now(), idem_key, bhash, player_id)
                    if probe.status in (DUPLICATE, KEY_REUSED):
                        return games._idempotent_answer(c, probe, seat)
                raise
            by = "timeout" if timeout else "player"
            got = self.record(games, c, p, seat, move, by, opened, games.now(), (idem_key, bhash, player_id))
            if got is None:
                continue  # another writer took the blind log's next place: read again, check again
            res, record = got
            if res.status in (DUPLICATE, KEY_REUSED):
                return games._idempotent_answer(c, res, seat)
            if res.status == OK or (res.status == CONFLICT and c.seq >= record["seq"]):
                from fairdeal.core.transcript import record_hash

                stored = c.transcript["records"][record["seq"] - 1]  # the record as recorded (by a racer, maybe)
                receipt = c.live.last_hash if res.status == OK else record_hash(stored)
                self.advance(games, c, table)
                games.schedule(c, table)
                return {"seq": record["seq"], "receipt": receipt, "replayed": False}
        raise ApiError(409, "stale-sequence", "Another move was recorded first: look at the game again.", seq=c.seq)

    def _clock_out(self, games, c, table: dict) -> bool:
        due = games.deadline(c, table)
        return due is not None and games.now() >= due - 1.0  # a second's slack for the client's own clock

    def check_open(self, c, p: Progress, seat: int, move: Move, opened: Any) -> dict:
        if opened is None:
            raise ApiError(
                422,
                "open-missing",
                "At a blind table a card is played with its open: the signed "
                '"open" message with the card, its position and every seat\'s key for it.',
            )
        n = c.live.rules.players
        state = c.live.state
        k = state.hand_number
        try:
            msg = check_form(opened, c.game_id, n, DECK)
            if msg["type"] != "open":
                raise BadMessage("A card's open is a message of type open.")
            verify_signature(msg, p.commits[seat]["sign_key"])
        except BadMessage as exc:
            raise ApiError(422, "bad-open", str(exc), why="form-or-signature") from None
        if msg["seat"] != seat:
            raise ApiError(422, "bad-open", f"This open is seat {msg['seat']}'s, not yours.", why="seat")
        if msg["deal"] != k or msg["card"] != str(move.card):
            raise ApiError(
                422,
                "bad-open",
                f"This open is of {msg['card']} in deal {msg['deal']}; the move plays {move.card} in deal {k}.",
                why="not-this-card",
            )
        j = msg["position"]
        if j not in positions(state.dealer, n)[seat]:
            raise ApiError(422, "bad-open", f"Position {j} of deal {k} was not dealt to seat {seat}.", why="position")
        if j in p.deal(k).opened:
            raise ApiError(422, "bad-open", f"Position {j} of deal {k} was opened already.", why="position-opened")
        final = element_from_hex(p.deal(k).final_deck()[j])
        if not opens([scalar_from_hex(x) for x in msg["keys"]], msg["card"], final):
            raise ApiError(
                422,
                "bad-open",
                f"These keys do not open position {j} of deal {k} to {msg['card']}.",
                why="does-not-open",
            )
        return msg

    # ------------------------------------------------------------------------------ a posted message
    def post(self, games, c, table: dict, seat: int, message: Any) -> tuple[dict, bool]:
        """A shuffle, lock, release or reveal from the seat's client. Returns ({"index", "count"}, new?)."""
        n = table["players"]
        for _ in range(3):
            self.advance(games, c, table)
            games.schedule(c, table)
            p = self.progress(c.game_id, n)
            try:
                msg = check_form(message, c.game_id, n, DECK)
            except BadMessage as exc:
                raise ApiError(422, "bad-blind-message", str(exc)) from None
            if msg["seat"] != seat:
                raise ApiError(403, "not-your-seat", f"Your token holds seat {seat}, not seat {msg['seat']}.")
            if msg["type"] in ("commit", "open"):
                where = "with POST /tables/{id}/join" if msg["type"] == "commit" else "with the move it plays"
                raise ApiError(422, "bad-blind-message", f"A {msg['type']} is sent {where}.", member="type")
            try:
                verify_signature(msg, p.commits[seat]["sign_key"])
            except BadMessage as exc:
                raise ApiError(422, "bad-blind-signature", str(exc)) from None
            for i, text in enumerate(p.texts):
                if json.loads(text).get("m") == msg:
                    return {"index": i, "count": p.count}, False  # a retry: the same signed message
            if c.ended:
                raise ApiError(409, "game-over", "This game has ended; no more messages are taken.")
            self._in_turn(c, table, p, seat, msg)
            if self._append(c.game_id, p, {"m": msg}, games.now()):
                index = p.count - 1
                self.advance(games, c, table)
                games.schedule(c, table)
                return {"index": index, "count": self.progress(c.game_id).count}, True
        raise ApiError(503, "busy", "The table is changing too fast; try again.")

    def _in_turn(self, c, table: dict, p: Progress, seat: int, msg: dict) -> None:
        state, kind = c.live.state, msg["type"]
        if kind == "reveal":
            if not state.is_over and p.abort is None:
                raise ApiError(
                    409,
                    "blind-out-of-turn",
                    "A seat reveals its secret when the game's last hand is over.",
                    due=self.due(None, c, table, p),
                )
            if derive.commitment(bytes.fromhex(msg["secret"])) != p.commits[seat]["commitment"]:
                raise ApiError(422, "bad-reveal", "This secret does not open your commit's commitment.")
            return
        k = state.hand_number
        step, owing = p.due(k)
        if state.is_over or p.abort is not None or msg["deal"] != k or step != kind or seat not in owing:
            raise ApiError(
                409,
                "blind-out-of-turn",
                f"It is not seat {seat}'s {kind} of deal {msg['deal']} now.",
                due=self.due(None, c, table, p),
            )
        if kind == "release":
            wanted = {
                str(h): sorted(map(str, js)) for h, js in positions(state.dealer, table["players"]).items() if h != seat
            }
            got = {h: sorted(pads) for h, pads in msg["keys"].items()}
            if got != wanted:
                raise ApiError(
                    422,
                    "bad-blind-message",
                    f"A release of deal {k} has a key for every position dealt to every other seat, and no other.",
                    member="keys",
                )

    # ------------------------------------------------------------------------------ what is shown
    def due(self, games, c, table: dict, p: Progress) -> dict | None:
        if c.ended or c.live is None:
            return None
        state, n = c.live.state, table["players"]
        deadline = self.since(c, p) + self.step_seconds(table) + self.config.blind_grace
        if state.is_over or p.abort is not None:
            seats = [s for s in range(n) if s not in p.reveals and not table["seats"][s].get("gone")]
            return {
                "type": "reveal",
                "deal": None,
                "seat": seats[0] if seats else None,
                "seats": seats,
                "deadline": deadline,
            }
        step, owing = p.due(state.hand_number)
        if step == "ready":
            due = self.move_deadline(games, c, table) if games is not None else None
            return {
                "type": "move",
                "deal": state.hand_number,
                "seat": state.to_move,
                "seats": [state.to_move],
                "deadline": due,
            }
        return {"type": step, "deal": state.hand_number, "seat": owing[0], "seats": owing, "deadline": deadline}

    def summary(self, games, c, table: dict) -> dict[str, Any]:
        from fairdeal.service.games import iso

        p = self.progress(c.game_id, table["players"])
        due = self.due(games, c, table, p) if p.count >= table["players"] else None
        if due is not None and due.get("deadline") is not None:
            due = dict(due, deadline=iso(due["deadline"]))
        deal = None
        if c.live is not None:
            st = c.live.state
            deal = {
                "deal": st.hand_number,
                "dealer": st.dealer,
                "positions": {str(s): js for s, js in positions(st.dealer, table["players"]).items()},
            }
        return {
            "count": p.count,
            "due": due,
            "ready": bool(due and due["type"] == "move"),
            "deal": deal,
            "abort": p.abort,
        }

    def next_check(self, games, c, table: dict) -> float | None:
        """When the sweeper should next touch a blind game: a bot's step is due at once; else the deadline of
        the step due."""
        if c.ended or c.live is None:
            return None
        p = self.progress(c.game_id, table["players"])
        due = self.due(games, c, table, p)
        if due is None:
            return None
        if any(s in c.live.bot_seats for s in due["seats"] if s is not None):
            return games.now()
        return due["deadline"]
