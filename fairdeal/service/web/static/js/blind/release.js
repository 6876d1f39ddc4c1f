// Key releases (docs/blind.md, "Releases"), as fairdeal/core/blind/release.py: seat s seals its lock b_{s,k,j} for
// holder h with a one-time pad only the two of them can make.
//   shared = x(e_s·E_h) = x(e_h·E_s)     pad = HKDF-SHA256(shared, salt = game id (UTF-8),
//   info = "fairdeal-blind/1 release|k|s|h|j", 32 bytes)      value = b (32 bytes big-endian) XOR pad, as hex

import { fromHex, toHex, utf8 } from "../protocol/bytes.js";
import { N, bytesToInt, mul, scalarBytes } from "./group.js";

const PAD_BYTES = 32;

export function sharedSecret(boxScalar, otherBoxKeyHex) {
  return mul(boxScalar, otherBoxKeyHex);
}

export async function pad(shared, game, deal, sender, holder, position) {
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey("raw", shared, "HKDF", false, ["deriveBits"]);
  const info = utf8(`fairdeal-blind/1 release|${deal}|${sender}|${holder}|${position}`);
  return new Uint8Array(await subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: utf8(game), info }, key, 8 * PAD_BYTES));
}

export function seal(lock, padBytes) {
  const b = scalarBytes(lock);
  return toHex(b.map((x, i) => x ^ padBytes[i]));
}

// The lock a release value carries, or null if it is no scalar in [1, n-1] (a wrong or garbled value).
export function unseal(value, padBytes) {
  if (typeof value !== "string" || !/^[0-9a-f]{64}$/.test(value)) return null;
  const k = bytesToInt(fromHex(value).map((x, i) => x ^ padBytes[i]));
  return k >= 1n && k < N ? k : null;
}
