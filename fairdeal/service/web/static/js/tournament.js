// The tournament page (docs/web.md): standings after every round, rounds with their tables (each game linked to
// its table and verify pages) and byes; a player registers here (a fresh client seed committed with a nonce, the
// seed and nonce kept in this browser and revealed when registration closes, as `fairdeal tournament` does) and
// finds their next table; the organiser creates (/tournament/new), adds bots, closes and starts.
import { get, me, post, signUp } from "./api.js";
import { $, clear, el } from "./dom.js";
import { canonicalBytes } from "./protocol/canonical.js";
import { newNonce, randomClientSeed } from "./protocol/fairness.js";
import { sha256Hex } from "./protocol/hash.js";
import { latest } from "./latest.js";

const PROTOCOL = "fairdeal-tournament/1";
const id = decodeURIComponent(location.pathname.split("/").pop());
const NOTES = `fairdeal.tournament.${id}`;
const POLL_MS = 2000;

function notes() {
  try {
    return JSON.parse(localStorage.getItem(NOTES) || "{}");
  } catch {
    return {};
  }
}
const saveNotes = (n) => localStorage.setItem(NOTES, JSON.stringify(n));

// docs/tournaments.md, "Entries commit, then reveal"
export async function entryCommitment(tournamentId, clientSeed, nonce) {
  return sha256Hex(canonicalBytes({
    type: "tournament-client-seed", protocol: PROTOCOL, tournament_id: tournamentId, client_seed: clientSeed, nonce,
  }));
}

function say(text) {
  $("#message").textContent = text;
}

async function signedIn() {
  if (me()) return me();
  const name = $("#player-name").value.trim();
  if (!name) throw new Error("Type your name first.");
  await signUp(name);
  return me();
}

function entryName(t, n) {
  const e = t.entries[n];
  return e ? e.name + (e.bot ? " (bot)" : "") : `entry ${n}`;
}

function standingsTable(t, rows) {
  return el("table", { class: "standings" },
    el("thead", {}, el("tr", {}, ["Rank", "Entry", "Points", "Matchpoints", "Buchholz"].map((h) => el("th", { text: h })))),
    el("tbody", {}, rows.map((s) => el("tr", {}, el("td", { text: s.rank }), el("td", { text: entryName(t, s.entry) }),
      el("td", { text: s.points }), el("td", { text: s.matchpoints }), el("td", { text: s.buchholz })))));
}

function tableLine(t, tb, boardSeed) {
  const sides = tb.entries.map((e, side) => `side ${side} ${entryName(t, e)}`).join(", ");
  const verify = `/verify/${encodeURIComponent(tb.game_id)}?board_seed=${boardSeed}`;
  const links = boardSeed
    ? [" ", el("a", { href: verify, class: "verify-link", text: "verify" }),
      " ", el("a", { href: `/table/${encodeURIComponent(tb.game_id)}`, text: "replay" })]
    : [` (${tb.status})`];
  return el("li", { class: "table-line" }, `Table ${tb.table} (${tb.game_id}): `, sides, ...links);
}

function render(t) {
  $("#title").textContent = `Tournament ${t.id}`;
  $("#summary").textContent = `${t.rules.id} for ${t.rules.players}, ${t.format}, ${t.rounds} rounds, `
    + `${t.entries.length} entries, played ${t.play}: ${t.status}.`;
  $("#commitment").textContent = t.commitment;
  const body = clear($("#standings tbody"));
  for (const s of t.standings) {
    body.append(el("tr", {}, el("td", { text: s.rank }), el("td", { text: entryName(t, s.entry) }),
      el("td", { text: s.points }), el("td", { text: s.matchpoints }), el("td", { text: s.buchholz })));
  }
  const rounds = clear($("#rounds"));
  for (const r of t.played) {
    const byes = r.byes.length ? el("p", { text: `Bye: ${r.byes.map((e) => entryName(t, e)).join(", ")}` }) : null;
    rounds.append(el("h3", { text: `Round ${r.round}` }),
      el("ul", {}, r.tables.map((tb) => tableLine(t, tb, r.board_seed))), byes,
      el("p", { class: "muted", text: `Board seed, revealed when the round ended: ${r.board_seed}` }),
      el("details", { class: "round-standings" }, el("summary", { text: `Standings after round ${r.round}` }),
        standingsTable(t, r.standings)));
  }
  if (t.current) {
    rounds.append(el("h3", { text: `Round ${t.current.round} (being played)` }),
      el("ul", {}, t.current.tables.map((tb) => tableLine(t, tb, null))));
  }
  $("#export").href = `/tournaments/${encodeURIComponent(t.id)}/export`;
  $("#command").textContent = `fairdeal-verify tournament ${location.origin}/tournaments/${t.id}/export`;
  $("#register").hidden = t.status !== "registering";
  const size = t.entry_size;
  const members = $("#members");
  if (members.children.length !== size) {
    clear(members);
    for (let i = 0; i < size; i++) {
      members.append(el("label", {}, `Member ${i + 1} `, el("input", { class: "member", required: true, maxlength: 40 })));
    }
  }
  $("#organise").hidden = !notes().organiser || t.status === "over";
}

// The page's refreshes overlap (its poll, and the one after each button): each entry's reveal is one POST,
// however many of them find it unrevealed; the others wait for that POST. A failed one is tried again by the
// next refresh.
const reveals = new Map();     // entry -> its reveal POST (in flight, or done)

async function revealMine(t) {
  if (t.status !== "revealing") return;
  for (const entry of Object.keys(notes().entries || {})) {
    if (notes().entries[entry].revealed) continue;      // read now: another refresh may have just revealed it
    if (!reveals.has(entry)) {
      reveals.set(entry, revealEntry(t.id, entry).catch((exc) => {
        reveals.delete(entry);
        throw exc;
      }));
    }
    await reveals.get(entry);
  }
}

async function revealEntry(tournamentId, entry) {
  const kept = notes().entries[entry];
  await post(`/tournaments/${encodeURIComponent(tournamentId)}/entries/${entry}/reveal`, { client_seed: kept.seed, nonce: kept.nonce });
  const n = notes();           // as saved now, with what other reveals saved meanwhile
  n.entries[entry].revealed = true;
  saveNotes(n);
  say(`Your client seed is revealed for entry ${entry}: it opens the commitment you registered with.`);
}

// The poll's refresh and a button's may overlap: of each read (the tournament, "my table") only the one asked
// last is drawn (latest.js), so an older answer arriving late cannot put back an older round's state.
const tournamentReads = latest();
const mineReads = latest();
const failed = (exc) => { throw exc; };      // no retry here: the poll asks again in POLL_MS

async function showMine(t) {
  if (!me() || !Object.keys(notes().entries || {}).length) {
    clear($("#mine"));
    return;
  }
  const mine = await mineReads(() => get(`/tournaments/${encodeURIComponent(t.id)}/me`), (m) => m, { onError: failed });
  if (mine === undefined) return;            // a later read draws
  const box = clear($("#mine"));
  const next = mine.next_table;
  if (next) {
    box.append(el("p", { id: "next-table" }, `Round ${next.round}: your table is ${next.game_id}, seat ${next.seat}. `,
      el("a", { href: `/table/${encodeURIComponent(next.game_id)}`, id: "next-table-link", text: "Go to your table" })));
  } else {
    box.append(el("p", { id: "next-table", text: t.status === "over" ? "The tournament is over."
      : "No table for you right now (between rounds, or a bye)." }));
  }
}

async function refresh() {
  const t = await tournamentReads(() => get(`/tournaments/${encodeURIComponent(id)}`), (answer) => {
    render(answer);
    return answer;
  }, { onError: failed });
  if (t === undefined) return undefined;     // a later read draws (and reveals)
  await revealMine(t);
  await showMine(t);
  return t;
}

async function register(ev) {
  ev.preventDefault();
  try {
    await signedIn();
    const seed = randomClientSeed();
    const nonce = newNonce();
    const members = [...document.querySelectorAll("#members .member")].map((m) => m.value.trim());
    const answer = await post(`/tournaments/${encodeURIComponent(id)}/entries`, {
      name: $("#entry-name").value.trim(), members, client_seed_commitment: await entryCommitment(id, seed, nonce),
    });
    const n = notes();
    n.entries = { ...(n.entries || {}), [answer.you.entry]: { seed, nonce, revealed: false } };
    saveNotes(n);
    say(`Registered as entry ${answer.you.entry}; your seed's commitment is published, the seed stays here until registration closes.`);
    await refresh();
  } catch (exc) {
    say(`Not registered: ${exc.message}`);
  }
}

async function organise(action) {
  try {
    if (action === "bot") {
      const t = await get(`/tournaments/${encodeURIComponent(id)}`);
      const k = t.entries.length;
      const members = Array.from({ length: t.entry_size }, (_, i) => `bot ${k}.${i + 1}`);
      await post(`/tournaments/${encodeURIComponent(id)}/entries`, { name: `bots ${k}`, members, bot: true });
    } else {
      await post(`/tournaments/${encodeURIComponent(id)}/${action}`);
    }
    await refresh();
  } catch (exc) {
    say(`Refused: ${exc.message}`);
  }
}

async function create(ev) {
  ev.preventDefault();
  try {
    await signedIn();
    const t = await post("/tournaments", {
      rule_set: $("#new-rule-set").value, format: $("#new-format").value, rounds: Number($("#new-rounds").value),
    });
    localStorage.setItem(`fairdeal.tournament.${t.id}`, JSON.stringify({ organiser: true }));
    location.assign(`/tournament/${encodeURIComponent(t.id)}`);
  } catch (exc) {
    say(`Not created: ${exc.message}`);
  }
}

function start() {
  if (me()) $("#player-name").value = me().name;
  if (id === "new") {
    $("#title").textContent = "A new tournament";
    $("#summary").textContent = "You organise it: its seed is committed as soon as it is created.";
    $("#create").hidden = false;
    $("#create").addEventListener("submit", create);
    return;
  }
  $("#register").addEventListener("submit", register);
  for (const b of document.querySelectorAll("#organise button")) b.addEventListener("click", () => organise(b.dataset.action));
  const loop = () => refresh().catch((exc) => {
    $("#summary").textContent = `This tournament cannot be shown: ${exc.message}`;
  }).finally(() => setTimeout(loop, POLL_MS));
  loop();
}

start();
