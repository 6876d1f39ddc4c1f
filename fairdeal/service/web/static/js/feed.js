// The game's event feed (docs/api.md, "Event feed"). The page reads the server-sent events of
// GET /games/{id}/stream through fetch (an EventSource cannot send the player's token): a `record` event per
// move, a `game` event with the caller's view after each batch, `end` when the game is over (and at a
// dealer-blind table a `blind` event each time the blind log grows, for the page's BlindPlay). A waiting stream
// costs the service nothing between moves, where a long-poll is answered and asked again every WAIT seconds
// (docs/operations.md, "Sizing"). Where the stream cannot be read (no streaming body in this browser, a proxy
// that buffers it), the feed long-polls GET /games/{id}/events?after=N instead. Either way every request asks
// after the last record seen, so a dropped connection only delays records, never loses one.

import { call, get, Offline, Problem } from "./api.js";

const WAIT = 20;             // seconds one long-poll may wait (the service caps it)
const STALE = 75_000;        // ms without a byte on a stream (the service writes one every 40 to 50 s): dead
const FIRST_DELAY = 2_000;   // ms: the bound of the first reconnection's wait until a stream's `retry:` says
const MAX_DELAY = 30_000;    // ms: the bound never grows past this

// A reconnection's wait: "full jitter", a uniform draw up to the bound (which doubles after each failure), so
// that the clients of a restarted service come back spread out, not in waves (docs/operations.md, "Proxies").
export function jittered(bound, random = Math.random) {
  return Math.floor(random() * Math.min(bound, MAX_DELAY));
}

// Server-sent events out of a fetch body: calls onEvent(type, data) for each complete event, onChunk() for
// every piece of the body (keep-alive comments too), onRetry(ms) for a `retry:` field.
export async function readEvents(body, onEvent, onChunk = () => {}, onRetry = () => {}) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onChunk();
    buf += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      let type = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;                 // a keep-alive comment
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const val = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") type = val;
        else if (field === "data") data.push(val);
        else if (field === "retry" && /^[0-9]+$/.test(val)) onRetry(Number(val));
      }
      if (data.length) onEvent(type, JSON.parse(data.join("\n")));
    }
  }
}

export class Feed {
  // onBatch(records, game): new records (possibly none) and the view after them; onState("live" | "reconnecting")
  // blind: a dealer-blind seat's reader of the blind log (its `after`, push(answer), feedChanged()): the stream
  // then asks for `blind` events (?blind_after=) and hands each to it
  constructor(gameId, { onBatch, onState = () => {}, onEnd = () => {}, stream = true, blind = null }) {
    this.gameId = gameId;
    this.blind = blind;
    this.onBatch = onBatch;
    this.onState = onState;
    this.onEnd = onEnd;
    this.after = 0;
    this.stopped = false;
    this.state = null;
    this.abort = null;
    this.streaming = stream && typeof TextDecoderStream === "function";
    this.mode = null;            // "stream" | "long-poll": what the feed uses now (the tests read it)
    this.retry = FIRST_DELAY;    // ms: the service's `retry:` for this client (drawn at random per stream)
    this.delays = [];            // the reconnection waits drawn so far (the tests read them)
    // A stream may stay open through a lost network without an error: drop it when the browser goes offline.
    if (typeof window !== "undefined") window.addEventListener("offline", () => this.poke(true));
  }

  setState(state) {
    if (state !== this.state) {
      this.state = state;
      this.onState(state);
      if (this.blind) this.blind.feedChanged();  // streaming or not: who reads the blind log
    }
  }

  stop() {
    this.stopped = true;
    if (this.abort) this.abort.abort();
  }

  // Ask now instead of waiting for the current long-poll to come back (after a move of ours, say). A stream
  // brings our own move as it brings everyone's.
  poke(always = false) {
    if ((always || this.mode === "long-poll") && this.abort) this.abort.abort();
  }

  deliver(records, game) {
    const fresh = records.filter((r) => r.seq > this.after);
    for (const r of fresh) this.after = Math.max(this.after, r.seq);
    this.onBatch(fresh, game);
  }

  async run() {
    let bound = this.retry;
    let wait = 0;                 // the first long-poll answers at once with everything so far
    while (!this.stopped) {
      this.abort = new AbortController();
      try {
        const ended = this.streaming ? await this.streamOnce() : await this.pollOnce(wait);
        if (ended) return;
        bound = this.retry;
        wait = WAIT;
      } catch (exc) {
        if (exc && exc.name === "AbortError") {
          wait = 0;
          continue;
        }
        if (exc instanceof Problem && exc.status < 500 && exc.status !== 429) throw exc;
        if (exc instanceof NoStream) {
          this.streaming = false;
          if (this.blind) this.blind.feedChanged();     // no stream: the blind reader long-polls the log itself
          continue;
        }
        this.setState("reconnecting");
        const delay = Math.max(jittered(bound), 1000 * ((exc && exc.retryAfter) || 0));
        this.delays.push(delay);
        await new Promise((r) => setTimeout(r, delay));
        bound = Math.min(bound * 2, MAX_DELAY);
        wait = 0;
      }
    }
  }

  // One long-poll: true once the game has ended.
  async pollOnce(wait) {
    const ev = await get(`/games/${encodeURIComponent(this.gameId)}/events?after=${this.after}&wait=${wait}`,
      { signal: this.abort.signal });
    this.mode = "long-poll";
    this.setState("live");
    this.deliver(ev.records || [], ev.game);
    if (ev.seq > this.after) this.after = ev.seq;     // the records a seat may not see yet are past it too
    if (ev.ended) this.onEnd(ev.game);
    return Boolean(ev.ended);
  }

  // One stream, read until the service closes it (it does after a while: we then ask again from `after`):
  // true once the game has ended.
  async streamOnce() {
    const blindAfter = this.blind ? `&blind_after=${this.blind.after}` : "";
    const resp = await call("GET", `/games/${encodeURIComponent(this.gameId)}/stream?after=${this.after}${blindAfter}`, undefined,
      { signal: this.abort.signal, headers: { Accept: "text/event-stream" }, raw: true });
    if (!(resp.headers.get("Content-Type") || "").startsWith("text/event-stream") || !resp.body) throw new NoStream();
    this.mode = "stream";
    this.setState("live");
    if (this.blind) this.blind.feedChanged();
    let pending = [];
    let game = null;
    let ended = false;
    let stale = null;
    const alive = () => {
      clearTimeout(stale);
      stale = setTimeout(() => this.abort.abort(), STALE);
    };
    alive();
    try {
      await readEvents(resp.body, (type, data) => {
        if (type === "record") pending.push(data);
        else if (type === "game") {
          game = data;
          this.deliver(pending, game);
          if (game.seq > this.after) this.after = game.seq;
          pending = [];
        } else if (type === "blind" && this.blind) this.blind.push(data);
        else if (type === "end") ended = true;
      }, alive, (ms) => { this.retry = ms; });
    } finally {
      clearTimeout(stale);
    }
    if (ended) this.onEnd(game);
    return ended;
  }
}

class NoStream extends Error {}

export { Offline };
