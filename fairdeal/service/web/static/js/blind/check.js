// The verifier of a blind game in the browser, as fairdeal/core/blind/check.py (docs/blind.md, "Verification"):
// from every signed message and the revealed secrets, recompute each seat's shuffle, lock and release from the
// deck it was given, check every open, and name the seat at fault for each difference (the same finding codes);
// then derive the cards at every position of every deal whose steps all check out.

import { lockDeck, shuffleDeck } from "./deal.js";
import { Secrets } from "./derive.js";
import { cardPoints, isElement, mul, multiplier, product, scalarFromHex, inverse } from "./group.js";
import { verifySignature } from "./messages.js";
import { pad, sharedSecret, unseal } from "./release.js";
import { toHex } from "../protocol/bytes.js";

const MEMBERS = {
  commit: ["sign_key", "box_key", "commitment"],
  shuffle: ["deal", "deck"],
  lock: ["deal", "deck"],
  release: ["deal", "keys"],
  open: ["deal", "position", "card", "keys"],
  reveal: ["secret"],
};
const HEX64 = /^[0-9a-f]{64}$/;
const COUNT = /^(0|[1-9][0-9]{0,5})$/;
const MAX_DEALS = 10000;

const isCount = (v, below) => Number.isInteger(v) && v >= 0 && v < below;

// Why a message does not have its type's form for this game, or null (elements are checked to be points).
export function formProblem(m, game, seats, size, pack) {
  if (!m || typeof m !== "object" || Array.isArray(m)) return "not a JSON object";
  const members = MEMBERS[m.type];
  if (!members) return `unknown type ${String(m.type).slice(0, 40)}`;
  const want = [...members, "game", "seat", "type", "sig"].sort();
  if (JSON.stringify(Object.keys(m).sort()) !== JSON.stringify(want)) return `a ${m.type} has exactly the members ${want.join(", ")}`;
  if (m.game !== game) return "another game's message";
  if (!isCount(m.seat, seats)) return "no seat of this table";
  if ("deal" in m && !isCount(m.deal, MAX_DEALS)) return "a bad deal number";
  if (m.type === "commit") {
    if (!HEX64.test(m.sign_key) || !HEX64.test(m.commitment) || !isElement(m.box_key)) return "a bad commit";
  } else if (m.type === "shuffle" || m.type === "lock") {
    if (!Array.isArray(m.deck) || m.deck.length !== size || !m.deck.every((x) => HEX64.test(x) && isElement(x))) {
      return `a ${m.type} deck is a list of ${size} elements`;
    }
  } else if (m.type === "release") {
    if (!m.keys || typeof m.keys !== "object" || Array.isArray(m.keys)) return "a release's keys are an object";
    for (const [h, pads] of Object.entries(m.keys)) {
      if (!COUNT.test(h) || Number(h) >= seats || Number(h) === m.seat) return "a bad holder in a release";
      if (!pads || typeof pads !== "object" || Array.isArray(pads)) return "a release's keys are an object";
      for (const [j, v] of Object.entries(pads)) if (!COUNT.test(j) || Number(j) >= size || !HEX64.test(v)) return "a bad release pad";
    }
  } else if (m.type === "open") {
    if (!isCount(m.position, size) || !pack.includes(m.card)) return "a bad open";
    if (!Array.isArray(m.keys) || m.keys.length !== seats) return `an open's keys are a list of ${seats} scalars`;
    try {
      m.keys.forEach(scalarFromHex);
    } catch {
      return "an open's key is no scalar";
    }
  } else if (!HEX64.test(m.secret)) return "a bad secret";
  return null;
}

function keyOf(m) {
  return m.type === "open" ? `open|${m.seat}|${m.deal}|${m.position}` : `${m.type}|${m.seat}|${m.deal ?? ""}`;
}

const stepKey = (type, seat, deal = null) => `${type}|${seat}|${deal ?? ""}`;

class Audit {
  // cut: an aborted game's {from, stalled} (check.py's cut_from, stalled): from deal `from` on, a step missing was
  // cut off by the abort, no seat's fault, but for the step `stalled` ("type|seat|deal") a stall blames
  constructor(cut = null) {
    this.cutFrom = cut ? cut.from : null;
    this.stalled = cut ? cut.stalled : null;
    this.cut = new Set(); // the deals the abort cut off
    this.findings = [];
    this.decks = new Map(); // deal -> card at each position of the final deck
    this.hands = new Map(); // deal -> seat -> cards in position order
    this.opens = new Map(); // "deal|card" -> [seat, position]
    this.forged = new Set();
  }

  get atFault() {
    return [...new Set(this.findings.filter((f) => f.seat !== null).map((f) => f.seat))].sort((a, b) => a - b);
  }

  add(code, seat, deal = null, facts = {}) {
    this.findings.push({ code, seat, deal, ...facts });
  }

  missing(type, seat, deal) {
    const key = stepKey(type, seat, deal);
    if (this.cutFrom !== null && deal !== null && deal >= this.cutFrom && key !== this.stalled && !this.forged.has(key)) {
      this.cut.add(deal);
      return;
    }
    if (this.forged.has(key)) this.add("missing-message", null, deal, { type, claimed_seat: seat });
    else this.add("missing-message", seat, deal, { type });
  }
}

// holders: Map deal -> position -> holder (null: not dealt); the deals to check are its keys.
export async function audit(game, seats, messages, holders, pack, cut = null) {
  const out = new Audit(cut);
  const byKey = await readMessages(out, game, seats, pack, messages);
  const secrets = await reveals(out, seats, byKey);
  for (const k of [...holders.keys()].sort((a, b) => a - b)) {
    await checkDeal(out, game, seats, pack, k, holders.get(k), byKey, secrets);
  }
  return out;
}

async function readMessages(out, game, seats, pack, messages) {
  const forms = [];
  messages.forEach((m, i) => {
    const problem = formProblem(m, game, seats, pack.length, pack);
    if (problem) out.add("message-form", null, null, { index: i, claimed_seat: Number.isInteger(m?.seat) ? m.seat : null, reason: problem });
    else forms.push([i, m]);
  });
  const signKeys = new Map();
  for (const [, m] of forms) if (m.type === "commit" && !signKeys.has(m.seat)) signKeys.set(m.seat, m.sign_key);
  const byKey = new Map();
  for (const [i, m] of forms) {
    if (!signKeys.has(m.seat) || !(await verifySignature(m, signKeys.get(m.seat)))) {
      out.add("signature", null, m.deal ?? null, { index: i, claimed_seat: m.seat, type: m.type });
      out.forged.add(stepKey(m.type, m.seat, m.deal));
      continue;
    }
    const key = keyOf(m);
    if (byKey.has(key)) {
      if (JSON.stringify(byKey.get(key)) !== JSON.stringify(m)) out.add("two-messages", m.seat, m.deal ?? null, { type: m.type });
      continue;
    }
    byKey.set(key, m);
  }
  for (let s = 0; s < seats; s++) if (!byKey.has(stepKey("commit", s))) out.add("missing-commit", s);
  return byKey;
}

async function reveals(out, seats, byKey) {
  const found = new Map();
  for (let s = 0; s < seats; s++) {
    const commit = byKey.get(stepKey("commit", s));
    const reveal = byKey.get(stepKey("reveal", s));
    if (!commit) continue;
    if (!reveal) {
      if (out.forged.has(stepKey("reveal", s))) out.add("missing-reveal", null, null, { claimed_seat: s });
      else out.add("missing-reveal", s);
      continue;
    }
    const secrets = await Secrets.of(reveal.secret);
    if ((await secrets.commitment()) !== commit.commitment) {
      out.add("reveal-mismatch", s);
      continue;
    }
    if ((await secrets.boxKey()) !== commit.box_key) {
      out.add("box-key-differs", s);
      continue;
    }
    found.set(s, secrets);
  }
  return found;
}

async function checkDeal(out, game, seats, pack, k, holders, byKey, secrets) {
  let prev = await cardPoints(pack);
  let sound = true;
  const perms = [];
  for (let s = 0; s < seats; s++) {
    const m = byKey.get(stepKey("shuffle", s, k));
    if (!m) return out.missing("shuffle", s, k);
    if (secrets.has(s)) {
      const perm = await secrets.get(s).permutation(k, prev.length);
      perms.push(perm);
      const expected = await shuffleDeck(secrets.get(s), k, prev);
      if (expected.some((x, j) => x !== m.deck[j])) {
        await classifyShuffle(out, s, k, prev, m.deck, await secrets.get(s).shuffleScalar(k));
        sound = false;
      }
    } else sound = false;
    prev = m.deck;
  }
  for (let s = 0; s < seats; s++) {
    const m = byKey.get(stepKey("lock", s, k));
    if (!m) return out.missing("lock", s, k);
    if (secrets.has(s)) {
      const expected = await lockDeck(secrets.get(s), k, prev);
      const wrong = expected.flatMap((x, j) => (x !== m.deck[j] ? [j] : []));
      if (wrong.length) {
        out.add("lock-differs", s, k, { positions: wrong });
        sound = false;
      }
    }
    prev = m.deck;
  }
  const final = prev;
  await checkReleases(out, game, seats, k, holders, byKey, secrets);
  await checkOpens(out, pack, k, holders, final, byKey);
  if (sound && secrets.size === seats) {
    let order = pack.map((_, i) => i);
    for (const perm of perms) order = perm.map((i) => order[i]);
    const cards = order.map((i) => pack[i]);
    out.decks.set(k, cards);
    const hands = new Map();
    holders.forEach((h, j) => {
      if (h !== null) hands.set(h, [...(hands.get(h) || []), cards[j]]);
    });
    out.hands.set(k, hands);
  }
}

// Name what is wrong with seat s's shuffle, unmasking its deck with the mask its secret gives.
async function classifyShuffle(out, s, k, prev, deck, a) {
  const unmasked = (await (await multiplier(inverse(a))).mulAll(deck)).map(toHex);
  const given = new Map();
  for (const x of prev) given.set(x, (given.get(x) || 0) + 1);
  if (!unmasked.some((x) => given.has(x))) return out.add("shuffle-wrong-mask", s, k);
  const foreign = unmasked.flatMap((x, j) => (given.has(x) ? [] : [j]));
  if (foreign.length) return out.add("shuffle-replaced", s, k, { positions: foreign });
  const seen = new Map();
  for (const x of unmasked) seen.set(x, (seen.get(x) || 0) + 1);
  if ([...given].some(([x, n]) => seen.get(x) !== n)) {
    return out.add("shuffle-not-permutation", s, k, { positions: unmasked.flatMap((x, j) => (seen.get(x) > 1 ? [j] : [])) });
  }
  return out.add("shuffle-order", s, k);
}

async function checkReleases(out, game, seats, k, holders, byKey, secrets) {
  const box = new Map();
  for (let s = 0; s < seats; s++) {
    const c = byKey.get(stepKey("commit", s));
    if (c) box.set(s, c.box_key);
  }
  for (let s = 0; s < seats; s++) {
    const m = byKey.get(stepKey("release", s, k));
    if (!m) {
      out.missing("release", s, k);
      continue;
    }
    const owed = new Set(holders.flatMap((h, j) => (h !== null && h !== s ? [`${h}|${j}`] : [])));
    const given = new Set(Object.entries(m.keys).flatMap(([h, pads]) => Object.keys(pads).map((j) => `${Number(h)}|${Number(j)}`)));
    const split = (xs) => xs.map((x) => x.split("|").map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const skipped = split([...owed].filter((x) => !given.has(x)));
    if (skipped.length) out.add("release-skipped", s, k, { positions: skipped.map((x) => x[1]), holders: skipped.map((x) => x[0]) });
    const extra = split([...given].filter((x) => !owed.has(x)));
    if (extra.length) out.add("release-extra", s, k, { positions: extra.map((x) => x[1]), holders: extra.map((x) => x[0]) });
    if (!secrets.has(s)) continue;
    const e = await secrets.get(s).boxScalar();
    const shared = new Map();
    const wrong = [];
    for (const [h, j] of split([...owed].filter((x) => given.has(x)))) {
      if (!box.has(h)) continue;
      if (!shared.has(h)) shared.set(h, await sharedSecret(e, box.get(h)));
      const p = await pad(shared.get(h), game, k, s, h, j);
      if (unseal(m.keys[String(h)][String(j)], p) !== (await secrets.get(s).lockScalar(k, j))) wrong.push(j);
    }
    if (wrong.length) out.add("release-wrong-key", s, k, { positions: wrong.sort((a, b) => a - b) });
  }
}

async function checkOpens(out, pack, k, holders, final, byKey) {
  const points = new Map((await cardPoints(pack)).map((p, i) => [pack[i], p]));
  const opens = [...byKey.values()].filter((m) => m.type === "open" && m.deal === k).sort((a, b) => a.position - b.position);
  for (const m of opens) {
    const { seat: s, position: j, card } = m;
    if (holders[j] !== s) {
      out.add("open-not-holder", s, k, { position: j, holder: holders[j] });
      continue;
    }
    const total = product(m.keys.map(scalarFromHex));
    if (!points.has(card) || toHex(await mul(total, points.get(card))) !== final[j]) {
      out.add("open-wrong", s, k, { position: j, card });
      continue;
    }
    if (out.opens.has(`${k}|${card}`)) {
      out.add("open-twice", s, k, { position: j, card });
      continue;
    }
    out.opens.set(`${k}|${card}`, [s, j]);
  }
}

