// The table itself, drawn from one game view: the seats around it (you at the bottom), who deals, whose turn,
// each seat's bid as a wooden block with the tricks taken beside it and the missing ones pencilled, the trick in
// the middle, trumps, kitty and teaser, and the scores. Bots are always marked as bots.

import { cardFace, cardsText, suitName, SUIT_SYMBOLS } from "./cards.js";
import { clear, el } from "./dom.js";
import { awayText } from "./presence.js";
import { handNumber, lastHand, scoresText, trumpWord } from "./story.js";

const POSITIONS = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };

export function position(seat, viewer, n) {
  const rel = (seat - (viewer ?? 0) + n) % n;
  return (POSITIONS[n] || POSITIONS[4])[rel] || "top";
}

function tricksWon(v, seat) {
  if (Array.isArray(v.tricks_taken)) return v.tricks_taken[seat];
  if (Array.isArray(v.seats) && v.seats[seat] && typeof v.seats[seat] === "object") return v.seats[seat].tricks || 0;
  return (v.tricks || []).filter((t) => t.winner === seat).length;
}

function handSize(v, seat) {
  if (Array.isArray(v.hand_sizes)) return v.hand_sizes[seat];
  if (Array.isArray(v.seats) && v.seats[seat] && typeof v.seats[seat] === "object") return v.seats[seat].cards;
  return null;
}

// What the seat said in this hand's bidding (120s), its bid (Spades) or whether it is in (Twenty Down).
function bidOf(v, seat) {
  if (Array.isArray(v.bids)) {
    const b = v.bids[seat];
    return b === null || b === undefined ? null : { text: b === 0 ? "Nil" : String(b), tricks: b, label: b === 0 ? "bid nil" : `bid ${b}` };
  }
  if (v.bidding && Array.isArray(v.bidding.log)) {
    if (v.bidder === seat && v.bid !== null) return { text: String(v.bid), label: `won the bidding at ${v.bid}` };
    const said = v.bidding.log.filter((e) => e[0] === seat).pop();
    if (!said) return null;
    const [, kind, value] = said;
    if (kind === "bid") return { text: String(value), label: `bid ${value}` };
    if (kind === "mine") return { text: "Mine", label: `said Mine at ${value}` };
    return { text: kind === "pass" ? "Pass" : kind, label: kind === "pass" ? "passed" : kind, word: true };
  }
  if (Array.isArray(v.seats) && v.seats[seat] && typeof v.seats[seat] === "object") {
    const s = v.seats[seat];
    if (!s.status) return null;
    return { text: s.status === "in" ? "In" : "Out", word: true,
      label: s.status === "in" ? (s.forced ? "stays in (must)" : "stays in") : "dropped out" };
  }
  return null;
}

function takenMarks(v, seat, bid) {
  const won = tricksWon(v, seat) || 0;
  const box = el("span", { class: "taken", role: "img" });
  for (let i = 0; i < won; i++) box.append(el("span", { class: "trick" }));
  const missing = bid && typeof bid.tricks === "number" && bid.tricks > 0 ? Math.max(0, bid.tricks - won) : 0;
  for (let i = 0; i < missing; i++) box.append(el("span", { class: "pencil" }));
  const label = `${won} trick${won === 1 ? "" : "s"} taken${missing ? `, ${missing} more to make the bid` : ""}`;
  box.setAttribute("aria-label", label);
  box.title = label;               // pointing at a seat's tricks reads them too
  return box;
}

export function renderSeats(felt, game, table, names, secondsLeft) {
  for (const old of felt.querySelectorAll(".seat")) old.remove();
  const v = game.view || {};
  const n = game.seats.length;
  for (const s of game.seats) {
    const seat = s.seat;
    const me = seat === game.seat;
    const bid = bidOf(v, seat);
    const toMove = game.to_move === seat;
    const size = handSize(v, seat);
    const parts = [
      el("div", {},
        el("span", { class: "name", text: me ? `${s.name || "You"} (you)` : s.name || `Seat ${seat}` }),
        s.bot ? el("span", { class: "bot-badge", title: "A computer player", text: " bot" }) : null,
        v.dealer === seat ? el("span", { class: "dealer-chip", title: "Dealer", "aria-label": "dealer", text: "D" }) : null,
        s.away ? el("span", { class: `away-badge${s.stand_in ? " stand-in" : ""}`, text: ` ${awayText(s)}` })
          : s.gone ? el("span", { class: "muted", text: " (left)" }) : null),
      el("div", { class: "info" },
        `Seat ${seat}`,
        size !== null && size !== undefined ? ` · ${size} card${size === 1 ? "" : "s"}` : "",
        v.rule_set === "twenty-down" && Array.isArray(v.scores) ? ` · ${v.scores[seat]} points` : ""),
      el("div", { class: "bidline" },
        bid ? el("span", { class: `block${bid.word ? " word" : ""}`, title: bid.label, "aria-label": bid.label, text: bid.text }) : null,
        takenMarks(v, seat, bid)),
    ];
    const cls = `seat${toMove ? " to-move" : ""}${s.gone ? " gone" : ""}${me ? " me" : ""}`;
    const desc = `${names.title(seat)}${s.bot ? ", a bot" : ""}${s.away ? `, ${awayText(s)}` : ""}${v.dealer === seat ? ", the dealer" : ""}${toMove ? ", to move" : ""}`;
    felt.append(el("div", { class: cls, dataset: { pos: position(seat, game.seat, n), seat: String(seat) },
      role: "group", "aria-label": desc }, parts));
  }
}

// The clocks as the table's settings name them ("25 s a card, 30 s for other moves"), or null without clocks.
export function clocksFact(clocks) {
  if (!clocks || (clocks.card == null && clocks.other == null)) return null;
  return `Clocks: ${clocks.card ?? "no"} s a card, ${clocks.other ?? "no"} s for other moves`;
}

export function renderFacts(box, game, table = null) {
  const v = game.view || {};
  const word = trumpWord(v);
  const facts = [];
  const fact = (text, ...rest) => facts.push(el("span", { class: "fact" }, text, ...rest));
  const no = handNumber(v);
  if (Number.isInteger(v.counted_deal)) {     // Twenty Down counts its deals (a new deal asked for does not count)
    const eight = !(v.settings && v.settings.no_endgame) && v.counted_deal <= 8;
    fact(`Deal ${v.counted_deal}${eight ? " of 8" : ""}`);
  } else if (no !== null) fact(`Hand ${no}`);
  if (v.trump) fact(`${word.charAt(0).toUpperCase() + word.slice(1)}s: ${SUIT_SYMBOLS[v.trump] || ""} ${suitName(v.trump)}`);
  else if (v.rule_set === "spades") fact("Spades are trumps");
  if (v.bidder !== null && v.bidder !== undefined && v.bid) fact(`Bid: ${game.seats[v.bidder].name} ${v.bid}`);
  if (typeof v.kitty_count === "number" && v.kitty_count) fact(`Kitty: ${v.kitty_count} face down`);
  if (v.teaser) {
    facts.push(el("span", { class: "fact teaser" }, "Kitty teaser, face up:", cardFace(document, v.teaser, { small: true })));
  }
  if (v.turned_up) facts.push(el("span", { class: "fact teaser" }, "Turned up:", cardFace(document, v.turned_up, { small: true })));
  if (typeof v.pack_count === "number") fact(`Pack: ${v.pack_count}`);
  if (typeof v.stock === "number" && v.stock) fact(`Stock: ${v.stock}`);
  if (v.rule_set === "spades") fact(v.spades_broken ? "Spades broken" : "Spades not broken yet");
  if (v.endgame) fact("Endgame: hearts, nobody drops out");
  if (v.blind) fact("Blind trumps: counts double");
  const clocks = clocksFact(table && table.clocks);
  if (clocks) fact(clocks);
  clear(box).append(...facts);
}

// The trick in the middle; between tricks, the last one taken, with its winner.
export function renderTrick(box, note, game, names) {
  const v = game.view || {};
  const n = game.seats.length;
  let trick = v.trick && v.trick.plays && v.trick.plays.length ? v.trick : null;
  let done = false;
  if (!trick) {
    // the hand before's last trick only once the game is over: a new hand starts with an empty table
    const before = game.status === "over" ? ((lastHand(v) || {}).tricks || []) : [];
    const tricks = v.tricks && v.tricks.length ? v.tricks : before;
    if (tricks.length) {
      trick = tricks[tricks.length - 1];
      done = true;
    }
  }
  clear(box);
  note.textContent = "";
  if (!trick) return;
  for (const [seat, card] of trick.plays) {
    const winning = done && trick.winner === seat;
    box.append(el("div", { class: `played${winning ? " winning" : ""}`, dataset: { pos: position(seat, game.seat, n), seat: String(seat) } },
      el("span", { class: "card" }, cardFace(document, card, { trump: v.trump, trumpWord: v.trump_word })),
      el("span", { text: names.of(seat) })));
  }
  if (done && trick.winner !== null && trick.winner !== undefined) {
    note.textContent = `Last trick: ${names.of(trick.winner)} took it${trick.winning_card ? ` with ${cardsText([trick.winning_card])}` : ""}.`;
  }
  box.setAttribute("aria-label", done ? "The last trick" : "The trick");
}

// 120s' stop at target − 5 (docs/rules), beside a side only where and when it binds: in 120s-auction a side that
// has never made a bid, once it is at the stop; in 120s-house (bid and make it to go out) a side that started the
// hand at target − 20 or more, for that hand. Never on both sides from the first hand.
export function capNote(v, side, score) {
  const stop = (typeof v.target === "number" ? v.target : 120) - 5;
  if (v.rule_set === "120s-auction" && Array.isArray(v.made_bid) && !v.made_bid[side] && score >= stop) {
    return ` (capped at ${stop})`;
  }
  const house = v.rule_set === "120s-house" && v.settings && v.settings.bid_to_go_out;
  if (house && Array.isArray(v.start_scores) && v.start_scores[side] >= stop - 15 && v.phase !== "over") {
    return ` (stops at ${stop} unless it bids and makes it)`;
  }
  return "";
}

export function renderScores(tbody, game, names) {
  const v = game.view || {};
  clear(tbody);
  const scores = v.scores || (game.result && game.result.scores) || [];
  const sides = v.sides;
  const rows = sides && sides.length === scores.length
    ? sides.map((side, i) => [names.group(side), scores[i], i])
    : scores.map((s, i) => [names.of(i), s, i]);
  for (const [who, score, i] of rows) {
    let extra = "";
    if (Array.isArray(v.bags)) extra = ` (${v.bags[i]} bag${v.bags[i] === 1 ? "" : "s"})`;
    extra += capNote(v, i, score);
    const title = who.charAt(0).toUpperCase() + who.slice(1);
    tbody.append(el("tr", {}, el("th", { scope: "row", title: extra.trim() || null }, title, el("span", { class: "muted", text: extra })),
      el("td", { class: "num", text: String(score) })));
  }
  if (typeof v.target === "number") tbody.append(el("tr", {}, el("th", { scope: "row", class: "muted", text: "Game to" }),
    el("td", { class: "num", text: String(v.target) })));
  return scoresText(scores, v, names);
}
