// Taking a seat with a client seed, commit then reveal (docs/fairness.md, fairdeal/2): a random seed unless the
// player types one, a fresh nonce, and only the commitment sent when the seat is taken. The seed and nonce stay in
// this browser (its notes of the game) until the host starts the table; then the page reveals them itself — after
// checking that the service signed a seating that holds our commitment unchanged.

import { get, post } from "./api.js";
import { canonicalBytes } from "./protocol/canonical.js";
import { clientSeedCommitment, newNonce, validateClientSeed } from "./protocol/fairness.js";
import { NoEd25519, verifier } from "./protocol/keys.js";
import { loadGameNotes, saveGameNotes } from "./notes.js";

export const PROTOCOL = "fairdeal/2";

export class BadSeed extends Error {}
export class Distrust extends Error {}

function checked(seed) {
  const why = validateClientSeed(seed);
  if (why) throw new BadSeed(why);
  return seed;
}

// Commit at the seat we hold (the host, right after opening the table) or take a seat with our commitment.
// Returns the table as the service answers.
export async function commitSeat(tableId, clientSeed, seat = null) {
  const nonce = newNonce();
  const commitment = await clientSeedCommitment(PROTOCOL, tableId, checked(clientSeed), nonce);
  const body = { client_seed_commitment: commitment };
  if (seat !== null && seat !== undefined) body.seat = seat;
  const table = await post(`/tables/${encodeURIComponent(tableId)}/join`, body);
  saveGameNotes(tableId, (n) => {
    n.seat = table.you ? table.you.seat : n.seat;
    n.clientSeed = clientSeed;
    n.nonce = nonce;
    n.seedCommitment = commitment;
    n.commitment = table.commitment;
  });
  return table;
}

// While the table waits for the reveals: ours, if it is still missing. -> {table, note}: note says what was done.
export async function revealIfAsked(table) {
  const you = table.you || {};
  if (table.status !== "revealing" || you.seat === null || you.seat === undefined) return { table, note: null };
  const seat = table.seats[you.seat];
  if (!seat.committed || seat.revealed) return { table, note: null };
  const notes = loadGameNotes(table.id);
  if (!notes || !notes.nonce || !notes.clientSeed) {
    return { table, note: "This browser does not hold the seed this seat committed to: it cannot reveal it." };
  }
  const note = await checkSeating(table, you.seat, notes.seedCommitment);
  const revealed = await post(`/tables/${encodeURIComponent(table.id)}/reveal`, { client_seed: notes.clientSeed, nonce: notes.nonce });
  return { table: revealed, note: note || "Your client seed is revealed: it opens the commitment you gave when you sat down." };
}

// The signed seating must hold our commitment unchanged (else we do not reveal: Distrust).
async function checkSeating(table, seat, commitment) {
  const header = await get(`/games/${encodeURIComponent(table.id)}/start`);
  const seating = header.seating || {};
  const seats = seating.seats || [];
  if (!seats[seat] || seats[seat].client_seed_commitment !== commitment) {
    throw new Distrust("the seating the service started does not hold this seat's commitment");
  }
  try {
    const v = await verifier(table.key);
    if (!await v.verify(canonicalBytes(seating), header.seating_signature || "")) {
      throw new Distrust("the seating record is not signed by the table's key");
    }
  } catch (exc) {
    if (exc instanceof NoEd25519) {
      return "Your client seed is revealed. (This browser could not check the seating's signature; the verify page checks it at the end.)";
    }
    throw exc;
  }
  return null;
}
