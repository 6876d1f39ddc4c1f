"""Seeded games and what the conformance suite asks of every position, for any rule set of the registry.

A game is played by a seeded mix of random legal moves, bot moves and timeout moves (so it reaches the end, and
every kind of decision is met), from a SeedChance derived from the table and the seed. What a seat may see is
worked out here from the state, not from the view: its own hand (while it may look at it), the cards played to
this hand's tricks, and the cards a rule set turns face up (docs/rules/<id>.md): the 120s teaser and the kitty
the bidder has just taken, Twenty Down's turned-up trump card.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from hashlib import sha256
from typing import Any, NamedTuple

from fairdeal.core.cards import PACK_32, PACK_52, BadCard, Card, card_from_str
from fairdeal.core.fairness import SeedChance
from fairdeal.core.games import make_rules
from fairdeal.core.games.base import GameState, Move, Rules
from fairdeal.core.games.onetwenty.state import OneTwentyState
from fairdeal.core.games.twenty_down import TwentyDownState
from tests.games.randomness import PickRng, SeededRng

PACKS = (frozenset(PACK_52), frozenset(PACK_32))


class Game(NamedTuple):
    rules: Rules
    state: GameState
    log: list[tuple[int, Move]]


def game_seed(table: tuple[str, int, dict], seed: int) -> bytes:
    rid, players, settings = table
    return sha256(f"{rid}/{players}/{sorted(settings.items())}/{seed}".encode()).digest()


def new_game(table: tuple[str, int, dict], seed: int) -> tuple[Rules, GameState]:
    rid, players, settings = table
    rules = make_rules(rid, settings, players)
    return rules, rules.new_game(SeedChance(game_seed(table, seed)))


def play(
    table: tuple[str, int, dict], seed: int, max_moves: int, each: Callable[[Rules, GameState], None] | None = None
) -> Game:
    """Up to `max_moves` moves of a seeded game (fewer if it ends), calling `each(rules, state)` before every move
    and once at the end."""
    rules, state = new_game(table, seed)
    pick, bots = random.Random(seed), SeededRng(seed)
    log: list[tuple[int, Move]] = []
    while not state.is_over and len(log) < max_moves:
        if each is not None:
            each(rules, state)
        seat = state.to_move
        x = pick.random()
        if x < 0.4:
            move = pick.choice(state.legal_moves(seat))
        elif x < 0.8:
            move = rules.bot_move(state.view(seat), bots)
        else:
            move = rules.timeout_move(state.view(seat))
        state.apply(seat, move)
        log.append((seat, move))
    if each is not None:
        each(rules, state)
    return Game(rules, state, log)


def seats(state: GameState) -> list[int | None]:
    """Every seat and the spectator (None)."""
    return [None, *range(state.rules.players)]


def all_views(state: GameState) -> list[dict[str, Any]]:
    return [state.view(s) for s in seats(state)]


def snapshot(state: GameState) -> tuple:
    """Everything a refusal must leave as it was: every view, whose turn it is, that seat's moves, the deals."""
    turn = state.to_move
    return (
        copy.deepcopy(all_views(state)),
        turn,
        state.legal_moves(turn) if turn is not None else [],
        list(state.deals),
    )


# ---------------------------------------------------------------------------------------------- cards


def cards_named(obj: Any) -> set[Card]:
    """Every card a JSON-ready value names (a string that is a card's text, such as "10H")."""
    if isinstance(obj, str):
        if len(obj) > 3:
            return set()
        try:
            return {card_from_str(obj)}
        except BadCard:
            return set()
    if isinstance(obj, dict):
        return set().union(*map(cards_named, obj.values()))
    if isinstance(obj, (list, tuple)):
        return set().union(*map(cards_named, obj))
    return set()


def face_up(state: GameState, seat: int | None) -> set[Card]:
    """The cards a rule set shows `seat` besides its own hand and the cards played to this hand's tricks."""
    out: set[Card] = set()
    if isinstance(state, OneTwentyState):
        if state.teaser is not None:
            out.add(state.teaser)  # the kitty's top card lies face up
        if seat is not None and seat == state.bidder:
            out |= set(state.kitty_cards)  # the bidder sees the kitty it took until it throws
    elif isinstance(state, TwentyDownState):
        if state.turned_up is not None:
            out.add(state.turned_up)  # the trump card turned up for all to see
    return out


def may_see(state: GameState, seat: int | None) -> set[Card]:
    shown = set(state._shown_hand(seat) or ()) if seat is not None else set()
    play = state._trick_play()
    played = set(play.played_cards()) if play is not None else set()
    return shown | played | face_up(state, seat)


# ---------------------------------------------------------------------------------------------- moves


def candidate_moves(state: GameState, seat: int, rng: random.Random) -> list[Move]:
    """Moves of every kind, well formed, most of them illegal now: cards held and not held, bids in and out of
    range, every word move, suit names and non-suits, throws of several sizes and of a card not held."""
    hand = list(state.hands[seat])
    others = [c for c in PACK_52 if c not in hand]
    out = [Move.play(c) for c in hand] + [Move.play(c) for c in rng.sample(others, 3)]
    out += [Move.bid(v) for v in (-1, 0, 1, 13, 14, 15, 20, 25, 30, 35)]
    out += [Move(kind) for kind in ("pass", "mine", "redeal", "stay", "drop", "newdeal")]
    out += [Move.trump(v) for v in ("C", "D", "H", "S", "X", "next", "blind")]
    out += [Move.throw(rng.sample(hand, k)) for k in sorted({0, 1, 3, 4, len(hand)}) if k <= len(hand)]
    out.append(Move.throw(rng.sample(others, 1)))
    return out


def policy_moves(rules: Rules, view: dict[str, Any]) -> list[tuple[str, Move | None]]:
    """The bots' moves (seeded and picking first and last), the timeout's and the suggestion, named."""
    out = [
        (f"bot rng {k}", rules.bot_move(view, rng))
        for k, rng in (("seeded", SeededRng(len(str(view)))), ("first", PickRng(0)), ("last", PickRng(-1)))
    ]
    return out + [("timeout", rules.timeout_move(view)), ("suggestion", rules.suggest(view))]
