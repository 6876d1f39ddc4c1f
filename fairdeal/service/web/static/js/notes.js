// What this browser remembers about a game it sat at: the seat, the client seed (and its nonce until it is
// revealed), the receipts of its moves and the fingerprint shown before the first card. The verify page reads
// them back to check the game against what the player saw, not only against what the server says.

const PREFIX = "fairdeal.game.";

export function loadGameNotes(gameId) {
  try {
    return JSON.parse(localStorage.getItem(PREFIX + gameId) || "null");
  } catch {
    return null;
  }
}

export function saveGameNotes(gameId, change) {
  const notes = loadGameNotes(gameId) || { seat: null, clientSeed: null, nonce: null, receipts: {}, commitment: null };
  change(notes);
  try {
    localStorage.setItem(PREFIX + gameId, JSON.stringify(notes));
  } catch {
    /* storage full or blocked: the game goes on; the verify page then asks for the seed */
  }
  return notes;
}
