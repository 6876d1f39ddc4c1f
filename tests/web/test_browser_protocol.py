"""The browser's own protocol code (fairdeal/service/web/static/js/protocol/) against the test vectors of
docs/fairness.md and docs/transcript.md, against the Python verifier's check ids, and its deals against the rules
engine's: every rule set (and the settings that change how a deal goes) played by the policies, re-dealt in the
browser."""

from __future__ import annotations

import json

import pytest

from fairdeal.core import checks as py_checks
from fairdeal.core.fairness import SeedChance, game_seed
from fairdeal.core.keys import private_key_from_hex
from fairdeal.core.replay import LiveGame
from fairdeal.core.selfplay import selfplay
from tests.verifier.vectors import load_vectors

KEY_HEX = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"  # RFC 8032 test 1

RUN_VECTORS = """async (vectors) => {
  const f = await import("/assets/js/protocol/fairness.js");
  const c = await import("/assets/js/protocol/canonical.js");
  const b = await import("/assets/js/protocol/bytes.js");
  const k = await import("/assets/js/protocol/keys.js");
  const t = await import("/assets/js/protocol/transcript.js");
  const v = await import("/assets/js/protocol/checks.js");
  const out = [];
  for (const x of vectors) {
    const r = { vector: x.vector };
    try {
      switch (x.vector) {
        case "pack": r.cards = x.name === "PACK_52" ? f.PACK_52 : f.PACK_32; break;
        case "commitment":
          r.commitment = await f.commitment(x.protocol, x.server_seed, x.game_id, x.rules);
          r.preimage = c.canonicalText({ type: "commitment", protocol: x.protocol, game_id: x.game_id,
            rules: x.rules, server_seed: x.server_seed });
          break;
        case "client-seed-commitment":
          r.client_seed_commitment = await f.clientSeedCommitment(x.protocol, x.game_id, x.client_seed, x.nonce);
          r.preimage = c.canonicalText({ type: "client-seed", protocol: x.protocol, game_id: x.game_id,
            client_seed: x.client_seed, nonce: x.nonce });
          break;
        case "game-seed":
          r.game_seed = b.toHex(await f.gameSeed(x.protocol, x.server_seed, x.client_seeds));
          r.message = c.canonicalText({ type: "game-seed", protocol: x.protocol, client_seeds: x.client_seeds });
          break;
        case "stream": {
          const key = await f.seedKey(b.fromHex(x.game_seed));
          r.first_80_bytes_hex = b.toHex(await new f.Stream(key, x.label).read(80));
          break;
        }
        case "randbelow": {
          const s = new f.Stream(await f.seedKey(b.fromHex(x.game_seed)), x.label);
          r.values = [];
          for (let i = 0; i < x.values.length; i++) r.values.push(await s.randbelow(x.n));
          break;
        }
        case "shuffle":
          r.deck = await f.shuffle(
            await f.seedKey(b.fromHex(x.game_seed)), x.label, x.pack === "PACK_52" ? f.PACK_52 : f.PACK_32);
          break;
        case "reshuffle":
          r.result = await f.reshuffle(await f.seedKey(b.fromHex(x.game_seed)), x.hand, x.round, x.cards);
          r.label = f.labels.reshuffle(x.hand, x.round);
          break;
        case "first-dealer":
          r.first_dealer = await f.firstDealer(await f.seedKey(b.fromHex(x.game_seed)), x.players);
          break;
        case "canonical-json": r.canonical = c.canonicalText(x.value); break;
        case "canonical-json-rejects":
          r.refused = x.texts.map((text) => { try { c.readStrict(text); return false; } catch { return true; } });
          break;
        case "record-hash":
          r.canonical = c.canonicalText(x.record);
          r.hash = await t.recordHash(x.record);
          break;
        case "ed25519": {
          const ver = await k.verifier(x.public_key_text);
          r.valid = await ver.verify(b.utf8(x.message), x.signature);
          r.tampered = await ver.verify(b.utf8(x.message + " "), x.signature);
          r.key_id = await k.keyId(x.public_key_text);
          r.public_key_hex = b.toHex(k.publicKeyBytes(x.public_key_text));
          break;
        }
        case "transcript": {
          const receipts = x.receipts.map((h, i) => [i + 1, h]);
          const report = await v.verifyTranscript(
            JSON.stringify(x.transcript), { keys: [x.public_key_text], receipts });
          r.checks = Object.fromEntries(report.checks.map((ch) => [ch.id, ch.status]));
          r.error = report.error;
          r.client_seeds = report.checks.find((ch) => ch.id === "client-seeds").detail;
          r.hands = report.deals && report.deals.deals.length ? report.deals.deals[0].hands : null;
          break;
        }
        default: r.unknown = true;
      }
    } catch (exc) {
      r.error = String(exc && exc.stack || exc);
    }
    out.push(r);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def page(browser, server):
    ctx = browser.new_context()
    pg = ctx.new_page()
    # a harness for the JS modules: no Python loading beside
    pg.route("**/assets/js/verifier/**", lambda route: route.abort())
    pg.goto(server.url + "/verify")
    yield pg
    ctx.close()


def all_vectors() -> list[dict]:
    out = []
    for doc in ("fairness.md", "transcript.md"):
        for v in load_vectors(doc):
            if v["vector"] == "canonical-json-rejects":  # the browser reads JSON text: give it the texts
                v = dict(v, texts=[json.dumps(x) for x in v["values"]])
            out.append(v)
    return out


def test_the_browser_computes_every_documented_test_vector(page):
    vectors = all_vectors()
    results = page.evaluate(RUN_VECTORS, vectors)
    kinds = set()
    for x, r in zip(vectors, results, strict=True):
        kinds.add(x["vector"])
        assert "error" not in r or r["error"] is None, (x["vector"], r.get("error"))
        assert not r.get("unknown"), x["vector"]
        kind = x["vector"]
        if kind == "pack":
            assert r["cards"] == x["cards"]
        elif kind == "commitment":
            assert (r["commitment"], r["preimage"]) == (x["commitment"], x["preimage"])
        elif kind == "client-seed-commitment":
            assert (r["client_seed_commitment"], r["preimage"]) == (x["client_seed_commitment"], x["preimage"])
        elif kind == "game-seed":
            assert (r["game_seed"], r["message"]) == (x["game_seed"], x["message"])
        elif kind == "stream":
            assert r["first_80_bytes_hex"] == x["first_80_bytes_hex"]
        elif kind == "randbelow":
            assert r["values"] == x["values"], x["label"]
        elif kind == "shuffle":
            assert r["deck"] == x["deck"], x["label"]
        elif kind == "reshuffle":
            assert (r["result"], r["label"]) == (x["result"], x["label"])
        elif kind == "first-dealer":
            assert r["first_dealer"] == x["first_dealer"]
        elif kind == "canonical-json":
            assert r["canonical"] == x["canonical"]
        elif kind == "canonical-json-rejects":
            assert all(r["refused"]), x["texts"]
        elif kind == "record-hash":
            assert (r["canonical"], r["hash"]) == (x["canonical"], x["hash"])
        elif kind == "ed25519":
            assert r["valid"] and not r["tampered"]
            assert (r["key_id"], r["public_key_hex"]) == (x["key_id"], x["public_key_hex"])
        elif kind == "transcript":
            assert r["error"] is None
            failed = {c: s for c, s in r["checks"].items() if s == "fail"}
            assert failed == {}, (x["protocol"], r["checks"])
            if "start" in x["transcript"]:
                assert x["game_seed"][:16] in r["client_seeds"]
                assert {c for c, s in r["checks"].items() if s != "pass"} <= {
                    "moves-legal",
                    "bot-moves",
                    "timeout-moves",
                    "result",
                    "log-inclusion",
                    "commitment-noted",
                    "blind-messages",
                    "blind-deal",
                    "blind-opens",
                    "blind-blame",
                }
            if "hands" in x:  # deal 0, dealt again in the browser from the seed and the layout alone
                assert [sorted(h) for h in r["hands"]] == [sorted(h) for h in x["hands"]]
    # every kind of vector the documents hold is checked here
    assert kinds == {v["vector"] for v in vectors}
    assert {
        "commitment",
        "client-seed-commitment",
        "game-seed",
        "stream",
        "randbelow",
        "shuffle",
        "reshuffle",
        "first-dealer",
        "canonical-json",
        "record-hash",
        "ed25519",
        "transcript",
    } <= kinds
    assert {x["protocol"] for x in vectors if x["vector"] == "transcript"} == {"fairdeal/1", "fairdeal/2"}


def test_the_browser_checks_have_the_verifiers_ids_and_titles(page):
    js = page.evaluate("async () => (await import('/assets/js/protocol/checks.js')).CHECKS")
    assert [tuple(c) for c in js] == list(py_checks.CHECKS)


NOTED = """async ([text, key, noted]) => {
  const v = await import("/assets/js/protocol/checks.js");
  let parsed = null;
  try { parsed = noted === null ? null : v.parseCommitment(noted); } catch (exc) { return { refused: exc.message }; }
  const report = await v.verifyTranscript(text, { keys: [key], commitment: parsed });
  const c = report.checks.find((ch) => ch.id === "commitment-noted");
  return { status: c.status, detail: c.detail, ok: report.ok };
}"""


def test_the_browser_checks_the_commitment_the_player_noted_as_the_verifier_does(page):
    """commitment-noted: a prefix of 16 or more hex digits passes when it is the transcript's, fails (the whole
    report fails) when it is another game's, is skipped when none was noted, and fewer digits are refused — the
    same statuses as fairdeal-verify's."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "examples" / "120s-auction-game-fairdeal-2.json").read_text()
    t = json.loads(text)
    key, actual = t["commit"]["key"], t["commit"]["commitment"]
    other = ("0" if actual[0] != "0" else "1") + actual[1:16]
    for noted, want in ((actual[:16].upper(), "pass"), (actual, "pass"), (other, "fail"), (None, "skip")):
        got = page.evaluate(NOTED, [text, key, noted])
        py = py_checks.verify_transcript(t, key=key, commitment=None if noted is None else noted.lower())
        assert got["status"] == want == next(c.status for c in py.checks if c.id == "commitment-noted"), (noted, got)
        assert got["ok"] == (want != "fail") == py.ok
    assert "16 to 64 hex digits" in page.evaluate(NOTED, [text, key, actual[:15]])["refused"]


# ------------------------------------------------------------------------------------------------ deals

GAMES = [
    ("120s-auction", {}, 4),
    ("120s-auction", {"everybody_passes": "next-dealer", "kitty_teaser": True}, 4),
    ("120s-auction", {"everybody_passes": "dealer-picks", "shuffle_thrown_back": True}, 4),
    ("120s-house", {}, 4),
    ("120s-house", {"stick_the_dealer": False, "throw_and_draw": False}, 4),
    ("120s-house", {}, 3),
    ("120s-house", {"stick_the_dealer": False}, 2),
    ("120s-traditional", {}, 4),
    ("120s-traditional", {"teaser": True, "need_a_five": False}, 4),
    ("spades", {}, 4),
    ("twenty-down", {}, 4),
    ("twenty-down", {"three_first_cards": True, "drop_out_first": True}, 4),
    ("twenty-down", {"no_endgame": True, "at_least_two": True, "no_drop_twice": True}, 4),
]


def engine_deals(transcript: dict, server_seed: bytes) -> list[dict]:
    """Each deal as the rules engine made it: its number (the view's hand_number), dealer, the hands dealt, and
    its records."""
    seeds = [s["client_seed"] for s in transcript["start"]["seats"]]
    gs = game_seed(server_seed, seeds, transcript["protocol"])
    game = LiveGame(transcript["start"], gs)
    chance = SeedChance(gs)
    st = game.state
    deals: list[dict] = []

    def note() -> None:
        view = st.view(None)
        i = view["hand_number"]
        if not deals or deals[-1]["index"] != i:
            deals.append(
                {
                    "index": i,
                    "dealer": view["dealer"],
                    "records": [],
                    "hands": None,
                    "deck": [str(c) for c in chance.deck(i, _pack(transcript))],
                }
            )
        d = deals[-1]
        if d["hands"] is None:
            hands = [sorted(st.view(s)["hand"] or []) for s in range(st.rules.players)]
            full = 13 if transcript["start"]["rules"]["id"] == "spades" else 5
            if all(len(h) == full for h in hands):
                d["hands"] = hands

    note()
    for rec in transcript["records"]:
        note()
        deals[-1]["records"].append(rec["seq"])
        game.apply_record(rec, chain=False)
        st = game.state
    return deals


def _pack(transcript):
    from fairdeal.core.cards import PACK_32, PACK_52

    return PACK_32 if transcript["start"]["rules"]["id"] == "twenty-down" else PACK_52


DEAL_GAME = """async (t) => {
  const f = await import("/assets/js/protocol/fairness.js");
  const d = await import("/assets/js/protocol/deals.js");
  const seed = await f.gameSeed(t.protocol, t.end.server_seed, t.start.seats.map((s) => s.client_seed));
  const out = await d.dealGame(t, await f.seedKey(seed));
  return { problem: out.problem, firstDealer: out.firstDealer,
    deals: out.deals.map((x) => ({ index: x.index, dealer: x.dealer, records: x.records, deck: x.deck,
      hands: x.hands.map((h) => [...h].sort()), end: x.end })) };
}"""


@pytest.mark.parametrize(
    "rule_set,settings,players",
    GAMES,
    ids=[f"{r}-{p}p-{'-'.join(f'{k}={v}' for k, v in s.items()) or 'defaults'}" for r, s, p in GAMES],
)
def test_the_browser_deals_every_hand_as_the_rules_engine(page, rule_set, settings, players):
    key = private_key_from_hex(KEY_HEX)
    for n in range(2):
        server_seed = bytes([len(rule_set) + n + players] * 32)
        bots = tuple(range(1, players))
        t = selfplay(
            rule_set, key, server_seed, settings=settings, players=players, bots=bots, timeout_every=0, variety_every=3
        )
        expected = engine_deals(t, server_seed)
        got = page.evaluate(DEAL_GAME, t)
        assert got["problem"] is None, got["problem"]
        assert [d["index"] for d in got["deals"]] == [d["index"] for d in expected]
        assert len(expected) > 1 and all(e["hands"] for e in expected if e["records"])
        for g, e in zip(got["deals"], expected, strict=True):
            assert g["dealer"] == e["dealer"], (g["index"], "dealer")
            assert g["records"] == e["records"], (g["index"], "where the hand starts and ends")
            assert g["deck"] == e["deck"], (g["index"], "the pack")
            if e["hands"] is not None:
                assert g["hands"] == e["hands"], (g["index"], "the hands dealt")


TAMPER = """async ([t, seq, card]) => {
  const f = await import("/assets/js/protocol/fairness.js");
  const d = await import("/assets/js/protocol/deals.js");
  const rec = t.records.find((r) => r.seq === seq);
  rec.move.card = card;
  const seed = await f.gameSeed(t.protocol, t.end.server_seed, t.start.seats.map((s) => s.client_seed));
  return (await d.dealGame(t, await f.seedKey(seed))).problem;
}"""


def test_a_card_the_deal_did_not_give_the_seat_fails_the_deals(page):
    t = selfplay("spades", private_key_from_hex(KEY_HEX), bytes(range(32)), timeout_every=0)
    play = next(r for r in t["records"] if r["move"]["kind"] == "play")
    others = [c for c in _pack(t) if str(c) != play["move"]["card"]]
    # a card of another seat's hand: the deal re-derived from the seed did not give it to this seat
    seeds = [s["client_seed"] for s in t["start"]["seats"]]
    live = LiveGame(t["start"], game_seed(bytes(range(32)), seeds, t["protocol"]))
    mine = set(live.state.view(play["seat"])["hand"])
    foreign = next(str(c) for c in others if str(c) not in mine)
    problem = page.evaluate(TAMPER, [t, play["seq"], foreign])
    assert problem["seq"] == play["seq"]
    assert f"used {foreign}, which the deal re-derived from the revealed seed did not give that seat" in problem["text"]


RUN_LOG_VECTORS = """async ([inclusion, roots, leaves, withLog]) => {
  const m = await import("/assets/js/protocol/merkle.js");
  const b = await import("/assets/js/protocol/bytes.js");
  const c = await import("/assets/js/protocol/canonical.js");
  const v = await import("/assets/js/protocol/checks.js");
  const leafHashes = [];
  for (const x of inclusion.leaves_hex) leafHashes.push(await m.leafHash(b.fromHex(x)));
  const proofs = [];
  for (const p of inclusion.proofs) {
    const root = await m.rootFromInclusion(leafHashes[p.index], p.index, p.size, p.proof.map(b.fromHex));
    proofs.push(root && b.toHex(root));
  }
  const t = withLog.transcript;
  const made = [await m.commitmentLeaf(t.commit), await m.endingLeaf(t)];
  const leafOut = [];
  for (const leaf of made)
    leafOut.push({ canonical: c.canonicalText(leaf), hash: b.toHex(await m.leafHash(c.canonicalBytes(leaf))) });
  const report = async (x) => Object.fromEntries((await v.verifyTranscript(JSON.stringify(x), { keys: [withLog.key] }))
    .checks.map((ch) => [ch.id, ch.status]));
  const swapped = { ...t, log: { ...t.log, commitment: t.log.ending, ending: t.log.commitment } };
  return { proofs, leafOut, good: await report(t), swapped: await report(swapped) };
}"""


def test_the_browser_checks_the_transparency_log_vectors(page):
    """docs/log.md's vectors in the browser (js/protocol/merkle.js): inclusion proofs, the leaves of a transcript, and a
    transcript's log member checked as fairdeal-verify's log-inclusion does."""
    (inclusion,) = [v for v in load_vectors("log.md") if v["vector"] == "merkle-inclusion"]
    (roots,) = [v for v in load_vectors("log.md") if v["vector"] == "merkle-roots"]
    leaves = [v for v in load_vectors("log.md") if v["vector"] == "log-leaf"]
    (log,) = [v for v in load_vectors("log.md") if v["vector"] == "transcript-log"]
    t = [v for v in load_vectors("transcript.md") if v["vector"] == "transcript" and v["protocol"] == "fairdeal/2"][0]
    with_log = {"transcript": dict(t["transcript"], log=log["log"]), "key": t["public_key_text"]}
    r = page.evaluate(RUN_LOG_VECTORS, [inclusion, roots, leaves, with_log])
    assert r["proofs"] == [roots["roots"][p["size"]] for p in inclusion["proofs"]]
    assert r["leafOut"] == [{"canonical": v["canonical"], "hash": v["leaf_hash"]} for v in leaves]
    assert r["good"]["log-inclusion"] == "pass" and r["good"]["signature-transcript"] == "pass"
    assert r["swapped"]["log-inclusion"] == "fail"


RUN_LOG_TRUST = """async ([reveal, strangers, key]) => {
  const m = await import("/assets/js/protocol/merkle.js");
  const c = await import("/assets/js/protocol/canonical.js");
  const v = await import("/assets/js/protocol/checks.js");
  const forms = (await m.endingLeafForms(reveal)).map((leaf) => c.canonicalText(leaf));
  const status = async (keys) => (await v.verifyTranscript(JSON.stringify(strangers), { keys }))
    .checks.find((ch) => ch.id === "log-inclusion");
  return { forms, given: await status([key]), none: await status([]) };
}"""


def test_the_browser_refuses_a_strangers_head_and_knows_both_ending_leaf_forms(page):
    """Issue 23: a head signed by a key that is neither given nor the game's fails log-inclusion in the browser as
    in fairdeal-verify; a reveal-phase ending has docs/log.md's two leaf forms."""
    from fairdeal.core import keys, tlog

    (log,) = [v for v in load_vectors("log.md") if v["vector"] == "transcript-log"]
    (forms,) = [v for v in load_vectors("log.md") if v["vector"] == "log-leaf-forms"]
    vectors = [
        v for v in load_vectors("transcript.md") if v["vector"] == "transcript" and v["protocol"] == "fairdeal/2"
    ]
    t, reveal = vectors[0], next(v for v in vectors if "reveals" in v["transcript"]["end"])
    stranger = keys.generate_private_key()
    h = log["log"]["head"]
    forged = tlog.sign_head(
        stranger, tlog.make_head(h["size"], bytes.fromhex(h["root"]), h["time"], keys.public_key_text(stranger))
    )
    strangers = dict(t["transcript"], log=dict(log["log"], head=forged))
    r = page.evaluate(RUN_LOG_TRUST, [reveal["transcript"], strangers, t["public_key_text"]])
    assert r["forms"] == [f["canonical"] for f in forms["forms"]]
    for trusted in ("given", "none"):
        assert r[trusted]["status"] == "fail" and "not the service's" in r[trusted]["detail"], r[trusted]


FEED_RECONNECT = """async () => {
  const f = await import("/assets/js/feed.js");
  const text = "retry: 4321\\n\\n: keep-alive\\n\\nevent: game\\ndata: {\\"seq\\": 3}\\n\\nretry: soon\\n\\n";
  const body = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(text)); c.close(); } });
  const retries = [], events = [];
  await f.readEvents(body, (type, data) => events.push([type, data]), () => {}, (ms) => retries.push(ms));
  const draws = Array.from({ length: 400 }, () => f.jittered(8000));
  const capped = Array.from({ length: 400 }, () => f.jittered(10 ** 9));
  return { retries, events, draws, capped };
}"""


def test_the_page_reads_a_streams_retry_and_reconnects_after_a_jittered_wait(page):
    """feed.js takes the stream's `retry:` (the service draws it per stream) as the bound of its first
    reconnection's wait, and draws every wait at random below a bound that doubles, so that the clients of a
    restarted service come back spread out."""
    out = page.evaluate(FEED_RECONNECT)
    assert out["retries"] == [4321]  # "retry: soon" is not a number: ignored, as SSE says
    assert out["events"] == [["game", {"seq": 3}]]
    draws = out["draws"]
    assert all(0 <= d < 8000 for d in draws) and min(draws) < 1000 and max(draws) > 7000
    assert len(set(draws)) > 300
    assert max(out["capped"]) < 30_000 and max(out["capped"]) > 25_000  # never past MAX_DELAY
