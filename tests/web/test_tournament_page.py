"""The tournament page in a real browser: after a tournament run through the API, it shows the standings, the
rounds with every table and bye, the commitment and the verify command."""

import os
import subprocess
import sys

from fairdeal.core.fairness import new_nonce
from fairdeal.core.tournament.seeds import entry_commitment
from tests.web.conftest import shot


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
