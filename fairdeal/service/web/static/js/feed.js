// The game's event feed (docs/api.md, "Event feed"): long-poll GET /games/{id}/events?after=N. Every answer has
// the records after N and the caller's view; the next request asks after the last record seen, so a dropped
// connection only delays records, never loses one: after reconnecting the feed asks again from the same place.

import { get, Offline, Problem } from "./api.js";

const WAIT = 20;             // seconds one request may wait (the service caps it)

export class Feed {
  // onBatch(records, game): new records (possibly none) and the view after them; onState("live" | "reconnecting")
  constructor(gameId, { onBatch, onState = () => {}, onEnd = () => {} }) {
    this.gameId = gameId;
    this.onBatch = onBatch;
    this.onState = onState;
    this.onEnd = onEnd;
    this.after = 0;
    this.stopped = false;
    this.state = null;
    this.abort = null;
  }

  setState(state) {
    if (state !== this.state) {
      this.state = state;
      this.onState(state);
    }
  }

  stop() {
    this.stopped = true;
    if (this.abort) this.abort.abort();
  }

  // Ask now instead of waiting for the current request to come back (after a move of ours, say).
  poke() {
    if (this.abort) this.abort.abort();
  }

  async run() {
    let delay = 500;
    let wait = 0;                 // the first request answers at once with everything so far
    while (!this.stopped) {
      this.abort = new AbortController();
      try {
        const ev = await get(`/games/${encodeURIComponent(this.gameId)}/events?after=${this.after}&wait=${wait}`,
          { signal: this.abort.signal });
        this.setState("live");
        delay = 500;
        const fresh = (ev.records || []).filter((r) => r.seq > this.after);
        if (ev.seq > this.after) this.after = ev.seq;
        this.onBatch(fresh, ev.game);
        if (ev.ended) {
          this.onEnd(ev.game);
          return;
        }
        wait = WAIT;
      } catch (exc) {
        if (exc && exc.name === "AbortError") {
          wait = 0;
          continue;
        }
        if (exc instanceof Problem && exc.status < 500 && exc.status !== 429) throw exc;
        this.setState("reconnecting");
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 5000);
        wait = 0;
      }
    }
  }
}

export { Offline };
