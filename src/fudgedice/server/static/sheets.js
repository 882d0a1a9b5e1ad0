// This member's character sheet at the table: attached by uploading its .toml
// file or typing it, its traits as buttons that roll them by name, and the
// points a roll's card can spend (a D6 Character Point die, a Fate invoke or
// reroll). The sheet is its owner's and the GM's; every change is in the log.

import { ApiError, api, download, guardIn, patiently, sendOnce, sendRoll } from "./api.js";
import { withDifficulty } from "./difficulty.js";
import { el, problem } from "./dom.js";
import { focusCard, focusIfLost, focusOn } from "./focus.js";
import { hitControls } from "./hit.js";
import { pointName, stateView, traitText } from "./sheetstate.js";
import { sheetTemplate } from "./template.js";

/** A Fate sheet's points a roll's card offers: Core's, Condensed's and Accelerated's alike. */
const FATE_SPENDS = [
  ["invoke", "Invoke +2", "fate_points"],
  ["reroll", "Reroll invoke", "fate_points"],
];

/** The points a roll's card offers to spend, by the sheet's system. */
const SPENDS = {
  d6: [["cp", "Character Point die", "character_points"]],
  fate: FATE_SPENDS,
  fatecondensed: FATE_SPENDS,
  fae: FATE_SPENDS,
};

/** Seconds before the sheet is read again when its page (each trait's chance)
 * could not be measured yet, one wait a try. */
const PAGE_RETRIES = [1, 2, 4, 8, 16];

/** The points a trait's raise is paid with, where the sheet has them. */
const RAISED_WITH = ["ep", "character_points"];

/**
 * The sheet panel of `seat` in `room`. `rolled(roll)` takes each roll or spend
 * the server accepted; `visibility()`, `difficulty()` and `clientSeed()` are
 * the roll box's, and `choices` its line of what a roll goes out with (shown
 * beside the traits); `changed()` is told when the sheet changed (the cards'
 * spend buttons follow it).
 */
export function sheetPanel(room, seat, { rolled, visibility, difficulty, choices, clientSeed, changed }) {
  const base = `/api/rooms/${encodeURIComponent(room.room)}`;
  const mine = `${base}/members/${encodeURIComponent(seat.member)}/sheet`;
  let current = null; // the sheet as the server last answered it, or null
  let retried = 0; // reads since the sheet came without its page
  let retry = null; // the timer of the next such read

  const title = el("h2", { id: "sheet-title", text: "Character sheet" });
  const points = el("div", { class: "sheet-points", id: "sheet-points" });
  const hitLine = el("details", { class: "take-hit", id: "sheet-hit" }, el("summary", { text: "Take a hit" }));
  const spendFudge = el("button", { type: "button", class: "quiet", id: "spend-fudge-point", text: "Spend a Fudge Point" });
  const traits = el("div", { class: "traits", id: "sheet-traits" });
  const page = el("pre", { class: "sheet-page", id: "sheet-page" });
  const text = el("textarea", { id: "sheet-text", rows: 12, spellcheck: "false", "aria-label": "the sheet's TOML" });
  const template = sheetTemplate(room, seat, text);
  const file = el("input", {
    id: "sheet-file", type: "file", accept: ".toml,.json,text/plain,application/json",
    "aria-label": "upload a sheet (.toml, or a Fari character's .fari.json)",
  });
  const toFari = el("button", { type: "button", class: "quiet", id: "sheet-to-fari", text: "Download for Fari (.fari.json)" });
  const save = el("button", { type: "button", id: "sheet-save", class: "primary", text: "Save the sheet" });
  const status = el("div", { class: "status", id: "sheet-status", "aria-live": "polite" });
  const guarded = guardIn(status);
  const editor = el(
    "details",
    { class: "sheet-editor", id: "sheet-editor" },
    el("summary", { text: "Attach or edit the sheet (TOML)" }),
    el("label", { class: "field" }, el("span", { text: "Upload a .toml file, or a Fate character from Fari (.fari.json)" }), file),
    template,
    text,
    el("div", { class: "line" }, save, toFari),
  );
  const rolling = el(
    "div",
    { class: "sheet-roll" },
    choices || "",
    traits,
  );
  const measuring = el("p", { class: "muted", id: "sheet-measuring", hidden: true });
  const whole = el("details", { class: "explain" }, el("summary", { text: "the whole sheet" }), page);
  const panel = el(
    "section",
    { class: "sheet card", id: "sheet" },
    title,
    points,
    el("div", { class: "line sheet-actions" }, spendFudge),
    hitLine,
    rolling,
    measuring,
    whole,
    status,
    editor,
  );

  function show(answer) {
    const had = !!current?.sheet;
    current = answer;
    if (changed) changed();
    const sheet = answer?.sheet;
    whole.hidden = !sheet;
    if (!sheet) {
      clearTimeout(retry);
      measuring.hidden = true;
      title.textContent = "Character sheet";
      points.textContent = "No sheet yet: upload your .toml file or type it below.";
      spendFudge.hidden = true;
      hitLine.hidden = true;
      toFari.hidden = true;
      traits.replaceChildren();
      rolling.hidden = true;
      page.textContent = "";
      editor.open = !seat.gm; // a GM may play no character: the party's sheets come first
      return;
    }
    if (!had) editor.open = false; // the sheet is there: its traits come first, not its text
    title.textContent = `${sheet.name} (${sheet.system})`;
    points.replaceChildren(stateView(sheet));
    spendFudge.hidden = !((sheet.points?.fudge_points || 0) > 0);
    hitLine.hidden = false;
    toFari.hidden = sheet.system !== "fate";
    hitLine.replaceChildren(hitLine.firstChild, hitControls(sheet, (body) => change("hit", body)));
    rolling.hidden = false;
    const raising = RAISED_WITH.find((key) => key in (sheet.points || {}));
    traits.replaceChildren(...(sheet.traits || []).map((trait) => traitButtons(trait, raising)));
    page.textContent = sheet.page || "";
    if (document.activeElement !== text) text.value = answer.text || "";
    awaitPage(sheet);
  }

  /** A sheet answered without its page (the table busy measuring): shown as
   * it is, and read again a few times until its page comes. */
  function awaitPage(sheet) {
    clearTimeout(retry);
    measuring.hidden = !sheet.page_error;
    if (!sheet.page_error) {
      retried = 0;
      return;
    }
    if (retried >= PAGE_RETRIES.length) {
      measuring.textContent = `Each trait's chance could not be measured now (${sheet.page_error}).`;
      return;
    }
    measuring.textContent = "Each trait's chance is still being measured: it shows here in a moment.";
    retry = setTimeout(load, PAGE_RETRIES[retried] * 1000);
    retried += 1;
  }


  async function load() {
    await guarded(async () => {
      try {
        show(await patiently(() => api("GET", mine, { token: seat.token })));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) show(null);
        else throw error;
      }
    });
  }

  /** A trait's roll button, and its raise button when points pay for raising it. */
  function traitButtons(trait, raising) {
    const roll = el("button", {
      type: "button", class: `chip trait${trait.adjusted ? " lowered" : ""}`, text: traitText(trait),
      dataset: { trait: trait.name }, onclick: () => rollTrait(trait.name),
    });
    if (!raising) return roll;
    const raise = el("button", {
      type: "button", class: "quiet raise", text: "+", dataset: { raise: trait.name },
      "aria-label": `Raise ${trait.name} with ${pointName(raising)}`,
      title: `Raise ${trait.name}`, onclick: () => change("raise", { trait: trait.name }),
    });
    return el("span", { class: "trait-pair" }, roll, raise);
  }

  /** A change of the sheet by its owner (a raise, a Fudge Point spent). */
  async function change(action, body) {
    await guarded(async () => show(await api("POST", `${mine}/${action}`, { token: seat.token, body: { version: current?.version || 0, ...body } })));
    focusIfLost(title); // the button pressed may be gone with the points it spent
  }
  spendFudge.addEventListener("click", () => change("spend", { point: "fudge", count: 1 }));

  async function rollTrait(name) {
    const system = current?.sheet?.system || room.system; // the sheet's words say what a difficulty is
    const body = { request: withDifficulty(name, difficulty(), system), visibility: visibility() };
    await guarded(async () => rolled(await sendRoll(room.room, `${mine}/roll`, seat.token, body, clientSeed())));
  }

  async function attach(given, format = "toml") {
    await guarded(async () => {
      const body = { text: given, version: current?.version || 0, ...(format === "toml" ? {} : { format }) };
      show(await api("PUT", mine, { token: seat.token, body }));
      editor.open = false;
      focusOn(title); // the editor closed: the sheet saved is read from its name on
    });
  }

  save.addEventListener("click", () => attach(text.value));
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    const given = await chosen.text();
    file.value = "";
    // a Fari character is JSON: sent as it is, and the sheet made of it comes back as TOML
    if (/\.json$/i.test(chosen.name) || given.trimStart().startsWith("{")) return attach(given, "fari");
    text.value = given;
    await attach(given);
  });
  toFari.addEventListener("click", () =>
    guarded(() => download(mine, seat.token, { format: "fari" }, `${current?.sheet?.name || "character"}.fari.json`)),
  );

  /** The spend buttons of a roll's card: only this member's own rolls, drawn
   * under the seed in force, with a sheet of the roll's system that has the points. */
  function spendButtons(roll) {
    const sheet = current?.sheet;
    if (!sheet || roll.hidden || roll.kind === "sheet" || roll.member !== seat.member) return null;
    if (roll.by_hand || roll.verified !== null || roll.system !== sheet.system) return null;
    const offered = (SPENDS[sheet.system] || []).filter(([, , key]) => (sheet.points?.[key] || 0) > 0);
    if (!offered.length) return null;
    const note = el("div", { class: "status" });
    const buttons = offered.map(([point, shown]) => {
      const button = el("button", { type: "button", class: "quiet spend", text: shown, dataset: { point } });
      button.addEventListener("click", async () => {
        button.disabled = true;
        note.replaceChildren();
        try {
          const body = { point, version: current.version };
          const spent = await sendOnce(`${base}/rolls/${roll.seq}/spend`, seat.token, body);
          rolled(spent);
          await load();
          focusCard(spent.seq, title); // the roll made again with the point: its card
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          note.replaceChildren(problem(error));
          button.disabled = false;
        }
      });
      return button;
    });
    return el("div", { class: "spends" }, el("span", { class: "muted", text: "Spend:" }), ...buttons, note);
  }

  show(null);
  return {
    panel, load, spendButtons,
    /** The sheet as the server last answered it, or null. */
    get current() {
      return current;
    },
  };
}
