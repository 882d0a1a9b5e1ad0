// The room's live feed (text/event-stream) read through fetch, so that the
// token travels in the Authorization header: an EventSource could only put it
// in the URL. On a broken connection it reconnects with ?after= the last roll
// it saw, and the server replays what was missed. A connection can also go
// silent without closing (a phone moving to another network): the server
// sends a keep-alive line every 15 s, so no byte for WATCHDOG_S seconds means
// the connection is dead, and it is dropped and made again.

import { reachable, saysUnreachable, unreachable } from "./outage.js";

const RETRY_MS = [500, 1000, 2000, 5000, 10000];

/** Seconds without a byte before the feed is given up for dead: twice the
 * server's keep-alive period. `?watchdog=S` in the page's address sets it
 * (1 to 300 s), for tests that cannot wait that long. */
export const WATCHDOG_S = (() => {
  const asked = Number(new URLSearchParams(location.search).get("watchdog"));
  return Number.isFinite(asked) && asked >= 1 && asked <= 300 ? asked : 30;
})();

function* frames(buffer) {
  // a frame ends with a blank line; returns what is left unfinished
  let end;
  while ((end = buffer.text.search(/\r?\n\r?\n/)) !== -1) {
    const frame = buffer.text.slice(0, end);
    buffer.text = buffer.text.slice(end).replace(/^\r?\n\r?\n/, "");
    let event = "message";
    let id = null;
    const data = [];
    for (const line of frame.split(/\r?\n/)) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id") id = value;
    }
    if (data.length) yield { event, id, data: data.join("\n") };
  }
}

/**
 * Follows a room. `on` has roll(roll), reveal(data), member(data) (one
 * joined), ready(), status(text), refused(error), replaced(data) (followed in
 * other tabs instead), deleted(data) (the room is no more). Returns {stop()}.
 */
export function follow(room, token, after, on) {
  let last = after;
  let stopped = false;
  let failures = 0;
  let controller = null;

  let timer = null;
  /** (Re)arms the watchdog: called at the start and at every byte received. */
  function heard(connection) {
    clearTimeout(timer);
    timer = setTimeout(() => connection.abort(new Error("the live feed went silent")), WATCHDOG_S * 1000);
  }

  function handle(frame) {
    let data;
    try {
      data = JSON.parse(frame.data);
    } catch {
      return;
    }
    if (frame.event === "roll") {
      if (Number.isInteger(data.seq)) last = Math.max(last, data.seq);
      on.roll?.(data);
    } else if (frame.event === "ready") {
      failures = 0;
      reachable(); // the feed read the database to catch up
      on.status?.("live");
      on.ready?.();
    } else if (frame.event === "reveal") {
      on.reveal?.(data);
    } else if (frame.event === "member") {
      on.member?.(data);
    } else if (frame.event === "deleted") {
      stopped = true; // nothing is left to follow
      on.deleted?.(data);
    } else if (frame.event === "closed") {
      // the server let this feed go: 'behind' means catch up at once with
      // ?after=; 'replaced' means this seat follows the room in other tabs
      // (a member holds a few feeds at most), and following here again would
      // only close one of those in turn
      if (data.reason === "replaced") {
        stopped = true;
        on.replaced?.(data);
      } else if (data.reason === "database") {
        unreachable("database"); // back with ?after= once it answers, waiting longer each time
      } else {
        failures = 0;
      }
    }
  }

  async function once() {
    const connection = new AbortController();
    controller = connection;
    heard(connection); // the answer's headers too may never come
    const url = new URL(`/api/rooms/${encodeURIComponent(room)}/live`, location.origin);
    url.searchParams.set("after", String(last));
    try {
      const answer = await fetch(url, {
        headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" },
        signal: connection.signal,
        cache: "no-store",
      });
      if (answer.status === 401 || answer.status === 404) {
        stopped = true;
        on.refused?.(answer.status);
        return;
      }
      if (answer.status === 503) {
        const body = await answer.json().catch(() => null);
        const retryAfter = Number.parseInt(answer.headers.get("Retry-After") ?? "", 10);
        if (saysUnreachable(503, body)) unreachable("database", retryAfter || null);
      }
      if (!answer.ok || !answer.body) throw new Error(`live feed: ${answer.status}`);
      const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
      const buffer = { text: "" };
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        heard(connection);
        buffer.text += value;
        for (const frame of frames(buffer)) handle(frame);
      }
    } finally {
      clearTimeout(timer);
      connection.abort(); // a silent connection is let go of, not left open
    }
  }

  (async () => {
    while (!stopped) {
      try {
        await once();
      } catch (error) {
        if (stopped) break;
      }
      if (stopped) break;
      on.status?.("reconnecting");
      const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
      failures += 1;
      await new Promise((resume) => setTimeout(resume, wait));
    }
  })();

  return {
    stop() {
      stopped = true;
      controller?.abort();
    },
  };
}
