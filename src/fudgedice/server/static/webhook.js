// The GM's control of the room's webhook (docs/table.md, "A room's webhook"):
// a Discord or Slack channel's incoming webhook that the room's public rolls
// are posted to. Its URL is a secret the server never sends back: the page
// shows only its kind and host, and empties the field once it is kept.

import { api, guardIn } from "./api.js";
import { el } from "./dom.js";

const KINDS = { discord: "Discord", slack: "Slack" };

/** The control, for the GM's seat `seat` of room `roomId`; it asks the server
 * what is set the first time it is opened. */
export function webhookControl(roomId, seat) {
  const path = `/api/rooms/${encodeURIComponent(roomId)}/webhook`;
  const url = el("input", {
    id: "webhook-url", type: "url", maxlength: 2000, autocomplete: "off", spellcheck: "false",
    placeholder: "https://discord.com/api/webhooks/…",
  });
  const kind = el(
    "select",
    { id: "webhook-kind", "aria-label": "the webhook's kind" },
    el("option", { value: "", text: "kind: from the URL" }),
    ...Object.entries(KINDS).map(([value, text]) => el("option", { value, text })),
  );
  const state = el("p", { class: "muted", id: "webhook-state", "aria-live": "polite" });
  const status = el("div", { class: "status", id: "webhook-status" });
  const guarded = guardIn(status);
  const clear = el("button", { type: "button", class: "quiet", id: "webhook-clear", text: "Stop posting", hidden: true });

  function show(hook) {
    state.textContent = hook?.set
      ? `Public rolls are posted to a ${KINDS[hook.kind] || hook.kind} webhook at ${hook.host}.`
      : "Public rolls are posted to no channel.";
    clear.hidden = !hook?.set;
  }
  const save = el("button", { type: "button", class: "primary", id: "webhook-save", text: "Post public rolls there" });
  save.addEventListener("click", () =>
    guarded(async () => {
      const given = url.value.trim();
      if (!given) return;
      show(await api("PUT", path, { token: seat.token, body: { url: given, ...(kind.value ? { kind: kind.value } : {}) } }));
      if (url.value.trim() === given) url.value = ""; // a secret: not left on the screen
    }),
  );
  clear.addEventListener("click", () => guarded(async () => show(await api("DELETE", path, { token: seat.token }))));

  const control = el(
    "details",
    { class: "gm-link gm-webhook", id: "gm-webhook" },
    el("summary", { text: "Post the public rolls to a Discord or Slack channel" }),
    el("p", { class: "muted", text: "Paste the channel's incoming webhook URL (kept by the server, never shown again). Hidden rolls and talk are never posted." }),
    el("label", { class: "sr", for: "webhook-url", text: "the channel's webhook URL" }),
    el("div", { class: "line" }, url, kind, save, clear),
    state,
    status,
  );
  let asked = false;
  control.addEventListener("toggle", () => {
    if (!control.open || asked) return;
    asked = true;
    guarded(async () => show(await api("GET", path, { token: seat.token })));
  });
  return control;
}
