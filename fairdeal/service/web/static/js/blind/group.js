// The group of "fairdeal-blind/1" in the browser (docs/blind.md, "Group"): P-256 x-coordinates, every operation
// a scalar multiplication. An element is the 32-byte x-coordinate X of the point 02‖X; mul(k, X) = x(k·P).
//
// Two forms of mul, checked against each other and the vectors by the tests:
//  - mulNoble: @noble/curves' constant-time Point.multiply (vendored, the general form; ~5 ms in Chromium);
//  - mul: the same x(k·P) from WebCrypto's ECDH on P-256 (BoringSSL in Chromium, constant time, ~0.4 ms), which is
//    what makes a deal fit in 200 ms. A browser whose WebCrypto refuses the key forms falls back to mulNoble.
// Scalars are BigInts; their arithmetic mod n is noble's scalar field (Fn).

import { P256 } from "../../vendor/noble-curves/noble-curves.js";
import { concat, fromHex, toHex, utf8 } from "../protocol/bytes.js";
import { sha256 } from "../protocol/hash.js";

export const N = P256.Fn.ORDER;
export const Fn = P256.Fn;
export const ELEMENT_BYTES = 32;
export const G = "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296";
const CARD_PREFIX = utf8("fairdeal-blind/1 card\x00");
const subtle = globalThis.crypto && globalThis.crypto.subtle;
const ECDH = { name: "ECDH", namedCurve: "P-256" };
// PKCS#8 of a P-256 private key without its public key (RFC 5915 ECPrivateKey, version 1, the curve by OID).
const PKCS8_HEAD = fromHex("3041020100301306072a8648ce3d020106082a8648ce3d030107042730250201010420");

export class BadElement extends Error {}

export function checkScalar(k) {
  if (typeof k !== "bigint" || k < 1n || k >= N) throw new Error("A scalar is an integer in [1, n-1].");
  return k;
}

export function scalarBytes(k) {
  return fromHex(checkScalar(k).toString(16).padStart(64, "0"));
}

export function scalarHex(k) {
  return toHex(scalarBytes(k));
}

export function scalarFromHex(text) {
  if (typeof text !== "string" || !/^[0-9a-f]{64}$/.test(text)) throw new Error("A scalar is 64 lowercase hex digits.");
  return checkScalar(BigInt("0x" + text));
}

export function bytesToInt(bytes) {
  return bytes.length ? BigInt("0x" + toHex(bytes)) : 0n;
}

export function inverse(k) {
  return Fn.inv(checkScalar(k));
}

export function product(scalars) {
  return scalars.reduce((acc, k) => Fn.mul(acc, checkScalar(k)), 1n);
}

// ------------------------------------------------------------------------------------------ decoding

const decoded = new Map(); // element hex -> noble point (its square root is the costly part): a small LRU
const DECODED_MAX = 4096;

// The point 02‖X, or BadElement. X is 32 bytes (a Uint8Array) or 64 lowercase hex digits.
export function point(x) {
  const hex = typeof x === "string" ? x : toHex(x);
  let p = decoded.get(hex);
  if (p) return p;
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new BadElement("An element is written as 64 lowercase hex digits.");
  try {
    p = P256.fromBytes(concat(Uint8Array.of(2), fromHex(hex)));
  } catch {
    throw new BadElement(`${hex} is not the x-coordinate of a P-256 point.`);
  }
  if (decoded.size >= DECODED_MAX) decoded.delete(decoded.keys().next().value);
  decoded.set(hex, p);
  return p;
}

export function isElement(x) {
  try {
    point(x);
    return true;
  } catch {
    return false;
  }
}

function xOf(p) {
  return fromHex(p.toAffine().x.toString(16).padStart(64, "0"));
}

// ------------------------------------------------------------------------------------------ mul

// x(k·P) by @noble/curves: the general form.
export function mulNoble(k, x) {
  return xOf(point(x).multiply(checkScalar(k)));
}

export function baseMulNoble(k) {
  return xOf(P256.BASE.multiply(checkScalar(k)));
}

let webCrypto = subtle ? null : false; // null: not tried yet; then true or false

async function privateKey(k) {
  return subtle.importKey("pkcs8", concat(PKCS8_HEAD, scalarBytes(k)), ECDH, true, ["deriveBits"]);
}

async function publicKey(x) {
  return subtle.importKey("raw", point(x).toBytes(false), ECDH, false, []);
}

async function useWebCrypto() {
  if (webCrypto === null) {
    try {
      const got = await exchange(await privateKey(2n), await publicKey(G));
      webCrypto = toHex(got) === toHex(mulNoble(2n, G));
    } catch {
      webCrypto = false;
    }
  }
  return webCrypto;
}

async function exchange(priv, pub) {
  return new Uint8Array(await subtle.deriveBits({ name: "ECDH", public: pub }, priv, 256));
}

// A scalar ready to multiply many elements: mulAll(xs) = [mul(k, x) for x in xs], the key imported once.
export async function multiplier(k) {
  checkScalar(k);
  if (!(await useWebCrypto())) return { mul: async (x) => mulNoble(k, x), mulAll: async (xs) => xs.map((x) => mulNoble(k, x)) };
  const priv = await privateKey(k);
  const one = async (x) => exchange(priv, await publicKey(x));
  return { mul: one, mulAll: (xs) => Promise.all(xs.map(one)) };
}

export async function mul(k, x) {
  return (await multiplier(k)).mul(x);
}

// x(k·G), the public half of a key pair (WebCrypto computed k·G importing the key).
export async function baseMul(k) {
  if (!(await useWebCrypto())) return baseMulNoble(k);
  const jwk = await subtle.exportKey("jwk", await privateKey(k));
  return fromBase64urlLoose(jwk.x);
}

function fromBase64urlLoose(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

export function usesWebCrypto() {
  return webCrypto === true;
}

// ------------------------------------------------------------------------------------------ card points

const cardPointCache = new Map();

// P_c: the first X = SHA-256("fairdeal-blind/1 card\0" ‖ c ‖ 0x00 ‖ ctr), ctr = 0, 1, ... that is an element.
export async function cardPoint(text) {
  for (let ctr = 0; ctr < 256; ctr++) {
    const x = await sha256(concat(CARD_PREFIX, utf8(text), Uint8Array.of(0, ctr)));
    if (isElement(x)) return toHex(x);
  }
  throw new Error("no card point within 256 tries");
}

// [cardPoint(c) for c in texts] as hex, each computed once per page.
export async function cardPoints(texts) {
  const out = [];
  for (const t of texts) {
    if (!cardPointCache.has(t)) cardPointCache.set(t, await cardPoint(t));
    out.push(cardPointCache.get(t));
  }
  return out;
}
