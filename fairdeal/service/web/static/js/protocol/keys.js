// Ed25519 public keys and signatures (docs/transcript.md, "Keys and signatures"), checked with WebCrypto.

import { fromBase64url, toHex } from "./bytes.js";
import { sha256 } from "./hash.js";

export const KEY_PREFIX = "ed25519:";

export class NoEd25519 extends Error {}

// The 32 raw bytes of a key text "ed25519:<base64url>", or an Error saying what is wrong with it.
export function publicKeyBytes(text) {
  if (typeof text !== "string" || !text.startsWith(KEY_PREFIX)) {
    throw new Error(`A public key is written '${KEY_PREFIX}' followed by 43 base64url characters.`);
  }
  let raw;
  try {
    raw = fromBase64url(text.slice(KEY_PREFIX.length));
  } catch {
    raw = new Uint8Array(0);
  }
  if (raw.length !== 32) {
    throw new Error(`A public key is '${KEY_PREFIX}' followed by the base64url form (no padding) of 32 bytes.`);
  }
  return raw;
}

export async function keyId(text) {
  return toHex(await sha256(publicKeyBytes(text))).slice(0, 16);
}

// Whether this browser checks Ed25519 signatures (WebCrypto in a secure context: https, localhost, a file).
export async function ed25519Available() {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) return false;
  try {
    await subtle.importKey("raw", new Uint8Array(32).fill(1), { name: "Ed25519" }, false, ["verify"]);
    return true;
  } catch {
    return false;
  }
}

// An object whose `verify(messageBytes, signatureText)` says whether the signature is good. Never throws for a
// bad signature text; NoEd25519 when the browser cannot check Ed25519 at all.
export async function verifier(keyText) {
  const raw = publicKeyBytes(keyText);
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) throw new NoEd25519("This page has no WebCrypto (open it over https, from localhost, or saved to disk).");
  let key;
  try {
    key = await subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]);
  } catch (exc) {
    if (exc && exc.name === "NotSupportedError") throw new NoEd25519("This browser cannot check Ed25519 signatures.");
    throw new Error("The key cannot be read as an Ed25519 key.");
  }
  return {
    async verify(message, signatureText) {
      let sig;
      try {
        sig = fromBase64url(signatureText);
      } catch {
        return false;
      }
      if (sig.length !== 64) return false;
      try {
        return await subtle.verify({ name: "Ed25519" }, key, sig, message);
      } catch {
        return false;
      }
    },
  };
}
