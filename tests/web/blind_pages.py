"""Driving a dealer-blind table through its pages (tests/web/test_blind_*.py): opening one from the lobby, what
the page shows of its own hand and its commits, a move that bids a chosen number, and the verify page's checks of
the finished game."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.service.play_proc import verify_cli
from tests.waiting import scaled
from tests.web.driver import as_player, make_move, open_table, sign_up

BLIND_KEY = "fairdeal.blind."
OWN_COMMIT = "Your seat's commit is in the table's record exactly as this browser sent it."
# The checks the verify page passes for a finished blind game: the ordinary ones and the blind ones.
VERIFY_PAGE_PASSES = (
    "signature-transcript",
    "commitment",
    "client-seeds",
    "hash-chain",
    "deals",
    "blind-messages",
    "blind-deal",
    "blind-opens",
    "blind-blame",
)


def open_blind(page, server, name: str, clocks: str = "off", now: bool = True) -> str:
    """From the lobby: a dealer-blind Spades table (now: against bots, else waiting for players)."""
    sign_up(page, server.url, name)
    page.select_option("#rule-set", "spades")
    page.wait_for_selector("#open-form[data-ready='spades']", state="attached")
    assert page.is_visible("#blind-row")
    page.check("#blind")
    gid = open_table(page, "spades", clocks=clocks, now=now)
    if now:
        page.wait_for_selector("#felt:not([hidden])")
    return gid


def sit_down(page, server, gid: str, name: str, seat: int) -> None:
    """A new player (made through the API, as the lobby would) takes `seat` at the waiting table from its page,
    which commits the seat's blind keys with it."""
    as_player(page, server.api().player(name).identity)
    page.goto(f"{server.url}/table/{gid}")
    page.click(f"button.sit[data-seat='{seat}']")
    page.wait_for_selector(f"text=You sit at seat {seat}.")


def hand_shown(page) -> list[str]:
    return [c.get_attribute("data-card") for c in page.locator("#hand .card").all()]


def stored(page, gid: str, seat: int = 0) -> dict:
    text = page.evaluate(f"() => localStorage.getItem({json.dumps(BLIND_KEY + gid + '.' + str(seat))})")
    return json.loads(text) if text else {}


_BID = """(value) => {
  const block = [...document.querySelectorAll("#choices .choice")]
    .find((b) => { const m = JSON.parse(b.dataset.choice); return m.kind === "bid" && m.value === value; });
  if (!block) return null;
  const seq = document.getElementById("mine").dataset.seq;
  block.click();
  block.click();
  return seq;
}"""


def bidding(value: int):
    """make_move for a seat that bids `value` (two partners bidding 13 each cannot make their 26: the set costs
    260, past the -200 that ends a Spades game, so the game ends after its first hand) and plays the suggestion."""

    def move(page, n: int = 0, fast: bool = False) -> str:
        seq = page.evaluate(_BID, value)
        return seq if seq is not None else make_move(page, n, fast=fast)

    return move


def commits_shown(page) -> tuple[str, str, str | None]:
    """The page's fingerprint of the seats' commits, its sentence on this seat's own commit, and its status."""
    page.wait_for_selector("#blind-commits:not([hidden])")
    return (
        page.inner_text("#blind-fingerprint"),
        page.inner_text("#blind-own-commit"),
        page.get_attribute("#blind-commits", "data-status"),
    )


def verify_page_statuses(page, gid: str) -> dict:
    """The verify page's JavaScript checks of the finished game, opened from the table's "Verify this game" (the
    page's Python verifier is blocked: a whole blind game takes it minutes; test_verify_in_python.py tests it)."""
    page.route("**/assets/js/verifier/**", lambda route: route.abort())
    page.click("#verify-link")
    page.wait_for_url(f"**/verify/{gid}")
    page.wait_for_selector("#checks tr[data-check=deals]", timeout=scaled(20_000))  # the page checks every deal
    return {r.get_attribute("data-check"): r.get_attribute("data-status") for r in page.locator("#checks tr").all()}


def fairdeal_verify(api, gid: str, transcript: dict, folder: Path) -> subprocess.CompletedProcess:
    """`fairdeal-verify` of the transcript saved to a file, against the service's published key."""
    path = folder / f"fairdeal-game-{gid}.json"
    path.write_text(json.dumps(transcript))
    return verify_cli([str(path), "--key", api.get("/keys")["current"]])
