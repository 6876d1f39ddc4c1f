// The tournament page (docs/web.md): standings, rounds with their tables and byes, and how to check it all.
// Read-only: registering and organising are the API's and `fairdeal tournament`'s.
import { call } from "./api.js";
import { $, clear, el } from "./dom.js";

const id = decodeURIComponent(location.pathname.split("/").pop());

function entryName(t, n) {
  const e = t.entries[n];
  return e ? e.name + (e.bot ? " (bot)" : "") : `entry ${n}`;
}

function render(t) {
  $("#title").textContent = `Tournament ${t.id}`;
  $("#summary").textContent = `${t.rules.id} for ${t.rules.players}, ${t.format}, ${t.rounds} rounds, `
    + `${t.entries.length} entries: ${t.status}.`;
  $("#commitment").textContent = t.commitment;
  const body = clear($("#standings tbody"));
  for (const s of t.standings) {
    body.append(el("tr", {}, el("td", { text: s.rank }), el("td", { text: entryName(t, s.entry) }),
      el("td", { text: s.points }), el("td", { text: s.matchpoints }), el("td", { text: s.buchholz })));
  }
  const rounds = clear($("#rounds"));
  for (const r of t.played) {
    const sides = (tb) => tb.entries.map((e, side) => `side ${side} ${entryName(t, e)}`).join(", ");
    const list = el("ul", {}, r.tables.map((tb) => el("li", { class: "table-line" },
      `Table ${tb.table} (${tb.game_id}): `, sides(tb))));
    const byes = r.byes.length ? el("p", { text: `Bye: ${r.byes.map((e) => entryName(t, e)).join(", ")}` }) : null;
    rounds.append(el("h3", { text: `Round ${r.round}` }), list, byes,
      el("p", { class: "muted", text: `Board seed, revealed when the round ended: ${r.board_seed}` }));
  }
  $("#export").href = `/tournaments/${encodeURIComponent(t.id)}/export`;
  $("#command").textContent = `fairdeal-verify tournament ${location.origin}/tournaments/${t.id}/export`;
}

call("GET", `/tournaments/${encodeURIComponent(id)}`).then(render).catch((exc) => {
  $("#summary").textContent = `This tournament cannot be shown: ${exc.message}`;
});
