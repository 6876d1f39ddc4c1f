"""The last joiner cannot grind the deal (fairdeal/2, docs/fairness.md "Threat model").

The attack: a player who sits down last, working with the operator (it reads the whole store: the server seed,
the table document, the log), tries 1,000 client seeds and commits to the one that deals it the best hand. Under
fairdeal/1 it could: every other seat's seed was in the table document, so it could compute the deal of each
candidate exactly. Under fairdeal/2 the other seats gave only commitments (hiding: each has a 256-bit nonce), so
what it computes for a candidate is not the deal that candidate gets; once it has committed, its reveal is
fixed (any other seed is refused), and not revealing cancels the table with its seat named.
"""

from __future__ import annotations

import json
import secrets

import pytest

from fairdeal.core import fairness
from fairdeal.core.cards import card_from_str
from fairdeal.core.checks import verify_transcript
from fairdeal.core.games import make_rules
from tests.service.client import Api
from tests.service.conftest import make_app

CANDIDATES = 1000
ATTACKER = 3


@pytest.fixture(params=["sqlite", "redis"])
def service(request, tmp_path, clock):
    app = make_app(tmp_path, request.param, request, now=clock)
    return Api(app.test_client()), app.extensions["fairdeal"], clock


def hand(server_seed: bytes, seeds: list, seat: int) -> tuple[str, ...]:
    """The cards `seat` is dealt in the first deal with these client seeds (what grinding looks at)."""
    rules = make_rules("spades", {}, 4)
    chance = fairness.SeedChance(fairness.game_seed(server_seed, seeds))
    return tuple(rules.new_game(chance).view(seat)["hand"])


def strength(cards: tuple[str, ...]) -> int:
    """What the attacker wants: high spades."""
    return sum(card_from_str(c).rank for c in cards if c.endswith("S"))


def everything_the_operator_can_read(svc, gid: str) -> str:
    doc, _ = svc.store.get_doc("table", gid)
    return json.dumps(doc) + "\n".join(svc.store.records(gid))


def test_a_last_joiner_trying_1000_client_seeds_gets_no_choice_of_deal(service):
    api, svc, clock = service
    honest = [api.player("host"), api.player("west"), api.player("north")]
    host = honest[0]
    t = api.table(host, rule_set="spades", clocks="off")
    gid = t["id"]
    # honest seats: random seeds, as `fairdeal play` makes them, each committed with its own nonce
    seeds = {0: secrets.token_hex(16), 1: secrets.token_hex(16), 2: secrets.token_hex(16)}
    nonces = {seat: api.commit(p, gid, seeds[seat], seat=seat) for seat, p in enumerate(honest)}

    # the attacker sits down last, with the operator's help: it reads the server seed and everything stored
    attacker = api.player("last joiner")
    server_seed = bytes.fromhex(svc.store.get_secret(gid))
    readable = everything_the_operator_can_read(svc, gid) + json.dumps(api.get(f"/tables/{gid}").get_json())
    for seat in seeds:
        assert seeds[seat] not in readable and nonces[seat] not in readable, "no honest seed or nonce is readable"

    # what it can compute for each candidate: the other seeds are unknown, so it must guess them (any guess does)
    candidates = [f"grind-{i}" for i in range(CANDIDATES)]
    guessed = [[None, None, None, c] for c in candidates]
    predicted = {c: hand(server_seed, g, ATTACKER) for c, g in zip(candidates, guessed, strict=True)}
    chosen = max(candidates, key=lambda c: strength(predicted[c]))

    # the truth, which the test knows: the hand each candidate really gets with the honest seats' seeds
    actual = {c: hand(server_seed, [seeds[0], seeds[1], seeds[2], c], ATTACKER) for c in candidates}
    assert not any(predicted[c] == actual[c] for c in candidates), "no candidate's hand could be foreseen"

    nonce = api.commit(attacker, gid, chosen, seat=ATTACKER)
    api.start(host, gid)
    for seat, p in enumerate(honest):
        api.reveal(p, gid, seeds[seat], nonces[seat])
    # now, last to reveal and reading the honest reveals, it knows its real hand... and cannot change it
    table, _ = svc.store.get_doc("table", gid)
    assert [table["seats"][s]["client_seed"] for s in range(3)] == [seeds[0], seeds[1], seeds[2]]
    best = max(candidates, key=lambda c: strength(actual[c]))
    if best != chosen:
        r = api.post(f"/tables/{gid}/reveal", attacker, json={"client_seed": best, "nonce": nonce})
        assert r.status_code == 422 and r.get_json()["code"] == "bad-reveal"
    r = api.post(f"/tables/{gid}/reveal", attacker, json={"client_seed": best, "nonce": fairness.new_nonce()})
    assert r.status_code == 422 and r.get_json()["code"] == "bad-reveal"
    api.reveal(attacker, gid, chosen, nonce)
    dealt = tuple(api.view(attacker, gid)["view"]["hand"])
    assert dealt != predicted[chosen], "the hand it chose for is not the hand it got"
    # Control: the attacker's computation is exactly the server's deal once the other seeds are known. Under
    # fairdeal/1 they were known at the table, so the same search over 1,000 seeds would have chosen the deal.
    assert dealt == actual[chosen]


def test_the_last_revealer_can_only_walk_away_and_that_is_signed_and_named(service):
    # Knowing the honest reveals, the last revealer can compute its hand; its one choice is not to reveal. That
    # cancels the table: the trail reveals the server seed and names the seat, so every such abort is visible.
    api, svc, clock = service
    host, attacker = api.player("host"), api.player("last joiner")
    t = api.table(host, rule_set="spades")
    gid = t["id"]
    host_nonce = api.commit(host, gid, "host's words")
    api.commit(attacker, gid, "what I committed to", seat=ATTACKER)
    api.start(host, gid)
    api.reveal(host, gid, "host's words", host_nonce)
    clock.advance(svc.config.reveal_seconds)
    over = api.get(f"/tables/{gid}").get_json()
    assert over["status"] == "over" and over["end_reason"] == "not-revealed"
    transcript = api.get(f"/games/{gid}/transcript").get_json()
    assert transcript["end"]["unrevealed"] == [ATTACKER]
    assert transcript["end"]["server_seed"] == svc.store.get_secret(gid)
    report = verify_transcript(transcript, key=over["key"])
    assert report.exit_code == 0 and report.game["unrevealed"] == [ATTACKER]
    assert f"seat {ATTACKER} did not reveal" in report.check("result").detail
