"""Complaints of a wrong open at a dealer-blind table (docs/blind.md, "Live checks"; docs/api.md): the server does
not multiply an open at a table of humans; a seat's client that finds one wrong complains, the server checks that
one open and aborts the game blamed on its opener. A complaint that does not hold changes nothing."""

from __future__ import annotations

import pytest

from fairdeal.client.blind import BlindPlayer
from fairdeal.core.blind.group import N, scalar_from_hex, scalar_hex
from fairdeal.core.blind.messages import message, sign
from fairdeal.core.cards import PACK_52, cards_to_str
from fairdeal.core.checks import verify_transcript
from tests.service.blind_kit import blind_table, play_out


def to_play(api, tid, humans):
    """Every seat does its steps until a seat is to play a card; that seat, its game view and the deal."""
    for _ in range(500):
        g = api.get(f"/games/{tid}", humans[0].p).get_json()
        if g["view"]["phase"] == "play" and humans[0].read()["ready"]:
            h = humans[g["to_move"]]
            b = h.read()
            return h, api.get(f"/games/{tid}", h.p).get_json(), b["deal"]["deal"], b["deal"]["dealer"]
        assert any(x.step() for x in humans)
    raise AssertionError("no card to play")


def wrong_open(h, k: int, j: int, how: str) -> tuple[dict, str]:
    """A signed open by h of position j that does not hold: the card it holds there with one key changed, or a
    card it does not hold with its keys of j."""
    good = h.me.open(k, j)
    keys, card = list(good["keys"]), good["card"]
    if how == "wrong-keys":
        keys[h.seat] = scalar_hex(scalar_from_hex(keys[h.seat]) % (N - 1) + 1)
    else:
        held = {c for (d, _), c in h.me.cards.items() if d == k}
        card = next(c for c in cards_to_str(PACK_52) if c not in held)
    return sign(h.me.identity, message(h.me.game, h.seat, "open", deal=k, position=j, card=card, keys=keys)), card


@pytest.mark.parametrize("how", ["wrong-keys", "not-held"])
def test_a_wrong_open_is_taken_then_a_complaint_aborts_the_game_blamed_on_its_opener(api, how):
    tid, humans = blind_table(api, 4)
    h, g, k, dealer = to_play(api, tid, humans)
    _, j = h.choose(g["view"], k, dealer)
    opened, card = wrong_open(h, k, j, how)
    r = api.post(
        f"/games/{tid}/moves", h.p, json={"seq": g["seq"], "move": {"kind": "play", "card": card}, "open": opened}
    )
    assert r.status_code == 201, r.get_json()  # no multiplication on the server's honest path
    other = humans[(h.seat + 1) % 4]
    r = api.post(f"/games/{tid}/blind/complaints", other.p, json={"deal": k, "position": j})
    assert r.status_code == 200, r.get_json()
    abort = r.get_json()["abort"]
    assert (abort["seat"], abort["why"], abort["deal"], abort["position"]) == (h.seat, "bad-open", k, j)
    count = other.read()["count"]
    again = api.post(f"/games/{tid}/blind/complaints", humans[(h.seat + 2) % 4].p, json={"deal": k, "position": j})
    assert again.status_code == 200 and again.get_json()["abort"] == abort
    assert other.read()["count"] == count  # the second complaint wrote nothing
    g = play_out(humans, api, tid)  # the seats still present reveal (the cheat's script too)
    assert g["end_reason"] == "aborted" and g["blind"]["abort"] == abort
    t = api.get(f"/games/{tid}/transcript", h.p).get_json()
    assert t["blind"]["blame"] == [h.seat]
    report = verify_transcript(t)
    opens, blame = report.check("blind-opens"), report.check("blind-blame")
    assert opens.status == "fail" and blame.status == "pass"  # the opener is at fault: the server framed nobody


def test_a_complaint_that_does_not_hold_changes_nothing(api):
    tid, humans = blind_table(api, 4)
    h, g, k, dealer = to_play(api, tid, humans)
    assert h.step()  # an honest play, with its open
    h.read()
    j = next(m["position"] for m in reversed(h.log) if m["type"] == "open")
    other = humans[(h.seat + 1) % 4]
    before, seq = other.read()["count"], api.get(f"/games/{tid}", other.p).get_json()["seq"]
    r = api.post(f"/games/{tid}/blind/complaints", other.p, json={"deal": k, "position": j})
    assert r.status_code == 422 and r.get_json()["type"].endswith("complaint-refused")
    assert (r.get_json()["deal"], r.get_json()["position"]) == (k, j)
    free = next(p for p in range(52) if p != j)
    r = api.post(f"/games/{tid}/blind/complaints", other.p, json={"deal": k, "position": free})
    assert r.status_code == 404 and r.get_json()["type"].endswith("no-such-open")
    for body in ({"deal": k}, {"deal": k, "position": "1"}, {"deal": k, "position": 52}, {"deal": -1, "position": j}):
        r = api.post(f"/games/{tid}/blind/complaints", other.p, json=body)
        assert r.status_code == 422 and r.get_json()["type"].endswith("bad-complaint"), body
    assert api.post(f"/games/{tid}/blind/complaints", other.p, json=[k, j]).status_code == 400  # not an object
    stranger = api.player("stranger")
    r = api.post(f"/games/{tid}/blind/complaints", stranger, json={"deal": k, "position": j})
    assert r.status_code == 403
    b = other.read()
    assert b["count"] == before and b["abort"] is None
    assert api.get(f"/games/{tid}", other.p).get_json()["seq"] == seq
    g = play_out(humans, api, tid)
    assert g["end_reason"] == "finished"


class _Posts:
    """A client that records its posts (BlindPlayer's complaint) and answers as the service would."""

    def __init__(self):
        self.posted: list[tuple[str, dict]] = []

    def post(self, path: str, body: dict) -> dict:
        self.posted.append((path, body))
        return {}


def test_the_terminal_client_complains_of_a_wrong_open(api):
    """fairdeal play's BlindPlayer checks every other seat's open (one multiplication) and posts a complaint of a
    wrong one; a good open is not complained of."""
    tid, humans = blind_table(api, 4)
    h, g, k, dealer = to_play(api, tid, humans)
    _, j = h.choose(g["view"], k, dealer)
    watcher = humans[(h.seat + 1) % 4]
    client = _Posts()
    player = BlindPlayer(client, watcher.me)  # type: ignore[arg-type]
    for m in watcher.log:
        player._take(m)
    player._dealer = (k, dealer)
    player._check_open(h.me.open(k, j))
    assert client.posted == [] and player.warnings == []
    bad, _ = wrong_open(h, k, j, "wrong-keys")
    player._opened.clear()
    player._check_open(bad)
    assert client.posted == [(f"/games/{tid}/blind/complaints", {"deal": k, "position": j})]
    assert len(player.warnings) == 1 and "do not open" in player.warnings[0]


def test_at_a_table_with_bots_the_server_checks_each_open_for_its_own_seats(api):
    """The bots are the server's seats: as their client it makes the multiplication of every human open, and
    refuses a wrong one before it is taken."""
    tid, humans = blind_table(api, 1)
    h = humans[0]
    for _ in range(500):
        b = h.read()
        g = api.get(f"/games/{tid}", h.p).get_json()
        if b["ready"] and g["to_move"] == 0 and g["view"]["phase"] == "play":
            break
        assert h.step()
    k, dealer = b["deal"]["deal"], b["deal"]["dealer"]
    _, j = h.choose(g["view"], k, dealer)
    opened, card = wrong_open(h, k, j, "wrong-keys")
    count = h.read()["count"]
    r = api.post(
        f"/games/{tid}/moves", h.p, json={"seq": g["seq"], "move": {"kind": "play", "card": card}, "open": opened}
    )
    assert r.status_code == 422 and r.get_json()["why"] == "does-not-open"
    assert h.read()["count"] == count
