// Play again with the same seats (POST /tables/{id}/again): at the end of a game the host opens the next table,
// everyone of the last game already in their seat; the other players' pages see the finished table's `next` and
// offer to follow. Arriving at the next table in a seat of ours without a commitment, the page commits to a new
// random client seed for us (a new game, a new seed), as the lobby does for a table we open.

import { get, post } from "./api.js";
import { clear, el } from "./dom.js";
import { randomClientSeed } from "./protocol/fairness.js";
import { commitSeat } from "./seating.js";

const FOLLOW_MS = 3000;

export async function playAgain(tableId, seat) {
  const next = await post(`/tables/${encodeURIComponent(tableId)}/again`);
  if (seat !== null && seat !== undefined) await commitSeat(next.id, randomClientSeed(), seat);
  location.assign(`/table/${encodeURIComponent(next.id)}`);
}

function followLink(box, next) {
  clear(box).append(el("a", { class: "button primary", id: "next-game", href: `/table/${encodeURIComponent(next)}` },
    "The host opened the next game: go to it"));
}

// Into `box` at the end: the host's "Play again" button, or (for the others) a link once the host has opened it.
export function offerAgain(box, table, seat) {
  box.hidden = false;
  if (table.next) return followLink(box, table.next);
  if (table.you && table.you.host) {
    clear(box).append(el("button", { type: "button", class: "primary", id: "play-again",
      onclick: () => playAgain(table.id, seat).catch((exc) => box.append(el("span", { class: "error", text: ` ${exc.message}` }))) },
    "Play again (same seats)"));
    return undefined;
  }
  clear(box).append(el("span", { class: "muted", text: "The host may open the next game with the same seats." }));
  const timer = setInterval(async () => {
    try {
      const t = await get(`/tables/${encodeURIComponent(table.id)}`);
      if (t.next) {
        clearInterval(timer);
        followLink(box, t.next);
      }
    } catch {
      /* the next look asks again */
    }
  }, FOLLOW_MS);
  return undefined;
}

// A seat of ours at an open table without a commitment (the host seated us to play again): commit now.
export async function commitIfSeated(table) {
  const you = table.you;
  if (table.status !== "open" || !you || you.seat === null || you.seat === undefined) return table;
  if (table.seats[you.seat].committed) return table;
  return commitSeat(table.id, randomClientSeed(), you.seat);
}
