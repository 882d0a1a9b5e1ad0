// The GM's "Delete this room": behind a confirmation that offers the log's
// download first, for a deleted room's log is gone for everyone, and the log
// is what `fudgedice verify` checks the rolls by.

import { ApiError, api, download } from "./api.js";
import { el, problem } from "./dom.js";
import { focusOn } from "./focus.js";

/** The control, for the GM's panel; `gone()` is called once the room is deleted. */
export function deleteRoomControl(room, me, gone) {
  const base = `/api/rooms/${encodeURIComponent(room.room)}`;
  const status = el("div", { class: "status" });
  const open = el("button", { type: "button", class: "quiet danger", id: "delete-room", "aria-expanded": "false", "aria-controls": "delete-box", text: "Delete this room\u2026" });
  const save = el("button", { type: "button", class: "quiet", id: "delete-download", text: "Download the log first" });
  const sure = el("button", { type: "button", class: "danger", id: "delete-confirm", text: "Delete the room for everyone" });
  const keep = el("button", { type: "button", class: "quiet", id: "delete-cancel", text: "Keep it" });
  const title = el("p", { id: "delete-title" },
    el("strong", { text: "Delete this room? " }),
    "Every roll, sheet, message and member of it goes, for everyone at the table, and nothing brings it back. ",
    "Its log is the record of every roll: download it first to keep it.");
  const box = el("div", { class: "confirm", id: "delete-box", role: "group", "aria-labelledby": "delete-title", hidden: true },
    title, el("div", { class: "line" }, save, sure, keep), status);

  function shown(on) {
    box.hidden = !on;
    open.setAttribute("aria-expanded", String(on));
    status.replaceChildren();
    focusOn(on ? save : open);
  }
  open.addEventListener("click", () => shown(box.hidden));
  keep.addEventListener("click", () => shown(false));
  save.addEventListener("click", async () => {
    status.replaceChildren();
    try {
      await download(`${base}/log`, me.token, {}, `fudgedice-${room.room}-log.json`);
      save.textContent = "Log downloaded";
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.replaceChildren(problem(error));
    }
  });
  sure.addEventListener("click", async () => {
    sure.disabled = true;
    status.replaceChildren();
    try {
      await api("DELETE", base, { token: me.token });
      gone();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 404) gone(); // deleted already
      else status.replaceChildren(problem(error));
    } finally {
      sure.disabled = false;
    }
  });
  return el("div", { class: "delete-room" }, open, box);
}
