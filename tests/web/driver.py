"""Playing through the pages as a person would: sign up, open or join a table, and make moves by tapping cards and
blocks (tap to lift, tap again or the button), throwing by choosing cards, or by keyboard."""

from __future__ import annotations

import json
import re
import time

TURN = "#mine[data-turn=yes]"


def as_player(page, player: dict) -> None:
    """Make the page's browser that player (the identity the lobby would have stored), before it loads."""
    page.add_init_script(f"localStorage.setItem('fairdeal.player', {json.dumps(json.dumps(player))});")


def sign_up(page, base: str, name: str) -> None:
    page.goto(base + "/")
    page.fill("#name", name)
    page.click("#sign-up-form button[type=submit]")
    page.wait_for_selector("#room:not([hidden])")
    page.wait_for_selector("#rule-set option", state="attached")


def open_table(
    page, rule_set: str, *, settings: dict | None = None, clocks: str = "off", now: bool = True, seed: str | None = None
) -> str:
    """From the lobby: choose the game and its settings, open the table; returns its id."""
    page.select_option("#rule-set", rule_set)
    page.wait_for_selector(f"#open-form[data-ready='{rule_set}']", state="attached")
    for name, value in (settings or {}).items():
        field = page.locator(f"#setting-{name}")
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.select_option(json.dumps(value))
    page.select_option("#clocks", clocks)
    if seed is not None:
        page.fill("#client-seed", seed)
    page.click("#play-now" if now else "#open-wait")
    page.wait_for_url(re.compile(r".*/table/[0-9a-f]+$"))
    return page.url.rsplit("/", 1)[1]


def seq_of(page) -> str | None:
    return page.get_attribute("#mine", "data-seq")


def is_over(page) -> bool:
    return page.locator("#over:not([hidden])").count() > 0


def my_turn(page) -> bool:
    return page.locator(TURN).count() > 0


def make_move(page, n: int = 0, fast: bool = False) -> str:
    """One move through the page, by mouse (or touch): the table's suggestion when it ticks one, else the first
    thing allowed. Even moves tap twice, odd moves tap then press the button. Returns the seq it moved at.
    fast: the same taps sent straight to the page's buttons as click events, without moving a mouse (for the
    long games: the pointer's way is what the other tests try)."""
    if fast:
        return _fast_move(page, n)
    seq = seq_of(page)
    blocks = page.locator("#choices .choice")
    if blocks.count():
        ticked = page.locator("#choices .choice:has(.tick)")
        block = ticked.first if ticked.count() else blocks.first
        key = block.get_attribute("data-choice")
        sel = f"#choices .choice[data-choice='{key}']"
        page.click(sel)
        page.wait_for_selector(f"{sel}[aria-pressed=true]")
        page.click(sel if n % 2 == 0 else "#act")
    elif page.locator("#hand.my-turn .card.playable").count():
        ticked = page.locator("#hand .card.playable:has(.tick)")
        card = (ticked.first if ticked.count() else page.locator("#hand .card.playable").first).get_attribute(
            "data-card"
        )
        sel = f"#hand .card[data-card='{card}']"
        page.click(sel)
        page.wait_for_selector(f"{sel}[aria-pressed=true]")
        page.click(sel if n % 2 == 0 else "#act")
    else:  # a throw: the suggested cards, else the fewest cards the rules allow, from the left
        for card in page.locator("#hand .card:has(.tick)").all():
            card.click()
        while page.get_attribute("#act", "aria-disabled") == "true":
            page.locator("#hand .card[aria-pressed=false]").first.click()
        page.click("#act")
    return seq


_FAST = """(n) => {
  const seq = document.getElementById("mine").dataset.seq;
  const tap = (sel) => { const b = document.querySelector(sel); b.click(); return b; };
  const blocks = [...document.querySelectorAll("#choices .choice")];
  const playable = [...document.querySelectorAll("#hand.my-turn .card.playable")];
  const pick = (items) => items.find((b) => b.querySelector(".tick")) || items[0];
  if (blocks.length) {
    const key = pick(blocks).dataset.choice;
    const sel = `#choices .choice[data-choice='${CSS.escape(key)}']`;
    tap(sel);
    tap(n % 2 ? "#act" : sel);
  } else if (playable.length) {
    const sel = `#hand .card[data-card='${pick(playable).dataset.card}']`;
    tap(sel);
    tap(n % 2 ? "#act" : sel);
  } else {
    for (const c of document.querySelectorAll("#hand .card:has(.tick)")) c.click();
    while (document.getElementById("act").getAttribute("aria-disabled") === "true") {
      document.querySelector("#hand .card[aria-pressed=false]").click();
    }
    tap("#act");
  }
  return seq;
}"""


def _fast_move(page, n: int) -> str:
    return page.evaluate(_FAST, n)


def wait_after(page, seq: str, timeout: float = 20_000) -> None:
    """Until the table has moved on from `seq` (or the game is over)."""
    page.wait_for_selector(f"#mine:not([data-seq='{seq}']), #over:not([hidden])", state="attached", timeout=timeout)


_STATE = """() => {
  const mine = document.getElementById("mine");
  const over = document.getElementById("over");
  return {
    over: !!over && !over.hidden, turn: !!mine && mine.dataset.turn === "yes", seq: mine ? mine.dataset.seq : null
  };
}"""


def state(page) -> dict:
    """{over, turn, seq} in one look at the page."""
    return page.evaluate(_STATE)


def play_to_end(pages, limit_s: float = 240, on_move=None, real_every: int = 1, movers=None) -> int:
    """Make every page's moves until every page's game is over, round robin (games in parallel tabs).
    real_every: every that many moves is made with the mouse, the others fast (see make_move).
    movers: {page: a function as make_move} for the pages that move otherwise."""
    waiting = {id(p): None for p in pages}
    moves = 0
    start = time.monotonic()
    live = list(pages)
    while live:
        if time.monotonic() - start > limit_s:
            raise AssertionError(f"the games did not end within {limit_s} s ({moves} moves made)")
        acted = False
        for page in list(live):
            st = state(page)
            if st["over"]:
                live.remove(page)
                continue
            if st["turn"] and st["seq"] != waiting[id(page)]:
                move = (movers or {}).get(page, make_move)
                waiting[id(page)] = move(page, moves, fast=moves % real_every != 0)
                moves += 1
                acted = True
                if on_move:
                    on_move(page, moves)
        if not acted:
            time.sleep(0.02)
    return moves


class HeldAnswer:
    """The answer to one of a page's requests (the `nth` matching `pattern`, counting from 1), fetched from the
    service when it is asked and handed to the page only at release(): an answer overtaken by later ones, as a
    slow server or network delivers it. The page must not draw the older state over the newer."""

    def __init__(self, page, pattern: str, nth: int):
        self.page, self.nth, self.seen, self.held = page, nth, 0, None
        page.route(pattern, self._handle)

    def _handle(self, route) -> None:
        self.seen += 1
        if self.seen != self.nth:
            route.continue_()
            return
        self.held = self._hold(route)

    def _hold(self, route):
        return (route, route.fetch())  # the service's answer as of now

    def wait_held(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while self.held is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"the page never made request {self.nth}")
            self.page.wait_for_timeout(50)  # lets playwright dispatch the route

    def release(self) -> None:
        """Hand the held answer over and wait until the page has read it (its body, then two frames)."""
        route, answer = self.held
        with self.page.expect_event("requestfinished", lambda r: r.url == route.request.url):
            route.fulfill(response=answer)
        self._frames()

    def _frames(self) -> None:
        self.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


class HeldRequest(HeldAnswer):
    """One of a page's requests (the `nth` matching `pattern`) kept from the service until release(): a request
    slow on its way there, answered with the service's state as of its release, not as of its asking."""

    def _hold(self, route):
        return (route, None)

    def release(self) -> None:
        """Send the held request on and wait until the page has read its answer (its body, then two frames)."""
        route, _ = self.held
        with self.page.expect_event("requestfinished", lambda r: r is route.request):
            route.continue_()
        self._frames()
