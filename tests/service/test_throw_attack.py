"""The brute-force attack on face-down throws, run against every rule set that has them, on both stores.

A seat that sees another seat's throw only as "3 cards, face down" also sees hashes that cover the whole record:
the next record's `prev`, the view's `last_hash`. If everything else in the preimage were visible, hashing every
candidate set of cards would find the thrown ones (C(47,5) is about 1.5 M hashes: seconds). The attack below
rebuilds each redacted record from what the seat can reach (transcript, event feed, view) and tries candidates.

To keep the suite fast the attacker is made *stronger* than a real one when the candidate space is large: it is
handed the true cards inside a pool small enough to search whole. Finding nothing with that help means finding
nothing without it. The same attack on a record that keeps its salt (the fairdeal/1 redaction) recovers the
cards: that shows the attack is real, so its silence on what the service serves means something.

fairdeal/2 adds records a seat can read before the end; each was thought through the same way (docs/fairness.md,
"Threat model"): the seating record's commitments hide their seeds behind a 256-bit nonce (the dictionary attack
below finds nothing without it and the seed with it); the start record's seeds and nonces are public once cards
exist and say nothing without the secret server seed; the end record's deals and reveals come only at the end.
"""

from __future__ import annotations

import itertools
import json
import math
import random

import pytest

from fairdeal.core.cards import PACK_32, PACK_52, card_from_str
from fairdeal.core.games.base import Move
from fairdeal.core.transcript import record_hash
from tests.service.client import Api

SEARCH_LIMIT = 20_000  # candidate sets tried per redacted record


def candidate_pool(pack, known: set[str], truth: list[str], rng: random.Random) -> list[str]:
    """The cards the attacker must search: every card it does not see, narrowed (with the truth kept in) when
    the search would be too big for a unit test."""
    pool = [str(c) for c in pack if str(c) not in known]
    k = len(truth)
    if math.comb(len(pool), k) <= SEARCH_LIMIT:
        return pool
    others = [c for c in pool if c not in truth]
    rng.shuffle(others)
    size = k
    while size < len(pool) and math.comb(size + 1, k) <= SEARCH_LIMIT:
        size += 1
    return sorted(truth + others[: size - k])


def attack(visible: dict, target_hash: str, pool: list[str], count: int) -> list[list[str]]:
    """Every set of `count` cards from `pool` that, put into the visible record, hashes to `target_hash`."""
    base = {k: v for k, v in visible.items() if k not in ("redacted",)}
    found = []
    for combo in itertools.combinations(pool, count):
        move = Move.throw([card_from_str(c) for c in combo]).to_json()
        if record_hash({**base, "move": move}) == target_hash:
            found.append(list(combo))
    return found


def reachable(api: Api, p: dict, gid: str) -> tuple[list[dict], str, dict]:
    """What seat `p` can read of the running game: the records (transcript and event feed) and the chain head."""
    view = api.view(p, gid)
    t = api.get(f"/games/{gid}/transcript", p).get_json()
    events = api.get(f"/games/{gid}/events?after=0&wait=0", p).get_json()
    records = t["transcript"]["records"] if "transcript" in t else t["records"]
    assert records == events["records"], "the transcript and the event feed show the same records"
    return records, view["last_hash"], view


THROW_GAMES = [
    ("120s-auction", {}),
    ("120s-auction", {"kitty_teaser": True}),
    ("120s-house", {}),
    ("120s-traditional", {}),
    ("twenty-down", {}),
]


@pytest.mark.parametrize("rule_set,settings", THROW_GAMES, ids=[f"{r}{'-teaser' if s else ''}" for r, s in THROW_GAMES])
def test_no_face_down_throw_can_be_recovered_by_brute_force(app, rule_set, settings):
    api = Api(app.test_client())
    svc = app.extensions["fairdeal"]
    me = api.player("attacker")
    t = api.table(me, rule_set=rule_set, settings=settings, clocks="off", seat=3 if rule_set != "twenty-down" else 0)
    gid = t["id"]
    api.start(me, gid)
    pack = PACK_32 if rule_set == "twenty-down" else PACK_52
    rng = random.Random(gid)
    attacked: set[int] = set()
    proven = 0
    for _ in range(400):
        records, head, view = reachable(api, me, gid)
        if view["status"] == "over":
            break
        full = svc.games.get(gid).transcript["records"]  # the truth, for the test's bookkeeping only
        mine = view["seat"]
        known = set(view["view"].get("hand") or []) | {
            r["move"]["card"] for r in records if r["move"].get("kind") == "play"
        }
        for i, rec in enumerate(records):
            if not rec.get("redacted") or rec["seq"] in attacked:
                continue
            assert rec["seat"] != mine
            assert "salt" not in rec, "a redacted record must not carry its salt"
            truth = full[i]["move"]["cards"]
            if not truth:
                continue
            target = records[i + 1]["prev"] if i + 1 < len(records) else head
            assert target == record_hash(full[i])
            pool = candidate_pool(pack, known - set(truth), truth, rng)
            assert not attack(rec, target, pool, len(truth)), (
                f"seat {mine} recovered seat {rec['seat']}'s throw at move {rec['seq']}"
            )
            attacked.add(rec["seq"])
            # the same search with the salt left in (the fairdeal/1 redaction) finds the cards
            if proven < 2:
                leaky = {**rec, "salt": full[i]["salt"]}
                assert attack(leaky, target, pool, len(truth)) == [sorted(truth, key=pool.index)]
                proven += 1
        if not view["your_turn"] or len(attacked) >= 12:
            break
        move = view["suggested"] if view["suggested"] in view["legal_moves"] else view["legal_moves"][0]
        assert api.move(me, gid, view["seq"], move).status_code == 201
    assert attacked, "the game should have shown this seat another seat's throw"
    assert proven > 0


# ------------------------------------------------------------- fairdeal/2's new fields: the seeds' commitments

LOW_ENTROPY = [
    "my lucky words",
    "password",
    "123456",
    "lucky",
    "seed",
    "hello",
    "qwerty",
    "letmein",
    "7",
    "",
    "my lucky word",
    "My lucky words",
    "fairdeal",
    "abc",
] + [f"seed-{i}" for i in range(2000)]


def dictionary_attack(game_id: str, commitment: str, nonce: str | None) -> list[str]:
    """Every word of a dictionary whose client-seed commitment (fairness.md) is `commitment`. Without the seat's
    nonce the attacker must try every nonce too: 2**256 per word. With it (the control), one hash per word."""
    from fairdeal.core import fairness

    found = []
    for word in LOW_ENTROPY:
        if not word:
            continue
        for guess in [nonce] if nonce else ["00" * 32, "ff" * 32]:  # without it: its best guesses, nothing more
            if fairness.client_seed_commitment(game_id, word, guess) == commitment:
                found.append(word)
    return found


def test_no_seat_finds_another_seats_low_entropy_seed_from_its_commitment(app):
    # While the table waits for the reveals every seat (and every spectator) can read every commitment in the
    # signed seating record. A seed like "my lucky words" is in any dictionary: the 256-bit nonce in the
    # commitment's preimage is what keeps it hidden until its seat reveals it.
    api = Api(app.test_client())
    victim, attacker = api.player("victim"), api.player("attacker")
    t = api.table(victim, rule_set="spades")
    gid = t["id"]
    nonce = api.commit(victim, gid, "my lucky words")
    api.commit(attacker, gid, "anything", seat=2)
    api.start(victim, gid)
    seating = api.get(f"/games/{gid}/start", attacker).get_json()["seating"]
    commitment = seating["seats"][0]["client_seed_commitment"]
    reachable = json.dumps(
        [
            api.get(path, attacker).get_json()
            for path in (f"/tables/{gid}", f"/games/{gid}", f"/games/{gid}/start", f"/games/{gid}/transcript")
        ]
    )
    assert nonce not in reachable and "my lucky words" not in reachable
    assert dictionary_attack(gid, commitment, None) == []
    assert dictionary_attack(gid, commitment, nonce) == ["my lucky words"]  # the control: the search is real
