// The messages of "fairdeal-blind/1" (docs/blind.md, "Messages"), signed with the seat's Ed25519 identity key by
// WebCrypto (Chromium has Ed25519; keys.js already checks signatures with it, so the page needs no second
// Ed25519 implementation). A signature covers "fairdeal-blind/1\n" ‖ canonical JSON of the message without "sig";
// "sig" is 128 lowercase hex, "sign_key" the raw public key in 64 hex, as fairdeal/core/blind/messages.py.

import { canonicalBytes } from "../protocol/canonical.js";
import { concat, fromHex, toHex, utf8 } from "../protocol/bytes.js";

export const PROTOCOL = "fairdeal-blind/1";
const SIGN_PREFIX = utf8("fairdeal-blind/1\n");
const subtle = globalThis.crypto && globalThis.crypto.subtle;
const ED = { name: "Ed25519" };
const PKCS8_HEAD = fromHex("302e020100300506032b657004220420"); // RFC 8410 OneAsymmetricKey, the 32-byte seed

export function signedBytes(message) {
  const body = Object.fromEntries(Object.entries(message).filter(([k]) => k !== "sig"));
  return concat(SIGN_PREFIX, canonicalBytes(body));
}

// A seat's identity key: its private seed (hex, what the page keeps) and its sign_key (hex, what it publishes).
export class Identity {
  static async generate() {
    const pair = await subtle.generateKey(ED, true, ["sign", "verify"]);
    const pkcs8 = new Uint8Array(await subtle.exportKey("pkcs8", pair.privateKey));
    return Identity.fromHex(toHex(pkcs8.slice(-32)));
  }

  static async fromHex(seedHex) {
    if (typeof seedHex !== "string" || !/^[0-9a-f]{64}$/.test(seedHex)) {
      throw new Error("An identity key is 32 bytes written as 64 lowercase hex digits.");
    }
    const priv = await subtle.importKey("pkcs8", concat(PKCS8_HEAD, fromHex(seedHex)), ED, true, ["sign"]);
    const jwk = await subtle.exportKey("jwk", priv);
    const id = new Identity();
    id.hex = seedHex;
    id.key = priv;
    id.signKey = toHex(Uint8Array.from(atob(jwk.x.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)));
    return id;
  }

  // The message with its "sig".
  async sign(message) {
    const body = Object.fromEntries(Object.entries(message).filter(([k]) => k !== "sig"));
    const sig = new Uint8Array(await subtle.sign(ED, this.key, signedBytes(body)));
    return { ...body, sig: toHex(sig) };
  }
}

// Whether "sig" is sign_key's signature over the message (false for any malformed key or signature).
export async function verifySignature(message, signKeyHex) {
  const sig = message && message.sig;
  if (typeof sig !== "string" || !/^[0-9a-f]{128}$/.test(sig)) return false;
  if (typeof signKeyHex !== "string" || !/^[0-9a-f]{64}$/.test(signKeyHex)) return false;
  try {
    const key = await subtle.importKey("raw", fromHex(signKeyHex), ED, false, ["verify"]);
    return await subtle.verify(ED, key, fromHex(sig), signedBytes(message));
  } catch {
    return false;
  }
}

export function message(game, seat, type, members) {
  return { game, seat, type, ...members };
}
