"""Each hand's rules, checked when the hand ends and all its cards are open (docs/blind.md, "Revokes").

Live, the server cannot tell whether a seat could have followed suit: it never sees the hand. When a hand's last
trick is taken, every one of its 52 positions has been opened, so the deal is known: the game is replayed with
the real decks through the ordinary engine (SpadesState) and each move of the hand checked as any table checks
it, a timeout move against the timeout policy. The first fault names its seat; the table ends the game there
(aborted, why "revoke" or "bad-timeout-move"). The verifier, replaying the same records from the revealed
secrets, finds the same move.
"""

from __future__ import annotations

from fairdeal.core.games.base import FixedChance, GameError, Move
from fairdeal.core.games.spades import SpadesState
from fairdeal.service.blind.log import DECK, Progress


def hand_deck(p: Progress, k: int) -> list[str] | None:
    """Deal k's cards in the order dealt (the final deck's positions), once every position is open."""
    opened = p.deal(k).opened
    return [opened[j] for j in range(DECK)] if len(opened) == DECK else None


def first_fault(c, p: Progress) -> dict | None:
    """The first move of a hand not yet checked that the rules refuse (or a timeout move that is not the timeout
    policy's), as the blame of an abort; None when every finished hand is clean."""
    state = c.live.state
    done = len(state.history)
    if p.audited >= done:
        return None
    decks = []
    for k in range(done):
        deck = hand_deck(p, k)
        if deck is None:
            return None  # cannot happen: a hand ends only when its 52 cards are played
        decks.append(deck)
    replay = SpadesState(c.live.rules, FixedChance(decks + [[]], first_dealer=state.deals[0].dealer))
    for record in c.transcript["records"]:
        hand = replay.hand_number
        if hand >= done or replay.is_over:
            break
        seat, move = record["seat"], Move.from_json(record["move"])
        checked = hand >= p.audited
        if checked and record["by"] == "timeout" and replay.timeout_move(seat) != move:
            return _blame(seat, "bad-timeout-move", hand, record["seq"])
        try:
            replay.apply(seat, move)
        except GameError:
            return _blame(seat, "revoke", hand, record["seq"])
    p.audited = done
    return None


def _blame(seat: int, why: str, deal: int, seq: int) -> dict:
    return {"seat": seat, "why": why, "deal": deal, "step": "move", "seq": seq}
