"""The browser's blind seat (fairdeal/service/web/static/js/blind/) against the Python one (fairdeal/core/blind/):
the same secrets and identity keys give byte-identical signed messages at every step of a deal (commit, shuffle,
lock, release, the cards received, the open, the reveal), its two forms of the group's multiplication agree, and a
release that is wrong is blamed on its sender, as the Python seat does. docs/blind.md's vectors, where written,
are computed in the browser too."""

from __future__ import annotations

import pytest

from fairdeal.core.blind import deal as blind_deal
from fairdeal.core.blind import group, messages
from fairdeal.core.blind.local import final_deck, run_deal
from fairdeal.core.blind.seat import BlindSeat
from tests.verifier.vectors import DOCS, load_vectors

GAME = "t-blind-browser"


@pytest.fixture(scope="module")
def page(browser, server):
    ctx = browser.new_context()
    pg = ctx.new_page()
    pg.goto(server.url + "/verify")
    yield pg
    ctx.close()


def python_seats(dealer_salt: int = 0) -> list[BlindSeat]:
    return [
        BlindSeat(
            GAME,
            s,
            4,
            secret=bytes([s + 1 + dealer_salt] * 32),
            identity=messages.identity_from_hex(bytes([s + 40 + dealer_salt] * 32).hex()),
        )
        for s in range(4)
    ]


SEAT_STEPS = """async ([game, seat, secret, identity, deal, prevShuffle, prevLock, finalDeck, holders, boxKeys,
    releases]) => {
  const { BlindSeat } = await import("/assets/js/blind/seat.js");
  const s = await BlindSeat.create({ game, seat, seats: 4, secret, identity });
  const out = {};
  out.commit = await s.commit();
  out.shuffle = await s.shuffle(deal, prevShuffle);
  out.lock = await s.lock(deal, prevLock);
  out.release = await s.release(deal, holders, boxKeys);
  out.mine = await s.receive(deal, finalDeck, releases, holders, boxKeys);
  const first = Math.min(...Object.keys(out.mine).map(Number));
  out.open = await s.open(deal, first);
  out.reveal = await s.reveal();
  // what the page keeps in localStorage gives the same seat back
  const again = await BlindSeat.fromJSON(JSON.parse(JSON.stringify(s.toJSON())));
  out.openAgain = await again.open(deal, first);
  out.stored = s.toJSON();
  return out;
}"""


@pytest.mark.parametrize("seat", [0, 2])
def test_the_browser_seat_sends_what_the_python_seat_sends(page, seat):
    py = python_seats()
    deal, dealer = 3, 1
    holders = blind_deal.spades_holders(dealer)
    msgs = run_deal(py, deal, holders)
    shuffles = [m for m in msgs if m["type"] == "shuffle"]
    locks = [m for m in msgs if m["type"] == "lock"]
    releases = {m["seat"]: m for m in msgs if m["type"] == "release"}
    boxes = [s.box_key for s in py]
    me = py[seat]
    prev_shuffle = None if seat == 0 else shuffles[seat - 1]["deck"]
    prev_lock = shuffles[3]["deck"] if seat == 0 else locks[seat - 1]["deck"]
    got = page.evaluate(
        SEAT_STEPS,
        [
            GAME,
            seat,
            me.secret.hex(),
            messages.identity_hex(me.identity),
            deal,
            prev_shuffle,
            prev_lock,
            final_deck(msgs),
            holders,
            boxes,
            {str(k): v for k, v in releases.items()},
        ],
    )
    assert got["commit"] == me.commit()
    assert got["shuffle"] == shuffles[seat]
    assert got["lock"] == locks[seat]
    assert got["release"] == releases[seat]
    mine = {j: c for (k, j), c in me.cards.items() if k == deal}
    assert {int(j): c for j, c in got["mine"].items()} == mine and len(mine) == 13
    first = min(mine)
    assert got["open"] == me.open(deal, first) == got["openAgain"]
    assert got["reveal"] == me.reveal()
    # the stored form is the Python seat's to_json: the terminal and the page keep the same things
    assert got["stored"] == me.to_json()


GROUP = """async ([elements, scalars, pack]) => {
  const g = await import("/assets/js/blind/group.js");
  const b = await import("/assets/js/bytes.js");
  const out = { web: [], noble: [], base: [], baseNoble: [] };
  for (const x of elements) for (const k of scalars) {
    out.web.push(b.toHex(await g.mul(BigInt("0x" + k), x)));
    out.noble.push(b.toHex(g.mulNoble(BigInt("0x" + k), x)));
  }
  for (const k of scalars) {
    out.base.push(b.toHex(await g.baseMul(BigInt("0x" + k))));
    out.baseNoble.push(b.toHex(g.baseMulNoble(BigInt("0x" + k))));
  }
  out.points = await g.cardPoints(pack);
  out.webCrypto = g.usesWebCrypto();
  out.bad = [];
  for (const x of ["00".repeat(32), "ff".repeat(32), "AB".repeat(32), "12"]) out.bad.push(g.isElement(x));
  return out;
}"""


def test_both_multiplications_agree_with_openssl(page):
    """x(k·P) from WebCrypto's ECDH (the page's fast form) and from @noble/curves (the general form) equal
    OpenSSL's through cryptography (blind-core's group), and the card points are the Python ones."""
    pack = blind_deal.pack_texts()
    elements = [group.G.hex()] + [x.hex() for x in group.card_points(pack[:3])]
    scalars = [group.scalar_hex(k) for k in (1, 2, group.N - 1, 0x1234567890ABCDEF << 128 | 0xFEDCBA)]
    got = page.evaluate(GROUP, [elements, scalars, pack])
    want = [group.mul(int(k, 16), bytes.fromhex(x)).hex() for x in elements for k in scalars]
    assert got["webCrypto"] is True
    assert got["web"] == want == got["noble"]
    assert got["base"] == [group.base_mul(int(k, 16)).hex() for k in scalars] == got["baseNoble"]
    assert got["points"] == [x.hex() for x in group.card_points(pack)]
    # zero, past the field, upper case and short: none is an element
    assert got["bad"] == [group.is_element(bytes(32)), False, False, False]


WRONG_RELEASE = """async ([game, secret, identity, finalDeck, holders, boxKeys, releases]) => {
  const { BlindSeat, BlindFault } = await import("/assets/js/blind/seat.js");
  const s = await BlindSeat.create({ game, seat: 1, seats: 4, secret, identity });
  try {
    await s.receive(0, finalDeck, releases, holders, boxKeys);
    return { ok: true };
  } catch (exc) {
    return { fault: exc instanceof BlindFault, seat: exc.seat, text: exc.message };
  }
}"""


def test_a_missing_or_garbled_release_is_blamed_on_its_sender(page):
    py = python_seats(7)
    holders = blind_deal.spades_holders(0)
    msgs = run_deal(py, 0, holders, receive=False)
    releases = {str(m["seat"]): m for m in msgs if m["type"] == "release"}
    boxes = [s.box_key for s in py]
    args = [GAME, py[1].secret.hex(), messages.identity_hex(py[1].identity), final_deck(msgs), holders, boxes]
    missing = {k: dict(v, keys={h: dict(p) for h, p in v["keys"].items()}) for k, v in releases.items()}
    del missing["2"]["keys"]["1"]["0"]  # position 0 goes to seat 1 (dealer 0): seat 2 leaves out its key
    got = page.evaluate(WRONG_RELEASE, args + [missing])
    assert got["fault"] and got["seat"] == 2 and "no key for position 0" in got["text"]
    # a key that unseals to something else: the card opens to no card, and only the reveal can say who
    wrong = {k: dict(v, keys={h: dict(p) for h, p in v["keys"].items()}) for k, v in releases.items()}
    pad = wrong["3"]["keys"]["1"]["4"]
    wrong["3"]["keys"]["1"]["4"] = ("0" if pad[0] != "0" else "1") + pad[1:]
    got = page.evaluate(WRONG_RELEASE, args + [wrong])
    assert got["fault"] and got["seat"] is None and "opens to no card" in got["text"]
    assert page.evaluate(WRONG_RELEASE, args + [releases]) == {"ok": True}


BLIND_VECTORS = """async (vectors) => {
  const { BlindSeat } = await import("/assets/js/blind/seat.js");
  const g = await import("/assets/js/blind/group.js");
  const out = [];
  for (const v of vectors) out.push(await runVector(v));
  return out;
  async function runVector(v) {
    if (v.vector === "blind-card-points") return { points: await g.cardPoints(v.cards) };
    return { unknown: v.vector };
  }
}"""


def test_the_browser_computes_the_blind_vectors(page):
    if not (DOCS / "blind.md").exists():
        pytest.fail("docs/blind.md (blind-core's specification with its vectors) is missing")
    vectors = [v for v in load_vectors("blind.md")]
    assert vectors, "docs/blind.md has no vectors"
    got = page.evaluate(BLIND_VECTORS, vectors)
    for v, r in zip(vectors, got, strict=True):
        assert "unknown" not in r, v["vector"]
