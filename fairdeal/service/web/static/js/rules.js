// Rules at the table (GET /tables/{id}/rules): the rules in short sections, what the table's word for trumps
// means ("drumpf" at 120s-auction), and the card-ranking aid — the trump suit's cards, highest first, for the
// suit named this hand (every suit before one is named).

import { get } from "./api.js";
import { cardsText, suitName } from "./cards.js";
import { clear, el } from "./dom.js";

let help = null;

export async function loadRules(tableId) {
  help = await get(`/tables/${encodeURIComponent(tableId)}/rules`);
  return help;
}

export function renderRules(box, trump) {
  if (!help) return;
  const key = `${help.rule_set}|${trump || ""}`;
  if (box.dataset.key === key) return;          // unchanged: an open section stays open
  box.dataset.key = key;
  const word = help.trump_word;
  const suits = trump && help.trump_order[trump] ? [trump] : Object.keys(help.trump_order);
  const order = el("div", { class: "trump-order", id: "trump-order" },
    el("h3", { text: trump ? `${word.charAt(0).toUpperCase() + word.slice(1)}s this hand (${suitName(trump)}), highest first`
      : `${word.charAt(0).toUpperCase() + word.slice(1)}s, highest first, whichever suit is named` }),
    ...suits.map((s) => el("p", { class: "order", dataset: { suit: s } },
      el("strong", { text: `${suitName(s)}: ` }), cardsText(help.trump_order[s]))));
  const terms = Object.entries(help.terms || {}).map(([, text]) => el("p", { class: "term", text }));
  clear(box).append(...terms, order,
    ...help.sections.map((s) => el("details", { class: "rule-section" },
      el("summary", { text: s.title }),
      el("ul", {}, s.items.map((x) => el("li", { text: x }))))));
}
