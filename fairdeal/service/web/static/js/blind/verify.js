// A blind game's part of the verify page (docs/blind.md, "Verification"): the transcript's "blind" member checked
// in the browser from the revealed secrets (check.js: every signature, shuffle, lock, release and open, with the
// seat at fault named), the deck of every deal derived from it for the "deals" check, and a plain list of what
// this page checked and what it leaves to fairdeal-verify.

import { PACK_52 } from "../fairness.js";
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

// -> {decks: Map deal -> cards in dealt order, findings, atFault, lines: [sentences], notChecked: [sentences]}
export async function verifyBlind(t) {
  const b = t.blind || {};
  const messages = Array.isArray(b.messages) ? b.messages : [];
  const seats = t.start.seats.length;
  const deals = Array.isArray(t.end.deals) ? t.end.deals : [];
  const holders = new Map(deals.map((d) => [d.hand, spadesHolders(d.dealer, seats)]));
  const out = await audit(t.commit.game_id, seats, messages, holders, PACK_52);
  const opens = messages.filter((m) => m && m.type === "open").length;
  const lines = [
    `${messages.length} signed message(s) of ${seats} seats, each checked against its seat's key from its commit`,
    `every shuffle, lock and release of ${holders.size} deal(s) recomputed from the revealed secrets`,
    `${opens} card open(s) checked against the final decks`,
  ];
  if (b.abort) lines.push(`the game was aborted, blamed on seat ${b.abort.seat} (${b.abort.why}), as the signed transcript records`);
  const notChecked = [
    "that each play followed suit (a revoke): fairdeal-verify replays the rules with the derived deals",
    "that the abort's blame, if any, is the one the rules and clocks give: fairdeal-verify",
  ];
  return { decks: out.decks, findings: out.findings, atFault: out.atFault, lines, notChecked };
}
