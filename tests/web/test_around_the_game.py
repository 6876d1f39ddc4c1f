"""The game around the game at the table page: the score sheet of every hand, "Play again" with the same seats
(the host opens it, the other player follows and is seated with a new commitment), and the lobby's games being
played, to watch."""

from __future__ import annotations

from tests.web.conftest import shot
from tests.web.driver import as_player, sign_up


def _play_via_api(players, gid, until):
    """The players make their moves through the API (the pages follow the game on their feeds) until until()."""
    for _ in range(5000):
        if until():
            return
        if not any(p.play_suggested(gid) for p in players):
            if players[0].get(f"/games/{gid}")["status"] == "over":
                return
    raise AssertionError("the condition never came")


def test_the_score_sheet_fills_in_hand_by_hand_and_play_again_keeps_the_seats(pages, server):
    base = server.api()
    host, guest = base.player("sheet-host"), base.player("sheet-guest")
    t = host.open_table({"rule_set": "spades", "clocks": "off"}, seed="host seed")
    guest.commit(t["id"], "guest seed", seat=2)
    host.post(f"/tables/{t['id']}/start")
    host.reveal(t["id"])
    guest.reveal(t["id"])
    gid = t["id"]
    a, b = pages.new(), pages.new()
    as_player(a, host.identity)
    as_player(b, guest.identity)
    for page in (a, b):
        page.goto(f"{server.url}/table/{gid}")
        page.wait_for_selector("#felt:not([hidden])")
    assert "No hand has ended yet." in a.inner_text("#sheet")
    _play_via_api([host, guest], gid, lambda: len(base.get(f"/games/{gid}/sheet")["hands"]) >= 2)
    hands = base.get(f"/games/{gid}/sheet")["hands"]
    a.wait_for_selector(f"#sheet tbody tr[data-hand='{len(hands)}']", state="attached")
    row = a.locator("#sheet tbody tr").nth(0).inner_text()
    team = hands[0]["teams"][0]
    assert f"bid {team['contract']}, took {team['tricks']}" in row and str(hands[0]["scores"][0]) in row
    shot(a, "table-score-sheet")
    _play_via_api([host, guest], gid, lambda: base.get(f"/tables/{gid}")["status"] == "over")
    final = base.get(f"/games/{gid}/sheet")["hands"]
    a.wait_for_selector(f"#sheet tbody tr[data-hand='{len(final)}']", state="attached")
    assert a.locator("#sheet tbody tr").count() == len(final)
    # play again: the host opens the next table; the guest's page follows it and is seated with a new seed
    a.click("#play-again")
    a.wait_for_url(lambda url: "/table/" in url and gid not in url)
    nxt = a.url.rsplit("/", 1)[1]
    a.wait_for_selector("#start")
    b.click("#next-game")
    b.wait_for_url(f"**/table/{nxt}")
    b.wait_for_selector("#waiting:not([hidden])")
    table = base.get(f"/tables/{nxt}")
    assert [s["name"] for s in table["seats"]][::2] == ["sheet-host", "sheet-guest"]
    for _ in range(100):
        table = base.get(f"/tables/{nxt}")
        if table["seats"][0]["committed"] and table["seats"][2]["committed"]:
            break
        b.wait_for_timeout(100)
    assert table["seats"][0]["committed"] and table["seats"][2]["committed"], "each seat commits to a new seed"


def test_the_lobby_lists_the_games_being_played_to_watch(pages, server):
    host = server.api().player("being-played")
    t = host.open_table({"rule_set": "spades", "clocks": "off"}, seed="s")
    host.post(f"/tables/{t['id']}/start")
    host.reveal(t["id"])
    page = pages.new()
    sign_up(page, server.url, "looker")
    line = page.locator(f"#running li[data-running='{t['id']}']")
    line.wait_for()
    assert "being-played" in line.inner_text()
    line.get_by_role("link", name="Watch").click()
    page.wait_for_url(f"**/table/{t['id']}#watch")
    page.wait_for_selector("#felt:not([hidden])")
    host.post(f"/tables/{t['id']}/leave")


def test_the_rules_at_the_table_explain_drumpf_and_rank_the_drumpf_suit(pages, server):
    host = server.api().player("rules-reader")
    t = host.open_table({"rule_set": "120s-auction", "clocks": "off"}, seed="r")
    host.post(f"/tables/{t['id']}/start")
    host.reveal(t["id"])
    page = pages.new()
    as_player(page, host.identity)
    page.goto(f"{server.url}/table/{t['id']}")
    page.wait_for_selector("#rules .term:has-text('calls the trump suit')")
    assert page.locator("#rules .order").count() == 4, "before a suit is named: every suit's order"
    assert "5♠ J♠ A♥ A♠ K♠" in page.inner_text("#rules .order[data-suit='S']")
    page.click("#rules summary:has-text('Scoring')")
    assert page.locator("#rules details[open] li").count() >= 2
    # once the drumpf suit is named, the aid shows that suit only
    for _ in range(200):
        g = host.get(f"/games/{t['id']}")
        if (g.get("view") or {}).get("trump") or g["status"] == "over":
            break
        host.play_suggested(t["id"])
    trump = host.get(f"/games/{t['id']}")["view"]["trump"]
    page.wait_for_selector(f"#rules .order[data-suit='{trump}']")
    page.wait_for_function("() => document.querySelectorAll('#rules .order').length === 1")
    shot(page, "table-rules")
    host.post(f"/tables/{t['id']}/leave")


def test_the_seat_clock_and_the_suggested_bid_are_labelled_and_no_cap_note_before_it_binds(pages, server):
    host = server.api().player("labels")
    t = host.open_table({"rule_set": "120s-auction", "clocks": {"card": 60, "other": 60}}, seed="l")
    host.post(f"/tables/{t['id']}/start")
    host.reveal(t["id"])
    page = pages.new()
    as_player(page, host.identity)
    page.goto(f"{server.url}/table/{t['id']}")
    page.wait_for_selector("#mine[data-turn=yes]")
    page.wait_for_selector(".seat.to-move .clock:text-matches('· \\\\d+ s left for other moves$')")
    assert page.locator(".seat.to-move .info").inner_text().count(" s") == 1, "one clock per seat, not two"
    tick = page.locator("#choices button.choice:has(.tick)")
    if tick.count():
        assert tick.first.get_attribute("aria-label").endswith("(the table's suggestion)")
    assert "capped at 115" not in page.inner_text("#scores"), "the cap note shows only once it binds"
    host.post(f"/tables/{t['id']}/leave")
