// Deals without a rules engine: where each hand of a game starts and ends in its move records, who dealt it, how
// its pack is laid out (docs/rules/: explicit-decks.md for 120s, spades.md, twenty-down.md), which cards each seat
// was dealt and drew, and whether every card a seat plays or throws is one it holds.
//
// HandTracker needs only the kinds of the moves (the table page uses it to tell a hand's last move from the
// next hand's first, thrown cards face down or not); dealGame re-derives every pack from the game seed for the
// verify page. Neither judges whether a move was legal: that is fairdeal-verify's replay.

import { PACK_32, PACK_52, dealDeck, firstDealer, reshuffle } from "./fairness.js";

const FAMILY = {
  "120s-auction": "onetwenty", "120s-house": "onetwenty", "120s-traditional": "onetwenty",
  spades: "spades", "twenty-down": "twentydown",
};
const HAND = 5;            // cards a hand of 120s or Twenty Down holds
const SPADES_HAND = 13;

export function family(ruleSet) {
  return FAMILY[ruleSet] || null;
}

// What the deal of one rule set looks like, from its committed rules ({id, players, settings}).
export function layout(rules) {
  const n = rules.players;
  const s = rules.settings || {};
  switch (rules.id) {
    case "120s-auction":
      return { id: "120s-auction-4", family: "onetwenty", n, pack: PACK_52, kitty: 4, kittyDealt: "between-rounds", teaser: !!s.kitty_teaser,
        reshuffleThrown: !!s.shuffle_thrown_back, thrownInMovesDealer: s.everybody_passes === "next-dealer" };
    case "120s-house":
      return { id: `120s-five-then-kitty3-${n}`, family: "onetwenty", n, pack: PACK_52, kitty: 3, kittyDealt: "after", teaser: false,
        reshuffleThrown: false, thrownInMovesDealer: false };
    case "120s-traditional":
      return { id: `120s-five-then-kitty${s.teaser ? 4 : 3}-${n}`, family: "onetwenty", n, pack: PACK_52,
        kitty: s.teaser ? 4 : 3, kittyDealt: "after", teaser: !!s.teaser,
        reshuffleThrown: false, thrownInMovesDealer: true };
    case "spades":
      return { id: `spades-${n}`, family: "spades", n, pack: PACK_52 };
    case "twenty-down": {
      const first = s.three_first_cards ? 3 : 2;
      return { id: `twenty-down-${first}-${HAND - first}`, family: "twentydown", n, pack: PACK_32, firstPacket: first };
    }
    default:
      return null;
  }
}

const left = (seat, n, k = 1) => (seat + k) % n;
const order = (dealer, n) => Array.from({ length: n }, (_, i) => left(dealer, n, 1 + i));

// Deck index -> seat (or "kitty"), and the index of the pack's top card.
export function dealPlan(lay, dealer) {
  const n = lay.n;
  const seats = order(dealer, n);
  const plan = [];
  if (lay.family === "onetwenty") {
    for (let round = 0; round < HAND; round++) {
      plan.push(...seats);
      if (lay.kittyDealt === "between-rounds" && round < lay.kitty) plan.push("kitty");
    }
    if (lay.kittyDealt === "after") for (let i = 0; i < lay.kitty; i++) plan.push("kitty");
  } else if (lay.family === "spades") {
    for (let i = 0; i < n * SPADES_HAND; i++) plan.push(seats[i % n]);
  } else {       // Twenty Down: a packet each from the trump maker (the dealer's left), then the rest of the five
    for (const size of [lay.firstPacket, HAND - lay.firstPacket]) {
      for (const s of seats) for (let i = 0; i < size; i++) plan.push(s);
    }
  }
  return plan;
}

// Follows a game's move records hand by hand. `step(record)` says whether the record ended its hand, and how.
export class HandTracker {
  constructor(lay) {
    this.lay = lay;
    this.number = 0;           // pack index: every deal counts (thrown-in hands and new deals too)
    this.begin();
  }

  // A copy that steps on without moving this one (to look ahead through a batch of records).
  clone() {
    return Object.assign(Object.create(HandTracker.prototype), this);
  }

  begin() {
    this.trickDone = null;     // set by step(): the index (in its hand) of the trick the record completed
    this.moves = 0;
    this.passes = 0;
    this.bid = false;
    this.trumped = false;
    this.bids = 0;
    this.plays = 0;
    this.drops = 0;
  }

  // -> null (the hand goes on) or {how: "played" | "thrown-in" | "walkover" | "new-deal", dealerMoves: bool};
  // `trickDone` then tells whether the record completed a trick.
  step(record) {
    const { kind } = record.move || {};
    const lay = this.lay;
    const n = lay.n;
    this.moves++;
    this.trickDone = null;
    let end = null;
    if (lay.family === "onetwenty") {
      if (!this.trumped) {
        if (kind === "bid" || kind === "mine") this.bid = true;
        if (kind === "pass") this.passes++;
        if (kind === "trump") this.trumped = true;
        else if (kind === "redeal" || (!this.bid && this.passes === n)) {
          end = { how: "thrown-in", dealerMoves: lay.thrownInMovesDealer };
        }
      } else if (kind === "play" && ++this.plays === HAND * n) {
        end = { how: "played", dealerMoves: true };
      }
    } else if (lay.family === "spades") {
      if (kind === "play" && ++this.plays === SPADES_HAND * n) end = { how: "played", dealerMoves: true };
    } else {
      if (kind === "newdeal") end = { how: "new-deal", dealerMoves: false };
      if (kind === "drop" && ++this.drops === n - 1) end = { how: "walkover", dealerMoves: true };
      if (kind === "play" && ++this.plays === HAND * (n - this.drops)) end = { how: "played", dealerMoves: true };
    }
    if (kind === "play") {
      const inTrick = lay.family === "twentydown" ? n - this.drops : n;
      if (this.plays % inTrick === 0) this.trickDone = this.plays / inTrick - 1;
    }
    if (end) {
      const done = this.trickDone;
      this.number++;
      this.begin();
      this.trickDone = done;
    }
    return end;
  }
}

function sortCards(cards, pack) {
  const at = new Map(pack.map((c, i) => [c, i]));
  return [...cards].sort((a, b) => at.get(a) - at.get(b));
}

// Every deal of a game re-derived from the game seed (key: seedKey(game seed)), and the first record whose cards
// do not fit the deal; in fairdeal/2 also the end record's list of deals, which must be these, and which names
// the deals no move was made in. -> {deals: [...], firstDealer, problem: null | {seq, text}}
export async function dealGame(t, key) {
  const lay = layout(t.start.rules);
  const listed = t.end && Array.isArray(t.end.deals) ? t.end.deals : null;
  const n = lay.n;
  const dealerZero = await firstDealer(key, n);
  const deals = [];
  let dealer = dealerZero;
  let deal = null;
  const tracker = new HandTracker(lay);
  const fail = (seq, text) => ({ deals, firstDealer: dealerZero, problem: { seq, text } });
  const usedAt = new Map();       // card -> the record that took it out of its seat's hand, this deal

  const open = async (index = deals.length) => {
    const deck = await dealDeck(key, index, lay.pack);
    const plan = dealPlan(lay, dealer);
    const hands = Array.from({ length: n }, () => []);
    const kitty = [];
    plan.forEach((to, i) => (to === "kitty" ? kitty : hands[to]).push(deck[i]));
    deal = {
      index, dealer, deck, hands: hands.map((h) => sortCards(h, lay.pack)), kitty,
      teaser: lay.teaser ? kitty[kitty.length - 1] : null,
      pack: deck.slice(plan.length), draws: [], records: [], end: null, snaps: [],
      holding: hands.map((h) => new Set(h)), throws: 0,
    };
    deals.push(deal);
  };
  await open();
  let fresh = true;
  for (const rec of t.records) {
    if (!deal) await open();
    if (fresh) {
      const first = left(deal.dealer, n);
      if (rec.seat !== first) {
        const which = deal.index === 0 ? "with the dealer re-derived from the seed" :
          `with seat ${deal.dealer} dealing hand ${deal.index + 1}`;
        return fail(rec.seq, `record ${rec.seq}: the first move is by seat ${rec.seat}, but ${which} seat ${first} moves first`);
      }
      fresh = false;
    }
    deal.records.push(rec.seq);
    const move = rec.move || {};
    const hold = deal.holding[rec.seat];
    if (!hold) return fail(rec.seq, `record ${rec.seq}: there is no seat ${rec.seat}`);
    const used = move.kind === "play" ? [move.card] : move.kind === "throw" ? (move.cards || []) : [];
    for (const card of used) {
      if (!hold.has(card)) {
        const before = usedAt.get(card);
        if (before && before.seat === rec.seat) {
          // The seat used one card twice: one of the two records was changed. The first is blamed (a card
          // changed into one the seat plays later shows up at the later one); the sentence names both.
          return fail(before.seq, `record ${before.seq}: seat ${rec.seat} used ${card} there and again at record ${rec.seq}; the deal re-derived from the revealed seed gave it one ${card}, so one of the two records was changed (most likely record ${before.seq}, made into a card the seat played later)`);
        }
        return fail(rec.seq, `record ${rec.seq}: seat ${rec.seat} used ${card}, which the deal re-derived from the revealed seed did not give that seat`);
      }
      hold.delete(card);
      usedAt.set(card, { seq: rec.seq, seat: rec.seat });
    }
    if (lay.family === "onetwenty" && move.kind === "trump") {
      deal.kitty.forEach((c) => hold.add(c));    // the bidder names the suit, then picks up the kitty
      deal.bidder = rec.seat;
    }
    if (move.kind === "throw") {
      let drew;
      if (lay.family === "onetwenty") {
        if (lay.reshuffleThrown && used.length) {
          deal.pack.push(...await reshuffle(key, deal.index, deal.throws, used));
        }
        drew = Math.max(0, HAND - hold.size);
        deal.throws++;
      } else {
        drew = used.length;
      }
      const cards = deal.pack.splice(0, drew);
      cards.forEach((c) => hold.add(c));
      deal.draws.push({ seq: rec.seq, seat: rec.seat, threw: used, drew: sortCards(cards, lay.pack) });
    }
    const end = tracker.step(rec);
    // what every seat holds after this record, and whether it completed a trick: the replay's frames
    deal.snaps.push({ seq: rec.seq, trick: tracker.trickDone, hands: deal.holding.map((h) => sortCards([...h], lay.pack)) });
    if (end) {
      deal.end = end.how;
      if (end.dealerMoves) dealer = left(dealer, n);
      deal = null;
      usedAt.clear();
      fresh = true;
    }
  }
  if (listed) {
    if (!deal && listed.length > deals.length) await open();    // dealt after the last hand ended; no move yet
    for (const d of deals) {
      const say = listed[d.index];
      if (!say || say.hand !== d.index || say.dealer !== d.dealer) {
        return fail(d.records[0] ?? null, `the end record lists deal ${d.index} as ${say ? `dealt by seat ${say.dealer}` : "never made"}; the moves and the seed make it dealt by seat ${d.dealer}`);
      }
    }
    for (let i = deals.length; i < listed.length; i++) {
      if (listed[i].hand !== i) return fail(null, `the end record's deal ${i} is numbered ${listed[i].hand}`);
      dealer = listed[i].dealer;
      await open(i);
    }
    if (listed.length !== deals.length) {
      return fail(null, `the end record lists ${listed.length} deal(s); the moves were made in ${deals.length}`);
    }
  }
  for (const d of deals) delete d.holding;
  return { deals, firstDealer: dealerZero, problem: null };
}
