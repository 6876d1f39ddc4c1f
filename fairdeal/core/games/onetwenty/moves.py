"""The moves of 120s, each made once: a Move never changes, so the engine's legal_moves and the policies hand out
these shared ones instead of making (and checking) new ones."""

from __future__ import annotations

from fairdeal.core.cards import PACK_52, SUITS
from fairdeal.core.games.base import Move

PLAY_MOVES = {c: Move("play", card=c) for c in PACK_52}
BID_MOVES = {b: Move("bid", value=b) for b in (15, 20, 25, 30)}
PASS_MOVE, MINE_MOVE, REDEAL_MOVE = Move("pass"), Move("mine"), Move("redeal")
TRUMP_MOVES = tuple(Move("trump", value=s) for s in SUITS)
TRUMP_OF = dict(zip(SUITS, TRUMP_MOVES, strict=True))


def bid_move(value: int) -> Move:
    """Move.bid(value): the shared move for a bid that exists, a new one (checked as any) for anything else."""
    move = BID_MOVES.get(value) if value.__class__ is int else None
    return move if move is not None else Move.bid(value)


def trump_move(suit: str) -> Move:
    """Move.trump(suit), shared for the four suits."""
    move = TRUMP_OF.get(suit) if suit.__class__ is str else None
    return move if move is not None else Move.trump(suit)
