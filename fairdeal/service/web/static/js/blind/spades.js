// What the server cannot work out at a dealer-blind Spades table, since it never sees a hand: which of my cards
// I may play, the suggested bid and the timeout move (the move this page plays for me when my clock runs out).
// A port of fairdeal/core/games/spades.py's legal_cards / why_not_card, suggested_bid and safe_card (with no
// tie-breaking randomness: the timeout policy's), held to the Python functions by tests/web/test_browser_blind.py.

import { PACK_52 } from "../protocol/fairness.js";

const SPADE = "S";
const RANK = { J: 11, Q: 12, K: 13, A: 14 };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const PLACE = new Map(PACK_52.map((c, i) => [c, i]));
const HAND_SIZE = 13;

const suitOf = (c) => c.slice(-1);
const rankOf = (c) => RANK[c.slice(0, -1)] || Number(c.slice(0, -1));

export function sortCards(cards) {
  return [...cards].sort((a, b) => PLACE.get(a) - PLACE.get(b));
}

function strength(card, led) {
  if (suitOf(card) === SPADE) return 100 + rankOf(card);
  return suitOf(card) === suitOf(led) ? rankOf(card) : -1;
}

// [seat, card] taking the trick so far.
function winnerOf(plays) {
  let best = plays[0];
  for (const p of plays.slice(1)) {
    const [bs, rs] = [suitOf(best[1]), rankOf(best[1])];
    if (suitOf(p[1]) === bs ? rankOf(p[1]) > rs : suitOf(p[1]) === SPADE) best = p;
  }
  return best;
}

function restriction(hand, trick, spadesBroken) {
  if (!trick.length) return !spadesBroken && hand.some((c) => suitOf(c) !== SPADE) ? [SPADE, false] : null;
  const led = suitOf(trick[0]);
  return hand.some((c) => suitOf(c) === led) ? [led, true] : null;
}

export function legalCards(hand, trick, spadesBroken) {
  const rule = restriction(hand, trick, spadesBroken);
  return rule ? hand.filter((c) => (suitOf(c) === rule[0]) === rule[1]) : [...hand];
}

export function whyNot(hand, card, trick, spadesBroken) {
  if (!hand.includes(card)) return "You do not hold that card.";
  const rule = restriction(hand, trick, spadesBroken);
  if (!rule || (suitOf(card) === rule[0]) === rule[1]) return null;
  return rule[1] ? `You must follow ${SUIT_NAMES[rule[0]]}.` : "Spades are not broken yet.";
}

export function suggestedBid(hand) {
  const bySuit = { C: [], D: [], H: [], S: [] };
  for (const c of hand) bySuit[suitOf(c)].push(rankOf(c));
  const spades = bySuit[SPADE];
  let worth = 0;
  const honours = [[14, 1], [13, 2], [12, 3]].filter(([r, need]) => spades.includes(r) && spades.length >= need).length;
  const spadeTricks = honours + Math.max(0, spades.length - 3);
  worth += spadeTricks;
  let spare = spades.length - spadeTricks;
  for (const suit of "CDH") {
    const ranks = bySuit[suit];
    const n = ranks.length;
    if (ranks.includes(14)) worth += n <= 5 ? 1 : 0.5;
    if (ranks.includes(13) && n >= 2 && n <= 4) worth += ranks.includes(14) ? 1 : 0.5;
    if (ranks.includes(12) && n >= 3 && n <= 4 && ranks.includes(14) && ranks.includes(13)) worth += 0.5;
    const ruffs = n === 0 ? 2 : n === 1 ? 1 : 0;
    const used = Math.min(ruffs, spare);
    worth += used;
    spare -= used;
  }
  return Math.max(1, Math.min(HAND_SIZE, Math.floor(worth + 0.5)));
}

// Python compares keys as tuples: booleans first, then ranks.
const lowKey = (c) => [suitOf(c) === SPADE ? 1 : 0, rankOf(c)];
const duckKey = (c) => [suitOf(c) !== SPADE ? 1 : 0, rankOf(c)];
const cmp = (a, b) => (a[0] - b[0]) || (a[1] - b[1]);

function pick(cards, key, highest = false) {
  const keys = cards.map(key);
  let best = keys[0];
  for (const k of keys) if (highest ? cmp(k, best) > 0 : cmp(k, best) < 0) best = k;
  return sortCards(cards.filter((_, i) => cmp(keys[i], best) === 0))[0];
}

// The timeout card (docs/rules/spades.md, "The safe card") from {seat, hand, trick: [[seat, card]], bids,
// spadesBroken}.
export function safeCard({ seat, hand, trick, bids, spadesBroken, players = 4 }) {
  const held = sortCards(hand);
  const legal = legalCards(held, trick.map((p) => p[1]), spadesBroken);
  const win = trick.length ? winnerOf(trick) : null;
  const toBeat = win ? strength(win[1], trick[0][1]) : -1;
  const beats = (c) => win === null || strength(c, trick[0][1]) > toBeat;
  const low = () => pick(legal, lowKey);
  const cheapestWinner = () => {
    const winners = trick.length ? legal.filter(beats) : [];
    return winners.length ? pick(winners, (c) => [0, strength(c, trick[0][1])]) : null;
  };
  if (bids[seat] === 0) {
    const losers = trick.length ? legal.filter((c) => !beats(c)) : [];
    return losers.length ? pick(losers, duckKey, true) : low();
  }
  const partner = (seat + players / 2) % players;
  if (win !== null && win[0] === partner && bids[partner] !== 0) return low();
  return cheapestWinner() || low();
}
