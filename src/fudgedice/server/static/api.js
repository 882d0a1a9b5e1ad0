// The table's HTTP API (docs/table.md), and where the page keeps each room's
// member token: in this browser's localStorage, never in a URL sent to the server.

import { problem } from "./dom.js";
import { reachable, saysUnreachable, unreachable } from "./outage.js";

export class ApiError extends Error {
  constructor(status, body, retryAfter = null) {
    super((body && typeof body.error === "string" && body.error) || `error ${status}`);
    this.status = status;
    // the seconds a busy table (429, 503) asks for before the request is sent again
    this.retryAfter = retryAfter;
    this.position = body && Number.isInteger(body.position) ? body.position : null;
    this.hint = body && typeof body.hint === "string" ? body.hint : null;
    // a roll that failed once its dice were drawn is kept: its seq says where
    this.seq = body && Number.isInteger(body.seq) ? body.seq : null;
  }
}

function address(path, params) {
  const url = new URL(path, location.origin);
  for (const [key, value] of Object.entries(params || {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(key, value);
  }
  return url;
}

function headers(token, json, key) {
  const sent = { Accept: "application/json" };
  if (json) sent["Content-Type"] = "application/json";
  if (token) sent.Authorization = `Bearer ${token}`;
  // sent again with the same key, a roll, a spend or a message is answered
  // what its first sending made, never made twice (docs/table.md, "Retries")
  if (key) sent["Idempotency-Key"] = key;
  return sent;
}

/** A runner of work for one panel: its status line is cleared, then shows the
 * API's refusal the work ends in (any other error is a bug, and propagates). */
export function guardIn(status) {
  return async function guarded(work) {
    status.replaceChildren();
    try {
      await work();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.replaceChildren(problem(error));
    }
  };
}

/** One request; the answer's JSON, or an ApiError carrying the API's message.
 * `key`: its Idempotency-Key (`freshKey()`), the same each time it is sent again. */
export async function api(method, path, { token, body, params, signal, key } = {}) {
  let answer;
  try {
    answer = await fetch(address(path, params), {
      method,
      headers: headers(token, body !== undefined, key),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    unreachable("network");
    throw new ApiError(0, { error: "the table can't be reached: check your connection" });
  }
  let data = null;
  try {
    data = await answer.json();
  } catch {
    data = null;
  }
  const retryAfter = seconds(answer.headers.get("Retry-After"));
  told(path, answer, data, retryAfter);
  if (!answer.ok) throw new ApiError(answer.status, data, retryAfter);
  return data;
}

/** What an answer tells of the table's reach: out of it (its database), or
 * back (a room's route answered: those read the database; odds and systems don't). */
function told(path, answer, data, retryAfter) {
  if (saysUnreachable(answer.status, data)) unreachable("database", retryAfter);
  else if (answer.ok && path.startsWith("/api/rooms")) reachable();
}

/** A Retry-After's seconds (a date is not sent by the table), or null. */
function seconds(header) {
  const value = Number.parseInt(header ?? "", 10);
  return Number.isFinite(value) && value >= 0 ? value : null;
}

const BUSY_TRIES = 4;
const LONGEST_WAIT = 10;

/** Resolves after the wait a busy answer asked for: its Retry-After (1 s if
 * none, 10 s at most), or at once when `signal` aborts. */
export function afterBusy(error, signal) {
  const wait = Math.min(error.retryAfter ?? 1, LONGEST_WAIT) * 1000;
  return new Promise((done) => {
    const timer = setTimeout(done, wait);
    signal?.addEventListener("abort", () => { clearTimeout(timer); done(); }, { once: true });
  });
}

/** `work()`'s answer, asked again after each 503 (the table busy, its
 * Retry-After waited) a few times before its refusal stands. */
export async function patiently(work, signal) {
  for (let tried = 1; ; tried += 1) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 503 || tried >= BUSY_TRIES) throw error;
      await afterBusy(error, signal);
      if (signal?.aborted) throw new DOMException("aborted", "AbortError");
    }
  }
}

/** Saves what an authenticated GET answers as a file (exports, the log). */
export async function download(path, token, params, filename) {
  const answer = await fetch(address(path, params), { headers: headers(token, false) });
  if (!answer.ok) {
    let body = null;
    try {
      body = await answer.json();
    } catch {
      body = null;
    }
    const retryAfter = seconds(answer.headers.get("Retry-After"));
    told(path, answer, body, retryAfter);
    throw new ApiError(answer.status, body, retryAfter);
  }
  const url = URL.createObjectURL(await answer.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// ------------------------------------------------------------------ tokens

const KEY = "fudgedice:rooms";

function rooms() {
  if (memory) return { ...memory };
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

/** {token, member, name, gm, roomName} of this browser in a room, or null. */
export function seat(room) {
  const kept = rooms()[room];
  return kept && typeof kept.token === "string" ? kept : null;
}

function store(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // storage refused (full, or a private window): the seat lasts until the page closes
    memory = all;
  }
}

let memory = null;

// A room's entry is the seat the browser sits in (its token, member, name, gm)
// and `seats`, every seat it was given there: a link with another member's
// token is kept beside the one in use, never in its place.
const SEAT_FIELDS = ["token", "member", "name", "gm"];

function only(seatLike) {
  return Object.fromEntries(SEAT_FIELDS.filter((key) => key in seatLike).map((key) => [key, seatLike[key]]));
}

/** The list with `given` in it: in its place if there, else after the others. */
function withSeat(list, given) {
  const at = list.findIndex((one) => one.token === given.token);
  if (at === -1) return [...list, only(given)];
  return list.map((one, index) => (index === at ? { ...one, ...only(given) } : one));
}

/** Every seat this browser was given in a room: [{token, member, name, gm}]. */
export function roomSeats(room) {
  const kept = rooms()[room];
  if (!kept) return [];
  const list = Array.isArray(kept.seats) ? kept.seats.filter((one) => one && typeof one.token === "string") : [];
  return typeof kept.token === "string" ? withSeat(list, kept) : list;
}

/** Updates the seat in use (a new token: sits in it, the other kept in `seats`). */
export function keepSeat(room, kept) {
  const all = rooms();
  const now = { ...(all[room] || {}), ...kept };
  if (typeof now.token === "string") now.seats = withSeat(roomSeats(room), now);
  all[room] = now;
  store(all);
}

/** Keeps a seat given by a link without sitting in it (unless there is none in use). */
export function offerSeat(room, given) {
  if (!seat(room)) return keepSeat(room, given);
  const all = rooms();
  all[room] = { ...all[room], seats: withSeat(roomSeats(room), given) };
  store(all);
}

/** Sits in the kept seat whose token is `token`. */
export function sitAs(room, token) {
  const chosen = roomSeats(room).find((one) => one.token === token);
  if (chosen) keepSeat(room, whole(chosen));
}

function whole(one) {
  return { token: one.token, member: one.member ?? null, name: one.name ?? null, gm: !!one.gm };
}

/** Gives up the seat in use (its token is no longer good); another kept one takes its place. */
export function leaveSeat(room) {
  const all = rooms();
  const gone = all[room]?.token;
  const left = roomSeats(room).filter((one) => one.token !== gone);
  if (!left.length) delete all[room];
  else all[room] = { ...all[room], ...whole(left[0]), seats: left };
  store(all);
}

/** The rooms this browser sits in: [{room, roomName, name, gm}]. */
export function seats() {
  return Object.entries(rooms())
    .filter(([, kept]) => kept && typeof kept.token === "string")
    .map(([room, kept]) => ({ room, roomName: kept.roomName, name: kept.name, gm: !!kept.gm }));
}

// ------------------------------------------------------------ client seeds

const CLIENT_SEED_BYTES = 16;
const OWN = "fudgedice:own:";
const OWN_KEPT = 500;

/** A client seed nobody could know before the roll: 128 bits from the
 * browser's cryptographic generator, in hex (docs/fairness.md). */
export function freshClientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(CLIENT_SEED_BYTES));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A fresh Idempotency-Key: a random UUID (crypto.randomUUID is there only in
 * a secure context, https or localhost; a table served over plain http on a
 * home network gets as many random bits from getRandomValues). */
export function freshKey() {
  return typeof crypto.randomUUID === "function" ? crypto.randomUUID() : freshClientSeed();
}

/** A request that makes an entry of the log (`path`, `body`): sent with a
 * fresh key, and again with the same key after each 503 (`patiently`). */
export function sendOnce(path, token, body) {
  const key = freshKey();
  return patiently(() => api("POST", path, { token, body, key }));
}

function readKept(key, empty) {
  try {
    const kept = JSON.parse(localStorage.getItem(key) || "null");
    return kept && typeof kept === "object" ? kept : empty;
  } catch {
    return empty;
  }
}

function writeKept(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage refused: kept for this page only, through the closure that asked
  }
}

/** This browser's own rolls in a room: [{seq, nonce, client_seed, commitment}],
 * so that a player can check that every roll under their name is one they made. */
export function ownRolls(room) {
  const kept = readKept(OWN + room, {});
  return Array.isArray(kept.rolls) ? kept.rolls : [];
}

function keepOwn(room, roll) {
  const kept = readKept(OWN + room, {});
  const rolls = (Array.isArray(kept.rolls) ? kept.rolls : []).filter((one) => one.seq !== roll.seq);
  rolls.push(roll);
  writeKept(OWN + room, { ...kept, rolls: rolls.slice(-OWN_KEPT) });
}

function keepPending(room, pending) {
  const kept = readKept(OWN + room, {});
  writeKept(OWN + room, { ...kept, pending });
}

function sameRoll(one, other) {
  return JSON.stringify({ ...one, client_seed: null }) === JSON.stringify({ ...other, client_seed: null });
}

/**
 * Sends a roll (``path`` its POST address, ``body`` without its client seed)
 * with the client seed the player fixed, or else a fresh random one. A roll
 * the server did not keep (no answer, 503 not stored, any refusal) stays
 * pending, and sent again it takes the same client seed, so that a host who
 * drops a roll it dislikes gains nothing by it. Every roll kept under this member's name
 * (a failed one too: its answer carries its seq) joins this browser's own rolls.
 */
export async function sendRoll(room, path, token, body, fixedSeed = "") {
  const pending = readKept(OWN + room, {}).pending;
  const again = pending && pending.path === path && sameRoll(pending.body, body);
  const seed = fixedSeed || (again ? pending.body.client_seed : freshClientSeed());
  const sent = { ...body, client_seed: seed };
  // the same roll sent again (no answer heard, 503) takes the same key: if the
  // table kept it before its answer was lost, it answers that roll, not a second
  const key = again && pending.key && seed === pending.body.client_seed ? pending.key : freshKey();
  keepPending(room, { path, body: sent, key });
  try {
    const roll = await patiently(() => api("POST", path, { token, body: sent, key }));
    keepPending(room, null);
    keepOwn(room, { seq: roll.seq, nonce: roll.nonce, client_seed: seed, commitment: roll.commitment });
    return roll;
  } catch (error) {
    // only a roll kept (a failed one has its seq) ends the pending one: sent again
    // after any refusal, the same roll takes the same client seed, so that a host
    // who refuses a roll whose dice it dislikes draws the very same dice again
    if (error instanceof ApiError && error.seq !== null) {
      keepPending(room, null);
      keepOwn(room, { seq: error.seq, client_seed: seed, failed: true });
    }
    throw error;
  }
}
