"""At a dealer-blind table `fairdeal play` narrows the moves itself (fairdeal/client/blind_hand.py): from the
cards it was dealt and the public view (the server's view has no hand and offers every unplayed card), it
offers exactly the moves the engine allows, gives the engine's sentence for the others, and its timeout move is
the one the engine (and so the verifier) expects — at every decision of whole Spades games."""

from __future__ import annotations

import random

from fairdeal.client.blind_hand import own_game, timeout_move
from fairdeal.core.cards import PACK_52, cards_to_str
from fairdeal.core.games.base import FixedChance, Move
from fairdeal.core.games.spades import SpadesRules


def blind_answer(state, seat: int) -> dict:
    """What the service gives a human at a blind table: the view without the hand, every unplayed card."""
    view = dict(state.view(seat), hand=None, legal=None)
    played = {c for t in view["tricks"] for _, c in t["plays"]} | {c for _, c in (view["trick"] or {}).get("plays", [])}
    if view["phase"] == "play":
        legal = [{"kind": "play", "card": c} for c in cards_to_str(PACK_52) if c not in played]
    else:
        legal = [m.to_json() for m in state.legal_moves(seat)]
    return {"view": view, "your_turn": True, "legal_moves": legal, "why_not": {}, "suggested": None}


def test_the_clients_moves_are_the_engines_at_every_decision_of_whole_games():
    rules = SpadesRules()
    checked = {"play": 0, "narrowed": 0, "bid": 0}
    for game_no in range(24):
        rng = random.Random(game_no)
        decks = []
        for _ in range(40):
            deck = list(PACK_52)
            rng.shuffle(deck)
            decks.append(deck)
        state = rules.new_game(FixedChance(decks, first_dealer=game_no % 4))
        dealt: dict[int, list[str]] = {}
        hand_no = -1
        while not state.is_over:
            if state.hand_number != hand_no:  # a new hand: each seat's 13 cards, as its client decrypts them
                hand_no = state.hand_number
                dealt = {s: list(state.view(s)["hand"]) for s in range(4)}
            seat = state.to_move
            mine = own_game(blind_answer(state, seat), dealt[seat], rules)
            assert mine["view"]["hand"] == state.view(seat)["hand"], "the hand shown is the one held"
            engine = [m.to_json() for m in state.legal_moves(seat)]
            assert sorted(map(str, mine["legal_moves"])) == sorted(map(str, engine))
            assert timeout_move(rules, mine) == state.timeout_move(seat).to_json()
            if mine["view"]["phase"] == "play":
                checked["play"] += 1
                for card, why in mine["why_not"].items():
                    assert why == state.why_not(seat, Move.from_json({"kind": "play", "card": card}))
                checked["narrowed"] += bool(mine["why_not"])
            else:
                checked["bid"] += 1
                assert mine["suggested"] == state.timeout_move(seat).to_json(), "the suggested bid"
            state.apply(seat, rng.choice(state.legal_moves(seat)))  # any legal move: every situation comes up
    assert checked["play"] > 1500 and checked["narrowed"] > 500 and checked["bid"] > 100, checked


def test_before_its_cards_are_in_the_seat_has_no_move():
    state = SpadesRules().new_game(FixedChance([list(PACK_52)] * 2))
    mine = own_game(blind_answer(state, state.to_move), None, SpadesRules())
    assert mine["your_turn"] is False
