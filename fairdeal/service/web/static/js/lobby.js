// The lobby: who you are, open a table of any rule set (your saved choices filled in), the open tables with
// their full rules, and your own games with their transcripts.

import { get, me, post, Problem, signUp } from "./api.js";
import { clear, el } from "./dom.js";
import { randomClientSeed } from "./protocol/fairness.js";
import { commitSeat } from "./seating.js";

const $ = (id) => document.getElementById(id);
const CLOCKS = { on: { card: 25, other: 30 }, relaxed: { card: 60, other: 90 }, off: "off" };
let ruleSets = [];

function say(id, text, error = false) {
  $(id).textContent = text;
  $(id).className = error ? "error" : "";
}

function clocksText(clocks) {
  if (!clocks || (clocks.card === null && clocks.other === null)) return "no clocks";
  return `${clocks.card ?? "no"} s a card, ${clocks.other ?? "no"} s for other moves`;
}

function clocksChoice(clocks) {
  if (!clocks || (clocks.card === null && clocks.other === null)) return "off";
  return clocks.card >= 60 ? "relaxed" : "on";
}

// ------------------------------------------------------------------------------------------- open a table

function settingField(s, value) {
  const id = `setting-${s.name}`;
  if (s.choices.length === 2 && typeof s.default === "boolean") {
    return el("div", { class: "setting" }, el("label", {},
      el("input", { type: "checkbox", id, name: s.name, checked: value === true }), ` ${s.text}`));
  }
  const select = el("select", { id, name: s.name },
    s.choices.map((c, i) => el("option", { value: JSON.stringify(c), selected: c === value },
      s.labels ? s.labels[i] : String(c))));
  return el("div", { class: "setting" }, el("label", { for: id, text: s.text }), select);
}

let shown = 0;

async function showRuleSet() {
  const rs = ruleSets.find((r) => r.id === $("rule-set").value);
  if (!rs) return;
  const mine = ++shown;
  const form = $("open-form");
  delete form.dataset.ready;
  for (const b of form.querySelectorAll("button")) b.disabled = true;
  $("rule-text").textContent = rs.rules;
  let prefs = null;
  try {
    prefs = (await get(`/players/me/preferences/${encodeURIComponent(rs.id)}`)).preferences;
  } catch {
    prefs = null;
  }
  if (mine !== shown) return;       // another game was chosen meanwhile
  const chosen = (prefs && prefs.settings) || {};
  const fields = clear($("settings-fields"));
  for (const s of rs.settings) fields.append(settingField(s, s.name in chosen ? chosen[s.name] : s.default));
  $("settings").hidden = rs.settings.length === 0;
  const size = (prefs && prefs.players) || rs.default_size;
  const players = clear($("players"));
  for (const n of rs.table_sizes) players.append(el("option", { value: String(n), selected: n === size }, String(n)));
  $("size-row").hidden = rs.table_sizes.length < 2;
  $("clocks").value = clocksChoice(prefs ? prefs.clocks : CLOCKS.on);
  seatChoices();
  form.dataset.ready = rs.id;
  for (const b of form.querySelectorAll("button")) b.disabled = false;
}

function seatChoices() {
  const n = Number($("players").value);
  const seat = clear($("my-seat"));
  for (let i = 0; i < n; i++) seat.append(el("option", { value: String(i) }, `Seat ${i}`));
  seat.append(el("option", { value: "none" }, "I host the table without playing"));
}

function readSettings(rs) {
  const out = {};
  for (const s of rs.settings) {
    const input = $(`setting-${s.name}`);
    if (input) out[s.name] = input.type === "checkbox" ? input.checked : JSON.parse(input.value);
  }
  return out;
}

async function openTable(event) {
  event.preventDefault();
  const now = event.submitter && event.submitter.value === "now";
  const rs = ruleSets.find((r) => r.id === $("rule-set").value);
  const seat = $("my-seat").value === "none" ? null : Number($("my-seat").value);
  const body = { rule_set: rs.id, settings: readSettings(rs), players: Number($("players").value),
    clocks: CLOCKS[$("clocks").value], seat };
  for (const b of document.querySelectorAll("#open-form button")) b.disabled = true;
  say("open-status", "Opening the table…");
  try {
    const clientSeed = $("client-seed").value;
    const table = await post("/tables", body);
    if (seat !== null) await commitSeat(table.id, clientSeed);      // the commitment binds the new table's id
    if (now) await post(`/tables/${table.id}/start`);              // the table page reveals our seed
    location.assign(`/table/${encodeURIComponent(table.id)}`);
  } catch (exc) {
    say("open-status", exc.message, true);
  } finally {
    for (const b of document.querySelectorAll("#open-form button")) b.disabled = false;
  }
}

// ------------------------------------------------------------------------------------------- open tables

function seatChip(s) {
  if (s.bot) return el("span", { class: "chip bot" }, `${s.seat}: ${s.name} `, el("span", { class: "bot-badge", text: "bot" }));
  return el("span", { class: "chip" }, s.taken ? `${s.seat}: ${s.name}` : `${s.seat}: empty`);
}

function tableLine(t, mine) {
  const free = t.seats.filter((s) => !s.taken).length;
  const seated = mine.has(t.id);
  return el("li", { class: "table-line", dataset: { table: t.id } },
    el("h3", {}, `${t.title}`, el("span", { class: "muted", text: ` · hosted by ${t.host}` })),
    el("p", { class: "rules", text: t.rules }),
    t.reminder ? el("p", { class: "reminder-line", text: `Plays differently: ${t.reminder}` }) : null,
    el("div", { class: "seats-line" }, t.seats.map(seatChip)),
    el("p", { class: "muted", text: `${t.seats_taken} of ${t.players} seats taken; empty seats become bots when the host starts. Clocks: ${clocksText(t.clocks)}.${t.spectators ? ` ${t.spectators} watching.` : ""}` }),
    el("div", { class: "row" },
      seated ? el("a", { class: "button primary", href: `/table/${encodeURIComponent(t.id)}` }, "Back to your seat")
        : free ? el("a", { class: "button primary", href: `/table/${encodeURIComponent(t.id)}#sit` }, "Sit down") : null,
      seated ? null : el("a", { class: "button", href: `/table/${encodeURIComponent(t.id)}#watch` }, "Watch")));
}

// A table being played: who sits where, and "Watch" (or "Back to your seat").
function runningLine(t, mine) {
  const seated = mine.has(t.id);
  const away = t.seats.filter((s) => s.gone).length;
  return el("li", { class: "table-line", dataset: { running: t.id } },
    el("h3", {}, `${t.title}`, el("span", { class: "muted", text: ` · hosted by ${t.host}` })),
    el("div", { class: "seats-line" }, t.seats.map(seatChip)),
    el("p", { class: "muted", text: `Started ${t.started ? new Date(t.started).toLocaleTimeString() : "(waiting for the reveals)"}. Clocks: ${clocksText(t.clocks)}.${t.spectators ? ` ${t.spectators} watching.` : ""}${away ? ` ${away} player(s) left: the table's bot stands in.` : ""}` }),
    el("div", { class: "row" },
      el("a", { class: "button", href: `/table/${encodeURIComponent(t.id)}${seated ? "" : "#watch"}` },
        seated ? "Back to your seat" : "Watch")));
}

let myTables = new Set();

async function refreshTables() {
  try {
    const lobby = await get("/lobby");
    const list = clear($("tables"));
    for (const t of lobby.tables) list.append(tableLine(t, myTables));
    $("tables-empty").hidden = lobby.tables.length > 0;
    const running = clear($("running"));
    for (const t of lobby.running || []) running.append(runningLine(t, myTables));
    $("running-empty").hidden = (lobby.running || []).length > 0;
  } catch {
    /* the next refresh tries again */
  }
}

// ------------------------------------------------------------------------------------------- your games

function when(g) {
  const t = g.ended || g.started || g.created;
  return t ? new Date(t).toLocaleString() : "";
}

async function refreshGames() {
  let games;
  try {
    games = (await get("/players/me/games")).games;
  } catch {
    return;
  }
  myTables = new Set(games.filter((g) => g.status !== "over").map((g) => g.id));
  const body = clear($("games"));
  for (const g of games) {
    const title = (ruleSets.find((r) => r.id === g.rule_set) || {}).title || g.rule_set;
    const status = g.status === "over" ? `over (${g.end_reason})` : g.status;
    const links = g.status === "over"
      ? [el("a", { href: g.links.page }, "Table"), " · ", el("a", { href: g.links.transcript, download: `fairdeal-game-${g.id}.json` }, "Transcript"),
        " · ", el("a", { href: g.links.verify }, "Verify")]
      : [el("a", { href: g.links.page }, g.status === "open" ? "Back to the table" : "Back to your seat")];
    body.append(el("tr", { dataset: { game: g.id } }, el("td", {}, title, el("br"), el("code", { class: "muted", text: g.id })),
      el("td", { text: String(g.seat) }), el("td", { text: status }), el("td", { text: when(g) }), el("td", {}, links)));
  }
  $("games-table").hidden = games.length === 0;
  $("games-empty").hidden = games.length > 0;
}

// ------------------------------------------------------------------------------------------------- start

async function enter() {
  if (me()) {
    try {
      await get("/players/me");
    } catch (exc) {
      if (!(exc instanceof Problem)) throw exc;     // 401: this service no longer knows the token (forgotten)
    }
  }
  const p = me();
  $("sign-up").hidden = !!p;
  $("room").hidden = !p;
  $("who").textContent = p ? `You: ${p.name}` : "";
  if (!p) return;
  ruleSets = (await get("/rule-sets")).rule_sets;
  const select = clear($("rule-set"));
  for (const r of ruleSets) select.append(el("option", { value: r.id }, r.title));
  $("client-seed").value = randomClientSeed();
  await showRuleSet();
  await refreshGames();
  await refreshTables();
  setInterval(async () => { await refreshGames(); await refreshTables(); }, 4000);
}

$("sign-up-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    await signUp($("name").value.trim());
    await enter();
  } catch (exc) {
    say("sign-up-status", exc instanceof Problem ? exc.message : "The service does not answer; try again.", true);
  }
});
$("rule-set").addEventListener("change", showRuleSet);
$("players").addEventListener("change", seatChoices);
$("open-form").addEventListener("submit", openTable);
enter();
