// The computations of a blind deal, shared by the seat (seat.js) and the verify page (check.js), as
// fairdeal/core/blind/deal.py (docs/blind.md, "A deal"):
//   initial deck = the card points of the pack in its canonical order
//   shuffle  out[j] = mul(a_{s,k}, prev[π_{s,k}[j]])      lock  out[j] = mul(b_{s,k,j} · a_{s,k}^-1 mod n, prev[j])
//   final deck F_k[j] = (Π_s b_{s,k,j}) · P_{card at j}    holders[j] = the seat position j is dealt to

import { toHex } from "../protocol/bytes.js";
import { Fn, cardPoints, inverse, mul, multiplier, product } from "./group.js";

export async function cardByPoint(pack) {
  const points = await cardPoints(pack);
  return new Map(points.map((p, i) => [p, pack[i]]));
}

const hexAll = (xs) => xs.map((x) => (typeof x === "string" ? x : toHex(x)));

export async function shuffleDeck(secrets, deal, prev) {
  const a = await secrets.shuffleScalar(deal);
  const perm = await secrets.permutation(deal, prev.length);
  return hexAll(await (await multiplier(a)).mulAll(perm.map((i) => prev[i])));
}

export async function lockScalars(secrets, deal, size) {
  const out = [];
  for (let j = 0; j < size; j++) out.push(await secrets.lockScalar(deal, j));
  return out;
}

export async function lockDeck(secrets, deal, prev) {
  const aInv = inverse(await secrets.shuffleScalar(deal));
  const locks = await lockScalars(secrets, deal, prev.length);
  return hexAll(await Promise.all(locks.map((b, j) => mul(Fn.mul(b, aInv), prev[j]))));
}

// mul((Π keys)^-1, element): the card point under a final-deck element, given every seat's lock for it.
export async function unlock(keys, element) {
  return toHex(await mul(inverse(product(keys)), element));
}

// An open is good when mul(Π keys, P_card) equals the final-deck element (one multiplication).
export async function opens(keys, card, element) {
  const [p] = await cardPoints([card]);
  return toHex(await mul(product(keys), p)) === element;
}

// The deal layout "spades-4": position j (the j-th card dealt) goes to the seat 1 + j places left of the dealer.
export function spadesHolders(dealer, players = 4, size = 52) {
  return Array.from({ length: size }, (_, j) => (dealer + 1 + j) % players);
}
