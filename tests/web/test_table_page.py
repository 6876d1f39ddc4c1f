"""What the table page shows beyond the moves: the clock counting down and a clear note when the table moved for
you; the fingerprint before the first card; the bottom-left reminder and the teaser card a spectator sees; the
host's saved choices filled in when they open the next table; and the pages on a phone-sized screen."""

from __future__ import annotations

import re

from tests.web.conftest import PHONE, fits, shot
from tests.web.driver import TURN, as_player, make_move, open_table, sign_up, wait_after


def test_the_clock_counts_down_and_the_table_moving_for_you_is_said_plainly(pages, server):
    api = server.api().player("slow")
    t = api.open_table({"rule_set": "spades", "clocks": {"card": 5, "other": 5}}, seed="tick tock")
    api.post(f"/tables/{t['id']}/start")
    api.reveal(t["id"])
    page = pages.new()
    as_player(page, api.identity)
    page.goto(f"{server.url}/table/{t['id']}")
    page.wait_for_selector(TURN)
    page.wait_for_selector("#timer:not([hidden])")
    first = int(re.match(r"(\d+) s", page.inner_text("#timer-text")).group(1))
    assert 1 <= first <= 5 and "to decide" in page.inner_text("#timer-text")
    page.wait_for_selector(f"#timer-text:text-matches('^[0-{max(first - 1, 0)}] s')", timeout=5000)
    # the clock runs out: the table bids for this seat, and says so
    page.wait_for_selector("#moved-for-you:not([hidden])", timeout=15_000)
    note = page.inner_text("#moved-for-you")
    records = api.get(f"/games/{t['id']}/transcript")["transcript"]["records"]
    timed_out = [r for r in records if r["by"] == "timeout" and r["seat"] == 0]
    assert timed_out, "no timeout move was recorded"
    value = timed_out[0]["move"]["value"]
    assert (
        note == f"Your time ran out: the table bid {value} for you."
        or note == "Your time ran out: the table bid nil for you."
    )
    assert page.locator("#log li.timeout").count() >= 1
    shot(page, "table-moved-for-you")
    api.post(f"/tables/{t['id']}/leave")


def test_a_spectator_sees_the_teaser_card_the_bots_and_the_tables_reminder(pages, server):
    host = server.api().player("host")
    t = host.open_table(
        {"rule_set": "120s-auction", "settings": {"kitty_teaser": True}, "clocks": "off"}, seed="host seed"
    )
    page = pages.new()  # nobody in particular: no sign-up needed to watch
    page.goto(f"{server.url}/table/{t['id']}#watch")
    page.wait_for_selector("#waiting:not([hidden])")
    # the fingerprint is there before anyone has a card
    assert page.inner_text("#commitment") == t["commitment"]
    assert "Kitty Teaser: on" in page.inner_text("#reminder")
    host.post(f"/tables/{t['id']}/start")
    host.reveal(t["id"])
    page.wait_for_selector("#felt:not([hidden])")
    view = host.get(f"/games/{t['id']}")
    assert view["view"]["teaser"]
    teaser = page.locator(".fact.teaser .card-face")
    teaser.wait_for()
    assert teaser.get_attribute("aria-label").lower().startswith(_rank_word(view["view"]["teaser"]))
    assert page.locator(".seat .bot-badge").count() == 3  # every bot marked as one
    assert page.locator("#mine").is_hidden()  # a spectator has no hand to play
    box = page.locator("#reminder").bounding_box()
    size = page.viewport_size
    assert box["x"] < 40 and box["y"] + box["height"] > size["height"] - 40  # the bottom-left corner
    shot(page, "table-spectator-teaser")
    host.post(f"/tables/{t['id']}/cancel")


def _rank_word(card: str) -> str:
    rank = card[:-1]
    return {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}.get(rank, rank)


def test_the_hosts_saved_choices_are_filled_in_for_the_next_table(pages, server):
    page = pages.new()
    sign_up(page, server.url, "habits")
    open_table(page, "twenty-down", settings={"jass_order": True, "no_endgame": True}, clocks="relaxed", now=False)
    page.goto(server.url + "/")
    page.wait_for_selector("#rule-set option", state="attached")
    page.select_option("#rule-set", "twenty-down")
    page.wait_for_selector("#open-form[data-ready='twenty-down']", state="attached")
    assert page.is_checked("#setting-jass_order") and page.is_checked("#setting-no_endgame")
    assert not page.is_checked("#setting-drop_out_first")
    assert page.input_value("#clocks") == "relaxed"
    # the open table's room line gives the rules in full and what it plays differently
    line = page.locator(".table-line").filter(has_text="hosted by habits")
    line.wait_for()
    assert "Twenty Down for 4" in line.inner_text() and "Jass order" in line.inner_text()
    assert "Back to your seat" in line.inner_text()


def test_the_pages_fit_a_phone(pages, server):
    page = pages.new(viewport=PHONE, has_touch=True, is_mobile=True)
    sign_up(page, server.url, "phone")
    assert fits(page)
    shot(page, "phone-lobby")
    open_table(page, "120s-house")
    page.wait_for_selector(TURN)
    for n in range(6):
        page.wait_for_selector(f"{TURN}, #over:not([hidden])")
        wait_after(page, make_move(page, n))
    assert fits(page)
    page.wait_for_selector(TURN)
    hand = page.locator("#hand .card").first.bounding_box()
    assert hand["width"] >= 40 and hand["height"] >= 40  # big enough to tap
    shot(page, "phone-table")
    # the layout only: no Python loading beside
    page.route("**/assets/js/verifier/**", lambda route: route.abort())
    page.goto(f"{server.url}/verify")
    assert fits(page)
    shot(page, "phone-verify")


def _watch_a_move_arrive(pages, server, query: str, feed: str) -> None:
    """A spectator's page follows the table through `feed`; a move made elsewhere (the host, through the API) and
    the bots' answers reach it without a reload."""
    host = server.api().player("host")
    t = host.open_table({"rule_set": "spades", "clocks": "off"}, seed="feeds")
    host.post(f"/tables/{t['id']}/start")
    host.reveal(t["id"])
    page = pages.new()
    page.goto(f"{server.url}/table/{t['id']}{query}#watch")
    page.wait_for_selector(f"#connection[data-feed='{feed}']", state="attached")
    page.wait_for_selector("#felt:not([hidden])")
    told = page.locator("#log li").count()
    assert host.play_suggested(t["id"]), "the host (seat 0) bids first at a new Spades table"
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length >= {told + 4}", timeout=10_000)
    assert page.get_attribute("#connection", "data-feed") == feed
    host.post(f"/tables/{t['id']}/leave")


def test_the_table_page_follows_the_game_on_the_event_stream(pages, server):
    _watch_a_move_arrive(pages, server, "", "stream")


def test_the_table_page_long_polls_where_it_cannot_read_the_stream(pages, server):
    _watch_a_move_arrive(pages, server, "?feed=long-poll", "long-poll")
