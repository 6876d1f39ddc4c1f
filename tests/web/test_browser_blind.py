"""The browser's blind seat (fairdeal/service/web/static/js/blind/) against the Python one (fairdeal/core/blind/):
the same secrets and identity keys give byte-identical signed messages at every step of a deal (commit, shuffle,
lock, release, the cards received, the open, the reveal), its two forms of the group's multiplication agree, and a
release that is wrong is blamed on its sender, as the Python seat does. docs/blind.md's vectors, where written,
are computed in the browser too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairdeal.core.blind import deal as blind_deal
from fairdeal.core.blind import group, messages
from fairdeal.core.blind.local import final_deck, run_deal
from fairdeal.core.blind.seat import BlindSeat

ROOT = Path(__file__).resolve().parents[2]

GAME = "t-blind-browser"


@pytest.fixture(scope="module")
def page(browser, server):
    ctx = browser.new_context()
    pg = ctx.new_page()
    # a harness for the JS modules: no Python loading beside
    pg.route("**/assets/js/verifier/**", lambda route: route.abort())
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
  const b = await import("/assets/js/protocol/bytes.js");
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


BLIND_VECTORS = """async (v) => {
  const { BlindSeat } = await import("/assets/js/blind/seat.js");
  const g = await import("/assets/js/blind/group.js");
  const b = await import("/assets/js/protocol/bytes.js");
  const { Secrets } = await import("/assets/js/blind/derive.js");
  const { signedBytes } = await import("/assets/js/blind/messages.js");
  const { pad, sharedSecret } = await import("/assets/js/blind/release.js");
  const { audit } = await import("/assets/js/blind/check.js");
  const out = { seats: [] };
  out.n = "0x" + g.N.toString(16);
  out.g_x = g.G;
  out.card_points = await g.cardPoints(v.card_points.map((c) => c.card));
  out.mul = [];
  for (const m of v.mul) {
    const k = BigInt("0x" + m.k);
    out.mul.push([b.toHex(await g.mul(k, m.x)), b.toHex(g.mulNoble(k, m.x))]);
  }
  const seats = [];
  for (const x of v.seats) {
    const sec = await Secrets.of(x.secret);
    const lock = [];
    for (let j = 0; j < 52; j++) lock.push(g.scalarHex(await sec.lockScalar(v.deal, j)));
    const seat = await BlindSeat.create({ game: v.game, seat: x.seat, seats: v.seats.length, secret: x.secret,
      identity: x.identity });
    seats.push(seat);
    out.seats.push({ seat: x.seat, sign_key: seat.signKey, commitment: await sec.commitment(),
      box_scalar: g.scalarHex(await sec.boxScalar()), box_key: await sec.boxKey(),
      shuffle_scalar: g.scalarHex(await sec.shuffleScalar(v.deal)), permutation: await sec.permutation(v.deal, 52),
      lock_scalars: lock });
  }
  const r = v.release_example;
  const shared = await sharedSecret(await seats[r.sender].secrets.boxScalar(), seats[r.holder].boxKey);
  const p = await pad(shared, v.game, r.deal, r.sender, r.holder, r.position);
  out.release_example = { shared: b.toHex(shared), pad: b.toHex(p) };
  out.signed_bytes_of_first_commit = new TextDecoder().decode(signedBytes(v.messages[0]));
  // the whole deal, every seat's part played in the browser, in the vectors' order
  const msgs = [];
  for (const s of seats) msgs.push(await s.commit());
  let prev = null;
  for (const s of seats) { const m = await s.shuffle(v.deal, prev); msgs.push(m); prev = m.deck; }
  for (const s of seats) { const m = await s.lock(v.deal, prev); msgs.push(m); prev = m.deck; }
  out.final_deck = prev;
  const boxKeys = seats.map((s) => s.boxKey);
  const releases = {};
  for (const s of seats) {
    releases[s.seat] = await s.release(v.deal, v.holders, boxKeys);
    msgs.push(releases[s.seat]);
  }
  out.cards = [];
  for (const s of seats) out.cards.push(await s.receive(v.deal, prev, releases, v.holders, boxKeys));
  for (const m of v.messages.filter((m) => m.type === "open")) msgs.push(await seats[m.seat].open(m.deal, m.position));
  for (const s of seats) msgs.push(await s.reveal());
  out.messages = msgs;
  const pack = v.card_points.map((c) => c.card);
  const checked = await audit(v.game, seats.length, v.messages, new Map([[v.deal, v.holders]]), pack);
  out.deck = checked.decks.get(v.deal);
  out.findings = checked.findings;
  return out;
}"""


def test_the_browser_computes_the_blind_vectors(page):
    """tests/vectors/blind.json (docs/blind.md's vectors) in Chromium: the group, every seat's derivations, the
    release pad, the signed bytes, and the whole deal played by the browser's seats: the same signed messages
    byte for byte; the browser's verifier derives the same deck from the vectors' messages."""
    v = json.loads((ROOT / "tests" / "vectors" / "blind.json").read_text())
    got = page.evaluate(BLIND_VECTORS, v)
    assert (got["n"], got["g_x"]) == (v["n"], v["g_x"])
    assert got["card_points"] == [c["x"] for c in v["card_points"]]
    assert got["mul"] == [[m["out"], m["out"]] for m in v["mul"]]
    for g, x in zip(got["seats"], v["seats"], strict=True):
        assert g == {k: x[k] for k in g}, x["seat"]
    assert got["release_example"] == {k: v["release_example"][k] for k in ("shared", "pad")}
    assert got["signed_bytes_of_first_commit"] == v["signed_bytes_of_first_commit"]
    assert got["final_deck"] == v["final_deck"]
    assert got["messages"] == v["messages"]
    for s, x in enumerate(v["seats"]):
        assert sorted(got["cards"][s].values()) == sorted(x["cards"])
    assert got["findings"] == [] and got["deck"] == v["deck"]


# ------------------------------------------------------------------------------------------------ the verifier

AUDIT = """async ([game, messages, holders, pack, cut]) => {
  const { audit } = await import("/assets/js/blind/check.js");
  const out = await audit(game, 4, messages, new Map(Object.entries(holders).map(([k, v]) => [Number(k), v])), pack,
    cut ?? null);
  return {
    cut: [...out.cut].sort(),
    findings: out.findings.map((f) => [f.code, f.seat, f.deal, f.positions ?? null]),
    atFault: out.atFault,
    decks: Object.fromEntries(out.decks),
    hands: Object.fromEntries([...out.hands].map(([k, h]) => [k, Object.fromEntries(h)])),
    opens: out.opens.size,
  };
}"""


def _cheating(kind, seat, change):
    """Two deals of a table where `seat` changes its `kind` message of deal 1 (signed again by itself)."""
    import copy

    from tests.blind.table import play_deals, resign

    holder = {}

    def tamper(m):
        if m["type"] == kind and m["seat"] == seat and m["deal"] == 1:
            m = copy.deepcopy(m)
            change(m)
            return resign(holder["table"][seat], m)
        return m

    honest, first, holders = play_deals("g-browser-audit", deals=1, first_dealer=1)
    from fairdeal.core.blind.local import run_deal

    table = honest
    holder["table"] = table
    holders = dict(holders)
    holders[1] = blind_deal.spades_holders(2)
    body = [m for m in first if m["type"] != "reveal"]
    body += run_deal(table, 1, holders[1], tamper=tamper, receive=False)
    return body + [s.reveal() for s in table], holders


def _flip_release(m):
    h = sorted(m["keys"])[0]
    j = sorted(m["keys"][h], key=int)[0]
    m["keys"][h][j] = "%064x" % (int(m["keys"][h][j], 16) ^ 1)


def _skip_release(m):
    h = sorted(m["keys"])[-1]
    del m["keys"][h][sorted(m["keys"][h], key=int)[0]]


def _dup(m):
    m["deck"][5] = m["deck"][6]


def _swap(m):
    m["deck"][0], m["deck"][1] = m["deck"][1], m["deck"][0]


def _remask(m):
    m["deck"] = [group.mul(3, bytes.fromhex(x)).hex() for x in m["deck"]]


def _relock(m):
    m["deck"][17] = group.mul(2, bytes.fromhex(m["deck"][17])).hex()


CASES = {
    "honest": None,
    "wrong-release-key": ("release", 1, _flip_release),
    "skipped-release": ("release", 3, _skip_release),
    "not-a-permutation": ("shuffle", 2, _dup),
    "chosen-order": ("shuffle", 3, _swap),
    "another-mask": ("shuffle", 0, _remask),
    "wrong-lock": ("lock", 2, _relock),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_page_audits_a_blind_game_as_the_python_verifier(page, case):
    """Every shuffle, lock, release and open checked from the revealed secrets: the same findings (code, seat,
    deal, positions), the same seats at fault, the same decks and hands as fairdeal/core/blind/check.py."""
    from fairdeal.core.blind import check
    from tests.blind.table import play_deals

    if CASES[case] is None:
        _, msgs, holders = play_deals("g-browser-audit", deals=2, first_dealer=1)
    else:
        msgs, holders = _cheating(*CASES[case])
    want = check.audit("g-browser-audit", 4, msgs, holders)
    got = page.evaluate(
        AUDIT, ["g-browser-audit", msgs, {str(k): v for k, v in holders.items()}, blind_deal.pack_texts()]
    )
    assert got["findings"] == [[f.code, f.seat, f.deal, f.fields.get("positions")] for f in want.findings]
    assert got["atFault"] == want.at_fault
    assert got["decks"] == {str(k): v for k, v in want.decks.items()}
    assert got["hands"] == {str(k): {str(s): c for s, c in h.items()} for k, h in want.hands.items()}
    assert got["opens"] == len(want.opens)
    if case == "honest":
        assert want.findings == [] and set(want.decks) == {0, 1} and len(want.opens) == 104
    else:
        # the seat is named; a deal whose shuffle or lock differs has no deck, a bad release does not change it
        assert want.at_fault == [CASES[case][1]] and 0 in want.decks
        assert (1 in want.decks) == (CASES[case][0] == "release")


@pytest.mark.parametrize("stalled", [("lock", 2, 1), None])
def test_the_page_excuses_the_steps_an_abort_cut_off_as_the_python_verifier(page, stalled):
    """docs/blind.md, "The abort record": from the abort's deal on a missing step is no seat's fault, but the one a
    step-timeout blames; the same findings and cut deals as check.py's."""
    from fairdeal.core.blind import check
    from tests.blind.table import play_deals

    _, msgs, holders = play_deals("g-browser-audit", deals=2, first_dealer=1, opens=False)
    cut_at = next(i for i, m in enumerate(msgs) if m.get("deal") == 1 and (m["type"], m["seat"]) == ("lock", 2))
    msgs = msgs[:cut_at] + [m for m in msgs[cut_at:] if m["type"] == "reveal"]
    want = check.audit("g-browser-audit", 4, msgs, holders, cut_from=1, stalled=stalled)
    js_cut = {"from": 1, "stalled": None if stalled is None else "|".join(map(str, stalled))}
    got = page.evaluate(
        AUDIT, ["g-browser-audit", msgs, {str(k): v for k, v in holders.items()}, blind_deal.pack_texts(), js_cut]
    )
    assert got["findings"] == [[f.code, f.seat, f.deal, f.fields.get("positions")] for f in want.findings]
    assert got["atFault"] == want.at_fault == ([2] if stalled else [])
    assert got["cut"] == sorted(want.cut) == ([] if stalled else [1])  # the stalled step is the only one missing


def test_the_page_blames_no_seat_for_a_message_the_server_altered(page):
    from tests.blind.table import play_deals

    _, msgs, holders = play_deals("g-browser-audit", deals=1)
    i = next(i for i, m in enumerate(msgs) if m["type"] == "open")
    msgs[i] = dict(msgs[i], card="2C" if msgs[i]["card"] != "2C" else "3C")  # not signed again
    got = page.evaluate(
        AUDIT, ["g-browser-audit", msgs, {str(k): v for k, v in holders.items()}, blind_deal.pack_texts()]
    )
    assert got["findings"][0][:2] == ["signature", None] and got["atFault"] == []


# ------------------------------------------------------------------------------------------------ the seat's rules

SPADES = """async (cases) => {
  const sp = await import("/assets/js/blind/spades.js");
  return cases.map((c) => {
    const trick = c.trick.map((p) => p[1]);
    return {
      legal: sp.legalCards(sp.sortCards(c.hand), trick, c.broken),
      why: c.hand.map((card) => sp.whyNot(c.hand, card, trick, c.broken) === null),
      timeout: c.phase === "bid" ? sp.suggestedBid(c.hand)
        : sp.safeCard({ seat: c.seat, hand: c.hand, trick: c.trick, bids: c.bids, spadesBroken: c.broken }),
    };
  });
}"""


def test_the_pages_spades_rules_are_the_engines(page):
    """What the page works out from its own hand at a blind table, where the server cannot (the legal cards, the
    suggested bid, the timeout card) is the engine's: at every decision of whole selfplayed Spades games."""
    from fairdeal.core.fairness import game_seed
    from fairdeal.core.games.spades import why_not_card
    from fairdeal.core.keys import private_key_from_hex
    from fairdeal.core.replay import LiveGame
    from fairdeal.core.selfplay import selfplay

    key = private_key_from_hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    cases, want = [], []
    for n in range(3):
        server_seed = bytes([n + 11] * 32)
        t = selfplay("spades", key, server_seed, bots=(0, 1, 2, 3), timeout_every=0, variety_every=2)
        game = LiveGame(
            t["start"], game_seed(server_seed, [s["client_seed"] for s in t["start"]["seats"]], t["protocol"])
        )
        for rec in t["records"]:
            st = game.state
            seat = st.to_move
            v = st.view(seat)
            if v["phase"] in ("bid", "play") and v["hand"]:
                trick = v["trick"]["plays"] if v["phase"] == "play" else []
                cases.append(
                    {
                        "seat": seat,
                        "hand": v["hand"],
                        "trick": trick,
                        "bids": v["bids"],
                        "broken": v["spades_broken"],
                        "phase": v["phase"],
                    }
                )
                hand = [c for c in st.hands[seat]]
                played = [c for _, c in st.play.current.plays] if st.play is not None else []
                timeout = st.rules.timeout_move(v)
                want.append(
                    {
                        "legal": [str(m.card) for m in st.legal_moves(seat)] if v["phase"] == "play" else None,
                        "why": [why_not_card(hand, c, played, v["spades_broken"]) is None for c in hand],
                        "timeout": timeout.to_json()["value"] if v["phase"] == "bid" else timeout.to_json()["card"],
                    }
                )
            game.apply_record(rec, chain=False)
    got = page.evaluate(SPADES, cases)
    assert len(cases) > 600
    for c, g, w in zip(cases, got, want, strict=True):
        assert g["timeout"] == w["timeout"], c
        if c["phase"] == "play":
            assert g["legal"] == w["legal"], c
            assert g["why"] == w["why"], c


# ------------------------------------------------------------------------------------------------ the commits

COMMITS = """async ([log, mine]) => {
  const { commitTrouble, commitsFingerprint } = await import("/assets/js/blind/commits.js");
  return { fingerprint: await commitsFingerprint(log, 4), trouble: await commitTrouble(log, 4, mine) };
}"""


def test_the_page_fingerprints_the_commits_as_the_terminal_and_finds_its_own_commit_changed(page):
    """The fingerprint the table page shows is the terminal client's (the same bytes hashed); a log whose commit
    of the page's seat is another (the server's keys in the middle, signed well) or whose commit is not signed by
    its own key is not trusted; a watcher (no commit of its own) can only check the signatures."""
    from fairdeal.client.blind import commits_fingerprint

    py = python_seats()
    log = [s.commit() for s in py]
    mine = log[1]
    got = page.evaluate(COMMITS, [log, mine])
    assert got == {"fingerprint": commits_fingerprint(log, 4), "trouble": None}
    assert page.evaluate(COMMITS, [list(reversed(log)), mine]) == got  # in seat order, whatever the log's order
    assert page.evaluate(COMMITS, [log[:3], mine]) == {"fingerprint": None, "trouble": None}
    # the server's own seat 1, its commit signed by its own key: the page of seat 1 sees it is not its own
    other = BlindSeat(GAME, 1, 4, secret=bytes([99] * 32), identity=messages.identity_from_hex("77" * 32))
    swapped = [log[0], other.commit(), log[2], log[3]]
    got = page.evaluate(COMMITS, [swapped, mine])
    assert got["trouble"] == "the table's record holds another commit for your seat than the one this browser sent"
    assert got["fingerprint"] == commits_fingerprint(swapped, 4) != commits_fingerprint(log, 4)
    assert page.evaluate(COMMITS, [swapped, None])["trouble"] is None
    # a commit changed after its seat signed it
    bent = [log[0], log[1], dict(log[2], box_key=log[3]["box_key"]), log[3]]
    got = page.evaluate(COMMITS, [bent, mine])
    assert got["trouble"] == "seat 2's commit is not signed by its own key"


BLAME = """async (text) => {
  const v = await import("/assets/js/protocol/checks.js");
  const report = await v.verifyTranscript(text, {});
  const check = (id) => report.checks.find((c) => c.id === id);
  return { blame: check("blind-blame").status, deal: check("blind-deal").status, atFault: report.blind.atFault };
}"""


def test_the_page_leaves_a_stall_only_the_abort_record_shows_to_fairdeal_verify(page):
    """Without the Python the page cannot replay whose turn it was: a seat that only the abort record blames is
    'not checked here' (skip), never passed; a seat nothing blames is still framed; the vectors' step stall, whose
    seat the messages show at fault, passes."""
    from fairdeal.core.blind.selfplay import blind_selfplay
    from tests.blind.stall_kit import KEY, SEED, SHORT, to_move, with_abort

    v = json.loads((ROOT / "tests" / "vectors" / "blind-abort.json").read_text())
    step = dict(v["transcript"], blind=dict(v["transcript"]["blind"], abort=v["cases"][0]["abort"]))
    got = page.evaluate(BLAME, json.dumps(step))
    assert (got["blame"], got["deal"], got["atFault"]) == ("pass", "fail", [2])

    t = blind_selfplay(KEY, SEED, bots=(), stop_after=SHORT)
    seat = to_move(t)
    abort = {"seat": seat, "why": "move-timeout", "deal": 1, "step": "move", "seq": SHORT + 1}
    stalled = with_abort(blind_selfplay(KEY, SEED, bots=(), stop_after=SHORT, blame=[seat]), **abort)
    assert page.evaluate(BLAME, json.dumps(stalled))["blame"] == "skip"
    other = (seat + 1) % 4
    framed = with_abort(blind_selfplay(KEY, SEED, bots=(), stop_after=SHORT, blame=sorted([seat, other])), **abort)
    assert page.evaluate(BLAME, json.dumps(framed))["blame"] == "fail"
