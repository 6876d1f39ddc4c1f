// The transparency log in the browser (docs/log.md): RFC 9162 hashing, inclusion proofs, and the check of a
// transcript's "log" member (its signed tree head and the inclusion proofs of the game's commitment and ending
// leaves, recomputed here from the transcript itself). The same rules as fairdeal/core/merkle.py and tlog.py.

import { concat, fromHex, isHex64, toHex } from "./bytes.js";
import { canonicalBytes } from "./canonical.js";
import { sha256 } from "./hash.js";
import { keyId, verifier } from "./keys.js";
import { recordHash, transcriptBody } from "./transcript.js";

const HEAD_MEMBERS = ["type", "size", "root", "time", "key"];

export async function leafHash(bytes) {
  return sha256(concat(new Uint8Array([0]), bytes));
}

async function nodeHash(left, right) {
  return sha256(concat(new Uint8Array([1]), left, right));
}

// The root an inclusion proof leads to (RFC 9162 2.1.3.2), or null when it cannot be one for this index and size.
export async function rootFromInclusion(leaf, index, size, proof) {
  if (!Number.isInteger(index) || !Number.isInteger(size) || index < 0 || index >= size) return null;
  let fn = index, sn = size - 1, r = leaf;
  for (const p of proof) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = await nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
    } else {
      r = await nodeHash(r, p);
    }
    fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

export async function commitmentLeaf(commit) {
  return { type: "commitment", game_id: commit.game_id, commit: await recordHash(commit),
    commitment: commit.commitment, time: commit.created };
}

// A table that ended in the reveal phase (its end names reveals) names its unrevealed seats {seat, name} too.
export async function endingLeaf(t) {
  const leaf = { type: "ending", game_id: t.commit.game_id, reason: t.end.reason, dealt: t.start != null,
    transcript: toHex(await sha256(transcriptBody(t))), time: t.end.ended };
  if (Object.hasOwn(t.end, "reveals") && t.seating) {
    const names = new Map(t.seating.seats.map((s) => [s.seat, s.name]));
    leaf.unrevealed = t.end.unrevealed.map((s) => ({ seat: s, name: names.has(s) ? names.get(s) : null }));
  }
  return leaf;
}

// The forms an ending may have in the log, newest first: one logged before endings named the unrevealed seats
// lacks "unrevealed" (docs/log.md, "Leaf forms"); both bind the same transcript hash.
export async function endingLeafForms(t) {
  const leaf = await endingLeaf(t);
  if (!("unrevealed" in leaf)) return [leaf];
  const { unrevealed, ...older } = leaf;
  return [leaf, older];
}

// -> {ok, detail}: whether the "log" member proves the game's leaves are in the log its head signs, the head
// signed by one of the `trusted` keys (the keys given, else the key that signed the game: docs/log.md).
export async function checkLogMember(t, trusted = [t.commit.key]) {
  const log = t.log;
  const bad = (detail) => ({ ok: false, detail });
  const head = log && log.head;
  if (!head || typeof head !== "object" || Object.keys(head).sort().join() !== [...HEAD_MEMBERS, "signature"].sort().join()
      || head.type !== "tree-head" || !Number.isInteger(head.size) || head.size < 0 || !isHex64(head.root)) {
    return bad("the log member has no signed tree head in its one form");
  }
  const body = Object.fromEntries(HEAD_MEMBERS.map((m) => [m, head[m]]));
  const v = await verifier(head.key);
  if (!await v.verify(canonicalBytes(body), head.signature)) {
    return bad(`the tree head of size ${head.size} is not signed by its key`);
  }
  if (!trusted.includes(head.key)) {
    return bad(`the log's tree head is signed by key ${await keyId(head.key)}, which is not the service's: a head `
      + "anyone can sign proves nothing about the service's log");
  }
  const leaves = { commitment: [await commitmentLeaf(t.commit)] };
  if (t.end && t.signature) leaves.ending = await endingLeafForms(t);
  // "checkpoint" is the same tree as a C2SP signed note (docs/log.md): fairdeal-verify checks it; this page the head
  const extra = Object.keys(log).filter((k) => k !== "head" && k !== "checkpoint" && !(k in leaves));
  if (extra.length) return bad(`the log member has '${extra[0]}', which this transcript has no leaf for`);
  const found = [];
  for (const [kind, forms] of Object.entries(leaves)) {
    const entry = log[kind];
    if (!entry || !Number.isInteger(entry.index) || !Array.isArray(entry.proof) || !entry.proof.every(isHex64)) {
      return bad(`the log member has no ${kind} entry {index, proof}`);
    }
    let included = false;
    for (const leaf of forms) {
      const root = await rootFromInclusion(await leafHash(canonicalBytes(leaf)), entry.index, head.size,
        entry.proof.map(fromHex));
      included = included || (root !== null && toHex(root) === head.root);
    }
    if (!included) {
      return bad(`the ${kind} of game ${forms[0].game_id} is not leaf ${entry.index} of the log whose head of size `
        + `${head.size} is signed`);
    }
    found.push([kind, entry.index]);
  }
  return { ok: true, detail: `the ${found.map((f) => f[0]).join(" and ")} are leaves ${found.map((f) => f[1]).join(" and ")} `
    + `of the log whose head of size ${head.size} (root ${head.root.slice(0, 16)}...) is signed by key ${await keyId(head.key)}` };
}
