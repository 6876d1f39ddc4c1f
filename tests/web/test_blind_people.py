"""People at a dealer-blind Spades table in Chromium (issue 26): four players in four browsers, and two players
beside two server bots, play a whole game to its end (a short one: one pair bids 13 each, so the game ends after
its first hand, set past -200); every page shows the same fingerprint of the seats' commits, the one the
terminal client prints, and says its own commit is in the table's record; the finished game passes the verify
page and `fairdeal-verify`."""

from __future__ import annotations

import pytest

from fairdeal.client.blind import commits_fingerprint
from fairdeal.core.blind import check
from fairdeal.core.blind.deal import spades_holders
from tests.waiting import scaled, wait_for
from tests.web.blind_pages import (
    OWN_COMMIT,
    VERIFY_PAGE_PASSES,
    bidding,
    commits_shown,
    fairdeal_verify,
    hand_shown,
    sit_down,
    stored,
    verify_page_statuses,
)
from tests.web.conftest import shot
from tests.web.driver import play_to_end


def seat_players(pages, server, names: dict[int, str]) -> tuple[str, dict]:
    """A host who does not play opens a waiting blind table (through the API: the lobby's way is
    test_blind_table's); each player takes a seat from the table page; the host starts it. The pages by seat."""
    api = server.api()
    host = api.player("host")
    gid = host.post("/tables", {"rule_set": "spades", "blind": True, "clocks": "off", "seat": None})["id"]
    by_seat = {}
    for seat, name in names.items():
        by_seat[seat] = page = pages.new()
        sit_down(page, server, gid, name, seat)
    wait_for(
        lambda: all(api.get(f"/tables/{gid}")["seats"][s]["blind_committed"] for s in by_seat),
        timeout=20,
        what="every seated page's blind commit",
    )
    host.post(f"/tables/{gid}/start")
    for page in by_seat.values():
        page.wait_for_selector("#felt:not([hidden])", timeout=scaled(30_000))
    return gid, by_seat


def play_one_hand_game(by_seat: dict) -> None:
    """Seats 0 and 2 bid 13 each (their set ends the game after the first hand); every other move is the page's
    suggestion, tapped."""
    movers = {by_seat[s]: bidding(13) for s in (0, 2) if s in by_seat}
    play_to_end(list(by_seat.values()), limit_s=scaled(120), real_every=9, movers=movers)


def check_the_end(server, gid: str, by_seat: dict, tmp_path) -> dict:
    """The game finished after one hand; each page's fingerprint is the terminal client's, its own commit said
    checked; every blind step checks out; `fairdeal-verify` and the verify page pass it."""
    api = server.api()
    t = api.get(f"/games/{gid}/transcript")
    assert t["end"]["reason"] == "finished", t["end"]
    assert len(t["end"]["deals"]) == 1 and t["blind"]["blame"] == []
    assert {r["seat"] for r in t["records"] if r["by"] == "player"} == set(by_seat)
    bids = {r["seat"]: r["move"]["value"] for r in t["records"] if r["move"]["kind"] == "bid"}
    assert bids[0] == bids[2] == 13, bids
    # the fingerprint the terminal client prints (fairdeal/client/blind.py), from the transcript's commits
    want = commits_fingerprint(t["blind"]["messages"], 4)
    assert want and len(want) == 64
    for seat, page in by_seat.items():
        fingerprint, own, status = commits_shown(page)
        assert (fingerprint, own, status) == (want, OWN_COMMIT, "pass"), seat
        # each page revealed the σ it kept, and opened every card it played
        reveal = next(m for m in t["blind"]["messages"] if m["type"] == "reveal" and m["seat"] == seat)
        assert reveal["secret"] == stored(page, gid, seat)["secret"]
    holders = {d["hand"]: spades_holders(d["dealer"]) for d in t["end"]["deals"]}
    audit = check.audit(gid, 4, t["blind"]["messages"], holders)
    assert audit.findings == [] and set(audit.decks) == {0}
    v = fairdeal_verify(api, gid, t, tmp_path)
    assert v.returncode == 0 and "VERIFIED" in v.stdout and "PASS  blind-deal" in v.stdout, v.stdout + v.stderr
    page = by_seat[2]
    statuses = verify_page_statuses(page, gid)
    assert {k: statuses[k] for k in VERIFY_PAGE_PASSES} == dict.fromkeys(VERIFY_PAGE_PASSES, "pass"), statuses
    return t


@pytest.mark.timeout(900)  # four pages and the service on two shared cores: every wait in it is scaled to the load
def test_four_players_in_four_browsers_play_a_blind_game_to_its_end_and_it_verifies(pages, server, tmp_path):
    gid, by_seat = seat_players(pages, server, {0: "north", 1: "east", 2: "south", 3: "west"})
    table = server.api().get(f"/tables/{gid}")
    assert table["blind"] is True and not any(s["bot"] for s in table["seats"])
    # each page read its own 13 cards, and they are four different hands
    for page in by_seat.values():
        page.wait_for_selector("#hand .card", timeout=scaled(30_000))
    wait_for(lambda: all(len(hand_shown(p)) == 13 for p in by_seat.values()), timeout=30, what="four hands of 13")
    hands = [set(hand_shown(p)) for p in by_seat.values()]
    assert len(set.union(*hands)) == 52
    shot(by_seat[1], "blind-four-players")
    play_one_hand_game(by_seat)
    shot(by_seat[3], "blind-four-players-over")
    check_the_end(server, gid, by_seat, tmp_path)


def test_two_players_and_two_bots_play_a_blind_game_to_its_end_and_it_verifies(pages, server, tmp_path):
    gid, by_seat = seat_players(pages, server, {0: "north", 2: "south"})
    table = server.api().get(f"/tables/{gid}")
    assert [s["bot"] for s in table["seats"]] == [False, True, False, True]
    play_one_hand_game(by_seat)
    check_the_end(server, gid, by_seat, tmp_path)
