// A seat's secrets in "fairdeal-blind/1" (docs/blind.md, "Derivation"): everything derives from one 32-byte
// secret σ through the labelled HMAC-SHA256 streams of fairness.js (keyed by σ), as fairdeal/core/blind/derive.py.
//   scalar(label) = (int(stream(σ, label)[:48]) mod (n-1)) + 1
//   a_k = scalar("shuffle|k"), π_k = Fisher-Yates of [0..51] under "perm|k", b_{k,j} = scalar("lock|k|j"),
//   e = scalar("box"), E = x(e·G), commitment = SHA-256("fairdeal-blind/1 commit\0" ‖ σ).

import { concat, fromHex, toHex, utf8 } from "../protocol/bytes.js";
import { Stream, shuffle } from "../protocol/fairness.js";
import { hmacKey, sha256 } from "../protocol/hash.js";
import { N, baseMul, bytesToInt } from "./group.js";

export const SECRET_BYTES = 32;
const SCALAR_STREAM_BYTES = 48;
const COMMIT_PREFIX = utf8("fairdeal-blind/1 commit\x00");

export function newSecret() {
  return toHex(globalThis.crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

function count(v, what) {
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`A ${what} is a non-negative integer.`);
  return v;
}

// The derivations of one secret (64 lowercase hex), its HMAC key made once.
export class Secrets {
  static async of(secretHex) {
    if (typeof secretHex !== "string" || !/^[0-9a-f]{64}$/.test(secretHex)) {
      throw new Error("A seat secret is 32 bytes written as 64 lowercase hex digits.");
    }
    const s = new Secrets();
    s.hex = secretHex;
    s.bytes = fromHex(secretHex);
    s.key = await hmacKey(s.bytes);
    return s;
  }

  async scalar(label) {
    return (bytesToInt(await new Stream(this.key, label).read(SCALAR_STREAM_BYTES)) % (N - 1n)) + 1n;
  }

  shuffleScalar(deal) {
    return this.scalar(`shuffle|${count(deal, "deal number")}`);
  }

  permutation(deal, size) {
    return shuffle(this.key, `perm|${count(deal, "deal number")}`, Array.from({ length: size }, (_, i) => i));
  }

  lockScalar(deal, position) {
    return this.scalar(`lock|${count(deal, "deal number")}|${count(position, "position")}`);
  }

  boxScalar() {
    return this.scalar("box");
  }

  async boxKey() {
    return toHex(await baseMul(await this.boxScalar()));
  }

  async commitment() {
    return toHex(await sha256(concat(COMMIT_PREFIX, this.bytes)));
  }
}
