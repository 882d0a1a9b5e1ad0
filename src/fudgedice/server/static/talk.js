// Table talk: short messages said into the room's log beside the rolls, seen
// by whom the sender chose (as a roll is) or whispered to one member. What
// someone said is only ever text on the page (dom.js), never markup.

import { ApiError, sendOnce } from "./api.js";
import { el, problem } from "./dom.js";
import { VISIBILITY, when } from "./dice.js";

export const MOST_CHARACTERS = 500;

/** The "to" choices every member has, then (the GM only) "GM secret". */
const TO = [
  ["public", VISIBILITY.public],
  ["gm", VISIBILITY.gm],
  ["self", "to myself"],
];
const SECRET = ["secret", VISIBILITY.secret];
const WHISPER = "whisper:";

/** The choice of `to` as the API's visibility and, for a whisper, its member. */
function addressed(value) {
  if (value.startsWith(WHISPER)) return { visibility: "whisper", to: value.slice(WHISPER.length) };
  return { visibility: value };
}

/**
 * The talk box of a room: what to say and to whom; `said(entry)` takes each
 * entry the server accepted. `members(all)` gives the room's members, for the
 * whispers (the box is drawn again as someone joins).
 */
export function talkBox(room, seat, { said }) {
  const words = el("input", {
    id: "talk-text", type: "text", autocomplete: "off", maxlength: MOST_CHARACTERS,
    placeholder: "Say something to the table", "aria-label": "Say something to the table",
  });
  const to = el("select", { id: "talk-to", "aria-label": "said to" });
  const send = el("button", { type: "submit", class: "primary", id: "talk-send", text: "Send" });
  const status = el("div", { class: "status", id: "talk-status" }); // a refusal is an alert: said once
  let sending = false;

  function members(all) {
    const chosen = to.value;
    const others = (Array.isArray(all) ? all : []).filter((one) => one.member && one.member !== seat.member);
    to.replaceChildren(
      ...[...TO, ...(seat.gm ? [SECRET] : [])].map(([value, shown]) => el("option", { value, text: shown })),
      ...others.map((one) =>
        el("option", { value: WHISPER + one.member, text: `whisper to ${one.name}${one.gm ? " (GM)" : ""}` }),
      ),
    );
    if ([...to.options].some((option) => option.value === chosen)) to.value = chosen;
  }

  const form = el(
    "form",
    { class: "talk-box", id: "talk-form", autocomplete: "off", "aria-label": "Talk to the table" },
    el("div", { class: "line" }, words, to, send),
    status,
  );
  // an error goes once the words are changed
  words.addEventListener("input", () => status.replaceChildren());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = words.value.trim();
    if (!text || sending) return;
    sending = true;
    send.disabled = true; // the words stay editable, and keep the focus
    status.replaceChildren();
    try {
      const path = `/api/rooms/${encodeURIComponent(room.room)}/talk`;
      const entry = await sendOnce(path, seat.token, { text, ...addressed(to.value) });
      words.value = "";
      said(entry);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.replaceChildren(problem(error));
    } finally {
      sending = false;
      send.disabled = false;
      words.focus();
    }
  });
  members([]);
  return { panel: form, members };
}

/** Who the entry was said to, as its reader `me` reads it; null when public. */
function mark(entry, me) {
  const visibility = String(entry.visibility || "public");
  if (visibility === "whisper") {
    if (entry.to === me.member && entry.member !== me.member) return "whispered to you";
    return `whisper to ${entry.to_name ?? "?"}`;
  }
  if (visibility === "public") return null;
  return visibility === "self" ? "note to self" : (VISIBILITY[visibility] ?? visibility);
}

/** A talk entry of the log as `me` may read it: who said what, to whom, when. */
export function talkCard(entry, me, byGm = false) {
  const visibility = String(entry.visibility || "public");
  const shown = mark(entry, me);
  return el(
    "article",
    { class: `roll talk vis-${visibility}`, dataset: { seq: String(entry.seq), member: String(entry.member ?? "") } },
    el(
      "header",
      {},
      el("span", { class: "seq", text: `#${entry.seq}` }),
      el("span", { class: "who", text: String(entry.name ?? "") }),
      byGm && el("span", { class: "badge gm", text: "GM" }),
      shown && el("span", { class: `badge talk-to vis-${visibility}`, text: shown }),
      el("time", { datetime: String(entry.at ?? ""), text: when(entry.at) }),
    ),
    el("p", { class: "words", text: String(entry.text ?? "") }),
  );
}
