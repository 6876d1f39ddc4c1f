"""A dealer-blind Spades table played in Chromium (issue 26): the page does its seat's protocol steps against the
service's blind endpoints, shows the hand it decrypted, plays cards with their opens, keeps its secrets in
localStorage so a reload resumes, and at the end the transcript passes the verifier."""

from __future__ import annotations

import json

import pytest

from fairdeal.client.blind import commits_fingerprint
from fairdeal.core.blind import check
from fairdeal.core.blind.deal import spades_holders
from fairdeal.core.checks import verify_transcript
from tests.waiting import scaled, wait_for
from tests.web.blind_pages import (
    OWN_COMMIT,
    VERIFY_PAGE_PASSES,
    commits_shown,
    hand_shown,
    open_blind,
    stored,
    verify_page_statuses,
)
from tests.web.conftest import shot
from tests.web.driver import is_over, make_move, state

TAMPER = """async (text) => {
  const v = await import("/assets/js/protocol/checks.js");
  const t = JSON.parse(text);
  const m = t.blind.messages.find((x) => x.type === "release" && x.seat === 2);
  const h = Object.keys(m.keys)[0];
  const j = Object.keys(m.keys[h])[0];
  m.keys[h][j] = (m.keys[h][j][0] === "0" ? "1" : "0") + m.keys[h][j].slice(1);
  const report = await v.verifyTranscript(JSON.stringify(t), {});
  const status = (id) => report.checks.find((c) => c.id === id).status;
  return { messages: status("blind-messages"), deals: status("deals"), atFault: report.blind.atFault,
    codes: report.blind.findings.map((f) => f.code) };
}"""


@pytest.mark.timeout(
    1200
)  # a whole 19-hand game played in Chromium, then checked by its verify page, on a shared machine
def test_a_blind_spades_game_in_chromium_against_three_bots_verifies(pages, server):
    page = pages.new()
    gid = open_blind(page, server, "blind-player")
    api = server.api()
    table = api.get(f"/tables/{gid}")
    assert table["blind"] is True and [s["bot"] for s in table["seats"]] == [False, True, True, True]

    # the page shuffled, locked and released for seat 0, then read its 13 cards: the hand it shows
    page.wait_for_selector("#hand .card", timeout=scaled(30_000))
    first_hand = sorted(hand_shown(page))
    assert len(first_hand) == 13
    kept = stored(page, gid)
    assert len(kept["secret"]) == 64 and kept["seat"] == 0 and sorted(c for _, _, c, _ in kept["cards"]) == first_hand
    # the server never had them: the seat's view carries no hand
    assert api.get(f"/games/{gid}")["view"]["hand"] is None
    shot(page, "blind-table")

    # a reload resumes: the secrets and cards come back from localStorage, the same hand is shown
    page.reload()
    page.wait_for_selector("#hand .card", timeout=scaled(30_000))
    assert sorted(hand_shown(page)) == first_hand

    moves = 0
    deadline_moves = 2000
    while not is_over(page):
        st = state(page)
        if st["turn"]:
            seq = make_move(page, moves, fast=moves % 5 != 0)
            moves += 1
            wait_for(lambda s=seq: state(page)["seq"] != s or is_over(page), timeout=scaled(30), what="the move")
        else:
            wait_for(lambda: state(page)["turn"] or is_over(page), timeout=scaled(60), what="our turn or the end")
        assert moves < deadline_moves
    shot(page, "blind-table-over")
    # the blind log came to the page as the game stream's `blind` events: it never long-polled the log
    pushes, polls = (int(page.get_attribute("#connection", f"data-blind-{k}") or 0) for k in ("pushes", "polls"))
    assert pushes > 0 and polls == 0, (pushes, polls)

    t = api.get(f"/games/{gid}/transcript")
    assert t["end"]["reason"] == "finished", t["end"]
    blind = t["blind"]
    assert blind["blame"] == []
    # the page's seat revealed its σ (the one it kept) and every card it played was opened by it
    reveal = next(m for m in blind["messages"] if m["type"] == "reveal" and m["seat"] == 0)
    assert reveal["secret"] == stored(page, gid)["secret"]
    plays = [r for r in t["records"] if r["seat"] == 0 and r["move"]["kind"] == "play"]
    opens = [m for m in blind["messages"] if m["type"] == "open" and m["seat"] == 0]
    assert len(plays) == len(opens) and len(plays) % 13 == 0 and plays
    # every shuffle, lock, release and open checks out from the revealed secrets
    holders = {d["hand"]: spades_holders(d["dealer"]) for d in t["end"]["deals"]}
    audit = check.audit(gid, 4, blind["messages"], holders)
    assert audit.findings == [] and set(audit.decks) == set(holders)
    assert sorted(audit.hands[0][0]) == first_hand
    # the page's fingerprint of the commits is the terminal client's, its own commit checked
    assert commits_shown(page) == (commits_fingerprint(blind["messages"], 4), OWN_COMMIT, "pass")
    # the verify page checks the blind deal from the revealed secrets and deals every hand from it
    statuses = verify_page_statuses(page, gid)
    assert {k: statuses[k] for k in VERIFY_PAGE_PASSES} == dict.fromkeys(VERIFY_PAGE_PASSES, "pass"), statuses
    assert "blind shuffles" in page.inner_text("#checks tr[data-check=deals]")
    assert page.is_visible("#blind") and page.locator("#blind-findings li.fail").count() == 0
    assert "revoke" in page.inner_text("#blind-not-checked")
    shot(page, "blind-verify")
    # a message changed after its seat signed it: the page fails blind-messages and blames the server, no seat
    tampered = page.evaluate(TAMPER, json.dumps(t))
    assert tampered["messages"] == "fail" and tampered["atFault"] == [] and tampered["codes"][0] == "signature"

    # and the whole transcript passes the verifier
    seat = t["start"]["seats"][0]
    report = verify_transcript(t, client_seeds=[(0, seat["client_seed"])])
    assert report.ok, [(c.id, c.status, c.detail) for c in report.checks if c.status == "fail"]
