// The replay of a finished game, trick by trick, from the transcript alone: every deal re-derived from the
// revealed seed (deals.js), each seat's cards as they were before each trick, the trick's cards in front of
// their players, and the other moves (bids, trumps, throws) told in their place. Forwards and backwards through
// every hand with the buttons or the arrow keys; it runs wherever the verify page runs, offline too.

import { cardFace } from "./cards.js";
import { clear, el } from "./dom.js";
import { Names, recordSentence } from "./story.js";

// The frames: one when a hand is dealt, then one per trick (and one for a hand's moves after its last trick).
export function frames(report, records) {
  const bySeq = new Map(records.map((r) => [r.seq, r]));
  const game = report.game || {};
  const names = new Names({ seat: null, seats: game.seats || [] });
  const v = { rule_set: (game.rule_set || "") };
  const out = [];
  let number = 0;
  for (const deal of report.deals.deals) {
    if (deal.end !== "new-deal") number++;
    const title = `Hand ${number}${deal.end === "new-deal" ? " (a new deal was asked for)" : ""}`;
    out.push({ title: `${title}: dealt`, hands: deal.hands, kitty: deal.kitty, trick: [], said: [] });
    let trick = [];
    let said = [];
    let tricks = 0;
    let hands = deal.hands;
    let before = hands;          // every seat's cards as the trick began
    for (const snap of deal.snaps) {
      const rec = bySeq.get(snap.seq);
      if (!rec) continue;
      if (rec.move.kind === "play") {
        if (!trick.length) before = hands;
        trick.push([rec.seat, rec.move.card]);
      }
      else said.push(recordSentence(rec, names, v));
      if (snap.trick !== null) {
        tricks++;
        out.push({ title: `${title}, trick ${tricks}`, hands: before, trick, said, seq: rec.seq });
        trick = [];
        said = [];
      }
      hands = snap.hands;
    }
    if (said.length || trick.length) out.push({ title: `${title}, the end`, hands, trick, said });
  }
  return out;
}

export function renderReplay(box, report, records) {
  const all = frames(report, records);
  const seats = (report.game && report.game.seats) || [];
  const who = (s) => (seats[s] ? `${seats[s].name}${seats[s].bot ? " (bot)" : ""}` : `seat ${s}`);
  let at = 0;
  const view = el("div", { class: "replay-view", id: "replay-view", "aria-live": "polite" });
  const where = el("span", { class: "muted", id: "replay-where" });
  const prev = el("button", { type: "button", id: "replay-prev", onclick: () => go(at - 1) }, "◀ Back");
  const next = el("button", { type: "button", id: "replay-next", onclick: () => go(at + 1) }, "Next ▶");
  const row = (cards) => el("span", { class: "card-row" }, cards.map((c) => cardFace(document, c, { small: true })));
  function go(i) {
    at = Math.max(0, Math.min(all.length - 1, i));
    const f = all[at];
    const played = new Map(f.trick.map(([s, c]) => [s, c]));
    where.textContent = `${at + 1} / ${all.length}`;
    prev.disabled = at === 0;
    next.disabled = at === all.length - 1;
    clear(view).append(el("h3", { id: "replay-title", text: f.title }),
      ...f.said.map((line) => el("p", { class: "said", text: line })),
      el("table", { class: "dealt" }, el("tbody", {}, f.hands.map((cards, s) => el("tr", { dataset: { seat: String(s) } },
        el("th", { scope: "row", text: who(s) }), el("td", {}, row(cards)),
        el("td", { class: "played" }, played.has(s) ? row([played.get(s)]) : ""))))),
      f.trick.length ? el("p", { class: "muted", text: `Played in this trick, in order: ${f.trick.map(([s, c]) => `${who(s)} ${c}`).join(", ")}` }) : "");
  }
  clear(box).append(el("div", { class: "row" }, prev, next, where), view);
  box.onkeydown = (e) => {
    if (e.key === "ArrowRight") go(at + 1);
    else if (e.key === "ArrowLeft") go(at - 1);
    else return;
    e.preventDefault();
  };
  if (all.length) go(0);
}
