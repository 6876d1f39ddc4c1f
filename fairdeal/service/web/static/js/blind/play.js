// The table page's part at a dealer-blind table (docs/blind.md; the endpoints in docs/api.md, "Dealer-blind
// tables"): the blind log comes as the game stream's `blind` events (feed.js; a long-poll of the log where no
// stream is read); the page keeps this seat's σ and identity key in localStorage (per game and seat, so closing and
// reopening the page resumes), does the protocol steps the blind log says are due (shuffle, lock, release,
// reveal), reads its own cards once every release is in, and lends the table what the server cannot know: the
// hand, which of its cards may be played, the suggestion, the open that goes with a play, and the timeout move
// the page plays itself when the seat's clock runs out.

import { get, post, Problem } from "../api.js";
import { BlindFault, BlindSeat } from "./seat.js";
import { commitTrouble, commitsFingerprint } from "./commits.js";
import { opens, spadesHolders } from "./deal.js";
import { scalarFromHex } from "./group.js";
import { legalCards, safeCard, sortCards, suggestedBid, whyNot } from "./spades.js";

const PLAYERS = 4;
const WAIT_S = 20;

function storageKey(tableId, seat) {
  return `fairdeal.blind.${tableId}.${seat}`;
}

// This browser's seat secrets for the table, or null when it holds none.
export async function loadSeat(tableId, seat) {
  const text = localStorage.getItem(storageKey(tableId, seat));
  if (!text) return null;
  return BlindSeat.fromJSON(JSON.parse(text));
}

function saveSeat(seat) {
  localStorage.setItem(storageKey(seat.game, seat.seat), JSON.stringify(seat.toJSON()));
}

// Commit this seat at a blind table (POST /tables/{id}/join with blind_commit): the secrets are made once and
// kept, so the commit sent again (a reload, the host's page after the lobby's) is the same one.
export async function commitBlind(tableId, seat) {
  let s = await loadSeat(tableId, seat);
  if (!s) {
    s = await BlindSeat.create({ game: tableId, seat, seats: PLAYERS });
    saveSeat(s);
  }
  return post(`/tables/${encodeURIComponent(tableId)}/join`, { blind_commit: await s.commit() });
}

// The table seen by the page: commit if our seat at this blind table has not yet (a page that sat us down).
export async function commitBlindIfSeated(table) {
  const you = table.you || {};
  if (!table.blind || you.seat === null || you.seat === undefined || table.status !== "open") return table;
  if (table.seats[you.seat].blind_committed) return table;
  return commitBlind(table.id, you.seat);
}

export class BlindPlay {
  constructor(tableId, seat, { onChange = () => {}, onNote = () => {}, onCommits = () => {} } = {}) {
    this.tableId = tableId;
    this.seatNo = seat;
    this.onChange = onChange;
    this.onNote = onNote;
    this.onCommits = onCommits; // (fingerprint, trouble): the seats' commits checked, once all are in
    this.fingerprint = null;
    this.trouble = null; // why the log's commits cannot be trusted: the page then sends nothing more
    this.after = 0;
    this.log = [];
    this.last = null; // the latest blind answer
    this.seat = null;
    this.stopped = false;
    this.received = new Set();
    this.fault = null;
    this.drawn = null; // knows() when the table was last drawn for a change here
    this.stepMs = []; // the page's time for each protocol step it did (bench and the curious)
    this.complaints = []; // [deal, position] of the other seats' opens this page found wrong and complained of
    this.feed = null; // the table's Feed: while it reads a stream, the log comes as its `blind` events (push)
    this.chain = Promise.resolve(); // answers are taken one at a time, in order
    this.wake = null; // ends the run loop's wait for the stream (a push, or the stream closed)
    this.pushes = 0; // blind answers the stream brought (the tests read it)
    this.polls = 0; // GET /games/{id}/blind this page asked (the tests read it)
    this.over = false;
  }

  // Whether the feed's stream brings the log: it reads streams and is not reconnecting (then this page long-polls
  // the log itself; a stream opened again asks from `after`, so nothing is missed either way).
  streamed() {
    const f = this.feed;
    return Boolean(f && f.streaming && f.state !== "reconnecting");
  }

  // The feed's stream has a `blind` event: the blind log's answer past what it sent.
  push(b) {
    this.pushes += 1;
    this.enqueue(b, false);
  }

  // The feed's view: its blind summary (count, due, ready, deal, abort) is as new as the log this page read
  // when it counts no entry more (a move changes whose turn it is, and the step due, without a new entry).
  noteView(game) {
    if (!this.streamed() || !game.blind || !this.last) return;
    this.enqueue({ ...this.last, ...game.blind, messages: [], status: game.status, seq: game.seq }, true);
  }

  feedChanged() {
    if (this.wake) this.wake();
  }

  enqueue(b, fromView) {
    this.chain = this.chain
      .then(() => this.take(b, fromView))
      .catch((exc) => this.onNote(exc.message, true));
    if (this.wake) this.wake();
  }

  async take(b, fromView = false) {
    if (this.over || (this.last && b.count < this.last.count)) return; // an older answer than the one taken
    if (fromView && b.count !== this.after) return; // the view counts entries not read yet: their event follows
    for (const m of b.messages) if (m.index >= this.after) this.log.push(m.message);
    this.after = Math.max(this.after, b.count);
    this.last = b;
    await this.checkCommits();
    if (this.seat && !this.trouble) await this.checkOpens(b);
    if (this.seat && !this.trouble) await this.act(b);
    // the table is drawn again only when what decorate() lends it changed (most answers bring another seat's
    // step or open: nothing to draw; the feed draws the moves)
    if (this.knows() !== this.drawn) {
      this.drawn = this.knows();
      this.onChange(b);
    }
    if (b.status === "over") this.over = true;
  }

  async run() {
    if (this.seatNo !== null) {
      this.seat = await loadSeat(this.tableId, this.seatNo);
      if (!this.seat) this.onNote("This browser does not hold this seat's blind-table secret: it cannot read its cards or play them here.", true);
    }
    while (!this.stopped && !this.over) {
      if (this.streamed()) {
        // the feed's stream brings the log: wait for it (a push, or the stream closing: then long-poll)
        await new Promise((r) => { this.wake = r; });
        this.wake = null;
        continue;
      }
      let b;
      try {
        this.polls += 1;
        b = await get(`/games/${encodeURIComponent(this.tableId)}/blind?after=${this.after}&wait=${WAIT_S}`);
      } catch (exc) {
        this.onNote(`The blind log cannot be read: ${exc.message}`, true);
        await new Promise((r) => setTimeout(r, 2000));
        continue;
      }
      this.enqueue(b, false);
      await this.chain;
    }
  }

  // Every other seat's open of the deal in play, as it comes: its keys must open its position of the final deck
  // to its card (one multiplication). The server does not make it (it checks the holder and "no card twice"); a
  // wrong open is complained of, and the server, checking that one open, aborts the game blamed on its opener.
  async checkOpens(b) {
    const k = b.deal ? b.deal.deal : null;
    for (const { message: m } of b.messages) {
      if (m.type !== "open" || m.seat === this.seatNo || m.deal !== k) continue;
      const locks = this.messages("lock", k).sort((x, y) => x.seat - y.seat);
      if (locks.length < PLAYERS) continue;
      if (await opens(m.keys.map(scalarFromHex), m.card, locks[PLAYERS - 1].deck[m.position])) continue;
      this.complaints.push([k, m.position]);
      this.onNote(`Seat ${m.seat}'s open of ${m.card} is wrong: its keys do not open its position to it. This page tells the service.`, true);
      try {
        await post(`/games/${encodeURIComponent(this.tableId)}/blind/complaints`, { deal: k, position: m.position });
      } catch (exc) {
        if (!(exc instanceof Problem)) throw exc;
        this.onNote(`The service did not take the complaint: ${exc.message}`, true);
      }
    }
  }

  stop() {
    this.stopped = true;
    if (this.wake) this.wake();
  }

  // What decorate() depends on beside the view, in one text: the deals whose cards are read, a fault, distrust.
  knows() {
    return `${[...this.received].join(",")}|${this.fault ? this.fault.message : ""}|${this.trouble || ""}`;
  }

  // Once every seat's commit is in: each signed by its own key and ours the one this browser sent (else the page
  // stops, revealing nothing, as the terminal client does), and their fingerprint for the players to compare.
  async checkCommits() {
    if (this.fingerprint || this.trouble) return;
    const trouble = await commitTrouble(this.log, PLAYERS, this.seat ? await this.seat.commit() : null);
    if (trouble) {
      this.trouble = trouble;
      this.onNote(`The blind log cannot be trusted: ${trouble}. This page sends nothing more and reveals nothing.`, true);
    } else {
      this.fingerprint = await commitsFingerprint(this.log, PLAYERS);
      if (!this.fingerprint) return;
    }
    this.onCommits(this.fingerprint, this.trouble);
  }

  messages(type, deal, seat = undefined) {
    return this.log.filter((m) => m.type === type && m.deal === deal && (seat === undefined || m.seat === seat));
  }

  boxKeys() {
    const commits = this.log.filter((m) => m.type === "commit").sort((a, b) => a.seat - b.seat);
    return commits.map((m) => m.box_key);
  }

  holders(deal) {
    const d = this.last && this.last.deal;
    if (!d || d.deal !== deal) throw new Error(`deal ${deal} is not the deal in play`);
    return spadesHolders(d.dealer, PLAYERS);
  }

  // Whatever this seat owes now (one step per answer: its message comes back in the next one).
  async act(b) {
    if (b.deal && b.ready) await this.receive(b.deal.deal);
    const due = b.due;
    if (b.status === "over" || !due || !(due.seats || []).includes(this.seatNo)) return;
    const s = this.seat;
    const k = due.deal;
    const t0 = performance.now();
    let msg;
    if (due.type === "shuffle") {
      msg = await s.shuffle(k, this.seatNo === 0 ? null : this.messages("shuffle", k, this.seatNo - 1)[0].deck);
    } else if (due.type === "lock") {
      const prev = this.seatNo === 0 ? this.messages("shuffle", k, PLAYERS - 1)[0] : this.messages("lock", k, this.seatNo - 1)[0];
      msg = await s.lock(k, prev.deck);
    } else if (due.type === "release") {
      msg = await s.release(k, this.holders(k), this.boxKeys());
    } else if (due.type === "reveal") {
      msg = await s.reveal();
    } else return; // a move: the table page makes it
    this.stepMs.push([due.type, performance.now() - t0]);
    try {
      await post(`/games/${encodeURIComponent(this.tableId)}/blind`, msg);
    } catch (exc) {
      if (!(exc instanceof Problem && exc.status === 409)) this.onNote(exc.message, true);
    }
  }

  async receive(k) {
    if (this.received.has(k) || this.seat.hand(k).length) {
      this.received.add(k);
      return;
    }
    const locks = this.messages("lock", k).sort((a, b) => a.seat - b.seat);
    const releases = Object.fromEntries(this.messages("release", k).map((m) => [m.seat, m]));
    try {
      const t0 = performance.now();
      await this.seat.receive(k, locks[locks.length - 1].deck, releases, this.holders(k), this.boxKeys());
      this.stepMs.push(["receive", performance.now() - t0]);
      saveSeat(this.seat);
      this.received.add(k);
    } catch (exc) {
      if (!(exc instanceof BlindFault)) throw exc;
      this.fault = exc;
      this.onNote(`Your cards of this deal cannot be read: ${exc.message}`, true);
    }
  }

  // My cards of the hand in play not yet played, or null before they are read.
  held(view) {
    if (!this.seat || view.hand_number === undefined) return null;
    const all = this.seat.hand(view.hand_number);
    if (!all.length) return null;
    const played = new Set([...(view.tricks || []).flatMap((t) => t.plays.map((p) => p[1])), ...((view.trick || {}).plays || []).map((p) => p[1])]);
    return sortCards(all.filter((c) => !played.has(c)));
  }

  // The game view with what only this page knows: the hand, the legal cards and why the others are not, the
  // suggestion. A view of a seat that is not ours, or of the game over, is left as it is.
  decorate(game) {
    const v = game.view;
    if (!v || game.seat !== this.seatNo || game.status === "over") return game;
    const held = this.held(v);
    const out = { ...game, view: { ...v, hand: held || [] } };
    if (!game.your_turn) return out;
    if (this.trouble) return { ...out, your_turn: false, legal_moves: [], suggested: null };
    // our turn before this page has read its cards (they come with the last release): not ours to act on yet
    if (held === null) return { ...out, your_turn: false, legal_moves: [], suggested: null };
    const timeout = this.timeoutMove(out);
    if (v.phase === "bid") return { ...out, suggested: timeout };
    const trick = ((v.trick || {}).plays || []).map((p) => p[1]);
    const legal = legalCards(held, trick, v.spades_broken);
    const why = Object.fromEntries(held.filter((c) => !legal.includes(c)).map((c) => [c, whyNot(held, c, trick, v.spades_broken)]));
    return { ...out, legal_moves: legal.map((card) => ({ kind: "play", card })), why_not: why, suggested: timeout };
  }

  // The rule set's timeout move from this seat's own view (its clock ran out: the page plays it, saying so).
  timeoutMove(game) {
    const v = game.view;
    const held = this.held(v);
    if (held === null) return null;
    if (v.phase === "bid") return { kind: "bid", value: suggestedBid(this.seat.hand(v.hand_number)) };
    return { kind: "play", card: safeCard({ seat: this.seatNo, hand: held, trick: (v.trick || {}).plays || [], bids: v.bids, spadesBroken: v.spades_broken }) };
  }

  // What a move request carries beside the move: a play's open (the card, its position and every seat's lock).
  async extra(game, move) {
    if (move.kind !== "play") return {};
    const k = game.view.hand_number;
    const j = this.seat.positionOf(k, move.card);
    if (j === null) throw new Error(`This browser holds no ${move.card} of this deal.`);
    return { open: await this.seat.open(k, j) };
  }

  abort() {
    return this.last && this.last.abort;
  }

  // What this seat's leave carries: its reveal (docs/blind.md, "Leaving"). The game aborts at once, so σ shows no
  // card still in play, and with it in the log every deal can still be checked.
  async leaveBody() {
    if (!this.seat || this.over) return undefined;
    return { blind_reveal: await this.seat.reveal() };
  }
}

// The sentence for an aborted blind game: who is blamed and why (the end record names the seat).
// `log`: the blind log's messages (a seat that left with its reveal is blamed for nothing).
export function abortSentence(abort, names, log = []) {
  if (!abort) return null;
  const title = names ? names.title(abort.seat) : `Seat ${abort.seat}`;
  const who = title === "You" ? "you" : title;
  if (abort.why === "left" && log.some((m) => m.type === "reveal" && m.seat === abort.seat)) {
    return `Aborted: ${who === "you" ? "you" : title} left the table and sent the seat's secret with the leave, so every deal can be checked; the signed end record blames nobody.`;
  }
  const why = {
    "step-timeout": `its ${abort.step} of deal ${abort.deal + 1} did not come in time`,
    "move-timeout": "no move in time (a blind seat's own page plays its timeout move, and it was gone)",
    left: "it left the table while its keys were still needed",
    revoke: "a card the rules did not allow, found when the hand's cards were all open",
    "bad-open": "an open whose keys do not open its position to its card (a seat's complaint showed it)",
    "bad-timeout-move": "a timeout move that is not the timeout policy's",
  }[abort.why] || abort.why;
  return `Blamed on ${who}: ${why}. The signed end record names seat ${abort.seat}.`;
}
