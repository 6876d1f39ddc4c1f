// Taking a seat with a client seed. fairdeal/1 sends the seed itself when the player sits down; the notes keep
// it so the verify page can check the player's own seed in the finished game.

import { validateClientSeed } from "./fairness.js";
import { saveGameNotes } from "./notes.js";

export class BadSeed extends Error {}

function checked(seed) {
  const why = validateClientSeed(seed);
  if (why) throw new BadSeed(why);
  return seed;
}

// The body of POST /tables for a host who plays (clientSeed given) or only hosts (null).
export async function seatRequest(body, clientSeed) {
  return clientSeed === null ? body : { ...body, client_seed: checked(clientSeed) };
}

// The body of POST /tables/{id}/join.
export async function joinRequest(tableId, seat, clientSeed) {
  const body = { client_seed: checked(clientSeed) };
  if (seat !== null && seat !== undefined) body.seat = seat;
  return body;
}

// After the service seated us: remember the seat and the seed for the verify page.
export function rememberSeat(table, clientSeed) {
  saveGameNotes(table.id, (n) => {
    n.seat = table.you ? table.you.seat : n.seat;
    n.clientSeed = clientSeed;
    n.commitment = table.commitment;
  });
}
