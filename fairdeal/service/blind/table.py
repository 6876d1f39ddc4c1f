"""A dealer-blind table's part of the move path (docs/blind.md, "The service"): the server relays and checks the
seats' signed messages, does its own seats' steps at once, records the plays opened, checks each hand's rules
when its cards are all open, and ends a game a seat stalls as aborted, blamed on that seat.

`Blind.advance` stands in for Clocks.advance's loop at a blind table (the hook in clocks.py): the server has no
timeout move, stand-in or suggestion for a hand it cannot see, so the one thing it does for a silent human is
wait until the deadline and the grace period, then abort.
"""

from __future__ import annotations

import logging
from typing import Any

from fairdeal.core import transcript as tr
from fairdeal.core.blind import derive
from fairdeal.core.blind.deal import opens
from fairdeal.core.blind.group import element_from_hex, scalar_from_hex
from fairdeal.core.blind.messages import BadMessage, check_form, verify_signature
from fairdeal.core.cards import card_from_str
from fairdeal.core.games.base import Move
from fairdeal.service.blind import audit
from fairdeal.service.blind.log import DECK, BlindLogs, Progress, holders, positions
from fairdeal.service.blind.seats import ServerSeats
from fairdeal.service.errors import ApiError
from fairdeal.service.isotime import iso
from fairdeal.service.moves import Moves, body_hash, stale
from fairdeal.service.store.base import CONFLICT, DUPLICATE, KEY_REUSED, OK

log = logging.getLogger("fairdeal.blind")
MAX_STEPS = 2000


class Blind:
    """A blind table's steps, moves, aborts and end, for the jobs of fairdeal/service/games.py (BLIND HOOKs in
    clocks.py, moves.py, appends.py and catchup.py call in here)."""

    def __init__(self, store, config, now, logs: BlindLogs, appender, clocks, moves, metrics=None):
        self.store, self.config, self.now, self.metrics = store, config, now, metrics
        self.logs, self.appender, self.clocks, self.moves = logs, appender, clocks, moves
        self.bots = ServerSeats(store)
        self._verdicts: dict[str, dict[tuple, bool]] = {}  # game -> (deal, position, sig) -> the open holds

    def progress(self, game_id: str, seats: int = 4) -> Progress:
        return self.logs.progress(game_id, seats)

    def _append(self, game_id: str, p: Progress, entry: dict, now: float) -> bool:
        return self.logs.append(game_id, p, entry, now)

    def forget(self, game_id: str) -> None:
        """Drop what this process holds of a game that left the store."""
        self.logs.forget(game_id)
        self.bots.forget(game_id)
        self._verdicts.pop(game_id, None)

    @staticmethod
    def since(game, p: Progress) -> float:
        """When the step due now became due: the last write to either log."""
        return max(game.last_at, p.last_at)

    def step_seconds(self, table: dict) -> float:
        other = (table.get("clocks") or {}).get("other")
        return float(other) if other else float(self.config.blind_step)

    # ------------------------------------------------------------------------------ the seats' commits
    def write_commits(self, game, p: Progress, now: float) -> bool:
        """The log's first N entries: every seat's commit in seat order (the bots' made now)."""
        table = game.table
        n = table["players"]
        for seat in range(p.count, n):
            s = table["seats"][seat]
            msg = self.bots.seat(game.game_id, seat, n).commit() if s["bot"] else s.get("blind_commit")
            if msg is None:
                raise RuntimeError(f"game {game.game_id}: seat {seat} has no blind commit")
            if not self._append(game.game_id, p, {"m": msg}, now):
                return False
        return True

    # ------------------------------------------------------------------------------ advance
    def advance(self, game) -> Progress | None:
        """Run what is due at a blind table: the server seats' steps and moves, a move whose open is in but
        whose record is not, each finished hand's check, the reveals, an abort past a deadline, the end. Returns
        the blind log's Progress as read at the last step and kept current by this advance's own appends (None
        when the game was over before a read): the caller's check of a move or a post, and the schedule, use it
        instead of reading the log again (a racer's append makes the next compare-and-append fail, read again)."""
        table = game.table
        n = table["players"]
        p = None
        for _ in range(MAX_STEPS):
            if game.ended or game.live is None:
                return p
            p = self.progress(game.game_id, n)
            now = self.now()
            if p.count < n:
                self.write_commits(game, p, now)
                continue
            if p.end is not None:  # the end entry is in: the end record follows it
                self.appender.finish(game, "aborted" if p.end.get("abort") else "finished")
                continue
            if p.last_seq == game.seq + 1:  # an open whose move record a crash or a racer left unwritten
                self._record_open(game, p)
                continue
            blame = audit.first_fault(game, p) if p.abort is None else None
            if blame is not None:
                self.abort(game, p, blame, now)
                continue
            if not self._step(game, p, now):
                return p
            if p.abort is not None and not game.ended:
                continue
        return p

    def _step(self, game, p: Progress, now: float) -> bool:
        """One thing due now, done; False when the game waits for a human."""
        table = game.table
        state, n = game.live.state, table["players"]
        bots = game.live.bot_seats
        step_deadline = self.since(game, p) + self.step_seconds(table) + self.config.blind_grace
        late = now > step_deadline
        if state.is_over or p.abort is not None:  # the reveals: every seat still present
            gone = {s for s in range(n) if table["seats"][s].get("gone")}
            missing = [s for s in range(n) if s not in p.reveals]
            bot = next((s for s in missing if s in bots), None)
            if bot is not None:
                self._append(game.game_id, p, {"m": self.bots.seat(game.game_id, bot, n).reveal()}, now)
                return True
            if not [s for s in missing if s not in gone] or late:
                self._end(game, p, missing, now)
                return True
            return False
        k, dealer = state.hand_number, state.dealer
        step, owing = p.due(k)
        if step != "ready":
            bot = next((s for s in owing if s in bots), None)
            if bot is not None:
                self._bot_step(game, p, step, k, dealer, bot, n, now)
                return True
            if late or any(table["seats"][s].get("gone") for s in owing):
                why = "left" if any(table["seats"][s].get("gone") for s in owing) else "step-timeout"
                left = [s for s in owing if table["seats"][s].get("gone")]
                blame = {"seat": (left or owing)[0], "why": why, "deal": k, "step": step}
                self.abort(game, p, blame, now, None if left else step_deadline)
                return True
            return False
        self._give_bots(game, p, k, dealer, n)
        seat = state.to_move
        if seat in bots:
            self.record(game, p, seat, game.live.bot_move(seat), "bot", None, now)
            return True
        due = self.move_deadline(game)
        if table["seats"][seat].get("gone") or (due is not None and now > due):
            why = "left" if table["seats"][seat].get("gone") else "move-timeout"
            blame = {"seat": seat, "why": why, "deal": k, "step": "move", "seq": game.seq + 1}
            self.abort(game, p, blame, now, None if why == "left" else due)
            return True
        return False

    def move_deadline(self, game) -> float | None:
        """When a human's move is past saving: its clock and the grace period (its own client plays the timeout
        move within them); at a table without clocks, the service's silence limit (abandon_after)."""
        due = self.clocks.deadline(game)
        if due is not None:
            return due + self.config.blind_grace
        return game.last_human_at + self.config.abandon_after

    def _bot_step(self, game, p: Progress, step: str, k: int, dealer: int, seat: int, n: int, now: float) -> None:
        bot, d = self.bots.seat(game.game_id, seat, n), p.deal(k)
        if step == "shuffle":
            msg = bot.shuffle(k, d.shuffles[-1]["deck"] if d.shuffles else None)
        elif step == "lock":
            msg = bot.lock(k, (d.locks or d.shuffles)[-1]["deck"])
        else:
            msg = bot.release(k, holders(dealer, n), p.box_keys())
        self._append(game.game_id, p, {"m": msg}, now)

    def _bot_hand(self, game, p: Progress, k: int, dealer: int, seat: int, n: int) -> dict[int, str]:
        d = p.deal(k)
        bot = self.bots.seat(game.game_id, seat, n)
        return self.bots.hand(bot, k, d.final_deck(), d.releases, holders(dealer, n), p.box_keys())

    def _give_bots(self, game, p: Progress, k: int, dealer: int, n: int) -> None:
        state = game.live.state
        for seat in game.live.bot_seats:
            if state.hidden(seat):
                state.give(seat, self.bots.cards(self._bot_hand(game, p, k, dealer, seat, n)))

    # ------------------------------------------------------------------------------ recording moves
    def record(
        self,
        game,
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
                state = game.live.state
                hand = self._bot_hand(game, p, state.hand_number, state.dealer, seat, game.live.rules.players)
                j = next(j for j, card in hand.items() if card == str(move.card))
                opened = self.bots.seat(game.game_id, seat, game.live.rules.players).open(state.hand_number, j)
            if not self._append(game.game_id, p, {"m": opened, "seq": game.seq + 1, "by": by}, now):
                return None
        return self.appender.append_move(game, seat, move, by, *idem)

    def _record_open(self, game, p: Progress) -> None:
        msg, seq, by = self._last_open(p)
        self.appender.append_move(game, msg["seat"], Move.play(card_from_str(msg["card"])), by)

    @staticmethod
    def _last_open(p: Progress) -> tuple[dict, int, str]:
        last = max(p.deals)
        return p.deals[last].opens[-1]

    # ------------------------------------------------------------------------------ aborts and the end
    def abort(self, game, p: Progress, blame: dict, now: float, deadline: float | None = None) -> None:
        """No more moves or deal steps: the seats still present reveal (their clients see "due": reveal), then
        the game ends aborted, its end's blame naming the seat (and any seat that did not reveal). deadline: for a
        stall, the deadline that passed (the transcript's blind.abort carries it, for the verifier)."""
        if p.abort is None and self._append(game.game_id, p, {"abort": blame, "deadline": deadline}, now):
            log.info("blind game aborted", extra={"fields": {"game": game.game_id, **blame}})
            if self.metrics:
                self.metrics.inc("fairdeal_blind_aborts_total", why=blame["why"])

    def left(self, game, seat: int | None, reveal: dict | None = None) -> None:
        """A seat leaves a running blind table. Its keys are needed for every card still to come, so the game
        ends now, aborted (no more moves; its unplayed cards are never played). With its reveal (the leave's
        "blind_reveal", checked by seating.check_leave_reveal) its σ goes into the log right after the abort:
        nothing is left to play, so it exposes no card still in play, and the deals can be derived; the signed
        end then names no seat for the leave (Progress.member). A seat that revealed after the last hand owes
        nothing: its leave aborts nothing."""
        table = game.table
        if seat is None or game.ended or game.live is None:
            return
        for _ in range(3):
            p = self.progress(game.game_id, table["players"])
            if p.end is not None or (game.live.state.is_over and seat in p.reveals):
                return
            now = self.now()
            if p.abort is None and not (game.live.state.is_over and reveal is not None):
                k = game.live.state.hand_number
                self.abort(game, p, {"seat": seat, "why": "left", "deal": k, "step": "leave"}, now)
                if p.abort is None:
                    continue  # another writer was first: read again
            if reveal is None or seat in p.reveals or self._append(game.game_id, p, {"m": reveal}, now):
                return

    def _end(self, game, p: Progress, unrevealed: list[int], now: float) -> None:
        self._append(game.game_id, p, {"end": {"abort": p.abort, "unrevealed": unrevealed}}, now)
        p = self.progress(game.game_id)
        self.appender.finish(game, "aborted" if p.end and p.end.get("abort") else "finished")

    # ------------------------------------------------------------------------------ a human's move
    def player_move(self, game, seat: int, body: dict, idem_key, player_id: str) -> dict:
        """A move at a blind table: a play carries its open (checked: signature, the seat's position, not
        played before, the open against the final deck); `"timeout": true` says the seat's own client played
        its timeout move because its clock ran out."""
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
                p = self.clocks.advance(game) or self.progress(game.game_id)
                move = Moves.check(game, seat, body["seq"], move_json)
                state = game.live.state
                if p.abort is not None:
                    raise ApiError(
                        409, "game-aborted", "This game is aborted: no more moves; the seats reveal.", abort=p.abort
                    )
                if p.due(state.hand_number)[0] != "ready":
                    raise ApiError(
                        409,
                        "deal-not-ready",
                        "The deal's shuffles, locks and releases are not all in yet.",
                        due=self.due(game, p),
                    )
                if timeout and not self._clock_out(game):
                    raise ApiError(409, "clock-not-out", "Your clock has not run out: send the move without 'timeout'.")
                if move.kind == "play":
                    opened = self.check_open(game, p, seat, move, opened)
                elif opened is not None:
                    raise ApiError(422, "bad-open", "Only a card played has an open.", why="not-a-play")
            except ApiError:
                if idem_key:
                    done = self.store.idem_lookup(game.game_id, idem_key, bhash, player_id, self.now())
                    if done is not None:
                        return self.moves._idempotent_answer(game, done, seat)
                raise
            by = "timeout" if timeout else "player"
            got = self.record(game, p, seat, move, by, opened, self.now(), (idem_key, bhash, player_id))
            if got is None:
                continue  # another writer took the blind log's next place: read again, check again
            res, record = got
            if res.status in (DUPLICATE, KEY_REUSED):
                return self.moves._idempotent_answer(game, res, seat)
            if res.status == OK or (res.status == CONFLICT and game.seq >= record["seq"]):
                stored = game.transcript["records"][record["seq"] - 1]  # the record as recorded (by a racer, maybe)
                receipt = game.live.last_hash if res.status == OK else tr.record_hash(stored)
                self.clocks.advance(game)
                return {"seq": record["seq"], "receipt": receipt, "replayed": False}
        raise stale(game.seq, "Another move was recorded first: look at the game again.")

    def _clock_out(self, game) -> bool:
        due = self.clocks.deadline(game)
        return due is not None and self.now() >= due - 1.0  # a second's slack for the client's own clock

    def check_open(self, game, p: Progress, seat: int, move: Move, opened: Any) -> dict:
        if opened is None:
            raise ApiError(
                422,
                "open-missing",
                "At a blind table a card is played with its open: the signed "
                '"open" message with the card, its position and every seat\'s key for it.',
            )
        n = game.live.rules.players
        state = game.live.state
        k = state.hand_number
        try:
            msg = check_form(opened, game.game_id, n, DECK)
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
        if p.deal(k).final_deck() is None:  # cannot be: a move is taken only once the deal is ready (every lock in)
            raise ApiError(409, "deal-not-ready", "The deal's locks are not all in yet.")
        # The multiplication is the clients' check (each checks every other seat's open, and complains of a wrong
        # one: `complain`); the server makes it only for its own seats, as their client (docs/blind.md).
        if game.live.bot_seats and not self._holds(game.game_id, p, k, msg):
            raise ApiError(
                422,
                "bad-open",
                f"These keys do not open position {j} of deal {k} to {msg['card']}.",
                why="does-not-open",
            )
        return msg

    def _holds(self, game_id: str, p: Progress, k: int, msg: dict) -> bool:
        """mul(Π keys, P_card) == F_k[j] for this open (one multiplication), the verdict kept per open: a flood of
        complaints of one open costs one multiplication."""
        j = msg["position"]
        verdicts = self._verdicts.setdefault(game_id, {})
        key = (k, j, msg["sig"])
        deck = p.deal(k).final_deck()
        if deck is None:  # an open comes only after the deal's last lock
            return False
        if key not in verdicts:
            final = element_from_hex(deck[j])
            verdicts[key] = opens([scalar_from_hex(x) for x in msg["keys"]], msg["card"], final)
        return verdicts[key]

    # ------------------------------------------------------------------------------ a complaint
    def complain(self, game, seat: int, body: Any) -> dict:
        """A seat's client found that an open in the log does not open its position to its card: the server checks
        that one open and, if it is wrong, aborts the game blamed on its opener (why "bad-open"). A complaint
        that does not hold changes nothing (422 `complaint-refused`)."""
        if not isinstance(body, dict) or set(body) != {"deal", "position"}:
            raise ApiError(422, "bad-complaint", 'A complaint is {"deal": k, "position": j}: the open it names.')
        k, j = body["deal"], body["position"]
        if type(k) is not int or type(j) is not int or not 0 <= j < DECK or k < 0:
            raise ApiError(422, "bad-complaint", "A complaint's deal and position are integers (0 <= position < 52).")
        p = self.progress(game.game_id, game.table["players"])
        found = [(m, seq) for m, seq, _ in p.deal(k).opens if m["position"] == j]
        if not found:
            raise ApiError(404, "no-such-open", f"The blind log holds no open of position {j} of deal {k}.")
        msg, seq = found[0]
        if self._holds(game.game_id, p, k, msg):
            raise ApiError(
                422,
                "complaint-refused",
                f"Seat {msg['seat']}'s open of position {j} of deal {k} holds: its keys open it to {msg['card']}.",
                deal=k,
                position=j,
            )
        if game.ended:
            raise ApiError(409, "game-over", "This game has ended; the verifier names the seat (open-wrong).")
        if p.abort is None:
            blame = {"seat": msg["seat"], "why": "bad-open", "deal": k, "step": "move", "seq": seq, "position": j}
            log.info("blind open complained of", extra={"fields": {"game": game.game_id, "by": seat, **blame}})
            self.abort(game, p, blame, self.now())
            self.clocks.advance(game)
            p = self.progress(game.game_id, game.table["players"])
        return {"deal": k, "position": j, "holds": False, "abort": p.abort}

    # ------------------------------------------------------------------------------ a posted message
    def post(self, game, seat: int, message: Any) -> tuple[dict, bool]:
        """A shuffle, lock, release or reveal from the seat's client. Returns ({"index", "count"}, new?)."""
        table = game.table
        n = table["players"]
        for _ in range(3):
            p = self.clocks.advance(game) or self.progress(game.game_id, n)
            try:
                msg = check_form(message, game.game_id, n, DECK)
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
            i = p.index_of(msg)
            if i is not None:
                return {"index": i, "count": p.count}, False  # a retry: the same signed message
            if game.ended:
                raise ApiError(409, "game-over", "This game has ended; no more messages are taken.")
            self._in_turn(game, p, seat, msg)
            if self._append(game.game_id, p, {"m": msg}, self.now()):
                index = p.count - 1
                after = self.clocks.advance(game) or self.progress(game.game_id)
                return {"index": index, "count": after.count}, True
        raise ApiError(503, "busy", "The table is changing too fast; try again.")

    def _in_turn(self, game, p: Progress, seat: int, msg: dict) -> None:
        table = game.table
        state, kind = game.live.state, msg["type"]
        if kind == "reveal":
            if not state.is_over and p.abort is None:
                raise ApiError(
                    409,
                    "blind-out-of-turn",
                    "A seat reveals its secret when the game's last hand is over.",
                    due=self.due(game, p),
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
                due=self.due(game, p),
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
    def due(self, game, p: Progress) -> dict | None:
        table = game.table
        if game.ended or game.live is None:
            return None
        state, n = game.live.state, table["players"]
        deadline = self.since(game, p) + self.step_seconds(table) + self.config.blind_grace
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
            due = self.move_deadline(game)
            return {
                "type": "move",
                "deal": state.hand_number,
                "seat": state.to_move,
                "seats": [state.to_move],
                "deadline": due,
            }
        return {"type": step, "deal": state.hand_number, "seat": owing[0], "seats": owing, "deadline": deadline}

    def summary(self, game) -> dict[str, Any]:
        table = game.table
        p = self.progress(game.game_id, table["players"])
        due = self.due(game, p) if p.count >= table["players"] else None
        if due is not None and due.get("deadline") is not None:
            due = dict(due, deadline=iso(due["deadline"]))
        deal = None
        if game.live is not None:
            st = game.live.state
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

    def next_check(self, game, p: Progress | None = None) -> float | None:
        """When the sweeper should next touch a blind game: a bot's step is due at once; else the deadline of
        the step due. `p`: the Progress an advance just left (None: read it)."""
        table = game.table
        if game.ended or game.live is None:
            return None
        if p is None:
            p = self.progress(game.game_id, table["players"])
        due = self.due(game, p)
        if due is None:
            return None
        if any(s in game.live.bot_seats for s in due["seats"] if s is not None):
            return self.now()
        return due["deadline"]
