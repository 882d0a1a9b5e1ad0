// The GM's view of the party: every sheet attached in the room, each with its
// points and whole page, and the GM's hand on it: a hit (Fudge damage, a D6
// margin over resistance, Fate shifts) and a heal. Every change is in the log
// and reaches the sheet's owner as it does when they make it.

import { api, guardIn } from "./api.js";
import { el } from "./dom.js";
import { hitControls } from "./hit.js";
import { stateView, traitsList } from "./sheetstate.js";

/** What a heal with its field left empty does, by system (the API's `what`). */
const HEAL_HINT = {
  fudge: "a level, or all",
  d6: "to a wound level, or none",
  fate: "stress, a track or a consequence",
  fatecondensed: "stress, a track or a consequence",
  fae: "stress or a consequence",
};

/** The party panel of the GM `seat` in `room`; `load()` reads the sheets again. */
export function partyPanel(room, seat) {
  const base = `/api/rooms/${encodeURIComponent(room.room)}`;
  const list = el("div", { class: "party-list", id: "party-list" });
  const status = el("div", { class: "status", id: "party-status", "aria-live": "polite" });
  const guarded = guardIn(status);
  const panel = el(
    "section",
    { class: "party card", id: "party" },
    el("h2", { text: "The party's sheets" }),
    list,
    status,
  );

  function entry(answer) {
    const sheet = answer.sheet || {};
    const path = `${base}/members/${encodeURIComponent(answer.member)}/sheet`;
    const what = el("input", {
      type: "text", maxlength: 40, class: "what", placeholder: HEAL_HINT[sheet.system] || "",
      "aria-label": `what to heal of ${sheet.name}`,
    });
    async function change(action, body) {
      await guarded(async () => {
        await api("POST", `${path}/${action}`, { token: seat.token, body: { version: answer.version, ...body } });
        await load();
      });
    }
    const heal = el("button", { type: "button", class: "quiet heal", text: "Heal" });
    heal.addEventListener("click", () => change("heal", what.value.trim() ? { what: what.value.trim() } : {}));
    return el(
      "article",
      { class: "party-sheet", dataset: { member: answer.member } },
      el("h3", { text: `${sheet.name} (${sheet.system}), ${answer.owner}'s` }),
      stateView(sheet),
      traitsList(sheet),
      hitControls(sheet, (body) => change("hit", body)),
      el("div", { class: "line gm-hand" }, what, heal),
      el(
        "details",
        { class: "explain" },
        el("summary", { text: "the whole sheet" }),
        el("pre", { class: "sheet-page", text: sheet.page || answer.text || "" }),
      ),
    );
  }

  async function load() {
    await guarded(async () => {
      const answer = await api("GET", `${base}/sheets`, { token: seat.token });
      const all = Array.isArray(answer?.sheets) ? answer.sheets : [];
      list.replaceChildren(
        ...(all.length ? all.map(entry) : [el("p", { class: "muted", text: "No sheet is attached yet." })]),
      );
    });
  }

  return { panel, load };
}
