// A new character sheet for the room's system, to fill in: the template
// `fudgedice sheet new` writes (GET /api/systems/SYSTEM/sheet-template), put
// into the sheet's editor by a button, and shown as its example meanwhile.

import { ApiError, api } from "./api.js";
import { el, problem } from "./dom.js";

/**
 * The "New sheet from template" button of the sheet editor `textarea` in
 * `room`, for the character of `seat` (named after them). The template is
 * asked once; a system with no sheets hides the button.
 */
export function sheetTemplate(room, seat, textarea) {
  const button = el("button", { type: "button", class: "quiet", id: "sheet-template", text: "New sheet from template" });
  const status = el("div", { class: "status", id: "sheet-template-status", "aria-live": "polite" });
  const path = `/api/systems/${encodeURIComponent(room.system)}/sheet-template`;
  let asked = null;

  function template() {
    asked ??= api("GET", path, { params: { name: seat.name } }).catch((error) => {
      asked = null; // asked again at the next click
      throw error;
    });
    return asked;
  }

  button.addEventListener("click", async () => {
    status.replaceChildren();
    try {
      textarea.value = (await template()).text;
      textarea.dispatchEvent(new Event("input", { bubbles: true }));
      textarea.focus();
      textarea.setSelectionRange(0, 0);
      status.replaceChildren(el("p", { class: "muted", text: "Fill it in, then save the sheet." }));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.replaceChildren(problem(error));
    }
  });

  template().then(
    (answer) => (textarea.placeholder = answer.text),
    (error) => {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 404) button.hidden = true; // a system without sheets
    },
  );
  return el("div", { class: "line sheet-template" }, button, status);
}
