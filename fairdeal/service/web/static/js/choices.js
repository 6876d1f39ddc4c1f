// What the player may do now, as the table lays it out: cards to play (tap to lift, tap again or "Play"), cards to
// throw (tap each, then "Throw"), and blocks for every other decision (bids, pass, trumps, stay or drop: tap to
// lift, tap again or the button). The table's suggestion carries a pencil tick. Built from the game view's
// `legal_moves`, `why_not` and `suggested` only, so every rule set gets the same interactions.

import { cardName, SUIT_NAMES, SUIT_SYMBOLS } from "./cards.js";

export function sameMove(a, b) {
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === "throw") return [...(a.cards || [])].sort().join() === [...(b.cards || [])].sort().join();
  return a.card === b.card && a.value === b.value;
}

// {mode: "play" | "throw" | "view", playable: Set, throwSizes: Set, throws: [moves], blocks: [items]}
export function choicesOf(game) {
  const legal = game.your_turn ? game.legal_moves || [] : [];
  const plays = legal.filter((m) => m.kind === "play");
  const throws = legal.filter((m) => m.kind === "throw");
  const other = legal.filter((m) => m.kind !== "play" && m.kind !== "throw");
  const mode = plays.length ? "play" : throws.length ? "throw" : "view";
  return {
    mode,
    playable: new Set(plays.map((m) => m.card)),
    throwSizes: new Set(throws.map((m) => (m.cards || []).length)),
    throws,
    blocks: other.map((m) => blockOf(m, game)),
    suggested: game.suggested || null,
  };
}

function blockOf(move, game) {
  const v = game.view || {};
  const word = v.trump_word || "trump";
  const key = JSON.stringify(move);
  let label;
  let aria;
  let verb;
  switch (move.kind) {
    case "bid":
      label = v.rule_set === "spades" && move.value === 0 ? "Nil" : String(move.value);
      aria = v.rule_set === "spades" && move.value === 0 ? "Bid nil (no trick at all)" : `Bid ${move.value}`;
      verb = "Bid";
      break;
    case "trump":
      if (move.value === "next") { label = "Next"; aria = "Trumps: turn up the next card"; verb = "Turn up"; break; }
      if (move.value === "blind") { label = "Blind"; aria = "Blind trumps, before looking"; verb = "Go blind"; break; }
      label = `${SUIT_SYMBOLS[move.value]} ${SUIT_NAMES[move.value]}`;
      aria = `Name ${SUIT_NAMES[move.value]} ${word}s`;
      verb = `Name ${word}s`;
      break;
    default: {
      const words = { pass: "Pass", mine: "Mine", redeal: "Redeal", stay: "Stay in", drop: "Drop out", newdeal: "New deal" };
      label = words[move.kind] || move.kind;
      aria = label;
      verb = label;
    }
  }
  const suggested = sameMove(move, game.suggested);
  return { key, move, label, aria: aria + (suggested ? " (the table's suggestion)" : ""), verb, suggested,
    word: move.kind !== "bid" };
}

export function throwMove(selected) {
  return { kind: "throw", cards: [...selected] };
}

// The legal throw with exactly these cards, if there is one.
export function legalThrow(choices, selected) {
  const want = { kind: "throw", cards: [...selected] };
  return choices.throws.find((m) => sameMove(m, want)) || null;
}

export function throwHint(choices) {
  const sizes = [...choices.throwSizes].sort((a, b) => a - b);
  if (!sizes.length) return "";
  const lo = sizes[0];
  const hi = sizes[sizes.length - 1];
  if (lo === hi) return lo === 0 ? "Keep your cards." : `Choose ${lo} card${lo === 1 ? "" : "s"} to throw away.`;
  return `Choose ${lo === 0 ? "up to" : `${lo} to`} ${hi} cards to throw away${lo === 0 ? " (or none)" : ""}; you are dealt back up.`;
}

export function playLabel(card, v) {
  return `Play ${cardName(card, v && v.trump, v && v.trump_word)}`;
}
