"""LiveGame.apply_records, the audit's whole-game replay, is apply_record record by record
(apply_records_one_by_one): the same record stops both with the same exception (its check, code, seq and facts)
and the game is left in the same state (every seat's view, the result, the deals, the count of records applied),
with and without the policies, over games of every rule set in both protocols, the tamper suite's transcripts
and records changed one member at a time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from fairdeal.core.games import available
from fairdeal.core.integrity import game_seed_of
from fairdeal.core.replay import LiveGame, ReplayError
from fairdeal.core.selfplay import selfplay
from tests.verifier.tamper_kit import PROTOCOLS, SERVER_KEY, TAMPERS, tampered, valid_transcript

OTHER_CLOCKS = {"card": None, "other": 30}  # one kind unclocked: timeouts there fail timeout-kind-without-clock


def _games(rule_set: str) -> list[dict[str, Any]]:
    made = [valid_transcript(rule_set, protocol) for protocol in PROTOCOLS]
    made.append(selfplay(rule_set, SERVER_KEY, b"\x07" * 32, bots=(0, 2), timeout_every=2, stand_ins={1: (5, 30)}))
    return made


def _changed_records(records: list[Any]) -> Iterator[list[Any]]:
    """The records with one record changed: its mover, its seat, its move or the record itself, at the first
    record of each mover."""
    firsts: dict[str, int] = {}
    for i, rec in enumerate(records):
        firsts.setdefault(rec["by"], i)
    for i in sorted(set(firsts.values())):
        rec = records[i]
        changes: list[Any] = [dict(rec, by=by) for by in ("player", "bot", "timeout", "stand-in", "robot", None)]
        changes += [dict(rec, seat=seat) for seat in ((rec["seat"] + 1) % 4, True, "0", 99, [0])]
        changes += [dict(rec, move=move) for move in ({"kind": "play", "card": "XX"}, "x")]
        changes += [{k: v for k, v in rec.items() if k != "seat"}, [rec], "record"]
        for change in changes:
            yield records[:i] + [change] + records[i + 1 :]
        yield records[:i] + records[i + 1 :]  # a record dropped
        yield records[:i] + [rec] + records[i:]  # a record twice


def _cases(rule_set: str) -> Iterator[tuple[dict[str, Any], bytes, list[Any]]]:
    for t in _games(rule_set):
        seed = game_seed_of(t)
        yield t["start"], seed, t["records"]
        for records in _changed_records(t["records"]):
            yield t["start"], seed, records
        yield dict(t["start"], clocks=OTHER_CLOCKS), seed, t["records"]
        yield dict(t["start"], clocks={"card": None, "other": None}), seed, t["records"]
    for protocol in PROTOCOLS:
        for tamper in TAMPERS:
            made = tampered(rule_set, tamper, protocol)
            if made is None or made[0].get("start") is None or made[0].get("end") is None:
                continue
            try:
                seed = game_seed_of(made[0])
            except ValueError:
                continue
            yield made[0]["start"], seed, made[0]["records"]


def _stopped(stopped: tuple[int, Exception] | None) -> Any:
    if stopped is None:
        return None
    i, exc = stopped
    facts = (exc.check, exc.code, exc.seq, exc.fields) if isinstance(exc, ReplayError) else ()
    return i, type(exc), str(exc), facts


def _state(game: LiveGame) -> Any:
    state = game.state
    views = [state.view(seat) for seat in range(game.rules.players)] + [state.view(None)]
    return game.seq, views, state.result, state.deals, state.to_move


@pytest.mark.parametrize("rule_set", available())
def test_apply_records_is_apply_record_one_by_one(rule_set):
    cases = stops = 0
    for start, seed, records in _cases(rule_set):
        for policies in (True, False):
            general, fast = LiveGame(start, seed), LiveGame(start, seed)
            expected = _stopped(general.apply_records_one_by_one(records, policies))
            got = _stopped(fast.apply_records(records, policies))
            assert got == expected, (rule_set, policies, expected)
            assert _state(fast) == _state(general)
            cases += 1
            stops += expected is not None
    # the cases reach both ends: whole games replayed, and records stopped at every kind of failure
    assert cases > 200 and 0 < stops < cases
