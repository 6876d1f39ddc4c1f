// Reading and checking a transcript (docs/transcript.md) of fairdeal/2 and of fairdeal/1: the strict structure,
// record hashes, the header records, the client-seed commitments and reveals, the hash chain and the commitment,
// as the Python verifier's reader.py and integrity.py do them.

import { canonicalBytes, canonicalText, isObject, readStrict, ReadError } from "./canonical.js";
import { isHex64 } from "./bytes.js";
import { clientSeedCommitment, commitment, validateClientSeed } from "./fairness.js";
import { sha256Hex } from "./hash.js";

export const PROTOCOLS = ["fairdeal/1", "fairdeal/2"];
// "stand-in": the table's bot playing a seated player's seat while the player is away (fairdeal/2)
export const BY = ["player", "bot", "timeout", "stand-in"];
const HEADERS = { "fairdeal/1": ["commit", "start"], "fairdeal/2": ["commit", "seating", "start"] };

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
const HEX = "64 hex digits";

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

function each(list, where, check) {
  list.forEach((item, i) => check(item, `${where}[${i}]`));
}

const RULES = { id: "text", players: "integer", settings: "object", version: "integer" };
const REPEATED = { protocol: "text", game_id: "text", rules: "object", commitment: HEX, key: "text" };

// The members of each record, by protocol (docs/transcript.md, "Records" and "fairdeal/1").
const SPEC = {
  "fairdeal/1": {
    top: [{ protocol: "text", commit: "object", commit_signature: "text", records: "list" },
      { start: "object", start_signature: "text", end: "object", signature: "text" }],
    commit: { type: "text", ...REPEATED, created: "text" },
    startSeat: { seat: "integer", name: "text", bot: "true or false", client_seed: ["text", "null"] },
    end: [{ type: "text", seq: "integer", prev: HEX, reason: "text", server_seed: HEX, result: ["object", "null"],
      ended: "text" }, {}],
    reasons: ["finished", "abandoned", "cancelled"],
  },
  "fairdeal/2": {
    top: [{ protocol: "text", commit: "object", commit_signature: "text", records: "list" },
      { seating: "object", seating_signature: "text", start: "object", start_signature: "text", end: "object",
        signature: "text", log: "object", blind: "object" }],
    commit: { type: "text", ...REPEATED, deal_layout: "text", created: "text" },
    seatingSeat: { seat: "integer", name: "text", bot: "true or false", client_seed_commitment: [HEX, "null"] },
    startSeat: { seat: "integer", name: "text", bot: "true or false", client_seed_commitment: [HEX, "null"],
      client_seed: ["text", "null"], nonce: [HEX, "null"] },
    end: [{ type: "text", seq: "integer", prev: HEX, reason: "text", server_seed: HEX, result: ["object", "null"],
      deals: "list", ended: "text" }, { reveals: "list", unrevealed: "list" }],
    reasons: ["finished", "abandoned", "cancelled", "not-revealed", "no-humans", "move-cap", "aborted"],
  },
};
const MOVE = [{ type: "text", seq: "integer", prev: HEX, seat: "integer", by: "text", move: "object", salt: HEX },
  { at: "text" }];

// The transcript as an object, or TranscriptError (ReadError for text that is not strict JSON) saying why it
// cannot be read. Hashes, signatures, commitments and reveals are the check functions' business.
export function parseTranscript(input) {
  const obj = typeof input === "string" ? readStrict(input) : input;
  if (!isObject(obj) || (!Object.hasOwn(obj, "protocol") && !Object.hasOwn(obj, "commit"))) {
    throw new TranscriptError('This is not a fairdeal transcript (no "protocol" and no "commit").');
  }
  if (!PROTOCOLS.includes(obj.protocol)) {
    throw new TranscriptError(`This transcript uses protocol '${obj.protocol}'; this page knows ${PROTOCOLS.join(", ")}.`);
  }
  const spec = SPEC[obj.protocol];
  fields(obj, "The transcript", ...spec.top);
  for (const name of HEADERS[obj.protocol].slice(1)) {
    if (Object.hasOwn(obj, name) !== Object.hasOwn(obj, `${name}_signature`)) {
      throw new TranscriptError(`The transcript has a ${name} record without its signature, or the other way round.`);
    }
  }
  // fairdeal/2's optional board member: a duplicate tournament's table (docs/tournaments.md, "Tables")
  fields(obj.commit, "commit", spec.commit, obj.protocol === "fairdeal/2" ? { board: "object" } : {});
  if (obj.commit.board) {
    fields(obj.commit.board, "commit.board", { tournament_id: "text", round: "integer", table: "integer", board_commitment: HEX });
  }
  type(obj.commit, "commit", "commit");
  fields(obj.commit.rules, "commit.rules", RULES);
  if (obj.seating) {
    fields(obj.seating, "seating", { type: "text", ...REPEATED, seats: "list", reveal_deadline: ["text", "null"],
      seated: "text" });
    type(obj.seating, "seating", "seating");
    fields(obj.seating.rules, "seating.rules", RULES);
    each(obj.seating.seats, "seating.seats", (s, w) => fields(s, w, spec.seatingSeat));
  }
  if (obj.start) {
    if (obj.protocol !== "fairdeal/1" && !obj.seating) throw new TranscriptError("The transcript has a start record but no seating.");
    fields(obj.start, "start", { type: "text", ...REPEATED, seats: "list", clocks: "object", started: "text" });
    type(obj.start, "start", "start");
    fields(obj.start.rules, "start.rules", RULES);
    each(obj.start.seats, "start.seats", (s, w) => fields(s, w, spec.startSeat));
    for (const [name, value] of Object.entries(obj.start.clocks)) {
      if (!(value === null || Number.isSafeInteger(value))) {
        throw new TranscriptError(`start.clocks.${name} should be an integer or null.`);
      }
    }
  } else if (obj.records.length) {
    throw new TranscriptError("The transcript has moves but no start record.");
  }
  each(obj.records, "records", (rec, where) => {
    fields(rec, where, ...MOVE);
    type(rec, where, "move");
    if (!BY.includes(rec.by)) throw new TranscriptError(`${where}.by should be one of ${BY.join(", ")}, not '${rec.by}'.`);
  });
  if (obj.end) {
    const { end } = obj;
    fields(end, "end", ...spec.end);
    type(end, "end", "end");
    if (!spec.reasons.includes(end.reason)) {
      throw new TranscriptError(`end.reason should be one of ${spec.reasons.join(", ")}, not '${end.reason}'.`);
    }
    if (end.deals) each(end.deals, "end.deals", (d, w) => fields(d, w, { hand: "integer", dealer: "integer" }));
    const aborted = !!obj.seating && !obj.start;
    if (Object.hasOwn(end, "reveals") !== Object.hasOwn(end, "unrevealed") || Object.hasOwn(end, "reveals") !== aborted) {
      throw new TranscriptError("The end record names reveals exactly when the table was seated and never started.");
    }
    if (aborted) {
      each(end.reveals, "end.reveals", (r, w) => fields(r, w, { seat: "integer", client_seed: "text", nonce: HEX }));
      if (!end.unrevealed.every(Number.isSafeInteger)) throw new TranscriptError("end.unrevealed should be a list of seats.");
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

// The header records present, in order (commit, seating, start); the chain hangs from the last one.
export function headers(t) {
  return HEADERS[t.protocol].filter((name) => t[name]);
}

// Equal as JSON values (both come from a parsed transcript, so both have a canonical form).
function same(a, b) {
  return canonicalText(a) === canonicalText(b);
}

export function checkHeader(t) {
  const problems = [];
  const { commit } = t;
  const names = headers(t);
  for (const name of names) {
    if (t[name].protocol !== t.protocol) {
      problems.push(`The ${name} record names protocol '${t[name].protocol}', the transcript '${t.protocol}'.`);
    }
  }
  for (const name of names.slice(1)) {
    const rec = t[name];
    for (const member of ["game_id", "rules", "commitment", "key"]) {
      if (!same(rec[member], commit[member])) problems.push(`The ${name} record's ${member} differs from the commit record's.`);
    }
    if (rec.seats.some((s, i) => s.seat !== i)) problems.push(`The ${name} record's seats are not numbered 0, 1, 2, ... in order.`);
    if (rec.seats.length !== commit.rules.players) {
      problems.push(`The rules are for ${commit.rules.players} players but the ${name} record lists ${rec.seats.length} seats.`);
    }
  }
  const { seating, start } = t;
  if (seating) {
    const committed = seating.seats.some((s) => s.client_seed_commitment !== null);
    if (committed !== (seating.reveal_deadline !== null)) {
      problems.push("The seating record has a reveal deadline when no seat committed, or none when one did.");
    }
    if (start) {
      seating.seats.forEach((a, i) => {
        const b = start.seats[i];
        const member = ["seat", "name", "bot", "client_seed_commitment"].find((m) => !b || a[m] !== b[m]);
        if (member) problems.push(`Seat ${i} of the start record is not the seating's (its ${member} differs).`);
      });
    }
  }
  return problems;
}

async function opens(gameId, protocol, commitmentHex, seed, nonce) {
  if (validateClientSeed(seed) || !isHex64(nonce)) return false;
  return await clientSeedCommitment(protocol, gameId, seed, nonce) === commitmentHex;
}

// Problems with the client seeds: bots give none; fairdeal/2: every revealed seed and nonce open the seat's
// commitment and every committed seat revealed (or, for a table that ended before its start, the end names exactly
// the committed seats that did not). mine: [[seat, seed]] the player gave.
export async function checkClientSeeds(t, mine = []) {
  const problems = [];
  const { start, seating, end } = t;
  const gid = t.commit.game_id;
  if (t.protocol === "fairdeal/1") {
    for (const s of start ? start.seats : []) {
      if (s.client_seed === null) continue;
      if (s.bot) problems.push(`Seat ${s.seat} is a bot but has a client seed.`);
      const why = validateClientSeed(s.client_seed);
      if (why) problems.push(`Seat ${s.seat}'s client seed is not valid: ${why}`);
    }
  } else {
    for (const s of seating ? seating.seats : []) {
      if (s.bot && s.client_seed_commitment !== null) problems.push(`Seat ${s.seat} is a bot but committed to a client seed.`);
    }
    if (start) {
      for (const s of start.seats) {
        if (s.bot && s.client_seed !== null) problems.push(`Seat ${s.seat} is a bot but has a client seed.`);
        else if (s.client_seed_commitment === null) {
          if (s.client_seed !== null || s.nonce !== null) problems.push(`Seat ${s.seat} reveals a seed it never committed to.`);
        } else if (s.client_seed === null || s.nonce === null) {
          problems.push(`Seat ${s.seat} committed to a client seed but the start record does not reveal it.`);
        } else if (!await opens(gid, t.protocol, s.client_seed_commitment, s.client_seed, s.nonce)) {
          problems.push(`Seat ${s.seat}'s revealed seed and nonce do not open its commitment ${s.client_seed_commitment.slice(0, 16)}...`);
        }
      }
    } else if (seating && end) {
      const commitments = new Map(seating.seats.map((s) => [s.seat, s.client_seed_commitment]));
      const revealed = new Set();
      for (const r of end.reveals) {
        if (revealed.has(r.seat)) { problems.push(`Seat ${r.seat} reveals twice.`); continue; }
        revealed.add(r.seat);
        if (!commitments.get(r.seat)) problems.push(`Seat ${r.seat} reveals a seed it never committed to.`);
        else if (!await opens(gid, t.protocol, commitments.get(r.seat), r.client_seed, r.nonce)) {
          problems.push(`Seat ${r.seat}'s reveal does not open its commitment.`);
        }
      }
      const actual = [...commitments].filter(([s, c]) => c !== null && !revealed.has(s)).map(([s]) => s).sort((a, b) => a - b);
      if ([...end.unrevealed].sort((a, b) => a - b).join() !== actual.join() || new Set(end.unrevealed).size !== end.unrevealed.length) {
        problems.push(`The end record names seats [${end.unrevealed}] as not revealed; the committed seats without a reveal are [${actual}].`);
      }
    }
  }
  const seeds = revealedSeeds(t);
  for (const [seat, given] of mine) {
    if (!(seat >= 0 && seat < t.commit.rules.players)) problems.push(`there is no seat ${seat}`);
    else if (seeds.get(seat) === undefined || seeds.get(seat) === null) {
      problems.push(`seat ${seat} revealed no client seed, not the ${JSON.stringify(given)} you gave`);
    } else if (seeds.get(seat) !== given) {
      problems.push(`seat ${seat}'s client seed in the transcript is ${JSON.stringify(seeds.get(seat))}, not the ${JSON.stringify(given)} you gave`);
    }
  }
  return problems;
}

// Seat -> the client seed it gave (null: none), from the start record or, before a start, the end's reveals.
export function revealedSeeds(t) {
  if (t.start) return new Map(t.start.seats.map((s) => [s.seat, s.client_seed]));
  return new Map(((t.end && t.end.reveals) || []).map((r) => [r.seat, r.client_seed]));
}

// [{seq, problem}] for every break of the chain: numbering and each record's hash of the one before.
export async function checkChain(t) {
  const problems = [];
  const anchorName = headers(t).pop();
  let prev = await recordHash(t[anchorName]);
  const chained = [...t.records, ...(t.end ? [t.end] : [])];
  for (let i = 1; i <= chained.length; i++) {
    const rec = chained[i - 1];
    const isEnd = rec.type === "end";
    const name = isEnd ? "The end record" : `Move record ${i}`;
    if (rec.seq !== i) problems.push({ seq: isEnd ? null : i, problem: `${name} has sequence number ${rec.seq}; ${i} was expected.` });
    if (rec.prev !== prev) {
      const before = i === 1 ? `the ${anchorName} record` : `record ${i - 1}`;
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

// What the final signature covers: the transcript without its "signature" (and, in fairdeal/2, its "log").
export function transcriptBody(t) {
  const body = {};
  for (const [k, v] of Object.entries(t)) if (k !== "signature" && k !== "log") body[k] = v;
  return canonicalBytes(body);
}
