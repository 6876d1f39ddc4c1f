// The checks of fairdeal-verify, in the browser: the same ids and titles (docs/verify.md), computed here from
// the transcript's own records. What needs the rules engine (the legality of each move, the bots' and the
// clock's choices, the final score) is left to fairdeal-verify, and the report says so.

import { fromHex, toHex } from "./bytes.js";
import { sha256Hex } from "./hash.js";
import { dealGame, layout } from "./deals.js";
import { gameSeed, recordSalt, seedKey } from "./fairness.js";
import { keyId, NoEd25519, verifier } from "./keys.js";
import { canonicalBytes } from "./canonical.js";
import { checkLogMember } from "./merkle.js";
import { BLIND_CHECKS, blindChecks, playsOpened, verifyBlind } from "../blind/verify.js";
import {
  checkChain, checkClientSeeds, checkCommitment, checkHeader, headers, namedProtocol, parseTranscript, PROTOCOLS,
  recordHash, transcriptBody,
} from "./transcript.js";

export const CHECKS = [
  ["protocol", "the transcript names a protocol version this verifier knows"],
  ["signature-start", "the commitment, the seating and the start record are signed by the server's key"],
  ["signature-transcript", "the whole transcript is signed by the server's key"],
  ["header", "the seating and start records repeat the committed game, rules and key, and seat the rules' players"],
  ["commitment", "the revealed server seed matches the commitment published before the game"],
  ["client-seeds", "every revealed client seed is the one its seat committed to, and all are bound into the game seed"],
  ["hash-chain", "every record carries the hash of the record before it, numbered without gaps, with the salt the seed derives"],
  ["blind-messages", "blind table: every seat's messages are in form and signed, and every secret opens its commit"],
  ["blind-deal", "blind table: every shuffle, lock and key release is the one its seat's revealed secret gives"],
  ["blind-opens", "blind table: every card played was opened by its holder with the keys of the final deck"],
  ["blind-blame", "blind table: every seat the end names at fault is at fault in the messages (no seat is framed)"],
  ["deals", "the first dealer and every deal, re-derived from the seed, hold the cards the moves use"],
  ["moves-legal", "every move was legal in its turn, written in its one form"],
  ["bot-moves", "every bot move is what the bot policy chooses from that bot's own view"],
  ["timeout-moves", "every timeout move is what the timeout policy chooses, at a table with a clock"],
  ["result", "the final scores and winner are the replay's"],
  ["receipts", "the receipts given are in the hash chain"],
  ["log-inclusion", "the game's commitment and ending are in the transparency log, under the signed tree head the transcript carries"],
  ["commitment-noted", "the commitment you noted before the game (--commitment) is this transcript's"],
];
// Checks that replay the moves through the rules engine: fairdeal-verify's.
export const ENGINE_CHECKS = ["moves-legal", "bot-moves", "timeout-moves", "result"];
export const PASS = "pass";
export const FAIL = "fail";
export const SKIP = "skip";
export const ELSEWHERE = "fairdeal-verify";

class Unusable extends Error {}

class Run {
  constructor() {
    this.done = new Map();
  }

  set(id, status, detail, seq = null) {
    const had = this.done.get(id);
    if (had && had.status === FAIL) return;       // the first failure of a check is the one reported
    this.done.set(id, { id, status, detail, seq });
  }

  fail(id, detail, seq = null) {
    this.set(id, FAIL, detail, seq);
  }

  checks(receiptsAsked, commitmentAsked) {
    return CHECKS.map(([id, title]) => {
      let c = this.done.get(id);
      if (!c && id === "receipts" && !receiptsAsked) c = { id, status: SKIP, detail: "no receipt was given", seq: null };
      if (!c && id === "commitment-noted" && !commitmentAsked) c = { id, status: SKIP, detail: "no commitment was noted", seq: null };
      if (!c && id === "log-inclusion") c = { id, status: SKIP, detail: "the transcript carries no transparency-log proof (no log member)", seq: null };
      if (!c) c = { id, status: SKIP, detail: "not checked", seq: null };
      return { ...c, title };
    });
  }
}

// 'SEQ:HASH' -> [seq, hash] and 'SEAT:SEED' -> [seat, seed]; Error with the sentence otherwise.
export function parseReceipt(text) {
  const m = /^\s*(\d+)\s*:\s*([0-9a-fA-F]{64})\s*$/.exec(text);
  if (!m) throw new Error(`A receipt is SEQ:HASH, the move's sequence number and the 64 hex digits the server gave back, not '${text}'.`);
  return [Number(m[1]), m[2].toLowerCase()];
}

// A commitment the player noted: all 64 hex digits or a prefix of at least 16 (the verifier's MIN_NOTED).
export function parseCommitment(text) {
  const digits = String(text).trim().toLowerCase();
  if (!/^[0-9a-f]{16,64}$/.test(digits)) {
    throw new Error(`The commitment you noted is 16 to 64 hex digits (the first ones of the 64), not '${text}'.`);
  }
  return digits;
}

export function parseClientSeed(text) {
  const m = /^\s*(\d+):(.*)$/s.exec(text);
  if (!m) throw new Error(`A client seed to check is SEAT:SEED, e.g. 2:my-lucky-words, not '${text}'.`);
  return [Number(m[1]), m[2]];
}

// options: {keys: [trusted key texts] (the service's published keys, or one the player pinned), receipts:
// [[seq, hash]], clientSeeds: [[seat, seed]], commitment: the hex digits noted before the game (parseCommitment)}. -> {ok, error, game, key, keySource, warnings, checks, deals}
export async function verifyTranscript(text, options = {}) {
  const run = new Run();
  const report = { ok: false, error: null, game: null, key: null, keySource: null, warnings: [], deals: null };
  try {
    await verify(run, report, text, options);
  } catch (exc) {
    if (exc instanceof Unusable) report.error = exc.message;
    else report.error = `The transcript could not be checked: ${exc && exc.message ? exc.message : exc}`;
  }
  report.checks = run.checks((options.receipts || []).length > 0, Boolean(options.commitment));
  report.ok = !report.error && report.checks.every((c) => c.status !== FAIL);
  report.failed = report.checks.filter((c) => c.status === FAIL).map((c) => c.id);
  return report;
}

// A tournament table's cards come from its round's board seed (docs/tournaments.md, "Tables"): the key its deals
// are derived under, once the seed given opens the commit's board commitment; null when no seed is given.
async function boardKey(board, boardSeed) {
  if (!boardSeed) return null;
  const opened = await sha256Hex(canonicalBytes({
    type: "board-commitment", protocol: "fairdeal-tournament/1", tournament_id: board.tournament_id,
    round: board.round, board_seed: boardSeed,
  }));
  if (opened !== board.board_commitment) throw new Unusable("The board seed given does not open the board commitment of the game's commit record.");
  return seedKey(fromHex(boardSeed));
}

async function verify(run, report, text, { keys = [], receipts = [], clientSeeds = [], commitment = null, boardSeed = null }) {
  let t;
  try {
    t = parseTranscript(typeof text === "string" ? text : JSON.stringify(text));
  } catch (exc) {
    const named = typeof text === "string" ? namedProtocol(text) : text && text.protocol;
    if (named !== undefined && !PROTOCOLS.includes(named)) {
      run.fail("protocol", `the transcript uses protocol '${named}'; this page knows ${PROTOCOLS.join(", ")}`);
    }
    throw new Unusable(exc.message);
  }
  run.set("protocol", PASS, `protocol ${t.protocol}`);
  const { commit, start, end, records } = t;
  report.game = summary(t);
  report.transcript = t;

  // --- signatures
  let key = commit.key;
  if (keys.length) {
    if (keys.includes(commit.key)) {
      report.keySource = "service";
    } else {
      const ids = await Promise.all(keys.map((k) => keyId(k).catch(() => k)));
      const problem = `the transcript is signed by key ${await keyId(commit.key).catch(() => commit.key)}, which is not the service's (${ids.join(", ")})`;
      run.fail("signature-start", problem);
      run.fail("signature-transcript", problem);
      key = null;
    }
  } else {
    report.keySource = "transcript";
    report.warnings.push("The signatures were checked only against the key the transcript carries, which anyone "
      + "could have made: this shows the transcript is intact, not that the service signed it. Give the service's "
      + "public key to check who signed it.");
  }
  report.key = key;
  if (key) await checkSignatures(run, t, key);
  if (t.log !== undefined) await checkLog(run, t, keys.length ? keys : [commit.key]);

  // --- header, commitment, chain, receipts
  const header = checkHeader(t);
  if (header.length) run.fail("header", header.join(" "));
  else run.set("header", PASS, start ? `the ${t.seating ? "seating and start records repeat" : "start record repeats"} the committed game, rules and key`
    : t.seating ? "the seating record repeats the committed game, rules and key; the table never started"
      : "the game was cancelled before it started (no start record)");
  const chain = await checkChain(t);
  const chainStatus = () => {
    if (chain.length) {
      const more = chain.length > 1 ? ` (${chain.length - 1} more break(s) after it)` : "";
      run.fail("hash-chain", chain[0].problem + more, chain[0].seq);
    } else {
      run.set("hash-chain", PASS, `${records.length + (end ? 1 : 0)} record(s) chained from the ${start ? "start" : "commit"} record`);
    }
  };
  if (!end) {
    chainStatus();
    throw new Unusable("The game has not ended: the server seed is not revealed yet, so it cannot be verified. Verify it once it has ended.");
  }
  if (commitment) checkNotedCommitment(run, commit.commitment, commitment);
  const commitmentProblems = await checkCommitment(t);
  if (commitmentProblems.length) run.fail("commitment", commitmentProblems.join(" "));
  else run.set("commitment", PASS, `SHA-256 of the revealed seed, game id, rules and protocol is ${commit.commitment.slice(0, 16)}..., as committed`);
  chainStatus();
  if (receipts.length) await checkReceipts(run, records, receipts);

  // --- client seeds, game seed, salts, deals
  const seeds = await checkClientSeeds(t, clientSeeds);
  if (!start) {
    if (seeds.length) run.fail("client-seeds", seeds.join("; "));
    else run.set("client-seeds", PASS, t.seating ? `the table never started: ${t.end.reveals.length} reveal(s), each opening its seat's commitment; not revealed: ${t.end.unrevealed.length ? `seat(s) ${t.end.unrevealed.join(", ")}` : "none"}`
      : "the game never started: no client seeds");
    for (const id of ["deals", "moves-legal", "bot-moves", "timeout-moves"]) {
      run.set(id, SKIP, "the game was cancelled before it started: nothing was dealt or played");
    }
    if (end.result === null) run.set("result", PASS, "the game was cancelled before it started; no result, as recorded");
    else run.fail("result", "the game never started but the end record carries a result");
    return;
  }
  const seedsOfSeats = start.seats.map((s) => s.client_seed);
  const seed = await gameSeed(t.protocol, end.server_seed, seedsOfSeats);
  if (seeds.length) run.fail("client-seeds", seeds.join("; "));
  else {
    const given = seedsOfSeats.filter((s) => s !== null).length;
    const opened = t.protocol === "fairdeal/1" ? "" : ", each opening the commitment its seat gave before the seeds were revealed";
    const mine = clientSeeds.length ? `; yours (${clientSeeds.map(([s]) => `seat ${s}`).join(", ")}) among them` : "";
    run.set("client-seeds", PASS, `${given} client seed(s)${opened}, bound with the server seed into game seed ${toHex(seed).slice(0, 16)}...${mine}`);
  }
  const keyed = await seedKey(seed);
  await checkSalts(run, keyed, records);
  const lay = layout(start.rules);
  if (!t.blind) for (const id of BLIND_CHECKS) run.set(id, SKIP, "not a blind table");
  if (!lay || (t.commit.deal_layout && t.commit.deal_layout !== lay.id)) {
    const named = t.commit.deal_layout ? ` (deal layout '${t.commit.deal_layout}')` : "";
    run.set("deals", SKIP, `this page does not know how rule set '${start.rules.id}' deals${named}: fairdeal-verify checks it`);
  } else if (t.blind && !await blindDecks(run, report, t)) {
    /* a deal the seats' messages cannot give: nothing to replay */
  } else if (t.commit.board && !boardSeed) {
    run.set("deals", SKIP, "a tournament table: its cards come from its round's board seed, revealed when the round ended (the tournament page links here with it)");
  } else {
    const dealKey = t.commit.board ? await boardKey(t.commit.board, boardSeed) : keyed;
    const dealt = await dealGame(t, dealKey, report.blind ? report.blind.decks : null);
    if (report.blind) {
      const opened = playsOpened(report.blind, t.records, dealt.deals);
      run.set("blind-opens", opened.status, opened.detail, opened.seq);
    }
    report.deals = dealt;
    if (dealt.problem) run.fail("deals", dealt.problem.text, dealt.problem.seq);
    else {
      const first = records.length ? `; seat ${records[0].seat} moved first as the seed's dealer requires` : "";
      const listed = Array.isArray(end.deals) ? "; the end record lists these deals" : "";
      const from = report.blind ? "by the seats' blind shuffles, every step checked from their revealed secrets" : "from the revealed seed";
      run.set("deals", PASS, `${dealt.deals.length} hand(s) dealt ${from}; every card played or thrown was in the mover's hand${first}${listed}`);
    }
  }
  engineChecks(run, t);
}

// A dealer-blind game (docs/blind.md): the four blind checks from the seats' messages and revealed secrets (as
// fairdeal-verify's); the decks come from their shuffles. False when a deal cannot be derived: nothing is replayed.
async function blindDecks(run, report, t) {
  report.blind = await verifyBlind(t);
  for (const c of blindChecks(report.blind)) run.set(c.id, c.status, c.detail);
  // a deal the abort cut off has no moves: the replay needs no cards of it (docs/blind.md, "The abort record")
  const missing = (t.end.deals || []).map((d) => d.hand).filter((k) => !report.blind.decks.has(k) && !report.blind.cut.has(k));
  if (!missing.length) return true;
  for (const id of ["blind-opens", "deals"]) {
    run.set(id, SKIP, `hand ${missing[0]}'s deal cannot be derived (a seat did not reveal, or cheated: see blind-deal)`);
  }
  return false;
}

const CLOCK_KINDS = ["card", "other"];

// fairdeal.core.transcript.clocked_kinds: clocks naming a kind are read by kind; clocks naming neither (other
// writers' keys) are all or nothing
function clockedKinds(clocks) {
  if (CLOCK_KINDS.some((k) => k in clocks)) {
    return new Set(CLOCK_KINDS.filter((k) => clocks[k] !== null && clocks[k] !== undefined));
  }
  const values = Object.values(clocks);
  return new Set(values.length && values.every((v) => v !== null) ? CLOCK_KINDS : []);
}

function engineChecks(run, t) {
  const counts = { bot: 0, timeout: 0, player: 0, "stand-in": 0 };
  for (const r of t.records) counts[r.by]++;
  // fairdeal/2: a timeout only ends a decision whose kind has a clock (docs/transcript.md, "start"): "card" for
  // a card to play, "other" for the rest. No engine needed: every decision offering a card to play offers only
  // cards, so a legal timeout's kind is its move's.
  const kinds = clockedKinds(t.start.clocks || {});
  const kindOf = (r) => (r.move && r.move.kind === "play" ? "card" : "other");
  const unclocked = t.protocol === "fairdeal/1" ? undefined
    : t.records.find((r) => r.by === "timeout" && !kinds.has(kindOf(r)));
  if (unclocked) {
    const why = kinds.size ? `this table has no clock for a ${kindOf(unclocked)} decision` : "this table has no clock";
    run.fail("timeout-moves", `record ${unclocked.seq} is a timeout move, but ${why}: nobody's time can run out`,
      unclocked.seq);
  }
  const what = {
    "moves-legal": `${t.records.length} move(s): whether each was legal in its turn`,
    "bot-moves": `${counts.bot + counts["stand-in"]} bot move(s)${counts["stand-in"] ? ` (${counts["stand-in"]} standing in for a player)` : ""}: whether each is the bot policy's choice`,
    "timeout-moves": `${counts.timeout} timeout move(s): whether each is the timeout policy's choice`,
    result: "whether the final scores and winners are the replay's",
  };
  for (const id of ENGINE_CHECKS) run.set(id, ELSEWHERE, `${what[id]} needs the rules engine: fairdeal-verify replays it`);
}

async function checkLog(run, t, trusted) {
  try {
    const r = await checkLogMember(t, trusted);
    run.set("log-inclusion", r.ok ? PASS : FAIL, r.detail);
  } catch (exc) {
    run.set("log-inclusion", exc instanceof NoEd25519 ? SKIP : FAIL, exc.message);
  }
}

async function checkSignatures(run, t, key) {
  let v;
  try {
    v = await verifier(key);
  } catch (exc) {
    const status = exc instanceof NoEd25519 ? SKIP : FAIL;
    run.set("signature-start", status, exc.message);
    run.set("signature-transcript", status, exc.message);
    return;
  }
  const kid = await keyId(key);
  const names = headers(t);
  for (const name of names) {
    if (!await v.verify(canonicalBytes(t[name]), t[`${name}_signature`])) {
      run.fail("signature-start", `the ${name} record's signature is not valid under key ${kid}`);
    }
  }
  const list = names.length === 1 ? "commit record is" : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} records are`;
  run.set("signature-start", PASS, `the ${list} signed by key ${kid}`);
  if (!Object.hasOwn(t, "signature")) {
    run.fail("signature-transcript", "the game has ended but the transcript has no final signature");
  } else if (!await v.verify(transcriptBody(t), t.signature)) {
    run.fail("signature-transcript", `the final signature is not valid under key ${kid}: something in the transcript was changed after it was signed, or another key signed it`);
  } else {
    run.set("signature-transcript", PASS, `the whole transcript is signed by key ${kid}`);
  }
}

async function checkSalts(run, key, records) {
  for (let place = 1; place <= records.length; place++) {
    const rec = records[place - 1];
    if (rec.salt !== await recordSalt(key, place)) {
      run.fail("hash-chain", `move record ${rec.seq}'s salt is not the one the revealed seed derives for record ${place}`, rec.seq);
      return;
    }
  }
  const c = run.done.get("hash-chain");
  if (c && c.status === PASS && records.length) c.detail += "; every move record's salt is the one the seed derives";
}

// "commitment-noted": the transcript is the game whose commitment the player was shown before the first card.
function checkNotedCommitment(run, actual, noted) {
  if (!actual.startsWith(noted)) {
    run.fail("commitment-noted", `the transcript commits to ${actual}, not to the ${noted} you noted: this is not the game you were shown`);
  } else {
    run.set("commitment-noted", PASS, `the transcript commits to ${actual}, whose first ${noted.length} hex digits are the ${noted} you noted`);
  }
}

async function checkReceipts(run, records, receipts) {
  const bySeq = new Map();
  for (const r of records) if (!bySeq.has(r.seq)) bySeq.set(r.seq, r);
  for (const [seq, digest] of receipts) {
    const rec = bySeq.get(seq);
    if (!rec) {
      run.fail("receipts", `there is no move record ${seq}: the transcript has ${records.length}`, seq);
      continue;
    }
    const actual = await recordHash(rec);
    if (actual !== digest) {
      run.fail("receipts", `the receipt for record ${seq} was ${digest.slice(0, 16)}..., the record in the transcript hashes to ${actual.slice(0, 16)}...: the record was changed after you got the receipt`, seq);
    }
  }
  run.set("receipts", PASS, `${receipts.length} receipt(s) match the records in the chain`);
}

function summary(t) {
  const { rules } = t.commit;
  const seats = (t.start ? t.start.seats : []).map((s) => ({ seat: s.seat, name: s.name, bot: s.bot }));
  return {
    game_id: t.commit.game_id, rule_set: rules.id, players: rules.players, settings: rules.settings, seats,
    moves: t.records.length, reason: t.end ? t.end.reason : null, result: t.end ? t.end.result : null,
    commitment: t.commit.commitment, server_seed: t.end ? t.end.server_seed : null, protocol: t.protocol,
  };
}

// The command that runs every check, the engine's too, on the player's own machine.
export function verifyCommand(fileName, { key, clientSeeds = [], receipts = [], commitment = null } = {}) {
  const q = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
  const parts = ["fairdeal-verify", q(fileName)];
  if (key) parts.push("--key", q(key));
  for (const [seat, seed] of clientSeeds) parts.push("--client-seed", q(`${seat}:${seed}`));
  for (const [seq, hash] of receipts) parts.push("--receipt", `${seq}:${hash}`);
  if (commitment) parts.push("--commitment", commitment);
  return parts.join(" ");
}

