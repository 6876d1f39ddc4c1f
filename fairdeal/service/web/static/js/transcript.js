// Reading and checking a transcript (docs/transcript.md): the strict structure, record hashes, the header, the
// hash chain and the commitment, as the Python verifier's fairdeal/verifier/transcript.py does them.

import { canonicalBytes, canonicalText, isObject, readStrict, ReadError } from "./canonical.js";
import { isHex64 } from "./bytes.js";
import { commitment, validateClientSeed } from "./fairness.js";
import { sha256Hex } from "./hash.js";

export const PROTOCOLS = ["fairdeal/1"];
export const BY = ["player", "bot", "timeout"];
export const REASONS = ["finished", "abandoned", "cancelled"];

export class TranscriptError extends Error {}

export async function recordHash(record) {
  return sha256Hex(canonicalBytes(record));
}

const KINDS = {
  text: (v) => typeof v === "string",
  integer: (v) => Number.isSafeInteger(v),
  "true or false": (v) => typeof v === "boolean",
  object: isObject,
  list: Array.isArray,
  "64 hex digits": isHex64,
  null: (v) => v === null,
};

function fields(obj, where, required, optional = {}) {
  if (!isObject(obj)) throw new TranscriptError(`${where} is not a JSON object.`);
  for (const key of Object.keys(obj)) {
    if (!(key in required) && !(key in optional)) throw new TranscriptError(`${where} has an unknown field '${key}'.`);
  }
  for (const [key, kinds] of Object.entries({ ...required, ...optional })) {
    if (!Object.hasOwn(obj, key)) {
      if (key in required) throw new TranscriptError(`${where} has no '${key}'.`);
      continue;
    }
    const allowed = [].concat(kinds);
    if (!allowed.some((k) => KINDS[k](obj[key]))) {
      throw new TranscriptError(`${where}.${key} should be ${allowed.join(" or ")}.`);
    }
  }
}

function type(obj, where, expected) {
  if (obj.type !== expected) throw new TranscriptError(`${where}.type should be '${expected}', not '${obj.type}'.`);
}

const RULES = { id: "text", players: "integer", settings: "object", version: "integer" };
const HEX = "64 hex digits";

// The transcript as an object, or TranscriptError (ReadError for text that is not strict JSON) saying why it
// cannot be read. Hashes, signatures and the commitment are the check functions' business.
export function parseTranscript(input) {
  const obj = typeof input === "string" ? readStrict(input) : input;
  if (!isObject(obj) || (!Object.hasOwn(obj, "protocol") && !Object.hasOwn(obj, "commit"))) {
    throw new TranscriptError('This is not a fairdeal transcript (no "protocol" and no "commit").');
  }
  if (!PROTOCOLS.includes(obj.protocol)) {
    throw new TranscriptError(`This transcript uses protocol '${obj.protocol}'; this page knows ${PROTOCOLS.join(", ")}.`);
  }
  fields(obj, "The transcript", { protocol: "text", commit: "object", commit_signature: "text", records: "list" },
    { start: "object", start_signature: "text", end: "object", signature: "text" });
  if (Object.hasOwn(obj, "start") !== Object.hasOwn(obj, "start_signature")) {
    throw new TranscriptError("The transcript has a start record without its signature, or the other way round.");
  }
  const { commit } = obj;
  fields(commit, "commit", { type: "text", protocol: "text", game_id: "text", rules: "object", commitment: HEX,
    key: "text", created: "text" });
  type(commit, "commit", "commit");
  fields(commit.rules, "commit.rules", RULES);
  if (obj.start) {
    const { start } = obj;
    fields(start, "start", { type: "text", protocol: "text", game_id: "text", rules: "object", commitment: HEX,
      seats: "list", clocks: "object", key: "text", started: "text" });
    type(start, "start", "start");
    fields(start.rules, "start.rules", RULES);
    start.seats.forEach((seat, i) => fields(seat, `start.seats[${i}]`,
      { seat: "integer", name: "text", bot: "true or false", client_seed: ["text", "null"] }));
    for (const [name, value] of Object.entries(start.clocks)) {
      if (!(value === null || Number.isSafeInteger(value))) {
        throw new TranscriptError(`start.clocks.${name} should be an integer or null.`);
      }
    }
  } else if (obj.records.length) {
    throw new TranscriptError("The transcript has moves but no start record.");
  }
  obj.records.forEach((rec, i) => {
    const where = `records[${i}]`;
    fields(rec, where, { type: "text", seq: "integer", prev: HEX, seat: "integer", by: "text", move: "object",
      salt: HEX }, { at: "text" });
    type(rec, where, "move");
    if (!BY.includes(rec.by)) throw new TranscriptError(`${where}.by should be one of ${BY.join(", ")}, not '${rec.by}'.`);
  });
  if (obj.end) {
    fields(obj.end, "end", { type: "text", seq: "integer", prev: HEX, reason: "text", server_seed: HEX,
      result: ["object", "null"], ended: "text" });
    type(obj.end, "end", "end");
    if (!REASONS.includes(obj.end.reason)) {
      throw new TranscriptError(`end.reason should be one of ${REASONS.join(", ")}, not '${obj.end.reason}'.`);
    }
  } else if (Object.hasOwn(obj, "signature")) {
    throw new TranscriptError("The transcript has a final signature but no end record.");
  }
  return obj;
}

export { ReadError };

// The protocol a transcript names, when it is an object that names one (to word an unknown protocol's failure).
export function namedProtocol(text) {
  try {
    const obj = readStrict(text);
    return isObject(obj) ? obj.protocol : undefined;
  } catch {
    return undefined;
  }
}

// Equal as JSON values (both come from a parsed transcript, so both have a canonical form).
function same(a, b) {
  return canonicalText(a) === canonicalText(b);
}

export function checkHeader(t) {
  const problems = [];
  const { commit, start } = t;
  for (const [rec, name] of [[commit, "commit"], [start, "start"]]) {
    if (rec && rec.protocol !== t.protocol) {
      problems.push(`The ${name} record names protocol '${rec.protocol}', the transcript '${t.protocol}'.`);
    }
  }
  if (!start) return { header: problems, seeds: [] };
  for (const field of ["game_id", "rules", "commitment", "key"]) {
    if (!same(start[field], commit[field])) problems.push(`The start record's ${field} differs from the commit record's.`);
  }
  const { seats } = start;
  if (seats.some((s, i) => s.seat !== i)) problems.push("The seats are not numbered 0, 1, 2, ... in order.");
  if (seats.length !== commit.rules.players) {
    problems.push(`The rules are for ${commit.rules.players} players but ${seats.length} seats are listed.`);
  }
  const seedProblems = [];
  for (const s of seats) {
    if (s.bot && s.client_seed !== null) seedProblems.push(`Seat ${s.seat} is a bot but has a client seed.`);
    if (s.client_seed !== null) {
      const why = validateClientSeed(s.client_seed);
      if (why) seedProblems.push(`Seat ${s.seat}'s client seed is not valid: ${why}`);
    }
  }
  return { header: problems, seeds: seedProblems };
}

// [{seq, problem}] for every break of the chain: numbering and each record's hash of the one before.
export async function checkChain(t) {
  const problems = [];
  const anchor = t.start || t.commit;
  let prev = await recordHash(anchor);
  const chained = [...t.records, ...(t.end ? [t.end] : [])];
  for (let i = 1; i <= chained.length; i++) {
    const rec = chained[i - 1];
    const isEnd = rec.type === "end";
    const name = isEnd ? "The end record" : `Move record ${i}`;
    if (rec.seq !== i) problems.push({ seq: isEnd ? null : i, problem: `${name} has sequence number ${rec.seq}; ${i} was expected.` });
    if (rec.prev !== prev) {
      const before = i === 1 ? (t.start ? "the start record" : "the commit record") : `record ${i - 1}`;
      problems.push({ seq: isEnd ? null : i, problem: `${name} does not carry the hash of ${before} (the chain is broken there).` });
    }
    prev = await recordHash(rec);
  }
  return problems;
}

export async function checkCommitment(t) {
  if (!t.end) return ["The game has not ended: the server seed is not revealed yet, so the commitment cannot be checked."];
  const expected = await commitment(t.protocol, t.end.server_seed, t.commit.game_id, t.commit.rules);
  return expected === t.commit.commitment ? [] :
    ["The revealed server seed does not match the commitment published before the game."];
}

// What the final signature covers: the transcript without its "signature".
export function transcriptBody(t) {
  const body = {};
  for (const [k, v] of Object.entries(t)) if (k !== "signature") body[k] = v;
  return canonicalBytes(body);
}
