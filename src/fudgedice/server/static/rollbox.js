// The roll box: what to roll (or the dice rolled by hand to read), for whom,
// against what Difficulty (difficulty.js), with the exact odds of the text
// shown as it is typed, and this member's favourite rolls (favourites.js).

import { ApiError, sendRoll } from "./api.js";
import { choicesLine } from "./choices.js";
import { withDifficulty } from "./difficulty.js";
import { el, problem, says } from "./dom.js";
import { BLIND, BLIND_CHOICE } from "./blind.js";
import { focusIfLost } from "./focus.js";
import { VISIBILITY } from "./dice.js";
import { favourites } from "./favourites.js";
import { language } from "./language.js";
import { oddsPanel } from "./odds.js";

function field(label, input, extra) {
  return el("label", { class: "field" }, el("span", { text: label }), input, extra);
}

/**
 * The roll box of a room. `room` is the room's info, `seat` this browser's
 * member; `rolled(roll)` takes each roll the server accepted; `clientSeed()`
 * gives the client seed the player fixed, if any (else each roll takes a fresh
 * random one: `sendRoll`).
 */
export function rollBox(room, seat, { rolled, clientSeed }) {
  const spoken = language(room.system);
  const text = el("input", {
    id: "roll-text", name: "text", type: "text", autocomplete: "off", spellcheck: "false",
    maxlength: 1000, required: true, placeholder: spoken.examples[0], "aria-label": "roll",
  });
  const label = el("input", { id: "roll-label", name: "label", type: "text", maxlength: 200, placeholder: "optional" });
  const visibility = el(
    "select",
    { id: "roll-visibility", name: "visibility" },
    Object.entries(VISIBILITY)
      .filter(([value]) => value !== "secret" || seat.gm)
      .map(([value, shown]) => el("option", { value, text: value === "self" ? "to myself" : shown })),
    el("option", { value: BLIND, text: BLIND_CHOICE }),
  );
  const read = el("input", { id: "roll-read", type: "checkbox" });
  const faces = el("input", {
    id: "roll-faces", name: "faces", type: "text", autocomplete: "off", spellcheck: "false",
    placeholder: spoken.faces, "aria-label": "faces rolled by hand",
  });
  const facesField = field("Faces as they fell", faces);
  facesField.hidden = true;
  const difficulty = el("input", {
    id: "roll-difficulty", type: "text", autocomplete: "off", maxlength: 40,
    placeholder: spoken.difficulties.slice(-2).join(" or ") || "none", "aria-label": "difficulty",
  });
  const difficultyField = field("Difficulty", difficulty);
  difficultyField.hidden = !spoken.difficulties.length; // 3d6 Fudge compares to the skill itself
  const submit = el("button", { type: "submit", class: "primary", id: "roll-submit", text: "Roll" });
  const status = el("div", { class: "status", id: "roll-status", "aria-live": "polite" });
  const odds = el("div", { class: "odds", id: "odds" });
  const favourite = favourites(room, seat, { text, label, roll: (given, named) => send(given, named, false) });

  // an error of the last roll goes once its text is changed
  for (const input of [text, faces]) input.addEventListener("input", () => status.replaceChildren());
  read.addEventListener("change", () => {
    facesField.hidden = !read.checked;
    faces.required = read.checked;
    submit.textContent = read.checked ? "Read" : "Roll";
  });

  const form = el(
    "form",
    { class: "rollbox", id: "roll-form", autocomplete: "off" },
    el("div", { class: "line" }, text, submit),
    el("div", { class: "line favourite-line" }, choicesLine(visibility, difficulty, "roll"), favourite.save),
    favourite.bar,
    el(
      "div",
      { class: "examples" },
      spoken.examples.map((example) =>
        el("button", {
          type: "button", class: "chip", text: example,
          onclick: () => {
            text.value = example;
            text.dispatchEvent(new Event("input"));
            text.focus();
          },
        }),
      ),
    ),
    el(
      "div",
      { class: "options" },
      field("Label", label),
      field("Who sees it", visibility),
      difficultyField,
      el("label", { class: "check" }, read, el("span", { text: "Read dice rolled by hand" })),
    ),
    facesField,
    status,
    el("h3", { text: "Odds before you roll" }),
    odds,
    el(
      "details",
      { class: "language" },
      el("summary", { text: "The roll language" }),
      el("dl", {}, spoken.forms.map(([form, meaning]) => [el("dt", {}, el("code", { text: form })), el("dd", { text: meaning })])),
    ),
  );

  /** A roll of `given` (against the Difficulty, unless it names its own),
   * labelled `named`, read from the faces typed if `byHand`. */
  async function send(given, named, byHand) {
    const body = { text: withDifficulty(given, difficulty.value, room.system), visibility: visibility.value };
    if (named) body.label = named;
    if (byHand) body.faces = faces.value.trim().split(/[\s,]+/).filter(Boolean);
    submit.disabled = true;
    status.replaceChildren();
    try {
      const path = `/api/rooms/${encodeURIComponent(room.room)}/rolls`;
      const roll = await sendRoll(room.room, path, seat.token, body, clientSeed());
      rolled(roll);
      if (byHand) faces.value = "";
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.replaceChildren(problem(error, body.text));
      // the odds below may show the text's error already: it is said once, here
      if (says(odds, error.message)) odds.replaceChildren();
      if (error.seq !== null) {
        // failed once its dice were drawn: kept all the same (docs/fairness.md)
        status.append(el("p", { class: "kept", text: `The dice were drawn: the failed roll is kept as #${error.seq}.` }));
      }
    } finally {
      submit.disabled = false;
      // a button disabled while it held the focus let go of it: it takes it back, where it is
      focusIfLost(submit, { preventScroll: true });
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send(text.value.trim(), label.value.trim(), read.checked);
  });

  oddsPanel(odds, text, difficulty, room.system, status);
  favourite.load();
  return form;
}
