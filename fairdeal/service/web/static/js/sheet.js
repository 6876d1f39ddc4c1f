// The score sheet: every hand that has ended (GET /games/{id}/sheet, the engine's summary of each), one row a
// hand — what happened in it, then the running score of each side (or seat) after it.

import { get } from "./api.js";
import { clear, el } from "./dom.js";
import { handSummary } from "./story.js";

export async function loadSheet(gameId) {
  return (await get(`/games/${encodeURIComponent(gameId)}/sheet`)).hands || [];
}

// Into `table` (a <table>): a header of the sides (or seats) and one row per hand.
export function renderSheet(table, hands, v, names) {
  clear(table);
  if (!hands.length) {
    table.append(el("caption", { class: "muted", text: "No hand has ended yet." }));
    return;
  }
  const n = (hands[hands.length - 1].scores || []).length;
  const sides = v.sides && v.sides.length === n ? v.sides : null;
  const who = Array.from({ length: n }, (_, i) => (sides ? names.group(sides[i]) : names.of(i)));
  table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Hand" }), el("th", { scope: "col", text: "What happened" }),
    ...who.map((w) => el("th", { scope: "col", class: "num", text: w.charAt(0).toUpperCase() + w.slice(1) })))));
  const body = el("tbody");
  for (const h of hands) {
    const lines = handSummary(h, v, names).filter((line) => !line.startsWith("Scores:"));
    const number = Number.isInteger(h.hand_number) ? h.hand_number + 1 : "?";
    body.append(el("tr", { dataset: { hand: String(number) } }, el("th", { scope: "row", text: String(number) }),
      el("td", { text: lines.join(" ").replace(/^Hand \d+( \([^)]*\))?:? ?/, "") }),
      ...(h.scores || []).map((s) => el("td", { class: "num", text: String(s) }))));
  }
  table.append(body);
}
