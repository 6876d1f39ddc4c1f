// The JSON API (docs/api.md) as the pages use it: the player's token, problem JSON as errors, and moves sent
// with an Idempotency-Key that a retry reuses (so a move whose answer was lost is never made twice).

const PLAYER_KEY = "fairdeal.player";

export class Problem extends Error {
  constructor(status, body, retryAfter = 0) {
    super((body && (body.detail || body.title)) || `HTTP ${status}`);
    this.status = status;
    this.retryAfter = retryAfter;    // seconds, from the answer's Retry-After (0: none)
    this.code = (body && body.code) || "";
    this.body = body || {};
  }
}

export class Offline extends Error {}

export function me() {
  try {
    const p = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    return p && p.token ? p : null;
  } catch {
    return null;
  }
}

export function forget() {
  localStorage.removeItem(PLAYER_KEY);
}

// The answer's JSON, or with `raw` the Response itself (a stream's body to read); a Problem when it is not ok.
export async function call(method, path, body = undefined, { headers = {}, signal, raw = false } = {}) {
  const player = me();
  const h = { Accept: "application/json", ...headers };
  if (body !== undefined) h["Content-Type"] = "application/json";
  if (player) h.Authorization = `Bearer ${player.token}`;
  let resp;
  try {
    resp = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), signal });
  } catch (exc) {
    if (exc && exc.name === "AbortError") throw exc;
    throw new Offline("No answer from the service.");
  }
  if (raw && resp.ok) return resp;
  let data = null;
  const text = await resp.text().catch(() => "");
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!resp.ok) {
    if (resp.status === 401 && player) {
      forget();                     // the service no longer knows this token (expired, ended, or a new store)
      if (method === "GET") return call(method, path, body, { headers, signal, raw });   // what anyone may see
    }
    throw new Problem(resp.status, data, Number(resp.headers.get("Retry-After")) || 0);
  }
  return data;
}

export const get = (path, opts) => call("GET", path, undefined, opts);
export const post = (path, body = {}, opts) => call("POST", path, body, opts);

export async function signUp(name) {
  const p = await post("/players", { name });
  localStorage.setItem(PLAYER_KEY, JSON.stringify({ id: p.id, name: p.name, token: p.token }));
  return p;
}

function newKey() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A move, retried with the same Idempotency-Key while the service cannot be reached or answers 5xx: the
// service records it once and answers a retry with the first answer ("replayed": true).
export async function sendMove(gameId, seq, move, { attempts = 15, onRetry = () => {}, extra = {} } = {}) {
  const key = `${gameId}-${seq}-${newKey()}`;
  let wait = 300;
  for (let i = 1; ; i++) {
    try {
      return await post(`/games/${encodeURIComponent(gameId)}/moves`, { seq, move, ...extra }, { headers: { "Idempotency-Key": key } });
    } catch (exc) {
      const retriable = exc instanceof Offline || (exc instanceof Problem && exc.status >= 500);
      if (!retriable || i >= attempts) throw exc;
      onRetry(i, exc);
      await sleep(wait);
      wait = Math.min(wait * 2, 4000);
    }
  }
}
