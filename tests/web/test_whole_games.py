"""A whole game of every rule set played through the table page against three bots (tabs played in turn),
then checked: the page's result and revealed seed are the signed transcript's, and "Verify this game" passes
every check the browser makes (its JavaScript checks: fairdeal-verify's Python in the page is
test_verify_in_python.py's, kept from loading here where five pages at once would each load it)."""

from __future__ import annotations

import pytest

from fairdeal.core.checks import verify_transcript
from fairdeal.core.fairness import server_seed_from_hex
from tests.client.engine_hands import tricks_done
from tests.waiting import wait_for
from tests.web.conftest import shot
from tests.web.driver import open_table, play_to_end, sign_up

# Two groups of about the same length (Spades to 500 is the longest game), so the two test workers share them.
GROUPS = [["spades", "120s-traditional"], ["120s-auction", "120s-house", "twenty-down"]]


@pytest.mark.parametrize("rule_sets", GROUPS, ids=["+".join(g) for g in GROUPS])
def test_a_whole_game_of_every_rule_set_through_the_page(pages, server, rule_sets):
    games = {}
    for rid in rule_sets:
        page = pages.new()
        sign_up(page, server.url, f"player-{rid}")
        if rid == "spades":
            shot(page, "lobby")
        games[rid] = (page, open_table(page, rid))
        page.wait_for_selector("#felt:not([hidden])")

    shot_at = {rid: 6 for rid in rule_sets}
    by_page = {id(p): rid for rid, (p, _) in games.items()}

    def on_move(page, n):
        rid = by_page[id(page)]
        shot_at[rid] -= 1
        if shot_at[rid] == 0:
            shot(page, f"table-{rid}")

    play_to_end([p for p, _ in games.values()], on_move=on_move, real_every=7)

    for rid, (page, gid) in games.items():
        page.wait_for_selector("#seed-box:not([hidden])")
        shot(page, f"table-{rid}-over")
        transcript = server.api().get(f"/games/{gid}/transcript")
        assert transcript["end"]["reason"] == "finished", rid
        # the page showed the committed fingerprint, and now the seed the transcript reveals
        assert page.inner_text("#commitment") == transcript["commit"]["commitment"]
        assert page.inner_text("#server-seed") == transcript["end"]["server_seed"]
        # its result sentence names the winners and the final scores of the transcript
        text = page.inner_text("#over-text")
        for score in transcript["end"]["result"]["scores"]:
            assert str(score) in text, (rid, text)
        # the Python verifier agrees the game was fair
        seat = transcript["start"]["seats"][0]
        assert not seat["bot"]
        assert verify_transcript(transcript, client_seeds=[(0, seat["client_seed"])]).ok, rid

        # the story told every trick's winner (the last trick of each hand too) and every hand's end
        # (the last trick's line may be drawn just after the end shows: wait for it with a deadline)
        tricks = tricks_done(transcript, server_seed_from_hex(transcript["end"]["server_seed"]))
        wait_for(
            lambda page=page, tricks=tricks: page.locator("#log li.trick").count() == tricks,
            timeout=10,
            what=f"{tricks} tricks told ({rid})",
        )
        assert page.locator("#log li.trick").count() == tricks, rid
        page.route("**/assets/js/verifier/**", lambda route: route.abort())
        page.click("#verify-link")
        page.wait_for_url(f"**/verify/{gid}")
        page.wait_for_selector("#status:text-is('Checked.')")
        statuses = {
            row.get_attribute("data-check"): row.get_attribute("data-status")
            for row in page.locator("#checks tr").all()
        }
        assert statuses == {
            "protocol": "pass",
            "signature-start": "pass",
            "signature-transcript": "pass",
            "header": "pass",
            "commitment": "pass",
            "client-seeds": "pass",
            "hash-chain": "pass",
            "blind-messages": "skip",  # not a dealer-blind table
            "blind-deal": "skip",
            "blind-opens": "skip",
            "blind-blame": "skip",
            "deals": "pass",
            "moves-legal": "fairdeal-verify",
            "bot-moves": "fairdeal-verify",
            "timeout-moves": "fairdeal-verify",
            "result": "fairdeal-verify",
            "receipts": "pass",
            "log-inclusion": "pass",
            "commitment-noted": "pass",
        }, rid
        # the player's own seed, receipts and the fingerprint it was shown came from this browser's notes of the game
        assert page.input_value("#seeds") == f"0:{seat['client_seed']}"
        assert page.input_value("#noted") == transcript["commit"]["commitment"]
        assert "yours (seat 0) among them" in page.inner_text("#checks tr[data-check=client-seeds]")
        assert page.locator("#deals details").count() >= 1
        if rid == "120s-auction":
            shot(page, "verify-page")
