"""People at the table: two players in two browsers, from the lobby to the end; a player who plays by keyboard
only; pointing at (or holding) a card that cannot be played; and a dropped connection that loses no move."""

from __future__ import annotations

import json
import time

from tests.web.conftest import shot
from tests.web.driver import TURN, as_player, is_over, make_move, open_table, play_to_end, seq_of, sign_up, wait_after


def test_two_players_in_two_browsers_play_a_whole_game(pages, server):
    alice, bob = pages.new(), pages.new()
    sign_up(alice, server.url, "alice")
    gid = open_table(alice, "120s-traditional", now=False)
    alice.wait_for_selector("#waiting:not([hidden]) #start")

    sign_up(bob, server.url, "bob")
    line = bob.locator(f".table-line[data-table='{gid}']")
    line.wait_for()
    assert "120s (Traditional)" in line.inner_text() and "hosted by alice" in line.inner_text()
    shot(bob, "lobby-open-table")
    line.get_by_role("link", name="Sit down").click()
    bob.wait_for_url(f"**/table/{gid}#sit")
    bob.click("#open-seats button.sit[data-seat='2']")  # across from alice: her partner
    bob.wait_for_selector("text=You sit at seat 2.")
    shot(bob, "table-waiting")

    alice.wait_for_selector("#open-seats li[data-seat='2']:has-text('bob')")
    alice.click("#start")
    for page in (alice, bob):
        page.wait_for_selector("#felt:not([hidden])")
        page.wait_for_selector(".seat[data-seat='1'] .bot-badge")  # the empty seats are bots, once drawn
        assert page.locator(".seat[data-seat='2'] .bot-badge").count() == 0
    # each sees the other at the top, across the table, and themselves at the bottom
    assert alice.get_attribute(".seat[data-seat='2']", "data-pos") == "top"
    assert bob.get_attribute(".seat[data-seat='0']", "data-pos") == "top"
    assert bob.get_attribute(".seat[data-seat='2']", "data-pos") == "bottom"

    play_to_end([alice, bob], real_every=5)
    t = server.api().get(f"/games/{gid}/transcript")
    movers = {r["seat"] for r in t["records"] if r["by"] == "player"}
    assert movers == {0, 2}
    for page in (alice, bob):
        page.wait_for_selector("#seed-box:not([hidden])")
        assert page.inner_text("#server-seed") == t["end"]["server_seed"]
    shot(bob, "table-two-players-over")
    assert t["start"]["seats"][2]["name"] == "bob"


def focused(page) -> dict:
    return page.evaluate(
        "() => ({cls: document.activeElement.className, card: document.activeElement.dataset.card || null,"
        " choice: document.activeElement.dataset.choice || null,"
        " pressed: document.activeElement.getAttribute('aria-pressed')})"
    )


def test_keyboard_only_play_tab_to_the_blocks_or_the_hand_arrows_enter_and_enter_again(pages, server):
    page = pages.new()
    sign_up(page, server.url, "keys")
    gid = open_table(page, "spades")
    page.wait_for_selector(TURN)
    api = server.api()

    # M turns the sound off and on
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    page.locator("body").press("m")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    page.keyboard.press("M")
    assert page.get_attribute("#sound", "aria-pressed") == "true"

    # the bid: Tab reaches the blocks, the arrow keys move along them, Enter lifts, Enter again bids
    page.evaluate("() => document.activeElement.blur()")
    for _ in range(40):
        page.keyboard.press("Tab")
        if focused(page)["choice"]:
            break
    start = focused(page)
    assert start["choice"], "Tab never reached the bid blocks"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    chosen = focused(page)["choice"]
    assert chosen != start["choice"]
    page.keyboard.press("Enter")
    assert focused(page)["pressed"] == "true"
    seq = seq_of(page)
    page.keyboard.press("Enter")
    wait_after(page, seq)
    mine = [r for r in api.get(f"/games/{gid}/transcript")["transcript"]["records"] if r["seat"] == 0]
    assert mine[-1]["move"] == json.loads(chosen)

    # the cards of the first hand: Tab to the hand, arrows to a playable card, Enter, Enter
    played = 0
    while played < 13 and not is_over(page):
        page.wait_for_selector(TURN)
        if not page.locator("#hand .card").count():
            break
        if not focused(page)["card"]:
            for _ in range(60):
                page.keyboard.press("Tab")
                if focused(page)["card"]:
                    break
        assert focused(page)["card"], "Tab never reached the hand"
        for _ in range(14):
            if "playable" in focused(page)["cls"].split():
                break
            page.keyboard.press("ArrowRight")
        card = focused(page)["card"]
        page.keyboard.press("Enter")
        assert focused(page)["pressed"] == "true"
        seq = seq_of(page)
        page.keyboard.press("Enter")
        wait_after(page, seq)
        records = api.get(f"/games/{gid}/transcript")["transcript"]["records"]
        assert [r["move"] for r in records if r["seat"] == 0 and r["move"]["kind"] == "play"][-1] == {
            "kind": "play",
            "card": card,
        }
        played += 1
    assert played == 13
    shot(page, "table-keyboard")


def test_pointing_at_or_holding_a_card_that_cannot_be_played_says_why(pages, server):
    page = pages.new()
    sign_up(page, server.url, "why")
    gid = open_table(page, "spades")
    me = page.evaluate("() => JSON.parse(localStorage.getItem('fairdeal.player'))")
    api = server.api()
    api.token = me["token"]
    # play the table's way (first playable card) until a turn where some card may not be played
    for _ in range(60):
        page.wait_for_selector(TURN)
        view = api.get(f"/games/{gid}")
        if view["why_not"]:
            break
        seq = seq_of(page)
        if page.locator("#choices .choice").count():
            page.locator("#choices .choice").first.click()
            page.locator("#choices .choice[aria-pressed=true]").click()
        else:
            card = page.locator("#hand .card.playable").first
            name = card.get_attribute("data-card")
            card.click()
            page.click(f"#hand .card[data-card='{name}']")
        wait_after(page, seq)
    assert view["why_not"], "no turn with a card that may not be played"
    card, reason = next(iter(view["why_not"].items()))
    sel = f"#hand .card[data-card='{card}']"
    assert page.get_attribute(sel, "aria-disabled") == "true" and page.get_attribute(sel, "title") == reason
    assert "unplayable" in page.get_attribute(sel, "class")
    # only the playable cards look bright: the others are dimmed
    assert page.locator("#hand.my-turn .card.unplayable").count() == len(view["why_not"])
    page.hover(sel)
    assert reason in page.inner_text("#why")
    shot(page, "table-why-not")
    # a tap on it plays nothing
    seq = seq_of(page)
    page.click(sel, force=True)  # aria-disabled: a tap still reaches it (and says why), but plays nothing
    page.click(sel, force=True)
    time.sleep(0.3)
    assert seq_of(page) == seq and page.get_attribute(sel, "aria-pressed") == "false"
    # holding a finger on it shows the reason too
    page.hover("#scores-title")
    assert page.inner_text("#why") == "" and page.locator("#why.bubble").count() == 0
    page.dispatch_event(sel, "pointerdown")
    page.wait_for_selector("#why.bubble")
    page.dispatch_event(sel, "pointerup")
    assert reason in page.inner_text("#why")
    # the card's text alternative carries it for a screen reader
    assert reason in page.get_attribute(sel, "aria-label")


def test_a_dropped_connection_reconnects_and_loses_no_move(pages, server):
    base = server.api()
    host, other = base.player("offline"), base.player("online")
    t = host.open_table({"rule_set": "spades", "clocks": "off"}, seed="offline seed")
    other.commit(t["id"], "online seed", seat=1)
    host.post(f"/tables/{t['id']}/start")
    host.reveal(t["id"])
    other.reveal(t["id"])
    gid = t["id"]
    page = pages.new()
    as_player(page, host.identity)
    page.goto(f"{server.url}/table/{gid}")
    page.wait_for_selector("#felt:not([hidden])")

    def others_move():
        while other.play_suggested(gid):
            pass

    # until it is the other player's turn: then this browser loses its connection while the game goes on
    for _ in range(20):
        others_move()
        view = host.get(f"/games/{gid}")
        if view["your_turn"]:
            page.wait_for_selector(f"{TURN}[data-seq='{view['seq']}']")
            wait_after(page, make_move(page))
        if host.get(f"/games/{gid}")["to_move"] == 1:
            break
    assert host.get(f"/games/{gid}")["to_move"] == 1
    page.context.set_offline(True)
    page.wait_for_selector("#connection:has-text('reconnecting')", timeout=30_000)
    shot(page, "table-reconnecting")
    others_move()  # the other player and the bots move on meanwhile
    view = host.get(f"/games/{gid}")
    assert view["your_turn"]
    page.context.set_offline(False)
    page.wait_for_selector(f"{TURN}[data-seq='{view['seq']}']", timeout=30_000)  # caught up
    assert page.inner_text("#connection") == ""

    # a move made while offline is sent again, with its Idempotency-Key, until the service has it
    page.context.set_offline(True)
    seq = make_move(page)
    page.wait_for_selector("#why:has-text('sending the same move again')", timeout=15_000)
    page.context.set_offline(False)
    wait_after(page, seq)
    others_move()
    records = host.get(f"/games/{gid}/transcript")["transcript"]["records"]
    page.wait_for_selector(f"#log li[data-seq='{records[-1]['seq']}']", state="attached")
    logged = [int(x) for x in page.eval_on_selector_all("#log li[data-seq]", "els => els.map(e => e.dataset.seq)")]
    assert logged == [r["seq"] for r in records], "the page's story skips or repeats a move"
    # the move made offline was recorded once, as the next move after the position it was made in
    offline_move = records[int(seq)]
    assert (offline_move["seq"], offline_move["seat"], offline_move["by"]) == (int(seq) + 1, 0, "player")
    assert "error" not in (page.get_attribute("#why", "class") or "")
