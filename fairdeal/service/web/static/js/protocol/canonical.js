// Canonical JSON (docs/transcript.md, "Canonical JSON"): the one byte form hashes and signatures cover, and a
// strict reader that refuses what has no canonical form (fractions, exponents, integers past 2^53 - 1, a key
// twice in one object, lone surrogates) instead of quietly changing it, as JSON.parse would.

import { utf8 } from "./bytes.js";

export const MAX_SAFE_INT = Number.MAX_SAFE_INTEGER;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const MAX_DEPTH = 200;

export class CanonicalError extends Error {}

// Keys sorted by Unicode code point (JavaScript's own string order is by UTF-16 unit: it differs above U+FFFF).
function byCodePoint(a, b) {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

export function canonicalText(value, path = "$") {
  if (value === null || value === true || value === false) return String(value);
  if (typeof value === "number") {
    if (!Number.isInteger(value) || Math.abs(value) > MAX_SAFE_INT) {
      throw new CanonicalError(`${path}: ${value} is not an integer within +-(2**53 - 1)`);
    }
    return String(value === 0 ? 0 : value);
  }
  if (typeof value === "string") {
    if (LONE_SURROGATE.test(value)) throw new CanonicalError(`${path}: a string with a lone surrogate`);
    return JSON.stringify(value);      // escapes exactly '"', '\' and U+0000..U+001F, lowercase hex
  }
  if (Array.isArray(value)) return "[" + value.map((v, i) => canonicalText(v, `${path}[${i}]`)).join(",") + "]";
  if (typeof value === "object") {
    const keys = Object.keys(value).sort(byCodePoint);
    return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonicalText(value[k], `${path}.${k}`)).join(",") + "}";
  }
  throw new CanonicalError(`${path}: ${typeof value} is not a JSON value`);
}

export function canonicalBytes(value) {
  return utf8(canonicalText(value));
}

// ------------------------------------------------------------------------------------------ strict reader

export class ReadError extends Error {}

const WS = /[ \t\n\r]*/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

// Reads JSON text as the Python verifier does: objects as plain objects (a null prototype, so a key such as
// "__proto__" is just a key), integers as numbers. ReadError says why a text is not readable.
export function readStrict(text) {
  if (!text.trim()) throw new ReadError("The transcript is empty.");
  let at = 0;
  const ends = () => { throw new ReadError("The transcript is not complete JSON: it ends early (truncated?)."); };
  const bad = (what) => {
    if (at >= text.trimEnd().length) ends();
    throw new ReadError(`The transcript is not valid JSON: ${what} at character ${at + 1}.`);
  };
  const skip = () => { WS.lastIndex = at; WS.exec(text); at = WS.lastIndex; };
  const take = (re) => {
    re.lastIndex = at;
    const m = re.exec(text);
    if (m) at = re.lastIndex;
    return m;
  };
  const value = (depth) => {
    if (depth > MAX_DEPTH) throw new ReadError("The transcript is nested too deeply to be one.");
    skip();
    const ch = text[at];
    if (ch === undefined) ends();
    if (ch === "{") {
      at++;
      const obj = Object.create(null);
      skip();
      if (text[at] === "}") { at++; return obj; }
      for (;;) {
        skip();
        const key = take(STRING);
        if (!key) bad("expected a key in double quotes");
        const name = JSON.parse(key[0]);
        if (Object.prototype.hasOwnProperty.call(obj, name)) {
          throw new ReadError(`The key '${name}' appears twice in one object.`);
        }
        skip();
        if (text[at] !== ":") bad("expected ':'");
        at++;
        obj[name] = value(depth + 1);
        skip();
        if (text[at] === ",") { at++; continue; }
        if (text[at] === "}") { at++; return obj; }
        bad("expected ',' or '}'");
      }
    }
    if (ch === "[") {
      at++;
      const arr = [];
      skip();
      if (text[at] === "]") { at++; return arr; }
      for (;;) {
        arr.push(value(depth + 1));
        skip();
        if (text[at] === ",") { at++; continue; }
        if (text[at] === "]") { at++; return arr; }
        bad("expected ',' or ']'");
      }
    }
    if (ch === '"') {
      const m = take(STRING);
      if (!m) bad("a string that does not end, or holds a raw control character");
      const s = JSON.parse(m[0]);
      if (LONE_SURROGATE.test(s)) {
        throw new ReadError("The transcript holds a value that has no canonical JSON form: a string with a lone surrogate.");
      }
      return s;
    }
    for (const [word, v] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, at)) { at += word.length; return v; }
    }
    const num = take(NUMBER);
    if (num) {
      if (num[1] || num[2]) throw new ReadError(`A transcript holds integers only; ${num[0]} is not one.`);
      const n = Number(num[0]);
      if (!Number.isSafeInteger(n)) {
        throw new ReadError(`The transcript holds a value that has no canonical JSON form: integer ${num[0]} is outside +-(2**53 - 1).`);
      }
      return n === 0 ? 0 : n;
    }
    if (/^(NaN|-?Infinity)/.test(text.slice(at))) {
      throw new ReadError(`A transcript holds integers only; ${text.slice(at).match(/^(NaN|-?Infinity)/)[0]} is not one.`);
    }
    return bad("unexpected character");
  };
  const out = value(0);
  skip();
  if (at < text.length) bad("extra data after the JSON value");
  return out;
}

export function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
