// A blind game's part of the verify page (docs/blind.md, "Verification"): the transcript's "blind" member checked
// in the browser from the revealed secrets (check.js: every signature, shuffle, lock, release and open, with the
// seat at fault named), the deck of every deal derived from it for the "deals" check, and a plain list of what
// this page checked and what it leaves to fairdeal-verify.

import { PACK_52 } from "../protocol/fairness.js";
import { audit } from "./check.js";
import { spadesHolders } from "./deal.js";

const WHAT = {
  "message-form": "a message without its type's form",
  signature: "a message its seat did not sign (the server's doing: no seat is blamed)",
  "two-messages": "two different signed messages for one step",
  "missing-commit": "no commit", "missing-message": "a step missing", "missing-reveal": "no reveal of its secret",
  "reveal-mismatch": "a revealed secret that does not open its commitment", "box-key-differs": "a box key its secret does not give",
  "shuffle-wrong-mask": "a shuffle with another mask", "shuffle-replaced": "a shuffle that replaced elements",
  "shuffle-not-permutation": "a shuffle that is not a permutation", "shuffle-order": "a shuffle in an order its secret does not give",
  "lock-differs": "a lock its secret does not give", "release-skipped": "a key it did not release",
  "release-extra": "a key released to a seat that does not hold the card", "release-wrong-key": "a wrong key in its release",
  "open-not-holder": "an open of a card it does not hold", "open-wrong": "an open that does not open to its card",
  "open-twice": "a card opened twice",
};

export function findingSentence(f) {
  const who = f.seat === null ? "The server" : `Seat ${f.seat}`;
  const where = f.deal === null || f.deal === undefined ? "" : ` in deal ${f.deal}`;
  const at = f.positions ? ` (positions ${f.positions.join(", ")})` : f.position !== undefined ? ` (position ${f.position})` : "";
  return `${who}: ${WHAT[f.code] || f.code}${where}${at}.`;
}

export const BLIND_CHECKS = ["blind-messages", "blind-deal", "blind-opens", "blind-blame"];
// which check reports each finding, as fairdeal/core/blind/verify.py's CHECK_OF
const CHECK_OF = {
  "message-form": "blind-messages", signature: "blind-messages", "two-messages": "blind-messages",
  "missing-commit": "blind-messages", "missing-reveal": "blind-messages", "reveal-mismatch": "blind-messages",
  "box-key-differs": "blind-messages",
  "open-not-holder": "blind-opens", "open-wrong": "blind-opens", "open-twice": "blind-opens",
};
const checkOf = (code) => CHECK_OF[code] || "blind-deal";

// -> {decks: Map deal -> cards in dealt order, findings, atFault, blame, lines: [sentences], notChecked: [sentences]}
export async function verifyBlind(t) {
  const b = t.blind || {};
  const messages = Array.isArray(b.messages) ? b.messages : [];
  const seats = t.start.seats.length;
  const deals = Array.isArray(t.end.deals) ? t.end.deals : [];
  const holders = new Map(deals.map((d) => [d.hand, spadesHolders(d.dealer, seats)]));
  const abort = abortRecord(b, seats, messages.length);
  const cut = abort ? { from: abort.deal, stalled: abort.why === "step-timeout" ? `${abort.step}|${abort.seat}|${abort.deal}` : null } : null;
  const out = await audit(t.commit.game_id, seats, messages, holders, PACK_52, cut);
  const blame = Array.isArray(b.blame) ? [...b.blame].sort((x, y) => x - y) : [];
  const lines = [
    `${messages.length} signed message(s) of ${seats} seats, each checked against its seat's key from its commit`,
    `every shuffle, lock and release of ${holders.size} deal(s) recomputed from the revealed secrets`,
    `${messages.filter((m) => m && m.type === "open").length} card open(s) checked against the final decks`,
    blame.length ? `the end names seat(s) ${blame.join(", ")} at fault; each must be at fault in the messages`
      : "the end names no seat at fault",
  ];
  const notChecked = [
    "that each play followed suit (a revoke) and each bot or timeout move is its policy's: fairdeal-verify replays the rules with the derived deals",
  ];
  if (abort) notChecked.push("the abort record's blame of a stall, a revoke or a wrong timeout move (its turn, its deadline, the rules replay): fairdeal-verify checks it");
  return { decks: out.decks, opens: out.opens, findings: out.findings, atFault: out.atFault, blame, seats, lines, notChecked,
    messages: messages.length, abort, cut: out.cut };
}

// The transcript's blind.abort when it has the form of docs/blind.md ("The abort record"), else null (the members
// this page reads; fairdeal-verify checks the whole record, and its stall, under blind-blame).
const WHYS = { "step-timeout": ["shuffle", "lock", "release"], "move-timeout": ["move"], left: ["shuffle", "lock", "release", "move", "leave"],
  "bad-open": ["move"], revoke: ["move"], "bad-timeout-move": ["move"] };
function abortRecord(b, seats, count) {
  const a = b.abort;
  if (!a || typeof a !== "object" || !(a.why in WHYS) || !WHYS[a.why].includes(a.step)) return null;
  const ok = Number.isInteger(a.seat) && a.seat >= 0 && a.seat < seats && Number.isInteger(a.deal) && a.deal >= 0
    && Number.isInteger(a.after) && a.after >= 0 && a.after <= count;
  return ok ? a : null;
}

// The four blind checks' statuses from the audit: [{id, status, detail}] (blind-opens' play records after).
export function blindChecks(blind) {
  const first = new Map();
  for (const f of blind.findings) if (!first.has(checkOf(f.code))) first.set(checkOf(f.code), f);
  const fail = (id) => ({ id, status: "fail", detail: findingSentence(first.get(id)) });
  const out = [
    first.has("blind-messages") ? fail("blind-messages")
      : { id: "blind-messages", status: "pass", detail: `${blind.messages} message(s) of ${blind.seats} seats, in form and signed; every revealed secret opens its commit` },
    first.has("blind-deal") ? fail("blind-deal")
      : { id: "blind-deal", status: "pass", detail: `${blind.decks.size} deal(s): every shuffle, lock and key release is the one its seat's secret gives` },
  ];
  if (first.has("blind-opens")) out.push(fail("blind-opens"));
  const framed = blind.blame.filter((s) => !blind.atFault.includes(s));
  const a = blind.abort;
  if (a && framed.length === 1 && framed[0] === a.seat && ["step-timeout", "move-timeout", "revoke", "bad-timeout-move"].includes(a.why)) {
    // only the abort record blames it: its turn, its deadline or the rules replay show it, which this page leaves out
    out.push({ id: "blind-blame", status: "skip", detail: `the end names seat ${a.seat} at fault for a ${a.why}, which only fairdeal-verify checks (the abort record against the turn order, the deadline and the rules replay)` });
    return out;
  }
  out.push(framed.length
    ? { id: "blind-blame", status: "fail", detail: `the end names seat(s) ${framed.join(", ")} at fault, which the messages do not show at fault` }
    : { id: "blind-blame", status: "pass", detail: blind.blame.length ? `the end names seat(s) ${blind.blame.join(", ")}, each at fault in the messages` : "the end names no seat, and none is framed" });
  return out;
}

// blind-opens: every card played has an open by its player for the hand it was played in (deals: dealGame's).
export function playsOpened(blind, records, deals) {
  const handOf = new Map();
  for (const d of deals) for (const seq of d.records) handOf.set(seq, d.index);
  let plays = 0;
  for (const r of records) {
    if (!r.move || r.move.kind !== "play") continue;
    plays++;
    const opened = blind.opens.get(`${handOf.get(r.seq)}|${r.move.card}`);
    if (!opened || opened[0] !== r.seat) {
      return { status: "fail", seq: r.seq, detail: `seat ${r.seat} played ${r.move.card} without an open of it by that seat in this hand` };
    }
  }
  return { status: "pass", seq: null, detail: `${plays} card(s) played, each opened by its player with the keys of the final deck` };
}
