// This member's favourite rolls, kept by the server (GET and PUT
// /api/rooms/ROOM/favourites: this member's own list, on every device they
// sit at): the roll box's text saved as one, each a chip that rolls it at
// once (against the Difficulty, for whoever the roll box says), and removed by
// its own button.

import { ApiError, api } from "./api.js";
import { el, problem } from "./dom.js";

const STAR = "\u2606";

/**
 * The favourites of `seat` in `room`. `text` and `label` are the roll box's
 * inputs (what "Save as favourite" keeps); `roll(text, label)` rolls a chip's
 * favourite as the roll box rolls. Gives the save button, the chips' bar, and
 * `load()`, which reads the list.
 */
export function favourites(room, seat, { text, label, roll }) {
  const path = `/api/rooms/${encodeURIComponent(room.room)}/favourites`;
  let kept = [];
  let most = 30;
  const save = el("button", {
    type: "button", class: "quiet", id: "favourite-save", text: `${STAR} Save as favourite`,
    title: "Keep this roll as a favourite: one click rolls it again, on any device",
  });
  const chips = el("div", { class: "favourites", id: "favourites" });
  const status = el("div", { class: "status", id: "favourites-status", "aria-live": "polite" });
  const bar = el("div", { class: "favourite-bar" }, chips, status);

  function chip(favourite) {
    const shown = favourite.label || favourite.text;
    const rolls = el("button", {
      type: "button", class: "chip favourite", text: shown, title: favourite.text,
      dataset: { favourite: favourite.text }, onclick: () => roll(favourite.text, favourite.label || ""),
    });
    const remove = el("button", {
      type: "button", class: "quiet remove-favourite", text: "\u00d7",
      "aria-label": `remove the favourite ${shown}`, title: "remove this favourite",
      onclick: () => change((fresh) => fresh.filter((each) => !same(each, favourite))),
    });
    return el("span", { class: "favourite-pair" }, rolls, remove);
  }

  function draw() {
    chips.hidden = !kept.length;
    chips.replaceChildren(el("span", { class: "muted", text: "Favourites:" }), ...kept.map(chip));
    save.disabled = kept.length >= most;
  }

  let pending = Promise.resolve();
  /** The list as the server keeps it, changed by `edit` (read afresh first,
   * so that a change made on another device meanwhile is not lost). Changes
   * take turns: two quick saves would otherwise both read the list before
   * either wrote it, and the second would drop the first. */
  function change(edit) {
    const turn = pending.then(() => changeNow(edit));
    pending = turn.catch(() => {});
    return turn;
  }

  async function changeNow(edit) {
    status.replaceChildren();
    try {
      const fresh = await api("GET", path, { token: seat.token });
      const answer = await api("PUT", path, { token: seat.token, body: { favourites: edit(fresh.favourites) } });
      take(answer);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.replaceChildren(problem(error));
    }
  }

  function take(answer) {
    kept = Array.isArray(answer?.favourites) ? answer.favourites : [];
    most = Number(answer?.max) || most;
    draw();
  }

  save.addEventListener("click", () => {
    const wanted = { text: text.value.trim() };
    if (label.value.trim()) wanted.label = label.value.trim();
    if (!wanted.text) {
      status.replaceChildren(el("p", { class: "muted", text: "Type a roll first, then save it." }));
      return;
    }
    change((fresh) => [...fresh.filter((each) => !same(each, wanted)), wanted]);
  });

  async function load() {
    try {
      take(await api("GET", path, { token: seat.token }));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.replaceChildren(problem(error));
    }
  }

  draw();
  return { save, bar, load };
}

function same(one, other) {
  return one.text === other.text && (one.label || "") === (other.label || "");
}
