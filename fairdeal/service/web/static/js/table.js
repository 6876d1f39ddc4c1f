// The table page: take a seat (or watch), start, then play through the event feed — the hand, the trick, the
// blocks, the clock — and, at the end, the seed beside its fingerprint and "Verify this game".

import { get, me, post, Problem, sendMove, signUp } from "./api.js";
import { cardFace, cardName } from "./cards.js";
import { choicesOf, legalThrow, playLabel, throwHint } from "./choices.js";
import { HandTracker, layout } from "./protocol/deals.js";
import { latest } from "./latest.js";
import { clear, el } from "./dom.js";
import { randomClientSeed } from "./protocol/fairness.js";
import { Feed } from "./feed.js";
import { renderFacts, renderScores, renderSeats, renderTrick } from "./felt.js";
import { loadGameNotes, saveGameNotes } from "./notes.js";
import { commitIfSeated, offerAgain } from "./again.js";
import { comeBack, renderPresence } from "./presence.js";
import { loadRules, renderRules } from "./rules.js";
import { loadSheet, renderSheet } from "./sheet.js";
import { commitSeat, Distrust, revealIfAsked } from "./seating.js";
import { abortSentence, BlindPlay, commitBlindIfSeated } from "./blind/play.js";
import { cardPlayed, setSound, soundOn, warning, yourTurn } from "./sound.js";
import { handSummary, lastHand, Names, recordSentence, resultSentence, spadesTrick, trickSentence } from "./story.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const LONG_PRESS_MS = 450;

const S = {
  table: null,            // GET /tables/{id}
  game: null,             // the latest game view
  names: null,
  lift: null,             // {card} or {key}: what is lifted, waiting for the second tap
  selected: new Set(),    // cards chosen to throw
  sending: false,
  tracker: null,
  plays: [],              // the plays of the trick in progress, as the records told them
  turnSeq: null,          // the seq at which our current turn began
  ticker: null,
};

// ------------------------------------------------------------------------------------------------ helpers

function say(id, text, error = false) {
  $(id).textContent = text;
  $(id).classList.toggle("error", error);
}

function typing(target) {
  return target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT");
}

function secondsLeft(game) {
  if (!game || !game.deadline) return null;
  return Math.max(0, Math.ceil((Date.parse(game.deadline) - Date.now()) / 1000));
}

function log(text, cls = "", seq = null) {
  const list = $("log");
  list.append(el("li", { class: cls, text, dataset: seq === null ? {} : { seq: String(seq) } }));
  list.scrollTop = list.scrollHeight;
}

// ------------------------------------------------------------------------------------------ before the start

async function loadTable() {
  S.table = await get(`/tables/${encodeURIComponent(tableId)}`);
  $("commitment").textContent = S.table.commitment;
  $("reminder").textContent = S.table.reminder ? `This table plays: ${S.table.reminder}` : "Standard rules (no setting changed)";
  document.title = `${S.table.title} · fairdeal`;
  $("title").textContent = `${S.table.title}, table ${S.table.id}`;
  const notes = loadGameNotes(tableId);
  if (notes && notes.clientSeed) $("my-seed").textContent = `Your client seed: ${notes.clientSeed}`;
  if (S.table.you && S.table.you.seat !== null && (!notes || notes.commitment !== S.table.commitment)) {
    saveGameNotes(tableId, (n) => { n.seat = S.table.you.seat; n.commitment = S.table.commitment; });
  }
  return S.table;
}

function renderWaiting() {
  const t = S.table;
  const you = t.you || { seat: null, host: false, watching: false };
  $("waiting").hidden = false;
  $("waiting-title").textContent = t.status === "revealing" ? "Revealing the client seeds" : "Waiting for players";
  $("room-line").textContent = `${t.title}, hosted by ${t.host}. ${t.rules}`;
  if (t.status === "revealing") {
    const until = t.reveal_deadline ? ` (until ${new Date(t.reveal_deadline).toLocaleTimeString()})` : "";
    clear($("open-seats")).append(...t.seats.map((s) => el("li", { class: "table-line", dataset: { seat: String(s.seat) } },
      el("strong", { text: `Seat ${s.seat}: ` }), s.name || "",
      s.bot ? " (bot)" : s.committed ? (s.revealed ? " — seed revealed" : " — revealing its seed…") : " — gave no seed")));
    $("join-box").hidden = true;
    clear($("open-actions")).append(el("span", { class: "muted",
      text: `The table has started: each seat that committed to a client seed reveals it now${until}. The first card is dealt when every seed is in.` }));
    return;
  }
  const list = clear($("open-seats"));
  for (const s of t.seats) {
    const mine = you.seat === s.seat;
    list.append(el("li", { class: "table-line", dataset: { seat: String(s.seat) } },
      el("strong", { text: `Seat ${s.seat}: ` }),
      s.taken ? `${s.name}${mine ? " (you)" : ""}` : "empty (a bot takes it at the start)",
      !s.taken && you.seat === null
        ? el("button", { type: "button", class: "primary sit", dataset: { seat: String(s.seat) }, onclick: () => sit(s.seat) }, `Sit here`)
        : null));
  }
  $("join-box").hidden = you.seat !== null;
  $("join-name-row").hidden = !!me();
  if (!$("join-seed").value) $("join-seed").value = randomClientSeed();
  const actions = clear($("open-actions"));
  if (you.host) {
    actions.append(el("button", { type: "button", class: "primary", id: "start", onclick: start },
      "Start the game (empty seats become bots)"));
    actions.append(el("button", { type: "button", onclick: cancel }, "Close the table"));
  } else if (you.seat !== null) {
    actions.append(el("button", { type: "button", onclick: leaveSeat }, "Give up my seat"));
    actions.append(el("span", { class: "muted", text: "Waiting for the host to start." }));
  } else if (!you.watching) {
    actions.append(el("button", { type: "button", onclick: watch, id: "watch" }, "Watch this table"));
  } else {
    actions.append(el("span", { class: "muted", text: "You are watching. The game shows here when it starts." }));
  }
}

async function ensureMe() {
  if (me()) return true;
  const name = $("join-name").value.trim();
  if (!name) {
    say("waiting-status", "Type your name first.", true);
    $("join-name").focus();
    return false;
  }
  await signUp(name);
  $("who").textContent = `You: ${me().name}`;
  return true;
}

async function sit(seat) {
  try {
    if (!await ensureMe()) return;
    const table = await commitBlindIfSeated(await commitSeat(tableId, $("join-seed").value, seat));
    S.table = table;
    say("waiting-status", `You sit at seat ${table.you.seat}.`);
    renderWaiting();
  } catch (exc) {
    say("waiting-status", exc.message, true);
  }
}

async function watch() {
  try {
    if (me()) S.table = await post(`/tables/${encodeURIComponent(tableId)}/watch`);
    else S.table.you = { seat: null, host: false, watching: true };
    renderWaiting();
  } catch (exc) {
    say("waiting-status", exc.message, true);
  }
}

async function start() {
  try {
    S.table = await post(`/tables/${encodeURIComponent(tableId)}/start`);
    renderWaiting();          // the waiting loop reveals our seed and starts the game when every seed is in
  } catch (exc) {
    say("waiting-status", exc.message, true);
  }
}

async function cancel() {
  if (!confirm("Close this table? Its seed is revealed and nobody can play at it.")) return;
  try {
    S.table = await post(`/tables/${encodeURIComponent(tableId)}/cancel`);
    location.assign("/");
  } catch (exc) {
    say("waiting-status", exc.message, true);
  }
}

async function leaveSeat() {
  try {
    S.table = await post(`/tables/${encodeURIComponent(tableId)}/leave`);
    renderWaiting();
  } catch (exc) {
    say("waiting-status", exc.message, true);
  }
}

async function waitForStart() {
  try {
    S.table = await commitIfSeated(S.table);     // seated by the host to play again: our new seed's commitment
    S.table = await commitBlindIfSeated(S.table); // a dealer-blind table: this seat's secrets, kept in this browser
  } catch (exc) {
    say("waiting-status", exc.message, true);
  }
  renderWaiting();
  if (location.hash === "#watch" && !(S.table.you && S.table.you.seat !== null)) await watch();
  if (location.hash === "#sit") {
    const b = document.querySelector("button.sit");
    if (b) b.focus();
  }
  while (S.table.status === "open" || S.table.status === "revealing") {
    if (S.table.status === "revealing") await reveal();
    await new Promise((r) => setTimeout(r, S.table.status === "revealing" ? 500 : 1500));
    try {
      await loadTable();
    } catch {
      continue;
    }
    if (S.table.status === "open" || S.table.status === "revealing") renderWaiting();
  }
  if (S.table.status === "distrusted") return;        // we did not reveal: the table is cancelled at its deadline
  if (S.table.status === "over" && !S.table.started) {
    neverStarted();
    return;
  }
  beginPlay();
}

// The host started the table: every committed seat reveals its seed; ours is revealed by this page.
async function reveal() {
  try {
    const { table, note } = await revealIfAsked(S.table);
    S.table = table;
    if (note) say("waiting-status", note);
  } catch (exc) {
    const why = exc instanceof Distrust ? `Not revealing your client seed: ${exc.message}. The table is cancelled at its deadline, with its signed trail.` : exc.message;
    say("waiting-status", why, true);
    S.table.status = "distrusted";
  }
}

function neverStarted() {
  $("waiting").hidden = false;
  $("waiting-title").textContent = "This table never started";
  $("room-line").textContent = S.table.end_reason === "not-revealed"
    ? "A seat did not reveal its client seed in time, so no card was dealt. The table's seed is revealed, and its signed record names the seat."
    : `The table was ${S.table.end_reason} before its first card.`;
  clear($("open-seats"));
  clear($("open-actions")).append(el("a", { class: "button primary", href: `/verify/${encodeURIComponent(tableId)}` }, "Verify this table's record"));
}

// ------------------------------------------------------------------------------------------------- playing

function beginPlay() {
  if (S.feed) return;
  $("waiting").hidden = true;
  $("felt").hidden = false;
  const lay = layout({ id: S.table.rule_set, players: S.table.players, settings: S.table.settings });
  S.tracker = lay ? new HandTracker(lay) : null;
  if (S.table.blind) startBlind();  // first: the feed's stream then carries the blind log to it (`blind` events)
  S.feed = new Feed(tableId, {
    blind: S.blind,
    onBatch: onBatch,
    onState: (state) => {
      $("connection").dataset.feed = S.feed.mode || "";      // "stream", or "long-poll" where no stream is read
      $("connection").textContent = state === "reconnecting" ? "Connection lost: reconnecting…" : "";
      $("connection").classList.toggle("error", state === "reconnecting");
    },
    onEnd: onEnd,
    stream: new URLSearchParams(location.search).get("feed") !== "long-poll",   // ?feed=long-poll: the fallback
  });
  if (S.blind) S.blind.feed = S.feed;
  S.feed.run().catch((exc) => say("turn-what", exc.message, true));
  loadRules(tableId).then(() => S.game && renderRules($("rules"), (S.game.view || {}).trump)).catch(() => {});
  S.ticker = setInterval(tick, 250);
}

// A dealer-blind table: the page does this seat's protocol steps and lends the view the hand only it can read.
function startBlind() {
  const seat = S.table.you && S.table.you.seat !== undefined ? S.table.you.seat : null;
  S.blind = new BlindPlay(tableId, seat, {
    onChange: () => {
      // how the blind log reached the page: the stream's `blind` events, or its own long-polls (the tests read it)
      Object.assign($("connection").dataset, { blindPushes: S.blind.pushes, blindPolls: S.blind.polls });
      if (S.raw && S.raw.status !== "over") { S.game = S.blind.decorate(S.raw); render(); }
    },
    onNote: (text, error) => say("why", text, error),
    onCommits: showCommits,
  });
  S.blind.run().catch((exc) => say("why", exc.message, true));
  if (!$("blind-note")) {
    $("fair-title").after(el("p", { id: "blind-note", text: "Dealer-blind table: the seats shuffle and hold the cards "
      + "between them, so the service never sees a hand. This browser keeps your keys and reads only your own cards." }));
  }
}

// The seats' blind commits, checked: their fingerprint (the terminal client prints the same 64 hex digits) and
// whether this seat's commit is in the table's record as this browser sent it.
function showCommits(fingerprint, trouble) {
  const seated = S.blind.seat !== null;
  $("blind-fingerprint").textContent = fingerprint || "";
  $("blind-own-commit").textContent = trouble ? `Not trusted: ${trouble}.`
    : seated ? "Your seat's commit is in the table's record exactly as this browser sent it." : "";
  $("blind-own-commit").classList.toggle("error", !!trouble);
  $("blind-commits").dataset.status = trouble ? "fail" : "pass";
  $("blind-commits").hidden = false;
}

// The score sheet, read again when a hand ends (and at the start and the end). Two hands may end close
// together: the reads can come back out of order, and only the latest asked is drawn (an earlier answer
// drawn after it would take a row away). A read that fails is asked again, a little later each time.
const sheetReads = latest();
function refreshSheet() {
  return sheetReads(() => loadSheet(tableId), (hands) => {
    if (S.game) renderSheet($("sheet"), hands, S.game.view || {}, S.names || new Names(S.game));
  }, { retries: 5 });
}

// After a leave or a return (the table changed, the log did not: the feed has no news of it), read the view.
// A leave then a return give two views of the same seq: only the view read last is drawn (the earlier one,
// arriving late, would show the seat away again). The feed may have brought a later move (and view) while this
// read was on its way: an older view is not drawn either. A read that fails is asked again, later each time.
const viewReads = latest();
function refresh() {
  return viewReads(() => get(`/games/${encodeURIComponent(tableId)}`), (view) => {
    if (S.viewTrouble) say("why", "");               // the read's failure said so: it is answered now
    S.viewTrouble = false;
    if (S.game && view.seq < S.game.seq) return;
    onBatch([], view);
  }, {
    retries: 5,
    onError: (exc, last) => {
      S.viewTrouble = true;
      say("why", last ? exc.message : `${exc.message} Asking again…`, true);
    },
  });
}

// Opening the page is coming back: a seat of ours that the first view shows away is taken back from the
// table's bot (one request, and only then: a page opened on a seat that is not away costs nothing more).
async function comeBackIfAway(game) {
  const mine = game.seat !== null && game.seat !== undefined ? (game.seats || [])[game.seat] : null;
  if (!mine || !mine.away || game.status === "over") return;
  try {
    S.table = await comeBack(tableId);
    await refresh();
  } catch (exc) {
    say("why", exc.message, true);
  }
}

function onBatch(records, game) {
  const first = S.game === null;
  const endedBefore = S.handsEnded || 0;
  const handBefore = S.game && S.game.view ? S.game.view.hand_number : undefined;
  S.raw = game;
  if (S.blind) S.blind.noteView(game);  // whose step or turn it is now, from the view's blind summary
  if (S.blind) game = S.blind.decorate(game);
  S.game = game;
  S.names = new Names(game);
  const v = game.view || {};
  const last = lastHand(v);
  let movedForMe = null;
  let movedAt = -1;
  // The view knows the tricks of the hand in play and, in last_hand, those of the hand that ended last in this
  // batch; a trick of an earlier hand of the same batch is told only where the plays alone tell it (Spades).
  const probe = S.tracker ? S.tracker.clone() : null;
  const endsAt = probe ? records.map((rec, i) => (probe.step(rec) ? i : -1)).filter((i) => i >= 0) : [];
  const lastEnd = endsAt.length ? endsAt[endsAt.length - 1] : null;
  const firstOfLast = endsAt.length > 1 ? endsAt[endsAt.length - 2] + 1 : 0;
  records.forEach((rec, i) => {
    log(recordSentence(rec, S.names, v), rec.by === "timeout" || rec.by === "stand-in" ? "timeout" : "", rec.seq);
    if (rec.by === "timeout" && rec.seat === game.seat) [movedForMe, movedAt] = [recordSentence(rec, S.names, v), i];
    if (!first && rec.move.kind === "play" && rec.seat !== game.seat) cardPlayed();
    if (!S.tracker) return;
    if (rec.move.kind === "play") S.plays.push([rec.seat, rec.move.card]);
    const end = S.tracker.step(rec);
    if (S.tracker.trickDone !== null) {
      const tricks = lastEnd === null || i > lastEnd ? v.tricks : i >= firstOfLast ? (last && last.tricks) : null;
      let trick = (tricks || [])[S.tracker.trickDone];
      if (!trick && v.rule_set === "spades") trick = spadesTrick(S.plays);
      S.plays = [];
      const text = trickSentence(trick, S.names, v);
      if (text) log(text, "trick");
    }
    if (!end) return;
    S.handsEnded = (S.handsEnded || 0) + 1;                  // every deal ends, a new deal asked for too
    const number = S.handsEnded - 1;                         // the hand_number of the hand that ended
    if (end.how === "new-deal") log("A new deal: the same dealer shuffles again.", "hand-over first");
    else if (i === lastEnd && last && last.hand_number === number) {
      handSummary(last, v, S.names).forEach((line, k) => log(line, k ? "hand-over" : "hand-over first"));
    } else log(`Hand ${number + 1} is over.`, "hand-over first");
  });
  // a new hand starts clean: the note of a time that ran out in the hand before stays in the log only
  const newHand = (S.handsEnded || 0) !== endedBefore || (handBefore !== undefined && v.hand_number !== handBefore);
  if (newHand) $("moved-for-you").hidden = true;
  if (movedForMe && !(newHand && movedAt <= (lastEnd ?? records.length))) showMovedForMe(movedForMe);
  if (first || (S.handsEnded || 0) !== endedBefore) refreshSheet();
  if (first) comeBackIfAway(game);
  if (game.seq !== S.turnSeq) {
    S.lift = null;
    S.selected = new Set();
  }
  const myTurnBegins = game.your_turn && game.seq !== S.turnSeq;
  if (myTurnBegins) S.turnSeq = game.seq;
  render();
  if (myTurnBegins) {
    yourTurn();
    focusTurn();
  }
}

function showMovedForMe(text) {
  const box = $("moved-for-you");
  box.textContent = text;
  box.hidden = false;
  warning();
  clearTimeout(S.movedTimer);
  S.movedTimer = setTimeout(() => { box.hidden = true; }, 12000);
}

async function onEnd(game) {
  S.game = game;
  render();
  clearInterval(S.ticker);
  $("over").hidden = false;
  $("over-text").textContent = resultSentence(game, new Names(game));
  if (S.blind) await blindEnd(game);
  refreshSheet();
  // "Verify this game" where the end is read, not below the fold at the bottom of the fairness panel
  if (!$("over-verify")) $("over").append(el("p", {}, el("a", { class: "button primary", id: "over-verify",
    href: `/verify/${encodeURIComponent(tableId)}` }, "Verify this game")));
  // in view without scrolling (on a phone the panel is below the table); focus there if "Your turn" had it
  if (S.focusMine && focusLost(document.activeElement)) $("over-verify").focus({ preventScroll: true });
  $("over").scrollIntoView({ block: "nearest" });
  log(resultSentence(game, new Names(game)), "hand-over first");
  try {
    const t = await get(`/games/${encodeURIComponent(tableId)}/transcript`);
    if (t && t.end) {
      $("server-seed").textContent = t.end.server_seed;
      $("seed-box").hidden = false;
    }
  } catch {
    /* the verify page fetches it again */
  }
  $("verify-link").href = `/verify/${encodeURIComponent(tableId)}`;
  $("transcript-link").href = `/games/${encodeURIComponent(tableId)}/transcript`;
  // one file per seat or watcher, as `fairdeal play` names them: a host, a joiner and a watcher never clash
  const seated = game.seat !== null && game.seat !== undefined;
  $("transcript-link").setAttribute("download", `fairdeal-game-${tableId}-${seated ? `seat${game.seat}` : "watch"}.json`);
  $("verify-box").hidden = false;
  try {
    S.table = await get(`/tables/${encodeURIComponent(tableId)}`);
    if (S.table.started) offerAgain($("again"), S.table, game.seat);
  } catch {
    /* no offer to play again: the lobby opens tables too */
  }
}

// A blind game that ended aborted says who is blamed (the signed end record names the seat).
async function blindEnd(game) {
  try {
    const b = await get(`/games/${encodeURIComponent(tableId)}/blind?after=${S.blind.after}`);
    const text = abortSentence(b.abort, new Names(game), [...S.blind.log, ...b.messages.map((m) => m.message)]);
    if (text) {
      $("over-text").textContent += ` ${text}`;
      $("over").dataset.abort = b.abort.why;
      log(text, "hand-over first");
    }
  } catch {
    /* the transcript says it too */
  } finally {
    S.blind.stop();
  }
}

// ------------------------------------------------------------------------------------------------ drawing

// Our turn, unless the move for this position is already sent (its view has not come back yet).
function myTurn(game) {
  return !!game.your_turn && game.seq !== S.sentSeq;
}

function render() {
  const game = S.game;
  if (!game) return;
  if (S.lift && S.lift.card && !choicesOf(game).playable.has(S.lift.card)) S.lift = null;
  const names = S.names;
  const felt = $("felt");
  renderSeats(felt, game, S.table, names, secondsLeft(game));
  renderFacts($("facts"), game, S.table);
  renderTrick($("trick"), $("trick-note"), game, names);
  renderScores($("scores"), game, names);
  renderLastTrick(game, names);
  renderPresence($("presence"), game, tableId, refresh, async () => (S.blind ? S.blind.leaveBody() : undefined));
  renderRules($("rules"), (game.view || {}).trump);
  const seated = game.seat !== null && game.seat !== undefined;
  $("mine").hidden = !seated || game.status === "over";
  if (!seated) {
    $("who").textContent = me() ? `You: ${me().name} (watching)` : "Watching";
    return;
  }
  $("who").textContent = `You: ${me() ? me().name : ""}, seat ${game.seat}`;
  $("mine").dataset.turn = myTurn(game) && !S.sending ? "yes" : "no";
  $("mine").dataset.seq = String(game.seq);
  // a position whose move we sent is shown as the others' turn until the table answers
  const shown = game.your_turn && !myTurn(game) ? { ...game, your_turn: false, sent: true } : game;
  renderTurn(shown, names);
  renderChoices(shown);
  renderHand(shown);
  updateAct(shown);
  $("tick-legend").hidden = !$("mine").querySelector(".tick");
  keepFocus();
}

// Focus that was in "Your turn" and lost its element (a card played, a block sent, the Throw button hidden) goes
// back to the hand (or the blocks), not to the page. Where "Your turn" has no control to take it (every button
// disabled while a move is sent; the hand empty after its last card, the next not dealt yet) it waits on the hand
// itself (#hand, tabindex -1), still in "Your turn", until a control comes back. Quietly: the hint line keeps
// what it says.
function keepFocus() {
  if (!S.focusMine || !focusLost(document.activeElement)) return;
  const hand = $("hand");
  const target = [$("choices"), hand].map((b) => b.querySelector("[tabindex='0']:not(:disabled)")).find(Boolean);
  if (!target && document.activeElement === hand) return;
  S.quietFocus = true;
  (target || hand).focus();
  S.quietFocus = false;
}

// No control has focus: on the page (a removed element leaves it on the body), on an element that is hidden or
// disabled (Chromium keeps it there until the next frame), or waiting on the hand itself.
function focusLost(active) {
  return !active || active === document.body || !active.isConnected || active.disabled
    || !!active.closest("[hidden]") || active === $("hand");
}

function renderLastTrick(game, names) {
  const v = game.view || {};
  const done = v.tricks && v.tricks.length ? v.tricks : ((lastHand(v) || {}).tricks || []);
  const box = clear($("last-trick"));
  const last = done[done.length - 1];
  const text = trickSentence(last, names, v);
  if (text) box.append(el("p", { text: `Last trick: ${text}` }));
  const summary = lastHand(v);
  if (summary) for (const line of handSummary(summary, v, names)) box.append(el("p", { class: "muted", text: line }));
}

function renderTurn(game, names) {
  const v = game.view || {};
  let text;
  if (game.status === "over") text = "The game is over.";
  else if (game.your_turn) {
    const c = choicesOf(game);
    text = c.mode === "play" ? "Your turn: play a card." : c.mode === "throw" ? `Your turn: ${throwHint(c)}` : "Your turn: choose.";
  } else if (game.to_move !== null && game.to_move !== undefined) {
    text = `${names.title(game.to_move)} to move${game.seats[game.to_move] && game.seats[game.to_move].bot ? " (bot)" : ""}.`;
  } else text = "";
  if (v.hand_hidden) text += " Your cards lie face down until trumps are named.";
  $("turn-what").textContent = text;
}

function renderChoices(game) {
  const c = choicesOf(game);
  const box = $("choices");
  const focusedKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.choice : null;
  clear(box);
  c.blocks.forEach((b, i) => {
    const lifted = S.lift && S.lift.key === b.key;
    const btn = el("button", {
      type: "button", class: `choice${b.word ? " word" : ""}`, "aria-pressed": lifted ? "true" : "false",
      "aria-label": b.aria,
      title: b.suggested ? "The table's suggestion" : null, dataset: { choice: b.key },
      tabindex: (S.lift ? lifted : (b.suggested || (i === 0 && !c.blocks.some((x) => x.suggested)))) ? "0" : "-1",
      disabled: S.sending,
      onclick: () => onBlock(b),
      onkeydown: (e) => rove(e, box, "button.choice"),
    }, b.label, b.suggested ? el("span", { class: "tick", "aria-hidden": "true", text: "\u2713" }) : null);
    box.append(btn);
  });
  if (focusedKey) {
    const again = box.querySelector(`[data-choice='${CSS.escape(focusedKey)}']`);
    if (again) again.focus();
  }
}

function renderHand(game) {
  const v = game.view || {};
  const c = choicesOf(game);
  const hand = $("hand");
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
  clear(hand);
  hand.classList.toggle("my-turn", !!game.your_turn && c.mode === "play");
  const cards = v.hand || [];
  if (v.hand_hidden && !cards.length) {
    const count = (v.seats && v.seats[game.seat] && v.seats[game.seat].cards) || 0;
    for (let i = 0; i < count; i++) hand.append(el("span", { class: "card back", role: "img", "aria-label": "a card face down" }));
    return;
  }
  const kitty = new Set(v.kitty || []);
  const suggestedCards = new Set();
  if (game.suggested && game.suggested.kind === "play") suggestedCards.add(game.suggested.card);
  if (game.suggested && game.suggested.kind === "throw" && c.mode === "throw") (game.suggested.cards || []).forEach((x) => suggestedCards.add(x));
  const why = game.why_not || {};
  let tabbed = false;
  cards.forEach((card, i) => {
    const playable = c.mode === "play" && c.playable.has(card);
    const lifted = (c.mode === "play" && S.lift && S.lift.card === card) || (c.mode === "throw" && S.selected.has(card));
    const reason = c.mode === "play" && !playable ? (why[card] || "You cannot play this card now.") : null;
    let label = cardName(card, v.trump, v.trump_word);
    if (kitty.has(card)) label += ", from the kitty";
    if (c.mode === "play") label += playable ? ", playable" : `, cannot be played: ${reason}`;
    if (c.mode === "throw") label += lifted ? ", chosen to throw" : "";
    if (suggestedCards.has(card)) label += " (the table's suggestion)";
    const first = (S.lift && S.lift.card === card) || (!S.lift && (c.mode !== "play" ? i === 0 : playable));
    const btn = el("button", {
      type: "button", class: `card${playable ? " playable" : ""}${reason ? " unplayable" : ""}${kitty.has(card) ? " from-kitty" : ""}`,
      "aria-pressed": lifted ? "true" : "false", "aria-label": label, title: reason || null, dataset: { card },
      "aria-disabled": reason ? "true" : null, tabindex: first && !tabbed ? "0" : "-1", disabled: S.sending,
      onclick: () => onCard(card),
      onkeydown: (e) => rove(e, hand, "button.card"),
      onfocus: () => { if (!S.quietFocus) showWhy(card); },
      // pointing says why a card cannot be played, but while a card is lifted the hint line stays with it
      onpointerenter: () => { if (!(S.lift && S.lift.card)) showWhy(card); },
      onpointerleave: () => showWhy(S.lift && S.lift.card ? S.lift.card : null),
      onpointerdown: () => { S.press = setTimeout(() => showWhy(card, true), LONG_PRESS_MS); },
      onpointerup: () => clearTimeout(S.press),
      oncontextmenu: (e) => { if (reason) e.preventDefault(); },
    }, cardFace(document, card, { trump: v.trump, trumpWord: v.trump_word }),
    suggestedCards.has(card) ? el("span", { class: "tick", "aria-hidden": "true", text: "\u2713" }) : null);
    if (first && !tabbed) tabbed = true;
    hand.append(btn);
  });
  if (!tabbed && hand.firstChild) hand.firstChild.setAttribute("tabindex", "0");
  if (focused) {
    const again = hand.querySelector(`[data-card='${CSS.escape(focused)}']`);
    if (again) again.focus();
  }
  if (S.lift && S.lift.card) showWhy(S.lift.card);
}

// What pointing at (or holding, or focusing) a card says: why it cannot be played now.
function showWhy(card, held = false) {
  const game = S.game;
  const box = $("why");
  if (!card || !game) {
    box.textContent = "";
    box.classList.remove("bubble");
    return;
  }
  const v = game.view || {};
  const c = choicesOf(game);
  const name = cardName(card, v.trump, v.trump_word);
  box.classList.toggle("bubble", held);
  if (c.mode === "play" && !c.playable.has(card)) box.textContent = `${name}: ${(game.why_not || {})[card] || "you cannot play it now."}`;
  else if (c.mode === "play") box.textContent = `${name}: you may play it.`;
  else if (!game.your_turn && game.status !== "over") box.textContent = `${name}. It is not your turn.`;
  else box.textContent = name;
}

function rove(event, box, selector) {
  const items = [...box.querySelectorAll(selector)];
  const at = items.indexOf(event.currentTarget);
  let to = null;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") to = (at + 1) % items.length;
  if (event.key === "ArrowLeft" || event.key === "ArrowUp") to = (at - 1 + items.length) % items.length;
  if (event.key === "Home") to = 0;
  if (event.key === "End") to = items.length - 1;
  if (event.key === "Escape") {
    S.lift = null;
    render();
    return;
  }
  if (to === null) return;
  event.preventDefault();
  items.forEach((b, i) => b.setAttribute("tabindex", i === to ? "0" : "-1"));
  items[to].focus();
}

function updateAct(game) {
  const act = $("act");
  const hint = $("act-hint");
  const c = choicesOf(game);
  hint.textContent = "";
  act.hidden = true;
  act.disabled = S.sending;
  if (!game.your_turn) return;
  if (c.mode === "throw") {
    const move = legalThrow(c, S.selected);
    act.hidden = false;
    const n = S.selected.size;
    act.textContent = n === 0 ? "Keep all my cards" : `Throw ${n} card${n === 1 ? "" : "s"}`;
    act.setAttribute("aria-disabled", move ? "false" : "true");
    act.removeAttribute("aria-label");
    if (!move) hint.textContent = throwHint(c);
    act.onclick = () => { if (legalThrow(c, S.selected)) send(legalThrow(c, S.selected)); else hint.textContent = throwHint(c); };
    return;
  }
  if (S.lift && S.lift.card) {
    act.hidden = false;
    act.removeAttribute("aria-disabled");
    act.textContent = playLabel(S.lift.card, game.view);
    act.removeAttribute("aria-label");
    act.onclick = () => send({ kind: "play", card: S.lift.card });
  } else if (S.lift && S.lift.key) {
    const b = c.blocks.find((x) => x.key === S.lift.key);
    if (!b) return;
    act.hidden = false;
    act.removeAttribute("aria-disabled");
    act.textContent = b.move.kind === "bid" ? "Bid" : b.verb;
    act.setAttribute("aria-label", b.aria);
    act.onclick = () => send(b.move);
  } else if (c.mode === "play") {
    hint.textContent = "Tap a bright card to lift it, then tap it again or Play.";
  } else if (c.blocks.length) {
    hint.textContent = "Tap a block to lift it, then tap it again or the button.";
  }
}

function focusTurn() {
  const active = document.activeElement;
  if (active && active !== document.body && !$("mine").contains(active)) return;   // do not pull focus away
  const target = $("choices").querySelector("[tabindex='0']") || $("hand").querySelector("[tabindex='0']");
  if (target) target.focus();
}

// ------------------------------------------------------------------------------------------------ deciding

function onCard(card) {
  const game = S.game;
  if (!game || S.sending || (game.your_turn && !myTurn(game))) return;
  const c = choicesOf(game);
  if (c.mode === "throw") {
    if (S.selected.has(card)) S.selected.delete(card);
    else S.selected.add(card);
    render();
    return;
  }
  if (c.mode !== "play") {
    showWhy(card, true);
    return;
  }
  if (!c.playable.has(card)) {
    showWhy(card, true);
    return;
  }
  if (S.lift && S.lift.card === card) {
    send({ kind: "play", card });
    return;
  }
  S.lift = { card };
  render();
}

function onBlock(block) {
  if (S.sending || !S.game || !myTurn(S.game)) return;
  if (S.lift && S.lift.key === block.key) {
    send(block.move);
    return;
  }
  S.lift = { key: block.key };
  render();
}

async function send(move, timeout = false) {
  const game = S.game;
  if (!game || S.sending || !myTurn(game)) return;
  S.sending = true;
  render();
  say("why", "");
  try {
    const extra = S.blind ? await S.blind.extra(game, move) : {};
    if (timeout) extra.timeout = true;
    const ack = await sendMove(tableId, game.seq, move, {
      onRetry: () => say("why", "The service did not answer; sending the same move again…"), extra,
    });
    saveGameNotes(tableId, (n) => { n.receipts[ack.seq] = ack.receipt; });
    S.sentSeq = game.seq;
    S.lift = null;
    S.selected = new Set();
    if (move.kind === "play") cardPlayed();
  } catch (exc) {
    if (exc instanceof Problem && exc.status === 409) say("why", `${exc.message} The table has moved on.`);
    else say("why", exc.message, true);
  } finally {
    S.sending = false;
    S.feed.poke();
    render();
  }
}

function tick() {
  const game = S.game;
  if (!game) return;
  const left = secondsLeft(game);
  const timer = $("timer");
  for (const seat of document.querySelectorAll(".seat")) {
    const info = seat.querySelector(".info");
    if (!info) continue;
    const clock = info.querySelector(".clock") || info.appendChild(el("span", { class: "clock" }));
    const which = game.clock === "card" ? "to play a card" : "for other moves";
    clock.textContent = seat.classList.contains("to-move") && left !== null ? ` · ${left} s left ${which}` : "";
  }
  if (!game.your_turn || left === null) {
    timer.hidden = true;
    return;
  }
  if (S.blind && Date.now() > Date.parse(game.deadline) && myTurn(game) && !S.sending) blindTimeout(game);
  const total = (S.table.clocks || {})[game.clock] || left || 1;
  timer.hidden = false;
  timer.classList.toggle("low", left <= 5);
  $("timer-bar").style.width = `${Math.min(100, (100 * left) / total)}%`;
  $("timer-text").textContent = `${left} s to ${game.clock === "card" ? "play a card" : "decide"}`;
}

// The clock ran out at a blind table: the server cannot choose a card it cannot see, so this page plays the
// rule set's timeout move for its own seat, marked as one (the verifier checks it is the policy's).
async function blindTimeout(game) {
  const move = S.blind.timeoutMove(game);
  const tried = S.blindTimeoutTry;
  // once per position, again after 2 s if the service refused it (its clock a little behind this browser's)
  if (!move || (tried && tried.seq === game.seq && Date.now() - tried.at < 2000)) return;
  S.blindTimeoutTry = { seq: game.seq, at: Date.now() };
  await send(move, true);
  if (S.sentSeq !== game.seq) return;
  const what = move.kind === "play" ? cardName(move.card) : move.value === 0 ? "a bid of nil" : `a bid of ${move.value}`;
  showMovedForMe(`Your time ran out: this page played ${what} for you, the table's timeout move.`);
}

// ------------------------------------------------------------------------------------------------- start

function soundButton() {
  const b = $("sound");
  const show = () => {
    b.textContent = soundOn() ? "Sound on (M)" : "Sound off (M)";
    b.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  };
  b.addEventListener("click", () => { setSound(!soundOn()); show(); });
  document.addEventListener("keydown", (e) => {
    if ((e.key === "m" || e.key === "M") && !typing(e.target) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      setSound(!soundOn());
      show();
      say("why", soundOn() ? "Sound on." : "Sound off.");
    }
  });
  show();
}

async function init() {
  soundButton();
  // where focus is: in "Your turn" (keepFocus brings it back there) or elsewhere on the page (left alone)
  document.addEventListener("focusin", (e) => { S.focusMine = $("mine").contains(e.target); });
  document.addEventListener("pointerdown", (e) => { if (!$("mine").contains(e.target)) S.focusMine = false; });
  if (me()) $("who").textContent = `You: ${me().name}`;
  try {
    await loadTable();
  } catch (exc) {
    $("waiting").hidden = false;
    say("waiting-status", exc instanceof Problem && exc.status === 404 ? "There is no such table." : exc.message, true);
    return;
  }
  if (S.table.status === "open" || S.table.status === "revealing") await waitForStart();
  else if (S.table.status === "over" && !S.table.started) neverStarted();
  else beginPlay();
}

init();
