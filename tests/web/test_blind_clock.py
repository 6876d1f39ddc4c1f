"""The clock at a dealer-blind table in Chromium: the server cannot choose a card it cannot see, so when the seat's
clock runs out its own page plays the rule set's timeout move (marked as one); when the page is gone past the
grace period, the game ends aborted, blamed on that seat, and the page says so."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from fairdeal.core.blind import check
from fairdeal.core.blind.deal import spades_holders
from tests.waiting import scaled, wait_for
from tests.web.conftest import Server, shot
from tests.web.driver import as_player, sign_up

GRACE = 2.0


@pytest.fixture(scope="module")
def server():
    data = Path(tempfile.mkdtemp(prefix="fairdeal-web-blind-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    s = Server(str(data), blind_grace=GRACE)
    yield s
    s.stop()
    shutil.rmtree(data, ignore_errors=True)


def test_the_page_plays_its_own_timeout_moves_and_a_page_gone_aborts_the_game_blamed(pages, server):
    host = server.api().player("host")
    table = host.post("/tables", {"rule_set": "spades", "blind": True, "clocks": {"card": 5, "other": 5}, "seat": None})
    gid = table["id"]
    page = pages.new()
    sign_up(page, server.url, "sleepy")
    player = json.loads(page.evaluate("() => localStorage.getItem('fairdeal.player')"))
    page.goto(f"{server.url}/table/{gid}")
    page.click("button.sit[data-seat='0']")
    wait_for(lambda: host.get(f"/tables/{gid}")["seats"][0]["blind_committed"], timeout=20, what="the blind commit")
    host.post(f"/tables/{gid}/start")
    page.wait_for_selector("#hand .card", timeout=scaled(30_000))

    # nobody taps: the page's own clock plays for the seat, twice (a bid, then a card, or two cards)
    box = page.locator("#moved-for-you")
    wait_for(lambda: "this page played" in (box.inner_text() if box.is_visible() else ""), timeout=30, what="a timeout")
    shot(page, "blind-timeout")

    def timeouts():
        return [
            r
            for r in host.get(f"/games/{gid}/events?after=0&wait=0")["records"]
            if r["seat"] == 0 and r["by"] == "timeout"
        ]

    wait_for(lambda: len(timeouts()) >= 2, timeout=40, what="two timeout moves of seat 0")
    # the page is closed: the next decision of seat 0 runs past its clock and the grace period
    page.context.close()
    # (the service acts on a due deadline when a client waits on the game or its sweeper runs: here the host's
    # long-poll of the feed, as a watcher's page would)
    over = wait_for(lambda: host.get(f"/games/{gid}/events?after=100000&wait=2")["ended"], timeout=30, what="the abort")
    t = host.get(f"/games/{gid}/transcript")
    assert t["end"]["reason"] == "aborted", t["end"]
    assert t["blind"]["blame"] == [0], t["blind"]["blame"]
    assert over
    # each of the page's timeout moves was a play with its open, or a bid; each open checks out
    holders = {d["hand"]: spades_holders(d["dealer"]) for d in t["end"]["deals"]}
    opens = [m for m in t["blind"]["messages"] if m["type"] == "open" and m["seat"] == 0]
    plays = [r for r in t["records"] if r["seat"] == 0 and r["move"]["kind"] == "play"]
    assert len(opens) == len(plays) and all(r["by"] == "timeout" for r in t["records"] if r["seat"] == 0)
    audit = check.audit(gid, 4, t["blind"]["messages"], holders)
    assert not [f for f in audit.findings if f.code.startswith("open")]

    # the same player opening the page again sees the abort and the seat blamed
    again = pages.new()
    as_player(again, player)
    again.goto(f"{server.url}/table/{gid}")
    again.wait_for_selector("#over:not([hidden])", timeout=scaled(20_000))
    wait_for(lambda: "Blamed on" in again.inner_text("#over-text"), timeout=20, what="the abort sentence")
    text = again.inner_text("#over-text")
    assert "aborted" in text and "Blamed on you: no move in time" in text and "names seat 0" in text, text
    shot(again, "blind-aborted")
