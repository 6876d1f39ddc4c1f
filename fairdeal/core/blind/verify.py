"""A blind game in `fairdeal-verify` (docs/blind.md, "The transcript" and "Verification"): the checks
blind-messages, blind-deal, blind-opens and blind-blame from check.audit's findings, and the Chance the rules
replay deals from (each hand's pack in the order the seats' shuffles made, instead of the seed's)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairdeal.core.blind import check, stall
from fairdeal.core.blind.deal import pack_texts, spades_holders
from fairdeal.core.cards import Card, cards_of_texts
from fairdeal.core.fairness import SeedChance
from fairdeal.core.replay import LiveGame
from fairdeal.core.results import Check, failed, passed, skipped

BLIND_CHECKS = ("blind-messages", "blind-deal", "blind-opens", "blind-blame")
# which check reports each finding (docs/blind.md, "Findings")
CHECK_OF = {
    "message-form": "blind-messages",
    "signature": "blind-messages",
    "two-messages": "blind-messages",
    "missing-commit": "blind-messages",
    "missing-reveal": "blind-messages",
    "reveal-mismatch": "blind-messages",
    "box-key-differs": "blind-messages",
    "missing-message": "blind-deal",
    "not-a-point": "blind-deal",
    "shuffle-wrong-mask": "blind-deal",
    "shuffle-replaced": "blind-deal",
    "shuffle-not-permutation": "blind-deal",
    "shuffle-order": "blind-deal",
    "lock-differs": "blind-deal",
    "release-skipped": "blind-deal",
    "release-extra": "blind-deal",
    "release-wrong-key": "blind-deal",
    "open-not-holder": "blind-opens",
    "open-wrong": "blind-opens",
    "open-twice": "blind-opens",
}
LAYOUTS = {"spades-4": spades_holders}


def _cut_by(blind: Mapping[str, Any], seats: int) -> tuple[int | None, tuple[str, int, int] | None]:
    """(the deal from which the abort cut the deal steps off, the step it blames) of a well-formed abort record;
    (None, None) without one (docs/blind.md, "Aborts")."""
    if "abort" not in blind:
        return None, None
    try:
        a = stall.read_abort(blind["abort"], seats, len(blind["messages"]), len(pack_texts()))
    except stall.BadAbort:
        return None, None
    stalled = (a["step"], a["seat"], a["deal"]) if a["why"] in stall.STALLS and a["step"] in stall.DEAL_STEPS else None
    return a["deal"], stalled


class BlindChance(SeedChance):
    """The Chance of a blind game: the first dealer and the bots' randomness from the game seed as at any table,
    hand k's pack from the blind deal k (position j first: the j-th card dealt). A hand whose deal could not be
    derived (a fault, already failed under blind-deal) is dealt the pack in canonical order, so the replay can
    still say where the moves stop fitting."""

    def __init__(self, game_seed: bytes, decks: Mapping[int, Sequence[str]]):
        super().__init__(game_seed)
        self.decks = {k: cards_of_texts(v) for k, v in decks.items()}

    def deck(self, hand: int, pack: Sequence[Card]) -> list[Card]:
        found = self.decks.get(hand)
        return list(pack) if found is None else list(found)

    def reshuffle(self, hand: int, round: int, cards: Sequence[Card]) -> list[Card]:
        raise ValueError("A blind table has no reshuffles (docs/blind.md, 120s).")


class BlindVerification:
    """check.audit of a parsed, ended, started transcript with a "blind" member, as report checks."""

    def __init__(self, t: Mapping[str, Any], game_seed: bytes):
        blind, commit, end = t["blind"], t["commit"], t["end"]
        layout = LAYOUTS.get(commit.get("deal_layout"))
        seats = commit["rules"]["players"]
        self.checks: list[Check] = []
        self.move_fault: tuple[str, int, int] | None = None  # (why, seat, seq): blamed as the replay must show
        if layout is None:
            self.checks.append(failed("blind-deal", "blind-layout", layout=commit.get("deal_layout")))
            self.audit = None
            self.chance = None
            self.underived = []
            return
        holders = {d["hand"]: layout(d["dealer"], seats) for d in end["deals"]}
        cut_from, stalled = _cut_by(blind, seats)
        self.audit = check.audit(
            commit["game_id"], seats, blind["messages"], holders, pack_texts(), cut_from=cut_from, stalled=stalled
        )
        self.chance = BlindChance(game_seed, self.audit.decks)
        # deals the replay cannot be dealt (a deal the abort cut off has no moves: the replay needs no cards of it)
        self.underived = sorted(set(holders) - set(self.audit.decks) - self.audit.cut)
        found: dict[str, Check] = {}
        for f in self.audit.findings:
            cid = CHECK_OF[f.code]
            if cid not in found:
                found[cid] = failed(cid, f"blind-{f.code}", None, seat=f.seat, deal=f.deal, **dict(f.fields))
        messages = len(blind["messages"])
        self.checks += [
            found.get("blind-messages") or passed("blind-messages", "blind-messages-ok", count=messages, seats=seats),
            found.get("blind-deal")
            or (
                skipped("blind-deal", "blind-deal-unknown", hand=self.underived[0])
                if self.underived
                else passed("blind-deal", "blind-deal-ok", deals=len(self.audit.decks))
            ),
        ]
        if "blind-opens" in found:
            self.checks.append(found["blind-opens"])
        # The end names the seats the server found at fault while the game ran (a stall, a release that opened no
        # card, a bad open, a revoke): each must be at fault in the messages, in the abort record as stall.py checks
        # it, or (a revoke, a wrong timeout move) in the rules replay, so no honest seat is framed. A fault seen
        # only after the reveal (another permutation than the secret's, say) need not be named there: the checks
        # above name it, and the server need not run this audit for every game it ends.
        self.verdict = stall.check(t, self.audit, game_seed, len(pack_texts()))
        self.claimed = sorted(blind["blame"])
        abort = blind.get("abort")
        if self.verdict is not None and self.verdict.code == "abort-ok" and abort["why"] in stall.MOVE_FAULTS:
            self.move_fault = (abort["why"], abort["seat"], abort["seq"])
        else:
            self.checks.append(self._blame())

    def _blame(self, shown: int | None = None, unchecked: bool = False) -> Check:
        """blind-blame: every seat the end names is at fault in the findings, a stall the abort record proves, or
        `shown` (a move fault the replay showed). unchecked: a move fault the replay could not check."""
        assert self.audit is not None
        named = set(self.audit.at_fault)
        v = self.verdict
        if v is not None and v.code in ("stall-framed", "stall-unknown"):
            return failed("blind-blame", f"blind-{v.code}", None, **dict(v.fields), deal=v.deal)
        why: dict[str, Any] = {}  # what shows a seat at fault that no finding names
        if v is not None and v.code == "stall-ok" and v.seat is not None:
            named.add(v.seat)
            why = {"stalled": v.seat, "step": v.fields["step"], "deal": v.deal}
        if shown is not None:
            named.add(shown)
            why = {"replayed": shown}
        claimed = self.claimed
        framed = [s for s in claimed if s not in named]
        if unchecked and self.move_fault is not None and framed == [self.move_fault[1]]:
            return skipped("blind-blame", "blind-blame-unchecked", why=self.move_fault[0], seat=self.move_fault[1])
        if framed:
            return failed("blind-blame", "blind-blame-framed", claimed=claimed, named=sorted(named), framed=framed)
        return passed("blind-blame", "blind-blame-ok", claimed=claimed, named=sorted(named), **why)

    def blame_after_replay(self, failure: Check | None, records: Sequence[Mapping[str, Any]]) -> Check | None:
        """blind-blame of an abort blamed on a move (a revoke, a wrong timeout move), from the rules replay's first
        failure (None: it passed). None when the check was made already (no such abort)."""
        if self.move_fault is None:
            return None
        why, seat, seq = self.move_fault
        record = records[seq - 1] if 0 < seq <= len(records) else None
        shows = (
            failure is not None
            and failure.id == stall.MOVE_FAULTS[why]
            and failure.seq == seq
            and record is not None
            and record.get("seat") == seat
        )
        return self._blame(shown=seat if shows else None)

    def blame_unreplayed(self) -> Check | None:
        """blind-blame when the deals cannot be derived, so the rules replay does not run: a move fault stays
        unchecked (skipped, unless another seat is framed)."""
        return None if self.move_fault is None else self._blame(unchecked=True)

    def hands_of_plays(
        self, start: Mapping[str, Any], game_seed: bytes, records: Sequence[Mapping[str, Any]]
    ) -> list[int]:
        """The hand number each play record was played in, by a replay without the policy checks (the full
        replay, already passed, has checked them)."""

        game = LiveGame(start, game_seed, chance=self.chance)
        hands = []
        for record in records:
            if record["move"].get("kind") == "play":
                hands.append(game.state.hand_number)
            game.apply_record(record, chain=False, policies=False)
        return hands

    def plays_opened(self, records: Sequence[Mapping[str, Any]], hands_of_plays: Sequence[int]) -> Check:
        """blind-opens: every card played has an open by its player for the hand it was played in.
        hands_of_plays[i]: the hand number of the i-th play record (from the replay)."""
        assert self.audit is not None
        plays = [r for r in records if r["move"].get("kind") == "play"]
        for record, hand in zip(plays, hands_of_plays, strict=True):
            opened = self.audit.opens.get((hand, record["move"]["card"]))
            if opened is None or opened[0] != record["seat"]:
                return failed(
                    "blind-opens",
                    "blind-play-not-opened",
                    record["seq"],
                    seat=record["seat"],
                    card=record["move"]["card"],
                )
        return passed("blind-opens", "blind-opens-ok", plays=len(plays), opens=len(self.audit.opens))
