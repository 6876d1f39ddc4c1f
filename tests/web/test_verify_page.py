"""The verify page with its JavaScript checks alone (fairdeal-verify's Python kept from loading here; it runs in
test_verify_in_python.py): a good transcript passes every check the browser makes and the headline names the
rest, a tampered one fails the checks it should, the player's own seed and receipts are checked, the docs'
fairdeal/1 example verifies with its key, and the page saved to disk works offline (no request leaves the page)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tests.web.conftest import shot
from tests.web.driver import HeldAnswer
from tests.web.verify_checks import BROWSER_CHECKS, statuses

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "120s-auction-game.json"
EXAMPLE_KEY = (ROOT / "docs" / "examples" / "example-key.txt").read_text().strip()


NO_PYTHON = "its worker could not be loaded"


@pytest.fixture
def pages(pages):
    """Pages whose verifier worker cannot load: the page falls back to its JavaScript checks."""
    new = pages.new

    def without_python(*args, **kw):
        page = new(*args, **kw)
        page.route("**/assets/js/verifier/**", lambda route: route.abort())
        return page

    pages.new = without_python
    return pages


def play_one(server, name: str) -> tuple[dict, dict]:
    """A 120s-auction game played to its end by `name` (seat 0, client seed "my own words") and three bots: the
    table and the receipts of its moves."""
    api = server.api().player(name)
    t = api.open_table({"rule_set": "120s-auction", "clocks": "off"}, seed="my own words")
    api.post(f"/tables/{t['id']}/start")
    api.reveal(t["id"])
    receipts = {}
    while True:
        g = api.get(f"/games/{t['id']}")
        if g["status"] == "over":
            return t, receipts
        move = g["suggested"] if g["suggested"] in g["legal_moves"] else g["legal_moves"][0]
        ack = api.move(t["id"], g["seq"], move)
        receipts[ack["seq"]] = ack["receipt"]


@pytest.fixture(scope="module")
def finished(server, tmp_path_factory):
    """A finished 120s-auction game (one human seat with a client seed, three bots), its receipts."""
    t, receipts = play_one(server, "verifier")
    transcript = server.api().get(f"/games/{t['id']}/transcript")
    folder = tmp_path_factory.mktemp("transcripts")
    path = folder / f"fairdeal-game-{t['id']}.json"
    path.write_text(json.dumps(transcript, indent=1))
    return {"id": t["id"], "transcript": transcript, "path": path, "receipts": receipts, "folder": folder}


def load(page, path, seeds="", receipts="", keys=None):
    if not page.locator("#options[open]").count():
        page.click("#options summary")
    if keys is not None:
        page.fill("#keys", keys)
    page.fill("#seeds", seeds)
    page.fill("#receipts", receipts)
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#status:text-is('Checked.'), #status.error")


def test_a_good_transcript_passes_every_check_the_browser_makes(pages, server, finished):
    page = pages.new()
    page.goto(server.url + "/verify")
    seq, digest = max(finished["receipts"].items())
    load(page, finished["path"], seeds="0:my own words", receipts=f"{seq}:{digest}")
    got = statuses(page)
    assert {c: got[c] for c in BROWSER_CHECKS + ["receipts"]} == {c: "pass" for c in BROWSER_CHECKS + ["receipts"]}
    # what needs the rules engine is named, with the command that runs it
    assert {c for c, s in got.items() if s == "fairdeal-verify"} == {
        "moves-legal",
        "bot-moves",
        "timeout-moves",
        "result",
    }
    command = page.inner_text("#command")
    assert command.startswith(f"fairdeal-verify {finished['path'].name} --key ed25519:")
    assert "--client-seed '0:my own words'" in command and f"--receipt {seq}:{digest}" in command
    # the headline names exactly what it did not check (no "every check passed" over checks it never ran)
    assert page.inner_text("#verdict") == (
        f"The {sum(1 for s in got.values() if s == 'pass')} checks this page ran "
        "passed. Not checked here: moves-legal, bot-moves, timeout-moves, result "
        f"(fairdeal-verify's own code could not run in this page: {NO_PYTHON}) "
        "(fairdeal-verify runs them, below). Skipped, with nothing to check "
        "against: " + ", ".join(c for c, s in got.items() if s == "skip" and not c.startswith("blind-")) + "."
    )
    assert "commitment-noted" in page.inner_text("#verdict"), "nothing noted in this browser: named as skipped"
    # every deal, dealt again: the first hand's four seats and its kitty
    first = page.locator("#deals details").first
    assert first.locator("tr").count() >= 5
    shot(page, "verify-good")


def test_the_replay_steps_through_every_trick_with_all_four_hands_and_back(pages, server, finished):
    page = pages.new()
    page.goto(server.url + "/verify")
    load(page, finished["path"])
    t = finished["transcript"]
    plays = [r for r in t["records"] if r["move"]["kind"] == "play"]
    first_trick = plays[:4]
    assert page.inner_text("#replay-title") == "Hand 1: dealt"
    assert page.locator("#replay-view tr[data-seat]").count() == 4
    assert page.locator("#replay-view tr[data-seat] .card-face").count() == 20, "five cards in each of four hands"
    # to the game's first trick: the first hand may have been thrown in (everybody passed), with no trick
    page.click("#replay-next")
    while not page.inner_text("#replay-title").endswith(", trick 1"):
        page.click("#replay-next")
    for rec in first_trick:  # each card of the trick beside its player, still in the hand before it
        cell = page.locator(f"#replay-view tr[data-seat='{rec['seat']}'] td.played")
        assert cell.locator(".card-face").count() == 1
        text = page.inner_text("#replay-view p.muted")
        assert f"{rec['move']['card']}" in text
    total = int(page.inner_text("#replay-where").split("/")[1])
    tricks = len(plays) // 4
    assert total >= tricks + len(t["end"]["deals"])
    page.focus("#replay")
    for _ in range(total):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#replay-where") == f"{total} / {total}" and page.locator("#replay-next").is_disabled()
    for _ in range(total):
        page.keyboard.press("ArrowLeft")
    assert page.inner_text("#replay-title") == "Hand 1: dealt" and page.locator("#replay-prev").is_disabled()
    shot(page, "verify-replay")


def test_the_page_opens_a_finished_game_by_its_id(pages, server, finished):
    page = pages.new()
    page.goto(f"{server.url}/verify/{finished['id']}")
    got = statuses(page)
    assert all(got[c] == "pass" for c in BROWSER_CHECKS)
    assert page.get_by_role("link", name=f"Download {finished['path'].name}").count() == 1


def test_a_game_opened_and_answered_after_the_next_one_opened_is_not_checked_in_its_place(pages, server, finished):
    """Open game A, then game B before A's transcript has come: A's answer, arriving last, is dropped."""
    second = play_one(server, "second verifier")[0]["id"]
    page = pages.new()
    page.goto(server.url + "/verify")
    page.wait_for_function("() => document.getElementById('keys').value.trim() !== ''")  # the service's key
    late = HeldAnswer(page, f"**/games/{finished['id']}/transcript", nth=1)
    page.fill("#game-id", finished["id"])
    page.click("#by-id button[type=submit]")
    late.wait_held()
    page.fill("#game-id", second)
    page.click("#by-id button[type=submit]")
    page.wait_for_selector(f"#game-facts code:text-is('{second}')")
    page.wait_for_selector("#status:text-is('Checked.')")
    late.release()
    # "Check again" checks the transcript the page holds: the one opened last, not the one answered last
    page.click("#options summary")
    page.evaluate("() => { document.getElementById('status').textContent = ''; }")
    page.click("#recheck")
    page.wait_for_selector("#status:text-is('Checked.'), #status.error")
    assert page.locator(f"#game-facts code:text-is('{second}')").count() == 1, page.inner_text("#game-facts")
    assert page.get_by_role("link", name=f"Download fairdeal-game-{second}.json").count() == 1


def tampered(finished, change) -> Path:
    t = copy.deepcopy(finished["transcript"])
    change(t)
    path = finished["folder"] / f"tampered-{change.__name__}.json"
    path.write_text(json.dumps(t))
    return path


def test_a_tampered_transcript_fails_the_checks_it_should(pages, server, finished):
    page = pages.new()
    page.goto(server.url + "/verify")

    def swap_a_played_card(t):  # a card another seat held, played instead
        plays = [r for r in t["records"] if r["move"]["kind"] == "play"]
        a, b = plays[0], next(r for r in plays[1:4] if r["seat"] != plays[0]["seat"])
        a["move"]["card"], b["move"]["card"] = b["move"]["card"], a["move"]["card"]

    load(page, tampered(finished, swap_a_played_card))
    got = statuses(page)
    assert got["signature-transcript"] == "fail" and got["hash-chain"] == "fail" and got["deals"] == "fail"
    assert got["signature-start"] == "pass" and got["commitment"] == "pass"
    assert page.inner_text("#verdict").startswith("FAILED:")
    shot(page, "verify-tampered")

    def a_card_the_seat_plays_later(t):  # record k's card made into the one the same seat plays later
        plays = [r for r in t["records"] if r["move"]["kind"] == "play"]
        a = plays[0]
        b = next(r for r in plays[1:] if r["seat"] == a["seat"])
        a["move"]["card"] = b["move"]["card"]
        a_card_the_seat_plays_later.seq = a["seq"]

    load(page, tampered(finished, a_card_the_seat_plays_later))
    assert statuses(page)["deals"] == "fail"
    row = page.locator("#checks tr[data-check=deals]").inner_text()
    assert f"(record {a_card_the_seat_plays_later.seq})" in row, f"blamed on another record: {row}"

    def another_seed(t):  # a server seed other than the committed one
        t["end"]["server_seed"] = "00" * 32

    load(page, tampered(finished, another_seed))
    got = statuses(page)
    assert got["commitment"] == "fail" and got["signature-transcript"] == "fail"

    def drop_a_record(t):
        del t["records"][5]

    load(page, tampered(finished, drop_a_record))
    assert statuses(page)["hash-chain"] == "fail"


def test_the_players_own_seed_and_receipts_are_checked(pages, server, finished):
    page = pages.new()
    page.goto(server.url + "/verify")
    seq, digest = max(finished["receipts"].items())
    wrong = ("0" if digest[0] != "0" else "1") + digest[1:]
    load(page, finished["path"], seeds="0:not my words", receipts=f"{seq}:{wrong}")
    got = statuses(page)
    assert got["client-seeds"] == "fail" and got["receipts"] == "fail"
    assert 'not the "not my words" you gave' in page.inner_text("#checks tr[data-check=client-seeds]")


def test_a_key_other_than_the_services_fails_the_signatures(pages, server, finished):
    page = pages.new()
    page.goto(server.url + "/verify")
    load(page, finished["path"], keys=EXAMPLE_KEY)
    got = statuses(page)
    assert got["signature-start"] == "fail" and got["signature-transcript"] == "fail"
    assert "which is not the service's" in page.inner_text("#checks tr[data-check=signature-start]")


def test_the_saved_page_verifies_the_docs_fairdeal_1_example_offline(pages, server, tmp_path):
    saved = tmp_path / "fairdeal-verify.html"
    saved.write_text(_fetch(server.url + "/verify"))
    page = pages.new()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(saved.as_uri())
    assert page.locator("#by-id").is_hidden()  # no service to fetch from
    load(page, EXAMPLE, keys=EXAMPLE_KEY)
    got = statuses(page)
    assert all(got[c] == "pass" for c in BROWSER_CHECKS), got
    assert "7 hand(s) dealt" in page.inner_text("#checks tr[data-check=deals]")
    # the replay works from the file alone, offline
    assert page.inner_text("#replay-title") == "Hand 1: dealt"
    page.click("#replay-next")
    assert page.inner_text("#replay-title") == "Hand 1, trick 1"
    assert [u for u in requests if not u.startswith("file:")] == []
    shot(page, "verify-offline-example")


def test_what_is_no_transcript_is_refused_with_a_reason(pages, server, tmp_path):
    page = pages.new()
    page.goto(server.url + "/verify")
    bad = tmp_path / "not-json.json"
    bad.write_text('{"protocol": "fairdeal/1", "commit": ')
    load(page, bad)
    assert "ends early" in page.inner_text("#status")
    other = tmp_path / "other-protocol.json"
    other.write_text(json.dumps({"protocol": "fairdeal/99", "commit": {}, "records": []}))
    load(page, other)
    assert statuses(page)["protocol"] == "fail"
    assert "fairdeal/99" in page.inner_text("#status")


def _fetch(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read().decode()
