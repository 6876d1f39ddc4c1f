"""The tournament page in a real browser: after a tournament run through the API, it shows the standings, the
rounds with every table and bye, the commitment and the verify command."""

import json
import os
import subprocess
import sys
import time

from fairdeal.core.fairness import new_nonce
from fairdeal.core.tournament.seeds import entry_commitment
from tests.web.conftest import shot
from tests.web.driver import HeldAnswer, HeldRequest, as_player
from tests.web.verify_checks import BROWSER_CHECKS, statuses


def test_the_page_shows_standings_rounds_and_how_to_verify(pages, server):
    org = server.api().player("organiser")
    t = org.post("/tournaments", {"rule_set": "spades", "rounds": 2, "play": "policies"})
    seed, nonce = "page test seed", new_nonce()
    mine = org.post(
        f"/tournaments/{t['id']}/entries",
        {"name": "Humans", "members": ["ann", "bob"], "client_seed_commitment": entry_commitment(t["id"], seed, nonce)},
    )["you"]["entry"]
    for i in range(4):
        org.post(f"/tournaments/{t['id']}/entries", {"name": f"bots {i}", "members": [f"{i}a", f"{i}b"], "bot": True})
    org.post(f"/tournaments/{t['id']}/close")
    org.post(f"/tournaments/{t['id']}/entries/{mine}/reveal", {"client_seed": seed, "nonce": nonce})
    org.post(f"/tournaments/{t['id']}/start")
    for _ in range(2):  # two passes of the sweeper, over the page server's store: one round each
        env = {k: v for k, v in os.environ.items() if k != "FAIRDEAL_REDIS_URL"}
        subprocess.run(
            [sys.executable, "-m", "fairdeal.cli", "-d", server.data_dir, "sweep", "--once"],
            env=env,
            check=True,
            timeout=300,
            capture_output=True,
        )
    done = org.get(f"/tournaments/{t['id']}")
    assert done["status"] == "over"
    page = pages.new()
    page.goto(f"{server.url}/tournament/{t['id']}")
    page.wait_for_selector("#standings tbody tr")
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 5
    winner = done["entries"][done["standings"][0]["entry"]]["name"]
    assert winner in rows.nth(0).inner_text()
    assert page.locator("#commitment").inner_text() == t["commitment"]
    assert page.locator("#rounds h3").count() == 2
    assert page.locator("#rounds li").count() == 4  # two tables a round, one bye
    assert "Bye:" in page.locator("#rounds").inner_text()
    assert page.locator("#command").inner_text().endswith(f"/tournaments/{t['id']}/export")
    shot(page, "tournament")
    assert not pages.errors, pages.errors


def test_a_live_tournament_organised_and_entered_through_the_page_verifies(pages, server):
    """The organiser creates, adds bots, closes and starts on the page; a person registers there (the page
    commits to a fresh seed and reveals it when registration closes), finds their next table there and plays it
    (through the API, for speed); the bots fill; the export verifies with fairdeal-verify tournament."""
    import json

    from tests.waiting import scaled, wait_for
    from tests.web.client import HttpApi

    sweeper = subprocess.Popen(  # the sweeper pairs and closes the live rounds, as `fairdeal serve` runs one
        [sys.executable, "-m", "fairdeal.cli", "-d", server.data_dir, "sweep"],
        env={k: v for k, v in os.environ.items() if k != "FAIRDEAL_REDIS_URL"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        org = pages.new()
        org.goto(f"{server.url}/tournament/new")
        org.fill("#player-name", "organiser")
        org.select_option("#new-rule-set", "spades")
        org.fill("#new-rounds", "2")
        org.click("#create button[type=submit]")
        org.wait_for_url("**/tournament/T-*")
        tid = org.url.rsplit("/", 1)[1]
        person = pages.new()
        person.goto(f"{server.url}/tournament/{tid}")
        person.fill("#player-name", "ann")
        person.fill("#entry-name", "Ann's team")
        person.wait_for_selector("#members .member >> nth=1")
        person.locator("#members .member").nth(0).fill("ann")
        person.locator("#members .member").nth(1).fill("ann's partner")
        person.click("#register button[type=submit]")
        person.wait_for_function("() => document.querySelector('#message').textContent.startsWith('Registered')")
        api = server.api()
        for n in (2, 3):
            org.click("#organise button[data-action=bot]")
            wait_for(lambda n=n: len(api.get(f"/tournaments/{tid}")["entries"]) == n, what=f"{n} entries")
        org.click("#organise button[data-action=close]")
        # the person's page reveals the seed it committed to, by itself, once registration has closed
        wait_for(lambda: api.get(f"/tournaments/{tid}")["status"] == "revealing", what="registration closed")
        person.wait_for_function("() => document.querySelector('#message').textContent.includes('revealed')")
        org.click("#organise button[data-action=start]")
        wait_for(lambda: api.get(f"/tournaments/{tid}")["status"] == "playing", timeout=30, what="started")
        token = json.loads(person.evaluate("() => localStorage.getItem('fairdeal.player')"))["token"]
        ann = HttpApi(server.url, token)
        played, shown = set(), False
        deadline = time.monotonic() + scaled(300)
        while api.get(f"/tournaments/{tid}")["status"] != "over":
            assert time.monotonic() < deadline, "the tournament did not end"
            nxt = ann.get(f"/tournaments/{tid}/me")["next_table"]
            if nxt is None:
                time.sleep(0.2)  # between rounds or a bye: the sweeper's next look is within a second
                continue
            if not shown:  # the page names the table and links to it; the table page shows it to its player
                person.wait_for_selector("#next-table-link")
                assert nxt["game_id"] in person.locator("#next-table").inner_text()
                href = person.locator("#next-table-link").get_attribute("href")
                assert href == f"/table/{nxt['game_id']}"
                shot(person, "tournament-next-table")
                shown = True
            played.add(nxt["game_id"])
            if not ann.play_suggested(nxt["game_id"]):
                time.sleep(0.05)
        assert shown and played
        export = api.get(f"/tournaments/{tid}/export")
        key = export["tournament"]["key"]
        by_url = subprocess.run(
            [sys.executable, "-m", "fairdeal.verify.cli", "tournament", f"{server.url}/tournaments/{tid}/export"]
            + ["--key", key],
            capture_output=True,
            text=True,
            timeout=scaled(300),
        )
        assert by_url.returncode == 0, by_url.stdout + by_url.stderr
        assert "PASS  tournament-log" in by_url.stdout
        people = [g for rnd in export["rounds"] for g in rnd["games"] if g["commit"]["game_id"] in played]
        assert any(r["by"] == "player" for g in people for r in g["records"])  # ann's own moves
        person.reload()
        person.wait_for_selector("#standings tbody tr >> nth=2")
        assert person.locator("#rounds details.round-standings").count() == 2  # the standings after every round
        links = person.locator("#rounds a.verify-link")
        assert links.count() == 2 and links.nth(0).get_attribute("href").startswith("/verify/" + tid)
        assert "over" in person.locator("#next-table").inner_text()
        # a game's verify page, with its round's board seed from the link: every check the browser makes passes
        # (the JS checks: the page's Python verifier is blocked here, test_verify_in_python.py tests it)
        person.route("**/assets/js/verifier/**", lambda route: route.abort())
        person.goto(server.url + links.nth(0).get_attribute("href"))
        got = statuses(person)
        assert all(got[c] == "pass" for c in BROWSER_CHECKS), (got, person.inner_text("main")[:1500])
        assert not pages.errors, pages.errors
    finally:
        sweeper.terminate()
        sweeper.wait(30)


def test_overlapping_refreshes_reveal_an_entrys_seed_once(pages, server):
    """The page's poll and the refresh after "Close registration" both find the entry unrevealed: one reveal
    POST goes, the other refresh waits for it. The poll's read is held on its way until the close's refresh has
    sent its reveal (held too), so the two overlap on every run."""
    org = server.api().player("one reveal")
    t = org.post("/tournaments", {"rule_set": "spades", "rounds": 1, "play": "policies"})
    tid, seed, nonce = t["id"], "one reveal seed", new_nonce()
    commitment = entry_commitment(tid, seed, nonce)
    entry = org.post(
        f"/tournaments/{tid}/entries", {"name": "Mine", "members": ["a", "b"], "client_seed_commitment": commitment}
    )["you"]["entry"]
    org.post(f"/tournaments/{tid}/entries", {"name": "bots", "members": ["c", "d"], "bot": True})
    page = pages.new()
    as_player(page, org.identity)  # the organiser's browser, which registered the entry and keeps its seed
    kept = {"organiser": True, "entries": {str(entry): {"seed": seed, "nonce": nonce, "revealed": False}}}
    page.add_init_script(f"localStorage.setItem('fairdeal.tournament.{tid}', {json.dumps(json.dumps(kept))});")
    page.goto(f"{server.url}/tournament/{tid}")
    page.wait_for_selector("#organise:not([hidden]) button[data-action=close]")
    poll = HeldRequest(page, f"**/tournaments/{tid}", nth=1)
    reveal = HeldAnswer(page, f"**/tournaments/{tid}/entries/*/reveal", nth=1)
    poll.wait_held()  # the poll's next read, not at the service yet
    page.click("#organise button[data-action=close]")
    reveal.wait_held()  # the close's refresh: the tournament revealing, the entry's reveal sent
    poll.release()  # the poll reads the tournament revealing too, the reveal not answered yet
    assert reveal.seen == 1, "a second refresh sent the entry's reveal again"
    reveal.release()
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('revealed')")
    assert reveal.seen == 1
    assert org.get(f"/tournaments/{tid}")["status"] == "revealing"
    org.post(f"/tournaments/{tid}/start")  # accepted: the entry's seed is in (refused while one is missing)
    notes = json.loads(page.evaluate(f"() => localStorage.getItem('fairdeal.tournament.{tid}')"))
    assert notes["entries"][str(entry)]["revealed"], "the page would reveal again on its next visit"


def test_an_older_tournament_read_answered_late_is_not_drawn(pages, server):
    """The poll's read of the tournament, answered while registration was open, reaches the page only after the
    refresh that "Close registration" made has drawn the tournament revealing: the page keeps the later state (a
    late answer drawn last would show registration open again, with its form)."""
    org = server.api().player("late read")
    tid = org.post("/tournaments", {"rule_set": "spades", "rounds": 1, "play": "policies"})["id"]
    for i in range(2):
        org.post(f"/tournaments/{tid}/entries", {"name": f"bots {i}", "members": [f"{i}a", f"{i}b"], "bot": True})
    page = pages.new()
    as_player(page, org.identity)
    kept = {"organiser": True, "entries": {}}
    page.add_init_script(f"localStorage.setItem('fairdeal.tournament.{tid}', {json.dumps(json.dumps(kept))});")
    page.goto(f"{server.url}/tournament/{tid}")
    page.wait_for_selector("#organise:not([hidden]) button[data-action=close]")
    poll = HeldAnswer(page, f"**/tournaments/{tid}", nth=1)
    poll.wait_held()  # the poll's next read, answered now: registering
    page.click("#organise button[data-action=close]")
    page.wait_for_function("() => document.querySelector('#summary').textContent.endsWith('revealing.')")
    poll.release()
    summary = page.text_content("#summary")
    assert summary.endswith("revealing."), f"the older answer was drawn last: {summary!r}"
    assert page.is_hidden("#register"), "the registration form came back with the older answer"
