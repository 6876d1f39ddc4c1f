// The verify page: a transcript dropped in (or fetched by id from this service) checked in the browser, every
// check by fairdeal-verify's own Python (verifier/python.js) where it loads, else the JS checks with what they
// leave out named; every deal shown again, and the command that runs it all on the player's machine.

import { cardFace, cardName } from "./cards.js";
import { renderReplay } from "./replay.js";
import { ELSEWHERE, FAIL, parseClientSeed, parseCommitment, parseReceipt, verifyCommand, verifyTranscript } from "./protocol/checks.js";
import { clear, el } from "./dom.js";
import { latest } from "./latest.js";
import { loadGameNotes } from "./notes.js";
import { BLIND_CHECKS, findingSentence } from "./blind/verify.js";
import { pythonVerifier } from "./verifier/python.js";

const $ = (id) => document.getElementById(id);
const online = location.protocol === "http:" || location.protocol === "https:";
let current = null;          // {text, name, gameId}
// fairdeal-verify's Python, loading from the page's start (so a page loaded once checks offline after); a
// rejection says why it cannot run here, and the JS checks stand in
const python = online ? pythonVerifier() : Promise.reject(new Error("this page was opened from a file, not from the service"));
// the page says when the verifier is ready (or cannot run), for a person reading its source and for the tests
let settled = false;   // the Python is ready, or known not to run here
let runs = 0;          // the latest run() shows; an earlier one still waiting gives way
python.then(() => { document.documentElement.dataset.verifier = "python"; },
  () => { document.documentElement.dataset.verifier = "js"; }).finally(() => { settled = true; });

function lines(id) {
  return $(id).value.split("\n").map((s) => s.trim()).filter(Boolean);
}

function say(text, kind = "") {
  const s = $("status");
  s.textContent = text;
  s.className = kind;
}

async function serviceKeys() {
  if (!online) return [];
  try {
    const r = await fetch("/keys", { headers: { Accept: "application/json" } });
    if (!r.ok) return [];
    const body = await r.json();
    return (body.keys || []).map((k) => k.key).filter(Boolean);
  } catch {
    return [];
  }
}

function prefill(gameId) {
  const notes = gameId ? loadGameNotes(gameId) : null;
  if (!notes) return;
  if (notes.clientSeed && notes.seat !== null && notes.seat !== undefined && !$("seeds").value.trim()) {
    $("seeds").value = `${notes.seat}:${notes.clientSeed}`;
  }
  const receipts = Object.entries(notes.receipts || {});
  if (receipts.length && !$("receipts").value.trim()) {
    $("receipts").value = receipts.map(([seq, hash]) => `${seq}:${hash}`).join("\n");
  }
  if (notes.commitment && !$("noted").value.trim()) $("noted").value = notes.commitment;
}

async function run() {
  if (!current) return;
  let clientSeeds;
  let receipts;
  let commitment;
  try {
    clientSeeds = lines("seeds").map(parseClientSeed);
    receipts = lines("receipts").map(parseReceipt);
    commitment = $("noted").value.trim() ? parseCommitment($("noted").value) : null;
  } catch (exc) {
    say(exc.message, "error");
    return;
  }
  say("Checking…");
  const keys = lines("keys");
  // a tournament table's round board seed (docs/tournaments.md), as the tournament page's links give it
  const boardSeed = new URLSearchParams(location.search).get("board_seed");
  const mine = ++runs;
  // the JS checks first (they also deal the hands, the replay and the blind story shown below), then the verdict
  // of fairdeal-verify's Python in their place as soon as it is ready
  const report = await verifyTranscript(current.text, { keys, clientSeeds, receipts, commitment, boardSeed });
  if (mine !== runs) return;
  if (!settled) {
    show(report, clientSeeds, receipts, commitment);
    say("Checking with fairdeal-verify's own code (loading it; the JavaScript checks meanwhile)…");
  }
  const py = await pythonReport(current.text, keys, clientSeeds, receipts, commitment, boardSeed);
  if (mine !== runs) return;       // another transcript (or Check again) since: its run shows
  if (py && py.usage) {
    say(py.usage, "error");
    return;
  }
  if (py) adopt(report, py);
  show(report, clientSeeds, receipts, commitment);
  say(report.error ? report.error : "Checked.", report.error ? "error" : "");
}

// fairdeal-verify's report of this transcript, run by its Python here; null (report.notRunWhy set) where it cannot run
async function pythonReport(text, keys, clientSeeds, receipts, commitment, boardSeed) {
  let verifier;
  pythonReport.why = null;
  try {
    verifier = await python;
  } catch (exc) {
    settled = true;
    pythonReport.why = exc && exc.message ? exc.message : String(exc);
    return null;
  }
  settled = true;
  const options = { keys, receipts: receipts.map(([s, h]) => `${s}:${h}`),
    client_seeds: clientSeeds.map(([s, v]) => `${s}:${v}`), commitment, board_seed: boardSeed };
  try {
    const out = await verifier.verify(text, options);
    out.version = verifier.version;
    return out;
  } catch (exc) {
    pythonReport.why = `it failed on this transcript: ${exc.message}`;
    return null;
  }
}

// The Python's checks, warnings and error in place of the JS ones (the same ids, titles and statuses).
function adopt(report, py) {
  report.python = { version: py.version };
  report.checks = py.checks.map((c) => ({ id: c.id, title: c.title, status: c.status, detail: c.detail, seq: c.seq }));
  report.failed = py.failed;
  report.warnings = py.warnings;
  report.error = py.error;
  report.ok = py.ok;
}

function statusText(status) {
  return { pass: "PASS", fail: "FAIL", skip: "skip", [ELSEWHERE]: "fairdeal-verify" }[status] || status;
}

function show(report, clientSeeds, receipts, commitment) {
  $("report").hidden = false;
  $("report").dataset.engine = report.python ? "python" : "js";   // who ran the checks: fairdeal-verify's Python, or the JS
  const failed = report.checks.filter((c) => c.status === FAIL);
  const verdict = $("verdict");
  if (report.error && !report.game) {
    verdict.textContent = "This transcript cannot be checked.";
    verdict.className = "verdict bad";
  } else if (failed.length) {
    verdict.textContent = `FAILED: ${failed.map((c) => c.id).join(", ")}.`;
    verdict.className = "verdict bad";
  } else if (report.error) {
    verdict.textContent = report.error;
    verdict.className = "verdict";
  } else if (report.python) {
    const passed = report.checks.filter((c) => c.status === "pass").length;
    const skipped = report.checks.filter((c) => c.status === "skip" && (report.blind || !BLIND_CHECKS.includes(c.id)))
      .map((c) => c.id);
    verdict.textContent = `Every check of fairdeal-verify ran in this page, with its own code (fairdeal `
      + `${report.python.version}): ${passed} passed.`
      + (skipped.length ? ` Skipped, with nothing to check against: ${skipped.join(", ")}.` : "");
    verdict.className = skipped.length ? "verdict partial" : "verdict good";
  } else {
    // name exactly what this page did not check: a pass here is a pass of the checks it ran, no more
    const ran = report.checks.filter((c) => c.status === "pass").length;
    const notRun = report.checks.filter((c) => c.status === ELSEWHERE).map((c) => c.id);
    // the blind checks of a game at an ordinary table have nothing to check: not worth a word in the headline
    const skipped = report.checks.filter((c) => c.status === "skip" && (report.blind || !BLIND_CHECKS.includes(c.id)))
      .map((c) => c.id);
    const why = !settled ? " (fairdeal-verify's own code is still loading in this page to run them)"
      : pythonReport.why ? ` (fairdeal-verify's own code could not run in this page: ${pythonReport.why})` : "";
    verdict.textContent = `The ${ran} checks this page ran passed.`
      + (notRun.length ? ` Not checked here: ${notRun.join(", ")}${why} (fairdeal-verify runs them, below).` : "")
      + (skipped.length ? ` Skipped, with nothing to check against: ${skipped.join(", ")}.` : "");
    verdict.className = notRun.length || skipped.length ? "verdict partial" : "verdict good";
  }
  facts(report);
  const warnings = clear($("warnings"));
  for (const w of report.warnings) warnings.append(el("li", { text: w }));
  const body = clear($("checks"));
  for (const c of report.checks) {
    body.append(el("tr", { class: `check ${c.status}`, dataset: { check: c.id, status: c.status } },
      el("td", {}, el("span", { class: `badge ${c.status}`, text: statusText(c.status) })),
      el("th", { scope: "row" }, el("code", { text: c.id }), el("span", { class: "title", text: ` ${c.title}` })),
      el("td", { text: c.detail + (c.seq ? ` (record ${c.seq})` : "") })));
  }
  elsewhere(report, clientSeeds, receipts, commitment);
  blindPart(report);
  deals(report);
}

// A dealer-blind game: what this page checked of the seats' messages, who is at fault, and what it did not check.
function blindPart(report) {
  const box = $("blind");
  box.hidden = !report.blind;
  if (!report.blind) return;
  const b = report.blind;
  const found = clear($("blind-findings"));
  box.dataset.atFault = b.atFault.join(",");
  if (!b.findings.length) found.append(el("li", { class: "pass", text: "Every message checks out: no seat is at fault." }));
  for (const f of b.findings) found.append(el("li", { class: "fail", dataset: { code: f.code }, text: findingSentence(f) }));
  const checked = clear($("blind-checked"));
  for (const line of b.lines) checked.append(el("li", { text: line }));
  const not = clear($("blind-not-checked"));
  const left = report.python ? ["nothing: fairdeal-verify's own code replayed the rules too (the checks above)"] : b.notChecked;
  for (const line of left) not.append(el("li", { text: line }));
}

function facts(report) {
  const dl = clear($("game-facts"));
  const g = report.game;
  if (!g) return;
  const add = (k, v) => dl.append(el("dt", { text: k }), el("dd", {}, v));
  add("Game", el("code", { text: g.game_id }));
  add("Rules", `${g.rule_set}, ${g.players} players` + (g.settings && Object.keys(g.settings).length
    ? ` (${Object.entries(g.settings).map(([k, v]) => `${k}: ${v}`).join(", ")})` : ""));
  add("Seats", g.seats.map((s) => `${s.seat} ${s.name}${s.bot ? " (bot)" : ""}`).join(", ") || "none");
  add("Moves", `${g.moves}, ${g.reason || "not ended"}`);
  add("Fingerprint (commitment)", el("code", { class: "hex", text: g.commitment }));
  if (g.server_seed) add("Seed revealed", el("code", { class: "hex", text: g.server_seed }));
  const notes = loadGameNotes(g.game_id);
  if (notes && notes.commitment) {
    const same = notes.commitment === g.commitment;
    add("Fingerprint your table showed", el("span", { class: same ? "good" : "bad",
      text: same ? "the same, before the first card" : `DIFFERENT: ${notes.commitment}` }));
  }
  if (g.result) add("Result", JSON.stringify(g.result));
}

function elsewhere(report, clientSeeds, receipts, commitment) {
  const box = clear($("elsewhere"));
  if (!report.game || !report.game.server_seed) return;
  const engine = report.checks.filter((c) => c.status === ELSEWHERE).map((c) => c.id);
  const name = current.name || `fairdeal-game-${report.game.game_id}.json`;
  const last = receipts.length ? [receipts.reduce((a, b) => (a[0] > b[0] ? a : b))] : [];
  const key = report.keySource === "service" ? report.key : null;     // else fairdeal-verify warns, as this page does
  const command = verifyCommand(name, { key, clientSeeds, receipts: last, commitment });
  box.append(
    el("h3", { text: engine.length ? "What needs fairdeal-verify" : "fairdeal-verify on your own machine" }),
    el("p", {}, engine.length ? `${engine.join(", ")}: replaying every move through the rules (was each legal? `
      + "is each bot move the bot's choice, each timeout move the clock's?) needs the rules engine. Run "
      + "fairdeal-verify (it comes with the fairdeal package and needs no server) on your own machine:" : "Run every check again on your own machine:"),
    el("pre", { class: "command" }, el("code", { id: "command", text: command })),
    el("button", { type: "button", onclick: () => copy(command) }, "Copy the command"));
  if (current.fromService) {
    const url = URL.createObjectURL(new Blob([current.text], { type: "application/json" }));
    box.append(" ", el("a", { class: "button", href: url, download: name }, `Download ${name}`));
  }
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    say("Copied.");
  } catch {
    say("Select the command and copy it.");
  }
}

function deals(report) {
  const section = $("deals-section");
  const box = clear($("deals"));
  const d = report.deals;
  section.hidden = !d;
  $("replay-section").hidden = !d;
  if (!d) return;
  try {
    renderReplay($("replay"), report, JSON.parse(current.text).records || []);
  } catch {
    $("replay-section").hidden = true;     // a transcript the replay cannot read: the checks above say why
  }
  const seats = report.game.seats;
  const who = (s) => (seats[s] ? `${seats[s].name}${seats[s].bot ? " (bot)" : ""}` : `seat ${s}`);
  box.append(el("p", { text: `The first dealer, drawn from the seed: ${who(d.firstDealer)} (seat ${d.firstDealer}).` }));
  let number = 1;
  for (const deal of d.deals) {
    const ending = { played: "played out", "thrown-in": "thrown in (everybody passed)", walkover: "won without play",
      "new-deal": "a new deal was asked for" }[deal.end] || "not finished";
    const det = el("details", { class: "deal", open: deal.index === 0, dataset: { deal: String(deal.index) } },
      el("summary", {}, `Hand ${number}`, el("span", { class: "muted", text: ` · pack ${deal.index}, dealt by ${who(deal.dealer)} · ${ending}` })));
    const rows = deal.hands.map((cards, s) => el("tr", {},
      el("th", { scope: "row", text: who(s) }), el("td", {}, cardRow(cards))));
    if (deal.kitty.length) {
      rows.push(el("tr", {}, el("th", { scope: "row", text: "Kitty" }), el("td", {}, cardRow(deal.kitty),
        deal.teaser ? el("span", { class: "muted", text: ` (face up: ${cardName(deal.teaser)})` }) : "")));
    }
    for (const draw of deal.draws) {
      rows.push(el("tr", {}, el("th", { scope: "row", text: `${who(draw.seat)} drew` }),
        el("td", {}, draw.drew.length ? cardRow(draw.drew) : "nothing",
          el("span", { class: "muted", text: ` for ${draw.threw.length} thrown (record ${draw.seq})` }))));
    }
    det.append(el("table", { class: "dealt" }, el("tbody", {}, rows)));
    box.append(det);
    if (deal.end !== "new-deal") number++;
  }
}

function cardRow(cards) {
  return el("span", { class: "card-row" }, cards.map((c) => cardFace(document, c, { small: true })));
}

async function load(text, name, fromService = false, gameId = null) {
  current = { text, name, fromService };
  let id = gameId;
  if (!id) {
    try {
      id = JSON.parse(text).commit.game_id;
    } catch {
      id = null;
    }
  }
  if (id) prefill(id);
  await run();
}

// Opening a game by id, or a file: the transcript opened last is the one checked. Open game A, then quickly game
// B (or drop a file): A's fetch answered after B's is dropped, never checked in B's place.
const opening = latest();

function openById(id) {
  if (!online) {
    say("Opening a game by id needs this service; offline, drop the transcript file instead.", "error");
    return undefined;
  }
  say("Fetching the transcript…");
  const read = async () => {
    const r = await fetch(`/games/${encodeURIComponent(id)}/transcript`, { headers: { Accept: "application/json" } });
    return { ok: r.ok, status: r.status, text: await r.text() };
  };
  return opening(read, ({ ok, status, text }) => {
    if (!ok) {
      let detail = `HTTP ${status}`;
      try { detail = JSON.parse(text).detail || detail; } catch { /* not JSON */ }
      say(detail, "error");
      return undefined;
    }
    const body = JSON.parse(text);
    if (body.complete === false) {
      say("This game has not ended: its seed is revealed when it ends. Come back then.", "error");
      return undefined;
    }
    return load(text, `fairdeal-game-${id}.json`, true, id);
  }, { onError: () => say("The service did not answer: the transcript could not be fetched.", "error") });
}

function readFile(file) {
  return opening(() => file.text(), (text) => load(text, file.name),
    { onError: () => say("The file could not be read.", "error") });
}

function init() {
  if (!online) {
    for (const a of [$("home-link"), $("lobby-link")]) a.removeAttribute("href");
    $("by-id").hidden = true;
  }
  $("file").addEventListener("change", (e) => e.target.files[0] && readFile(e.target.files[0]));
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files[0]) readFile(e.dataTransfer.files[0]);
  });
  $("by-id").addEventListener("submit", (e) => {
    e.preventDefault();
    const id = $("game-id").value.trim();
    if (id) openById(id);
  });
  $("recheck").addEventListener("click", run);
  serviceKeys().then((keys) => {
    if (keys.length && !$("keys").value.trim()) $("keys").value = keys.join("\n");
    const fromPath = /^\/verify\/([^/]+)$/.exec(location.pathname);
    const id = fromPath ? decodeURIComponent(fromPath[1]) : new URLSearchParams(location.search).get("game");
    if (id) {
      $("game-id").value = id;
      openById(id);
    }
  });
}

init();
