// What a Fate roll's card offers its roller at a table with play: invoke an
// aspect (the scene's, or one of the character's own) for +2 or a reroll,
// with a free invoke the aspect holds for them or with a fate point; and
// "Create an advantage" from a roll against an opposition (its shifts make
// the aspect and its free invokes).

import { ApiError, sendOnce } from "./api.js";
import { el, problem } from "./dom.js";
import { focusCard, focusIfLost } from "./focus.js";

const FATE_SYSTEMS = ["fate", "fatecondensed", "fae"];

/** The card actions of `seat`'s Fate rolls; `sheet()` is the sheet panel's
 * current answer, `table` the play (playstate.js), `rolled(entry)` places a spend,
 * `unnamed(roll)` the sheet panel's buttons for an invoke that names no aspect. */
export function invokeActions(room, seat, { table, sheet, rolled, reload, unnamed }) {
  const base = `/api/rooms/${encodeURIComponent(room.room)}`;
  const drafts = new Map(); // seq -> the advantage's name typed so far: a redraw keeps it

  /** The aspects one may invoke: the scene's, then the character's own. */
  function choices(own) {
    const scene = (table.state?.aspects || []).map((aspect) => {
      const mine = aspect.free > 0 && (aspect.holder === null || aspect.holder === seat.member);
      return { value: aspect.id, text: aspect.name, free: mine ? aspect.free : 0, boost: aspect.kind === "boost" };
    });
    return [...scene, ...own.map((name) => ({ value: name, text: name, free: 0 }))];
  }

  function invoker(roll, answer, note) {
    const points = answer.sheet.points?.fate_points || 0;
    const offered = choices(answer.sheet.state?.aspects || []).filter((one) => one.free > 0 || points > 0);
    if (!offered.length) return null;
    const aspect = el(
      "select",
      { class: "invoke-aspect", "aria-label": "the aspect to invoke" },
      offered.map((one) =>
        el("option", { value: one.value, text: one.free ? `${one.text} (${one.free} free)` : one.text, dataset: { free: one.free } }),
      ),
    );
    const how = el(
      "select",
      { class: "invoke-how", "aria-label": "what the invoke buys" },
      el("option", { value: "invoke", text: "+2" }),
      el("option", { value: "reroll", text: "reroll" }),
    );
    const free = el("input", { type: "checkbox", class: "invoke-free" });
    const freeLabel = el("label", { class: "check" }, free, "free invoke");
    const button = el("button", { type: "button", class: "quiet invoke", text: "Invoke" });
    function label() {
      button.disabled = !free.checked && points === 0;
      button.textContent = free.checked ? "Invoke (free)" : "Invoke (1 fate point)";
    }
    function follow() {
      // a free invoke first, when the aspect holds one for this member: a fate point is kept
      const has = Number(aspect.selectedOptions[0]?.dataset.free || 0) > 0;
      free.checked = has;
      free.disabled = !has;
      label();
    }
    aspect.addEventListener("change", follow);
    free.addEventListener("change", label);
    follow();
    button.addEventListener("click", async () => {
      button.disabled = true;
      note.replaceChildren();
      try {
        const body = { point: how.value, version: answer.version, aspect: aspect.value, free: free.checked };
        const spent = await sendOnce(`${base}/rolls/${roll.seq}/spend`, seat.token, body);
        rolled(spent);
        await reload();
        focusCard(spent.seq, document.querySelector("#sheet-title")); // the roll with the invoke: its card
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        note.replaceChildren(problem(error));
        button.disabled = false;
      }
    });
    return el("div", { class: "line invoke-line" }, el("span", { class: "muted", text: "Invoke:" }), aspect, how, freeLabel, button);
  }

  function advantage(roll, note) {
    const name = el("input", {
      type: "text", maxlength: 120, class: "advantage-name", placeholder: "the aspect it creates",
      value: drafts.get(roll.seq) || "", "aria-label": "the advantage's aspect",
    });
    name.addEventListener("input", () => drafts.set(roll.seq, name.value));
    const make = el("button", { type: "button", class: "quiet advantage", text: "Create an advantage" });
    make.addEventListener("click", async () => {
      if (!name.value.trim()) return name.focus();
      make.disabled = true;
      note.replaceChildren();
      try {
        await table.act({ action: "advantage", of: roll.seq, name: name.value.trim() });
        drafts.delete(roll.seq);
        focusIfLost(document.querySelector(`#rolls [data-seq="${roll.seq}"]`)); // the card it was made from
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        note.replaceChildren(problem(error));
        make.disabled = false;
      }
    });
    return el("div", { class: "line advantage-line" }, name, make);
  }

  /** The card's actions, or null: not this member's own Fate roll at a table with play. */
  return function actions(roll) {
    const answer = sheet();
    if (!table.state || !answer?.sheet || !FATE_SYSTEMS.includes(answer.sheet.system)) return null;
    if (roll.hidden || roll.member !== seat.member || roll.by_hand || roll.failed) return null;
    if ((roll.kind && roll.kind !== "spend") || !FATE_SYSTEMS.includes(roll.system)) return null;
    const note = el("div", { class: "status" });
    const shifts = roll.details?.shifts;
    return el(
      "div",
      { class: "spends play-actions" },
      // no aspect to name (none on the scene or the sheet): the unnamed invokes of the sheet panel
      invoker(roll, answer, note) ?? unnamed(roll),
      Number.isInteger(shifts) && shifts >= 0 ? advantage(roll, note) : null,
      note,
    );
  };
}
