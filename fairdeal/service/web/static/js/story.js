// The game told in sentences: each move, each trick's winner and each hand's result, for every rule set.
// Reads the view's own fields (docs/rules/ names them); a view from an older or newer engine that lacks one
// simply leaves that part out.

import { cardName, cardsText, SUIT_NAMES } from "./cards.js";

// The hand as people count it: the view's hand_number counts every deal from 0 (docs/rules/views.md).
export function handNumber(v) {
  return v && Number.isInteger(v.hand_number) ? v.hand_number + 1 : null;
}

export function lastHand(v) {
  return v ? v.last_hand ?? null : null;
}

export function trumpWord(v) {
  return (v && v.trump_word) || "trump";
}

// Names by seat, "you" for the viewer's own seat.
export class Names {
  constructor(game) {
    this.me = game.seat;
    this.seats = game.seats || [];
  }

  of(seat) {
    if (seat === null || seat === undefined) return "nobody";
    if (seat === this.me) return "you";
    const s = this.seats[seat];
    return s ? s.name || `seat ${seat}` : `seat ${seat}`;
  }

  title(seat) {
    const s = this.of(seat);
    return s === "you" ? "You" : s;
  }

  group(seats) {
    return seats.map((s) => this.of(s)).join(" & ");
  }
}

export function moveText(move, v) {
  const word = trumpWord(v);
  switch (move.kind) {
    case "play": return move.card ? cardsText([move.card]) : "a card";
    case "bid": return v && v.rule_set === "spades" && move.value === 0 ? "bid nil" : `bid ${move.value}`;
    case "pass": return "pass";
    case "mine": return "say Mine";
    case "redeal": return "call a redeal";
    case "trump":
      if (move.value === "next") return "turn up the next card for trumps";
      if (move.value === "blind") return "go blind";
      return `name ${SUIT_NAMES[move.value] || move.value} ${word}s`;
    case "throw":
      if (!move.cards) return `throw ${move.count ?? "?"} card(s) face down`;
      return move.cards.length ? `throw ${cardsText(move.cards)}` : "keep every card";
    case "stay": return "stay in";
    case "drop": return "drop out";
    case "newdeal": return "ask for a new deal";
    default: return move.kind;
  }
}

// Third person: "Bot 1 bids 20", "you play 10♥".
export function recordSentence(rec, names, v) {
  const who = names.of(rec.seat);
  const text = moveText(rec.move, v);
  const verb = who === "you" ? firstPerson(text) : thirdPerson(text);
  if (rec.by === "timeout") {
    return rec.seat === names.me
      ? `Your time ran out: the table ${pastTense(text)} for you.`
      : `${capital(who)}'s time ran out: the table ${pastTense(text)} for them.`;
  }
  if (rec.by === "stand-in") {
    return rec.seat === names.me
      ? `Standing in for you, the table's bot ${pastTense(text)}.`
      : `Standing in for ${who}, the table's bot ${pastTense(text)}.`;
  }
  return `${capital(who)} ${verb}.`;
}

function capital(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// The verbs moveText starts with: [itself, third person, past]; a text without one is a card, which is played.
const VERBS = {
  pass: ["pass", "passes", "passed"], say: ["say", "says", "said"], call: ["call", "calls", "called"],
  name: ["name", "names", "named"], throw: ["throw", "throws", "threw"], keep: ["keep", "keeps", "kept"],
  stay: ["stay", "stays", "stayed"], drop: ["drop", "drops", "dropped"], ask: ["ask", "asks", "asked"],
  bid: ["bid", "bids", "bid"], turn: ["turn", "turns", "turned"], go: ["go", "goes", "went"],
  play: ["play", "plays", "played"],
};

function conjugate(text, form) {
  const [verb, ...rest] = text.split(" ");
  return VERBS[verb] ? [VERBS[verb][form], ...rest].join(" ") : `${VERBS.play[form]} ${text}`;
}

const firstPerson = (text) => conjugate(text, 0);
const thirdPerson = (text) => conjugate(text, 1);
const pastTense = (text) => conjugate(text, 2);

const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

// A finished Spades trick from its plays ([[seat, card], ...]): "the highest spade takes the trick; with no spade
// in it, the highest card of the led suit does" (docs/rules/spades.md). Spades' last_hand lists no tricks, so the
// last trick of a hand is told from its plays.
export function spadesTrick(plays) {
  const rank = (c) => RANK_ORDER.indexOf(c.slice(0, -1));
  const led = plays[0][1].slice(-1);
  const power = ([, c]) => (c.endsWith("S") ? 100 : c.endsWith(led) ? 0 : -100) + rank(c);
  const [winner, card] = plays.reduce((best, p) => (power(p) > power(best) ? p : best));
  return { leader: plays[0][0], plays, winner, winning_card: card };
}

export function trickSentence(trick, names, v) {
  if (!trick || trick.winner === null || trick.winner === undefined) return null;
  const card = trick.winning_card ? ` with ${cardsText([trick.winning_card])}` : "";
  return `${capital(names.of(trick.winner))} ${names.of(trick.winner) === "you" ? "take" : "takes"} the trick${card}.`;
}

function scoresText(scores, v, names) {
  if (!Array.isArray(scores)) return "";
  const sides = v && v.sides;
  if (sides && sides.length === scores.length) return sides.map((side, i) => `${names.group(side)} ${scores[i]}`).join(", ");
  return scores.map((s, i) => `${names.of(i)} ${s}`).join(", ");
}

// One hand's result in a few sentences (the hand's bid, the points each side took, the scores after it).
export function handSummary(last, v, names) {
  if (!last) return [];
  const n = Number.isInteger(last.hand_number) ? last.hand_number + 1 : "?";
  const out = [];
  const family = v.rule_set === "spades" ? "spades" : v.rule_set === "twenty-down" ? "twentydown" : "onetwenty";
  if (family === "onetwenty") {
    if (last.thrown_in) {
      out.push(`Hand ${n}: everybody passed${last.redeal_called ? " and the dealer called a redeal" : ""}; the hand is thrown in.`);
    } else {
      const side = (v.sides || []).findIndex((s) => s.includes(last.bidder));
      out.push(`Hand ${n}: ${names.of(last.bidder)} bid ${last.bid} in ${SUIT_NAMES[last.trump] || last.trump} and `
        + `${last.made ? "made it" : "went down"}.`);
      if (Array.isArray(last.points)) {
        const took = (v.sides || last.points.map((_, i) => [i])).map((s, i) => `${names.group(s)} took ${last.points[i]}`);
        out.push(`Points taken: ${took.join(", ")}${last.ten_card ? ` (the 10-point trick: ${cardName(last.ten_card)})` : ""}.`);
      }
      if (Array.isArray(last.changes) && side >= 0 && !last.made) out.push(`${names.group(v.sides[side])} go down ${-last.changes[side]}.`);
    }
  } else if (family === "spades") {
    out.push(`Hand ${n} over.`);
    (last.teams || []).forEach((t, i) => {
      const side = v.sides ? names.group(v.sides[i]) : `Team ${i + 1}`;
      const nils = (t.nils || []).map((x) => `${names.of(x.seat)}'s nil ${x.made ? "made" : "lost"}`).join(", ");
      out.push(`${side}: bid ${t.contract}, took ${t.tricks}, ${t.made ? "made" : "set"}; ${t.points >= 0 ? "+" : ""}${t.points} points`
        + `${t.bags ? `, ${t.bags} bag(s)` : ""}${t.penalties ? `, -100 for ten bags` : ""}${nils ? `; ${nils}` : ""}.`);
    });
  } else {
    if (last.walkover) out.push(`Hand ${n}: everybody else dropped out; ${names.of(last.trump_maker)} takes all five tricks.`);
    else out.push(`Hand ${n} (${SUIT_NAMES[last.trump] || last.trump} trumps${last.multiplier > 1 ? `, counting ×${last.multiplier}` : ""}) over.`);
    if (Array.isArray(last.changes)) {
      const parts = last.changes.map((c, s) => (last.stayed || []).includes(s)
        ? `${names.of(s)} ${last.tricks_won ? last.tricks_won[s] : "?"} trick(s), ${c > 0 ? "+" : ""}${c}` : `${names.of(s)} out`);
      out.push(parts.join("; ") + ".");
    }
  }
  if (last.scores) out.push(`Scores: ${scoresText(last.scores, v, names)}.`);
  return out;
}

// how the service's own end reasons read after "The game was" (docs/api.md)
const ENDED = {
  "no-humans": "ended by the server: every seat was a bot",
  "move-cap": "ended by the server at its move cap",
};

export function resultSentence(game, names) {
  const r = game.result;
  const v = game.view || {};
  if (!r) return game.end_reason ? `The game was ${ENDED[game.end_reason] || game.end_reason}.` : "The game is over.";
  const winners = r.winners || [];
  const who = winners.length ? names.group(winners) : "nobody";
  return `${capital(who)} ${winners.length === 1 && who !== "you" ? "wins" : "win"}. Final scores: ${scoresText(r.scores, { sides: r.sides || v.sides }, names)}.`;
}

export { scoresText };
