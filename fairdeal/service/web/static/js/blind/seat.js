// BlindSeat in the browser: everything one seat does at a dealer-blind table, step for step as
// fairdeal/core/blind/seat.py (docs/blind.md, "A seat's part"). The seat keeps σ and its identity key (and the
// cards it received); toJSON / fromJSON carry them across a reload (the table keeps them in localStorage).

import { PACK_52 } from "../protocol/fairness.js";
import { cardByPoint, lockDeck, shuffleDeck, unlock } from "./deal.js";
import { cardPoints, scalarFromHex, scalarHex } from "./group.js";
import { Secrets, newSecret } from "./derive.js";
import { Identity, message } from "./messages.js";
import { pad, seal, sharedSecret, unseal } from "./release.js";

// Another seat's message makes the deal impossible to go on with; `seat` is the seat at fault, or null when only
// the end's reveal can tell (a position that opens to no card).
export class BlindFault extends Error {
  constructor(text, seat) {
    super(text);
    this.seat = seat;
  }
}

export class BlindSeat {
  static async create({ game, seat, seats, secret = null, identity = null, pack = PACK_52 }) {
    if (!Number.isInteger(seat) || seat < 0 || seat >= seats) throw new Error("A seat is a number from 0 to seats - 1.");
    const s = new BlindSeat();
    Object.assign(s, { game, seat, seats, pack: [...pack] });
    s.secrets = await Secrets.of(secret === null ? newSecret() : secret);
    s.identity = identity === null ? await Identity.generate() : await Identity.fromHex(identity);
    s.boxScalar = await s.secrets.boxScalar();
    s.boxKey = await s.secrets.boxKey();
    s.shared = new Map();
    s.keys = new Map(); // "k|j" -> [b of seat 0..N-1] (BigInt) for each position this seat holds, once received
    s.cards = new Map(); // "k|j" -> card text
    return s;
  }

  get signKey() {
    return this.identity.signKey;
  }

  signed(type, members) {
    return this.identity.sign(message(this.game, this.seat, type, members));
  }

  async commit() {
    return this.signed("commit", { sign_key: this.signKey, box_key: this.boxKey, commitment: await this.secrets.commitment() });
  }

  // Seat 0 shuffles the card points (prev null); seat s > 0 the deck of seat s-1's shuffle.
  async shuffle(deal, prev) {
    if ((prev === null) !== (this.seat === 0)) {
      throw new Error("Seat 0 shuffles the card points; every other seat the previous seat's shuffle.");
    }
    const deck = prev === null ? await cardPoints(this.pack) : prev;
    return this.signed("shuffle", { deal, deck: await shuffleDeck(this.secrets, deal, deck) });
  }

  // Seat 0 locks the last seat's shuffled deck; seat s > 0 the deck of seat s-1's lock.
  async lock(deal, prev) {
    return this.signed("lock", { deal, deck: await lockDeck(this.secrets, deal, prev) });
  }

  async sharedWith(boxKey) {
    if (!this.shared.has(boxKey)) this.shared.set(boxKey, await sharedSecret(this.boxScalar, boxKey));
    return this.shared.get(boxKey);
  }

  // This seat's locks of every position dealt to another seat, each sealed for its holder alone.
  async release(deal, holders, boxKeys) {
    const keys = {};
    for (let j = 0; j < holders.length; j++) {
      const h = holders[j];
      if (h === null || h === this.seat) continue;
      const p = await pad(await this.sharedWith(boxKeys[h]), this.game, deal, this.seat, h, j);
      (keys[String(h)] ||= {})[String(j)] = seal(await this.secrets.lockScalar(deal, j), p);
    }
    return this.signed("release", { deal, keys });
  }

  // This seat's cards of the deal, {position: card}, from the final deck and every other seat's release
  // (releases[s], the signed message). Throws BlindFault if a key is missing or a position opens to no card.
  async receive(deal, finalDeck, releases, holders, boxKeys) {
    const byPoint = await cardByPoint(this.pack);
    const mine = {};
    for (let j = 0; j < holders.length; j++) {
      if (holders[j] !== this.seat) continue;
      const keys = [];
      for (let s = 0; s < this.seats; s++) {
        if (s === this.seat) {
          keys.push(await this.secrets.lockScalar(deal, j));
          continue;
        }
        const value = releases[s]?.keys?.[String(this.seat)]?.[String(j)];
        if (value === undefined) throw new BlindFault(`Seat ${s}'s release of deal ${deal} has no key for position ${j}.`, s);
        const p = await pad(await this.sharedWith(boxKeys[s]), this.game, deal, s, this.seat, j);
        const k = unseal(value, p);
        if (k === null) throw new BlindFault(`Seat ${s}'s release of deal ${deal} for position ${j} is no scalar.`, s);
        keys.push(k);
      }
      const card = byPoint.get(await unlock(keys, finalDeck[j]));
      if (card === undefined) {
        throw new BlindFault(`Position ${j} of deal ${deal} opens to no card; the reveal will name the seat.`, null);
      }
      this.keys.set(`${deal}|${j}`, keys);
      this.cards.set(`${deal}|${j}`, card);
      mine[j] = card;
    }
    return mine;
  }

  // The open of a received card, to play it: the card, its position and every seat's lock for it.
  open(deal, position) {
    const keys = this.keys.get(`${deal}|${position}`);
    if (!keys) throw new Error(`This seat holds no received card at position ${position} of deal ${deal}.`);
    const card = this.cards.get(`${deal}|${position}`);
    return this.signed("open", { deal, position, card, keys: keys.map(scalarHex) });
  }

  positionOf(deal, card) {
    for (const [key, c] of this.cards) {
      const [k, j] = key.split("|").map(Number);
      if (k === deal && c === card) return j;
    }
    return null;
  }

  hand(deal) {
    return [...this.cards].filter(([key]) => Number(key.split("|")[0]) === deal).map(([, c]) => c);
  }

  reveal() {
    return this.signed("reveal", { secret: this.secrets.hex });
  }

  // What the page keeps in localStorage: the form of seat.py's to_json.
  toJSON() {
    return {
      game: this.game, seat: this.seat, seats: this.seats, secret: this.secrets.hex, identity: this.identity.hex,
      pack: this.pack,
      cards: [...this.cards].map(([key, c]) => {
        const [k, j] = key.split("|").map(Number);
        return [k, j, c, this.keys.get(key).map(scalarHex)];
      }),
    };
  }

  static async fromJSON(data) {
    const s = await BlindSeat.create({
      game: data.game, seat: data.seat, seats: data.seats, secret: data.secret, identity: data.identity, pack: data.pack,
    });
    for (const [k, j, c, keys] of data.cards) {
      s.cards.set(`${k}|${j}`, c);
      s.keys.set(`${k}|${j}`, keys.map(scalarFromHex));
    }
    return s;
  }
}
