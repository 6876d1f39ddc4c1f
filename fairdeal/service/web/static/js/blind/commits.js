// The seats' commits as the page checks them (docs/blind.md, "Equivocation of keys"): every commit signed by its
// own sign_key, this seat's own commit in the table's record exactly as this browser sent it, and, once all are
// in, their fingerprint: SHA-256 (64 hex) of the canonical JSON of the list of the signed commits in seat order —
// the terminal client prints the same bytes (fairdeal/client/blind.py, fingerprint), so players can compare it.

import { canonicalBytes, canonicalText } from "../protocol/canonical.js";
import { sha256Hex } from "../protocol/hash.js";
import { verifySignature } from "./messages.js";

// The commits of the log in seat order, once there is one for each of the `seats` seats; else null.
function allCommits(log, seats) {
  const commits = log.filter((m) => m.type === "commit").sort((a, b) => a.seat - b.seat);
  return commits.length === seats && commits.every((m, i) => m.seat === i) ? commits : null;
}

export async function commitsFingerprint(log, seats) {
  const commits = allCommits(log, seats);
  return commits ? sha256Hex(canonicalBytes(commits)) : null;
}

// Why the log's commits cannot be trusted, or null: a commit not signed by its own key, or this seat's (`mine`,
// the commit this browser sends; null for a watcher) missing or not the same message.
export async function commitTrouble(log, seats, mine) {
  const commits = allCommits(log, seats);
  if (!commits) return null;
  for (const m of commits) {
    if (!(await verifySignature(m, m.sign_key))) return `seat ${m.seat}'s commit is not signed by its own key`;
  }
  if (mine && canonicalText(commits[mine.seat]) !== canonicalText(mine)) {
    return "the table's record holds another commit for your seat than the one this browser sent";
  }
  return null;
}
