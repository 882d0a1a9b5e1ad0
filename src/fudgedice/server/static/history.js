// The room's rolls, newest first: the latest page at once, older pages on
// demand, one player's only when filtered; every roll of the live feed added
// as it comes; exports of what this reader may see.

import { api, download, guardIn } from "./api.js";
import { el } from "./dom.js";
import { entryCard } from "./entries.js";
import { replaceKeepingFocus } from "./focus.js";

export const PAGE = 25;

export function historyPanel(room, seat, actions = null) {
  const base = `/api/rooms/${encodeURIComponent(room.room)}`;
  const shown = new Map(); // seq -> roll, of the rolls in the list
  let highest = Number(room.last_seq) || 0;
  let oldest = null; // the lowest seq loaded, or null before the first page
  let complete = false;
  let member = "";
  let gms = new Set(); // the GM's member ids: a roll is the GM's by its member, never by a name
  const spentOn = new Map(); // seq a point was spent on -> the spend's: its card offers no more

  // not a live region: the log's voice (speech.js) says each new entry once, as a sentence
  const list = el("div", { class: "rolls", id: "rolls" });
  const older = el("button", { type: "button", id: "older", class: "quiet", text: "Older rolls" });
  const filter = el("select", { id: "filter", "aria-label": "whose rolls" });
  const status = el("div", { class: "status" });
  const guarded = guardIn(status);
  const empty = el("p", { class: "muted empty", text: "No rolls yet." });

  function place(roll) {
    const seq = Number(roll.seq);
    if (!Number.isInteger(seq)) return;
    // a roll past the next one (this member's own roll's answer, or a feed that
    // was silent): what lies between is read at once, not when the feed says
    if (seq > highest + 1) fill(highest, seq);
    highest = Math.max(highest, seq);
    if (roll.kind === "spend" && Number.isInteger(roll.of) && !spentOn.has(roll.of)) {
      spentOn.set(roll.of, seq);
      if (shown.has(roll.of)) place(shown.get(roll.of)); // superseded: drawn again without its buttons
    }
    if (member && roll.member !== member) return;
    const reader = { member: seat.member, system: room.system };
    const card = entryCard(roll, seat, gms.has(roll.member), spentOn.has(seq) ? null : actions, reader);
    if (!card) return;
    if (spentOn.has(seq)) card.append(el("p", { class: "muted superseded", text: `A point was spent on it: #${spentOn.get(seq)}.` }));
    const existing = list.querySelector(`[data-seq="${seq}"]`);
    shown.set(seq, roll);
    if (existing) {
      replaceKeepingFocus(existing, card);
      return;
    }
    // newest first: before the first card whose seq is lower
    const after = [...list.children].find((child) => Number(child.dataset.seq) < seq);
    list.insertBefore(card, after || null);
    empty.hidden = true;
  }

  function settle() {
    older.hidden = complete || shown.size === 0;
    empty.hidden = shown.size > 0;
  }

  async function page(before) {
    const answer = await api("GET", `${base}/rolls`, {
      token: seat.token,
      params: { before, limit: PAGE, member },
    });
    const rolls = Array.isArray(answer?.rolls) ? answer.rolls : [];
    if (Number.isInteger(answer?.last_seq)) highest = Math.max(highest, answer.last_seq);
    for (const roll of rolls) place(roll);
    if (rolls.length) oldest = Math.min(oldest ?? Infinity, ...rolls.map((roll) => Number(roll.seq)));
    complete = rolls.length < PAGE || oldest <= 1;
    settle();
  }
  /** The rolls after `after` and before `before`, read from the server. */
  async function fill(after, before) {
    await guarded(async () => {
      while (after < before - 1) {
        const limit = Math.min(before - after - 1, 500);
        const answer = await api("GET", `${base}/rolls`, { token: seat.token, params: { after, limit, member } });
        const rolls = Array.isArray(answer?.rolls) ? answer.rolls.filter((roll) => Number(roll.seq) < before) : [];
        for (const roll of rolls) place(roll);
        if (rolls.length < limit) break;
        after = Number(rolls[rolls.length - 1].seq);
      }
    });
  }

  /** The latest page again (after a change of filter, or of what a reveal verified). */
  async function reload() {
    list.replaceChildren();
    shown.clear();
    oldest = null;
    complete = false;
    // the latest page: before the last roll known, or before any roll there could be
    await guarded(() => page(highest > 0 ? highest + 1 : Number.MAX_SAFE_INTEGER));
  }

  /** Every loaded roll again, for the marks a reveal set. */
  async function refresh() {
    if (oldest === null) return reload();
    await guarded(async () => {
      let after = oldest - 1;
      for (;;) {
        const answer = await api("GET", `${base}/rolls`, { token: seat.token, params: { after, limit: 500, member } });
        const rolls = Array.isArray(answer?.rolls) ? answer.rolls : [];
        for (const roll of rolls) place(roll);
        if (rolls.length < 500) break;
        after = Number(rolls[rolls.length - 1].seq);
      }
    });
  }

  function members(all) {
    gms = new Set(all.filter((one) => one.gm).map((one) => one.member));
    const chosen = filter.value;
    filter.replaceChildren(
      el("option", { value: "", text: "Everyone" }),
      ...all.map((one) => el("option", { value: one.member, text: one.gm ? `${one.name} (GM)` : one.name })),
    );
    filter.value = all.some((one) => one.member === chosen) ? chosen : "";
  }

  filter.addEventListener("change", () => {
    member = filter.value;
    reload();
  });
  older.addEventListener("click", () => guarded(() => page(oldest)));

  function exporter(format) {
    return () =>
      guarded(() =>
        download(`${base}/export`, seat.token, { format, member }, `fudgedice-${room.room}.${format}`),
      );
  }

  const panel = el(
    "section",
    { class: "history", id: "history" },
    el(
      "div",
      { class: "history-head" },
      el("h2", { text: "Rolls" }),
      el("label", { class: "inline" }, el("span", { text: "Show" }), filter),
      el(
        "span",
        { class: "exports" },
        el("button", { type: "button", class: "quiet", id: "export-json", text: "JSON", onclick: exporter("json") }),
        el("button", { type: "button", class: "quiet", id: "export-csv", text: "CSV", onclick: exporter("csv") }),
      ),
    ),
    status,
    empty,
    list,
    older,
  );
  older.hidden = true;
  /** Every card drawn again, for what it offers (a sheet attached, points spent). */
  function redraw() {
    for (const roll of [...shown.values()]) place(roll);
  }

  return {
    panel,
    place,
    redraw,
    reload,
    refresh,
    members,
    get highest() {
      return highest;
    },
  };
}
