// What the next roll goes out with, shown beside each place a roll is made
// (the Roll button, the sheet's trait buttons): who sees it, when that is not
// everyone, with one click back to public; and the Difficulty it is rolled
// against. The roll box's select and Difficulty field stay the one source of
// each: a badge only follows their events and sets them.

import { el } from "./dom.js";

/** Who sees the rolls `select` sends, when not everyone, and a button that
 * sets it back to public. */
function visibilityNote(select, prefix) {
  const shown = el("span", { class: "badge", id: `${prefix}-visibility-badge` });
  const back = el("button", { type: "button", class: "quiet back-public", id: `${prefix}-back-public`, text: "back to public" });
  const note = el("span", { class: "choice" }, el("span", { class: "muted", text: "Rolls go" }), shown, back);
  function show() {
    const chosen = select.selectedOptions[0];
    note.hidden = select.value === "public";
    shown.className = `badge vis-${select.value}`;
    shown.textContent = chosen ? chosen.textContent : select.value;
  }
  back.addEventListener("click", () => {
    select.value = "public";
    select.dispatchEvent(new Event("change", { bubbles: true }));
  });
  select.addEventListener("change", show);
  show();
  return note;
}

/** The Difficulty typed in `input`, when there is one, and a button that clears it. */
function difficultyNote(input, prefix) {
  const shown = el("span", { class: "badge difficulty", id: `${prefix}-difficulty-badge` });
  const clear = el("button", {
    type: "button", class: "quiet", id: `${prefix}-difficulty-clear`, text: "\u00d7",
    "aria-label": "clear the Difficulty", title: "clear the Difficulty",
  });
  const note = el("span", { class: "choice" }, el("span", { class: "muted", text: "Against" }), shown, clear);
  function show() {
    const wanted = input.value.trim();
    note.hidden = !wanted;
    shown.textContent = wanted;
  }
  clear.addEventListener("click", () => {
    input.value = "";
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  input.addEventListener("input", show);
  show();
  return note;
}

/**
 * A line of what rolls made beside it go out with: the Difficulty of
 * `difficulty` and the visibility of `visibility` (the roll box's own
 * controls). `prefix` names its parts: `${prefix}-visibility-badge` and
 * `${prefix}-back-public`, `${prefix}-difficulty-badge` and `${prefix}-difficulty-clear`.
 */
export function choicesLine(visibility, difficulty, prefix) {
  return el(
    "div",
    { class: "choices", id: `${prefix}-choices` },
    difficultyNote(difficulty, prefix),
    visibilityNote(visibility, prefix),
  );
}
