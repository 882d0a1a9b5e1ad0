// The table out of reach: its database (the API's 503 that says so, its
// error beginning with UNREACHABLE), or the server itself (no answer at
// all). A line under the room's name says so until the table answers again:
// the page asks /api/ready after each Retry-After (longer each time, 10 s at
// most), and the line goes at the first request that succeeds.

import { el } from "./dom.js";

/** How the table's refusal begins when its database cannot be reached (docs/table.md). */
export const UNREACHABLE = "the table's database is unreachable";

const SAID = {
  database: "The table's database is unreachable: trying again…",
  network: "The table can't be reached: check your connection. Trying again…",
};
const LONGEST_WAIT_S = 10;

// always in the page, empty while all is well: a screen reader hears it change
const line = el("p", { class: "outage", id: "outage", role: "status" });
let timer = null;
let tries = 0;
let waiting = [];

/** The line, for the page to place near the connection's state. */
export function outageLine() {
  return line;
}

/** Whether an answer (its status and JSON body) says the database is out of reach. */
export function saysUnreachable(status, body) {
  return status === 503 && typeof body?.error === "string" && body.error.startsWith(UNREACHABLE);
}

/** The table out of reach (`why`: "database" or "network"): said, and asked again later. */
export function unreachable(why, retryAfter = null) {
  if (!line.isConnected) document.querySelector("main")?.prepend(line);
  line.textContent = SAID[why];
  if (timer === null) later(retryAfter);
}

/** The table answered: the line goes, nothing is asked again, and the work
 * that waited for the table (`whenBack`) is done now. */
export function reachable() {
  clearTimeout(timer);
  timer = null;
  tries = 0;
  line.textContent = "";
  const due = waiting;
  waiting = [];
  for (const work of due) work();
}

/** `work()` once the table answers again (a page that could not be drawn without it). */
export function whenBack(work) {
  waiting.push(work);
  if (timer === null) later(null);
}

function later(retryAfter) {
  tries += 1;
  const wait = Math.min(Math.max(retryAfter ?? 1, 1) * tries, LONGEST_WAIT_S);
  timer = setTimeout(ask, wait * 1000);
}

async function ask() {
  let answer = null;
  let body = null;
  try {
    answer = await fetch("/api/ready", { headers: { Accept: "application/json" }, cache: "no-store" });
    body = await answer.json();
  } catch {
    // no answer, or none in JSON: still out of reach
  }
  if (answer?.ok) return reachable();
  if (answer) line.textContent = SAID[saysUnreachable(answer.status, body) ? "database" : "network"];
  const retryAfter = Number.parseInt(answer?.headers.get("Retry-After") ?? "", 10);
  later(Number.isFinite(retryAfter) ? retryAfter : null);
}
