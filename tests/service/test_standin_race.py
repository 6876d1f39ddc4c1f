"""A player's return against a stand-in move decided elsewhere (docs/api.md, "Leaving and coming back"): two
service instances (two processes' caches) on one store, the return recorded through one while the other holds the
table document from before it. Each interleaving is made by the order of the requests and by a hook on the other
instance (its store's document write, its appender), never by timing.

What must hold in every one: no stand-in move after the return (a record for the seat past its `back_seq` is the
player's own), and the seat is the player's from then on (not "stood-in" again, its turns its own)."""

from __future__ import annotations

import pytest

from tests.service.client import Api
from tests.service.conftest import make_app
from tests.service.standin_kit import play_until, two_humans

GUEST = 2  # Spades: the host at seat 0, a bot, the guest, a bot


@pytest.fixture
def two(request, tmp_path, clock):
    """Instance A (where the host plays) and instance B (where the guest comes back), one SQLite file."""
    apps = [make_app(tmp_path, "sqlite", request, now=clock, abandon_after=600.0, standin_after=120.0) for _ in "AB"]
    return [Api(a.test_client()) for a in apps], [a.extensions["fairdeal"] for a in apps]


def standing_in_at_the_hosts_turn(a: Api, svc):
    """The guest left; A (the host's instance) has played on until the bot stands in for the guest and it is the
    host's turn, seat 1 and the guest after it in the trick: A's copy of the table says the guest is gone."""
    host, guest, gid = two_humans(a)
    assert a.post(f"/tables/{gid}/leave", guest).status_code == 200

    def ready(v):
        recs = svc.games.get(gid).transcript["records"]
        plays = len((v["view"]["trick"] or {}).get("plays") or ())
        # the host leads the trick or plays second: seat 1 and the guest play next, in this trick
        return (
            v["your_turn"] and v["view"]["phase"] == "play" and plays <= 1 and any(r["by"] == "stand-in" for r in recs)
        )

    v = play_until(a, [host], gid, ready)
    assert v["seats"][GUEST]["stand_in"]
    return host, guest, gid, v


def back_seq(svc, gid) -> int:
    return svc.store.get_doc("table", gid)[0]["seats"][GUEST]["back_seq"]


def the_seat_is_the_players(a: Api, svc, host, guest, gid) -> None:
    """No stand-in past the return, the seat not away, and its next turn waits for the player."""
    back = back_seq(svc, gid)
    records = svc.games.get(gid).transcript["records"]
    assert not [r for r in records if r["seat"] == GUEST and r["seq"] > back], "a move for the guest after its return"
    assert a.view(host, gid)["seats"][GUEST]["away"] is None
    w = play_until(a, [host], gid, lambda v: a.view(guest, gid)["your_turn"])
    assert a.view(guest, gid)["your_turn"] and w["seats"][GUEST]["away"] is None, "the guest's turn is its own"
    records = svc.games.get(gid).transcript["records"]
    assert not [r for r in records if r["seat"] == GUEST and r["seq"] > back]


def test_a_return_recorded_elsewhere_stops_the_stand_in_at_the_next_move(two):
    """A holds the table from before the return (B recorded it; the move's fast path reads no table): the host's
    move on A, and the bot's after it, bring the guest's turn, and A must not stand in for the guest on its old
    copy (it did: twice, the first stand-in making the seat "stood-in" again)."""
    (a, b), (sa, sb) = two
    host, guest, gid, v = standing_in_at_the_hosts_turn(a, sa)
    assert b.post(f"/tables/{gid}/return", guest).status_code == 200
    assert back_seq(sa, gid) == v["seq"]
    assert a.move(host, gid, v["seq"], v["legal_moves"][0]).status_code == 201
    the_seat_is_the_players(a, sa, host, guest, gid)


def test_a_return_written_between_the_check_and_its_mark_is_seen(two, monkeypatch):
    """The return lands after A read the table to check the guest is still away and before A writes its mark of
    the move it is about to make: A's compare-and-set fails, and the document read again says the guest is back."""
    (a, b), (sa, sb) = two
    host, guest, gid, v = standing_in_at_the_hosts_turn(a, sa)
    put_doc = sa.store.put_doc
    hooked = []

    def return_first(kind, doc_id, doc, version):
        if kind == "table" and doc["seats"][GUEST].get("claimed_seq", 0) > v["seq"] and not hooked:
            hooked.append(True)
            assert b.post(f"/tables/{gid}/return", guest).status_code == 200
        return put_doc(kind, doc_id, doc, version)

    monkeypatch.setattr(sa.store, "put_doc", return_first)
    assert a.move(host, gid, v["seq"], v["legal_moves"][0]).status_code == 201
    assert hooked, "A marked a stand-in move on its way"
    monkeypatch.undo()
    the_seat_is_the_players(a, sa, host, guest, gid)


@pytest.mark.parametrize("due_run", [True, False], ids=["return-runs-what-is-due", "return-records-only"])
def test_a_return_written_between_the_mark_and_the_append_starts_after_that_move(two, monkeypatch, due_run):
    """The return lands after A marked the stand-in move it is about to append. That move counts as made before
    the return (the return starts the seat at its own last move or at the mark, whichever is later), so it does not
    make the seat "stood-in" again. The return's own touch runs what is due first and so usually makes that move
    itself (A's append then loses the race); return-records-only takes that run away from B (as when B's clock
    reads a silence differently), leaving the mark alone to order the two."""
    (a, b), (sa, sb) = two
    host, guest, gid, v = standing_in_at_the_hosts_turn(a, sa)
    append_move = sa.games.appender.append_move
    hooked = []

    def return_first(game, seat, move, by, *rest, **kw):
        if by == "stand-in" and seat == GUEST and not hooked:
            hooked.append(game.seq + 1)
            with monkeypatch.context() as m:
                if not due_run:
                    m.setattr(sb.games.clocks, "advance", lambda game: None)
                assert b.post(f"/tables/{gid}/return", guest).status_code == 200
        return append_move(game, seat, move, by, *rest, **kw)

    monkeypatch.setattr(sa.games.appender, "append_move", return_first)
    assert a.move(host, gid, v["seq"], v["legal_moves"][0]).status_code == 201
    assert hooked, "A was appending a stand-in move"
    monkeypatch.undo()
    back = back_seq(sa, gid)
    assert back >= hooked[0], "the return starts after the move that was being made"
    made = {r["seq"]: (r["seat"], r["by"]) for r in sa.games.get(gid).transcript["records"]}
    assert made[hooked[0]] == (GUEST, "stand-in"), "that move, made once (by the return's own touch or by A)"
    the_seat_is_the_players(a, sa, host, guest, gid)
