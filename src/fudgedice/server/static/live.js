// The room's live feed (text/event-stream) read through fetch, so that the
// token travels in the Authorization header: an EventSource could only put it
// in the URL. On a broken connection it reconnects with ?after= the last roll
// it saw, and the server replays what was missed.

const RETRY_MS = [500, 1000, 2000, 5000, 10000];

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
 * Follows a room. `on` has roll(roll), reveal(data), ready(), status(text),
 * refused(error). Returns {stop()}.
 */
export function follow(room, token, after, on) {
  let last = after;
  let stopped = false;
  let failures = 0;
  let controller = null;

  async function once() {
    controller = new AbortController();
    const url = new URL(`/api/rooms/${encodeURIComponent(room)}/live`, location.origin);
    url.searchParams.set("after", String(last));
    const answer = await fetch(url, {
      headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" },
      signal: controller.signal,
      cache: "no-store",
    });
    if (answer.status === 401 || answer.status === 404) {
      stopped = true;
      on.refused?.(answer.status);
      return;
    }
    if (!answer.ok || !answer.body) throw new Error(`live feed: ${answer.status}`);
    const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
    const buffer = { text: "" };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer.text += value;
      for (const frame of frames(buffer)) {
        let data;
        try {
          data = JSON.parse(frame.data);
        } catch {
          continue;
        }
        if (frame.event === "roll") {
          if (Number.isInteger(data.seq)) last = Math.max(last, data.seq);
          on.roll?.(data);
        } else if (frame.event === "ready") {
          failures = 0;
          on.status?.("live");
          on.ready?.();
        } else if (frame.event === "reveal") {
          on.reveal?.(data);
        }
      }
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
