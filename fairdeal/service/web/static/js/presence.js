// Leaving and coming back at the table (docs/api.md, "Leaving and coming back"). Opening the page of a running
// game where you hold a seat takes the seat back from the table's bot (the page is the player coming back, from
// any browser holding the token); while the bot plays for you a banner says so, with a button to take the seat
// back; "Leave the table" first says what a leave does at this table.

import { post } from "./api.js";
import { clear, el } from "./dom.js";

// The words for a seat whose player is away, for every seat's label.
export function awayText(s) {
  if (!s || !s.away) return "";
  const why = { left: "left", timeouts: "away (two clock-outs)", silent: "away", "stood-in": "away" }[s.away] || "away";
  return s.stand_in ? `${why} · the table's bot plays` : why;
}

export function leaveConsequence(game) {
  if (game.blind) {
    return "At a dealer-blind table your keys are needed for every card still to come: leaving ends the game at once, "
      + "aborted. This page sends your secret with the leave, so every deal can still be checked.";
  }
  if (game.on_leave === "end") return "Leaving ends the game for everyone (the host chose so when opening the table).";
  const others = (game.seats || []).filter((s) => !s.bot && s.seat !== game.seat);
  if (!others.length) return "You are the only player at this table: leaving ends the game (as abandoned).";
  return "The table's bot will play your seat until you come back (open this page again, or press “Take my seat back”).";
}

export async function comeBack(tableId) {
  return post(`/tables/${encodeURIComponent(tableId)}/return`);
}

// The banner and the leave button in `box`, drawn from the game view; `onChange` after a leave or a return;
// `leaveBody()` what the leave carries (a dealer-blind seat's reveal).
export function renderPresence(box, game, tableId, onChange, leaveBody = async () => undefined) {
  const seated = game.seat !== null && game.seat !== undefined;
  if (!seated || game.status === "over") {
    box.hidden = true;
    return;
  }
  const mine = (game.seats || [])[game.seat] || {};
  const key = `${mine.away || ""}|${mine.stand_in}|${mine.stand_in_from}`;
  if (box.dataset.key === key && !box.hidden) return;          // unchanged: keep focus where it is
  box.dataset.key = key;
  box.hidden = false;
  const parts = [];
  if (mine.away) {
    const since = mine.stand_in_from ? ` since move ${mine.stand_in_from}` : "";
    parts.push(el("p", { class: "away-note", role: "alert",
      text: mine.stand_in ? `The table's bot is playing for you${since}.` : "You are away: the table waits for you." }));
    parts.push(el("button", { type: "button", class: "primary", id: "come-back", onclick: async () => {
      await comeBack(tableId);
      onChange();
    } }, "Take my seat back"));
  } else {
    parts.push(el("button", { type: "button", id: "leave-table", onclick: async () => {
      // eslint-disable-next-line no-alert -- a plain confirm: one stray click must not leave the table
      if (!window.confirm(`${leaveConsequence(game)}\n\nLeave the table?`)) return;
      await post(`/tables/${encodeURIComponent(tableId)}/leave`, await leaveBody());
      onChange();
    } }, "Leave the table"));
  }
  clear(box).append(...parts);
}
