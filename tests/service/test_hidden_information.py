"""No other seat's card, the kitty, the pack or the seed reaches a seat before the rules allow.

Through whole games, every endpoint is called with every seat's token (and a spectator's) and every card
named anywhere in the answer is compared with the engine: a seat may see the cards the engine's view(seat)
shows it, and cards already played in public. Anything else it sees is a leak. The server seed must not
appear anywhere before the end."""

from __future__ import annotations

import re

import pytest

from fairdeal.core.cards import PACK_52
from fairdeal.core.games import available
from tests.service.client import Api
from tests.service.conftest import STORES

CARD_TEXTS = {str(c) for c in PACK_52}


# A card's name stands alone or in a sentence; inside a base64 text two characters such as "6C" are chance, not a
# card: base64url (keys, signatures: letters, digits, "-" and "_") and standard base64 (the log's checkpoint, a
# signed note: "+", "/" and "=" padding; "/9C+" in one failed a run).
CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z_+/=-])(?:10|[2-9JQKA])[CDHS](?![0-9A-Za-z_+/=-])")


def cards_in(obj) -> set[str]:
    """Every card named in a JSON value: a string that is a card's name, or a card's name inside a sentence."""
    out: set[str] = set()
    if isinstance(obj, str):
        out |= {t for t in CARD_TOKEN.findall(obj) if t in CARD_TEXTS}
    elif isinstance(obj, dict):
        for v in obj.values():
            out |= cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= cards_in(v)
    return out


def suggested_or_first(v):
    return v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]


ENDPOINTS = (
    "/games/{g}",
    "/games/{g}/events?after=0&wait=0",
    "/games/{g}/transcript",
    "/games/{g}/start",
    "/tables/{g}",
)


# every rule set with its defaults, and the settings and table sizes that show or hide cards differently
VARIANTS = [(r, {}, None) for r in available()] + [
    v
    for v in [
        ("120s-auction", {"kitty_teaser": True}, None),
        ("120s-traditional", {"teaser": True}, None),
        ("twenty-down", {"three_first_cards": True}, None),
        ("120s-house", {"game_target": 60}, 3),
    ]
    if v[0] in available()
]


# the variants take the two stores in turn: what a seat sees does not depend on the store, and each store
# serves whole games of several rule sets here (playing every variant on both would double the suite's longest test)
@pytest.mark.parametrize(
    "rule_set,settings,players,app",
    [v + (STORES[i % 2],) for i, v in enumerate(VARIANTS)],
    ids=[
        f"{r}-{'-'.join(f'{k}={v}' for k, v in s.items()) or 'defaults'}-{n or ''}-{STORES[i % 2]}"
        for i, (r, s, n) in enumerate(VARIANTS)
    ],
    indirect=["app"],
)
def test_no_endpoint_shows_a_seat_what_it_may_not_know(api: Api, app, rule_set, settings, players):
    svc = app.extensions["fairdeal"]
    a, b, w = api.player("a"), api.player("b"), api.player("w")
    # clocks off: a timeout move applied by a GET between the snapshot below and the answers would look like a leak
    t = api.table(a, rule_set=rule_set, settings=settings, clocks="off", **({"players": players} if players else {}))
    gid = t["id"]
    assert api.post(f"/tables/{gid}/join", b, json={"seat": 1}).status_code == 200
    api.post(f"/tables/{gid}/watch", w)
    api.start(a, gid)
    seed = svc.store.get_secret(gid)
    seats = {0: a, 1: b, None: w}
    checked = 0
    for step in range(3000):
        c = svc.games.get(gid)
        if c.ended:
            break
        state = c.live.state
        # what each seat may know: its own view and every card played in public so far
        public_plays = {r["move"]["card"] for r in c.transcript["records"] if r["move"].get("kind") == "play"}
        own_throws = {
            s: {
                x
                for r in c.transcript["records"]
                if r["seat"] == s and r["move"].get("kind") == "throw"
                for x in r["move"].get("cards", [])
            }
            for s in (0, 1)
        }
        thorough = step < 30 or step % 10 == 0  # every endpoint early on, then a sample; the view always
        for seat, p in seats.items():
            allowed = cards_in(state.view(seat)) | public_plays | own_throws.get(seat, set())
            for path in ENDPOINTS if thorough else ENDPOINTS[:1]:
                r = api.get(path.format(g=gid), p)
                assert r.status_code == 200, (path, r.get_json())
                text = r.get_data(as_text=True)
                assert seed not in text, f"the seed leaked through {path}"
                leaked = cards_in(r.get_json()) - allowed
                assert not leaked, f"seat {seat} saw {sorted(leaked)} through {path} at move {c.seq}"
                checked += 1
        v = next(v for v in (api.view(a, gid), api.view(b, gid)) if v["your_turn"] or v["status"] == "over")
        if v["status"] == "over":
            break
        r = api.move(seats[v["seat"]], gid, v["seq"], suggested_or_first(v))
        assert r.status_code == 201, r.get_json()
    assert svc.games.get(gid).ended and checked > 100
    # after the end the seed is revealed
    assert seed in api.get(f"/games/{gid}/transcript", w).get_data(as_text=True)
