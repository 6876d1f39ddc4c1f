// The fairness protocol in the browser (docs/fairness.md): commitment, game seed, labelled HMAC streams,
// unbiased integers, Fisher-Yates shuffles over the documented pack orders, record salts, and the commitment to
// a client seed. The tests run it against the test vectors of docs/fairness.md and docs/transcript.md.

import { canonicalBytes } from "./canonical.js";
import { concat, fromHex, toHex, utf8 } from "./bytes.js";
import { hmacKey, sha256Hex } from "./hash.js";

export const SUITS = ["C", "D", "H", "S"];
const RANKS_52 = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const PACK_52 = SUITS.flatMap((s) => RANKS_52.map((r) => r + s));
export const PACK_32 = SUITS.flatMap((s) => RANKS_52.slice(5).map((r) => r + s));
const CANONICAL_INDEX = new Map(PACK_52.map((c, i) => [c, i]));

export const CLIENT_SEED_MAX = 128;

export function validateClientSeed(seed) {
  if (typeof seed !== "string") return "A client seed is a text of 1 to 128 printable ASCII characters.";
  if (seed.length < 1 || seed.length > CLIENT_SEED_MAX) {
    return `A client seed is 1 to ${CLIENT_SEED_MAX} characters long, not ${seed.length}.`;
  }
  const bad = [...seed].find((ch) => ch < " " || ch > "~");
  return bad === undefined ? null : `A client seed may use printable ASCII characters only (space to '~'), not ${JSON.stringify(bad)}.`;
}

export async function commitment(protocol, serverSeedHex, gameId, rules) {
  return sha256Hex(canonicalBytes({
    type: "commitment", protocol, game_id: gameId, rules, server_seed: serverSeedHex,
  }));
}

// The game seed: HMAC-SHA256 keyed by the server seed over every seat's client seed in seat order.
export async function gameSeed(protocol, serverSeedHex, clientSeeds) {
  const key = await hmacKey(fromHex(serverSeedHex));
  return key.sign(canonicalBytes({ type: "game-seed", protocol, client_seeds: clientSeeds }));
}

// The commitment a player publishes to its client seed before the seeds are revealed (fairdeal/2).
export async function clientSeedCommitment(protocol, gameId, clientSeed, nonceHex) {
  return sha256Hex(canonicalBytes({
    type: "client-seed", protocol, game_id: gameId, client_seed: clientSeed, nonce: nonceHex,
  }));
}

export function newNonce() {
  return toHex(globalThis.crypto.getRandomValues(new Uint8Array(32)));
}

// A random client seed a player need not type: 16 hex digits from the browser's CSPRNG.
export function randomClientSeed() {
  return toHex(globalThis.crypto.getRandomValues(new Uint8Array(8)));
}

// ------------------------------------------------------------------------------------------------ streams

function uint32be(i) {
  return Uint8Array.of((i >>> 24) & 255, (i >>> 16) & 255, (i >>> 8) & 255, i & 255);
}

// The keyed game seed: one HMAC key for every stream of one game.
export async function seedKey(gameSeedBytes) {
  return hmacKey(gameSeedBytes);
}

export class Stream {
  constructor(key, label) {
    if (!/^[!-~]+$/.test(label)) throw new Error(`bad label ${label}`);
    this.key = key;
    this.prefix = concat(utf8(label), Uint8Array.of(0));
    this.block = 0;
    this.buf = new Uint8Array(0);
    this.pos = 0;
  }

  async read(n) {
    while (this.buf.length - this.pos < n) {
      const next = await this.key.sign(concat(this.prefix, uint32be(this.block++)));
      this.buf = concat(this.buf.subarray(this.pos), next);
      this.pos = 0;
    }
    const out = this.buf.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  // A uniform integer in [0, n) by rejection sampling (docs/fairness.md, "Integers").
  async randbelow(n) {
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`randbelow needs a positive integer, not ${n}`);
    if (n === 1) return 0;
    let k = 0;
    while (256n ** BigInt(k) < BigInt(n)) k++;
    const limit = BigInt(n) * ((256n ** BigInt(k)) / BigInt(n));
    for (;;) {
      const bytes = await this.read(k);
      let x = 0n;
      for (const b of bytes) x = (x << 8n) | BigInt(b);
      if (x < limit) return Number(x % BigInt(n));
    }
  }
}

export async function shuffle(key, label, cards) {
  const deck = [...cards];
  const rng = new Stream(key, label);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = await rng.randbelow(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

export function canonicalOrder(cards) {
  return [...cards].sort((a, b) => CANONICAL_INDEX.get(a) - CANONICAL_INDEX.get(b));
}

export const labels = {
  firstDealer: "first-dealer",
  deal: (hand) => `deal/${hand}`,
  reshuffle: (hand, round) => `reshuffle/${hand}/${round}`,
  bot: (seq) => `bot/${seq}`,
  salt: (seq) => `salt/${seq}`,
};

export async function firstDealer(key, players) {
  return new Stream(key, labels.firstDealer).randbelow(players);
}

export async function dealDeck(key, hand, pack) {
  return shuffle(key, labels.deal(hand), pack);
}

export async function reshuffle(key, hand, round, cards) {
  return shuffle(key, labels.reshuffle(hand, round), canonicalOrder(cards));
}

export async function recordSalt(key, seq) {
  return toHex(await new Stream(key, labels.salt(seq)).read(32));
}
