// Bytes and their text forms: UTF-8, lowercase hex, base64url without padding (docs/transcript.md, "Keys").

const encoder = new TextEncoder();

export function utf8(text) {
  return encoder.encode(text);
}

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function toHex(bytes) {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

export function isHex64(text) {
  return typeof text === "string" && /^[0-9a-f]{64}$/.test(text);
}

export function fromHex(text) {
  if (typeof text !== "string" || text.length % 2 || !/^[0-9a-fA-F]*$/.test(text)) {
    throw new Error("not hex: " + String(text).slice(0, 40));
  }
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

export function toBase64url(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = [18, 12, 6, 0].map((s) => B64URL[(n >> s) & 63]);
    out += chars.slice(0, Math.min(4, bytes.length - i + 1)).join("");
  }
  return out;
}

// Strict: the base64url alphabet only, no padding or whitespace, canonical spare bits (as the Python verifier).
export function fromBase64url(text) {
  if (typeof text !== "string" || text.length % 4 === 1 || /[^A-Za-z0-9_-]/.test(text)) {
    throw new Error("not base64url without padding");
  }
  const out = [];
  for (let i = 0; i < text.length; i += 4) {
    const chunk = text.slice(i, i + 4);
    let n = 0;
    for (let j = 0; j < 4; j++) n = (n << 6) | (j < chunk.length ? B64URL.indexOf(chunk[j]) : 0);
    const bytes = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
    out.push(...bytes.slice(0, chunk.length - 1));
  }
  const data = Uint8Array.from(out);
  if (toBase64url(data) !== text) throw new Error("not canonical base64url");
  return data;
}
