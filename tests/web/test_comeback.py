"""Players come and go (docs/api.md, "Leaving and coming back"): a player who closes the page and opens it again,
in another browser with its token, is back at its seat and misses no move; a player who leaves is played by the
table's bot, marked as standing in on every page, until they take the seat back."""

from __future__ import annotations

import json

from tests.web.conftest import shot
from tests.web.driver import TURN, HeldAnswer, as_player, make_move, wait_after


def _two_players(server):
    """A Spades table without clocks: `browser_player` at seat 0 (to be driven through a page), `other` at seat
    2 through the API, bots at 1 and 3."""
    base = server.api()
    mine, other = base.player("comes-back"), base.player("stays")
    t = mine.open_table({"rule_set": "spades", "clocks": "off"}, seed="my seed")
    other.commit(t["id"], "other seed", seat=2)
    mine.post(f"/tables/{t['id']}/start")
    mine.reveal(t["id"])
    other.reveal(t["id"])
    return mine, other, t["id"]


def _others_play(other, gid):
    while other.play_suggested(gid):
        pass


def _logged(page) -> list[int]:
    return [int(x) for x in page.eval_on_selector_all("#log li[data-seq]", "els => els.map(e => e.dataset.seq)")]


def test_a_player_who_closes_the_page_comes_back_from_another_browser_and_misses_nothing(pages, server):
    mine, other, gid = _two_players(server)
    page = pages.new()
    as_player(page, mine.identity)
    page.goto(f"{server.url}/table/{gid}")
    page.wait_for_selector("#felt:not([hidden])")
    for _ in range(3):  # a few moves of ours, through the page
        _others_play(other, gid)
        view = mine.get(f"/games/{gid}")
        page.wait_for_selector(f"{TURN}[data-seq='{view['seq']}']")
        wait_after(page, make_move(page))
    page.context.close()  # the page is closed; the others play on to our turn
    _others_play(other, gid)
    view = mine.get(f"/games/{gid}")
    assert view["your_turn"]
    again = pages.new()  # another browser: only the token is the same
    as_player(again, mine.identity)
    again.goto(f"{server.url}/table/{gid}")
    again.wait_for_selector(f"{TURN}[data-seq='{view['seq']}']")
    records = mine.get(f"/games/{gid}/transcript")["transcript"]["records"]
    again.wait_for_selector(f"#log li[data-seq='{records[-1]['seq']}']", state="attached")
    assert _logged(again) == [r["seq"] for r in records], "the story told on coming back skips or repeats a move"
    wait_after(again, make_move(again))
    assert mine.get(f"/games/{gid}/transcript")["transcript"]["records"][view["seq"]]["by"] == "player"


def test_a_player_who_leaves_is_stood_in_for_everyone_sees_it_and_the_player_takes_the_seat_back(pages, server):
    mine, other, gid = _two_players(server)
    page, fan = pages.new(), pages.new()
    as_player(page, mine.identity)
    page.goto(f"{server.url}/table/{gid}")
    fan.goto(f"{server.url}/table/{gid}")  # a spectator without a seat
    page.wait_for_selector("#presence:not([hidden]) #leave-table")
    page.once(
        "dialog", lambda d: (d.message.startswith("The table's bot will play your seat") or d.dismiss()) and d.accept()
    )
    # the view the page reads after its leave reaches it only after the stream brought the bot's first move
    late = HeldAnswer(page, f"**/games/{gid}", nth=1)
    page.click("#leave-table")
    late.wait_held()
    for _ in range(40):  # the other plays; the bot stands in at our turns
        other.play_suggested(gid)  # one move at a time: nobody waits for the seat that left
        if any(r["by"] == "stand-in" for r in mine.get(f"/games/{gid}/transcript")["transcript"]["records"]):
            break
    records = mine.get(f"/games/{gid}/transcript")["transcript"]["records"]
    first = next(r for r in records if r["by"] == "stand-in")
    assert first["seat"] == 0
    note = f"#presence .away-note:has-text('The table\\'s bot is playing for you since move {first['seq']}')"
    page.wait_for_selector(note)
    late.release()
    assert page.locator(note).count() == 1, "an older view was drawn over the newer"
    page.wait_for_selector(".seat[data-seat='0'] .away-badge.stand-in")
    fan.wait_for_selector(".seat[data-seat='0'] .away-badge:has-text('the table\\'s bot plays')")
    fan.wait_for_selector(f"#log li[data-seq='{first['seq']}']:has-text('Standing in for')", state="attached")
    shot(page, "table-stood-in")
    page.click("#come-back")  # the button takes the seat back ...
    page.wait_for_selector("#presence #leave-table")
    page.once("dialog", lambda d: d.accept())
    page.click("#leave-table")  # ... and after leaving again, so does opening the page
    page.wait_for_selector("#presence #come-back")
    page.close()  # the page closed while stood in: opening it again is coming back
    page = pages.new()
    as_player(page, mine.identity)
    page.goto(f"{server.url}/table/{gid}")
    page.wait_for_selector("#presence #leave-table")
    assert not mine.get(f"/games/{gid}")["seats"][0]["away"]
    assert page.locator(".seat[data-seat='0'] .away-badge").count() == 0
    _others_play(other, gid)
    view = mine.get(f"/games/{gid}")
    assert view["your_turn"] and not view["seats"][0]["away"]
    page.wait_for_selector(f"{TURN}[data-seq='{view['seq']}']")
    wait_after(page, make_move(page))
    rec = mine.get(f"/games/{gid}/transcript")["transcript"]["records"][view["seq"]]
    assert (rec["seat"], rec["by"]) == (0, "player"), "the seat is the player's again"


def test_a_view_read_before_a_return_and_answered_after_it_does_not_show_the_seat_away_again(pages, server):
    """A leave at our turn (the bot moves for us at once), then a return: two view reads of the same seq. The
    first answer, overtaken by the second, must not be drawn last (the page would show the seat away again)."""
    mine, other, gid = _two_players(server)
    _others_play(other, gid)
    assert mine.get(f"/games/{gid}")["your_turn"]
    page = pages.new()
    as_player(page, mine.identity)
    page.goto(f"{server.url}/table/{gid}")
    page.wait_for_selector(TURN)
    page.wait_for_selector("#presence #leave-table")
    late = HeldAnswer(page, f"**/games/{gid}", nth=1)
    page.once("dialog", lambda d: d.accept())
    page.click("#leave-table")
    late.wait_held()  # the view after the leave: away, the bot's move made
    page.wait_for_selector("#presence #come-back")  # the same view, brought by the stream with the bot's move
    page.click("#come-back")
    page.wait_for_selector("#presence #leave-table")  # the view read after the return
    assert late.held[1].json()["seq"] == int(page.get_attribute("#mine", "data-seq")), "not the same seq"
    late.release()
    assert page.locator("#presence #come-back").count() == 0, "the view read before the return was drawn last"
    assert page.locator("#presence #leave-table").count() == 1
    assert not mine.get(f"/games/{gid}")["seats"][0]["away"]


def test_a_view_read_that_fails_after_a_leave_is_asked_again(pages, server):
    mine, other, gid = _two_players(server)
    _others_play(other, gid)
    assert mine.play_suggested(gid)  # our move: now it is the other's turn, the leave makes no move (no news)
    view = mine.get(f"/games/{gid}")
    assert view["to_move"] == 2
    page = pages.new()
    as_player(page, mine.identity)
    page.goto(f"{server.url}/table/{gid}")
    page.wait_for_selector(f"#mine[data-seq='{view['seq']}']", state="attached")
    page.wait_for_selector("#presence #leave-table")
    failed = []

    def fail_once(route):
        if failed:
            route.continue_()
            return
        failed.append(route.request.url)
        problem = {"title": "Service Unavailable", "status": 503, "detail": "The service is busy."}
        route.fulfill(status=503, content_type="application/problem+json", body=json.dumps(problem))

    page.route(f"**/games/{gid}", fail_once)
    page.once("dialog", lambda d: d.accept())
    page.click("#leave-table")
    page.wait_for_selector("#why.error:has-text('Asking again')")
    page.wait_for_selector("#presence #come-back")  # the read asked again: the page shows the seat away
    assert failed and mine.get(f"/games/{gid}")["seats"][0]["away"] == "left"
    assert page.inner_text("#why") == "", "the failure's note stays after the read was answered"
