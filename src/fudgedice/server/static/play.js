// A Fate room's scene at a glance: its aspects with their free invokes (and
// boosts, and consequences), the compels on offer (the compelled player
// accepts or refuses), the GM's pool, and every character's fate points,
// stress and consequences. Every name a person typed is set as text.

import { guardIn } from "./api.js";
import { compelNotice } from "./compelnote.js";
import { counted, el } from "./dom.js";
import { gmControls } from "./gmplay.js";
import { whoIs } from "./playstate.js";
import { stateView } from "./sheetstate.js";

const PLACEHOLDER = /^\(name this/;

/** The character as the sheet panel's state block reads it. */
function asSheet(character) {
  const stress = Object.entries(character.stress || {}).map(([track, held]) => ({
    track, boxes: (held.boxes || []).map((value) => ({ value, checked: (held.checked || []).includes(value) })),
  }));
  const consequences = Object.entries(character.consequences || {}).map(([slot, held]) => ({
    slot, shifts: held.shifts, name: held.aspect ?? null,
  }));
  const points = { fate_points: character.fate_points, refresh: character.refresh };
  return { points, state: { stress, consequences, aspects: character.aspects || [] } };
}

function freeMarks(count) {
  if (!count) return "";
  return el(
    "span",
    { class: "free-invokes", title: counted(count, "free invoke") },
    el("span", { "aria-hidden": "true", text: "\u25cf".repeat(count) }),
    el("span", { class: "sr", text: counted(count, "free invoke") }),
  );
}

/** The scene panel of `seat` in a Fate `room`, drawn from `table` (playstate.js). */
export function playPanel(room, seat, table, members) {
  const status = el("div", { class: "status", id: "play-status", "aria-live": "polite" });
  const guarded = guardIn(status);
  const sceneLine = el("p", { class: "scene-line", id: "scene-line" });
  const aspects = el("ul", { class: "scene-aspects", id: "scene-aspects", "aria-label": "the scene's aspects" });
  const compels = el("div", { class: "compels", id: "compels" });
  const party = el("div", { class: "play-party", id: "play-party" });
  const panel = el(
    "section",
    { class: "play card", id: "play" },
    el("h2", { text: "The scene" }),
    sceneLine,
    el("h3", { text: "Aspects" }),
    aspects,
    compels,
    seat.gm ? gmControls(table, guarded) : "",
    status,
    el("h3", { text: "At the table" }),
    party,
  );

  async function act(body) {
    await guarded(() => table.act(body));
  }

  function aspectItem(aspect, characters) {
    const name = (who) => whoIs(who, characters, members());
    const kind = aspect.kind === "consequence" ? `${aspect.slot || ""} consequence of ${name(aspect.member)}`.trim() : aspect.kind;
    const item = el(
      "li",
      { class: `aspect ${aspect.kind}`, dataset: { aspect: aspect.id, kind: aspect.kind } },
      el("strong", { class: "aspect-name", text: aspect.name }),
      " ",
      el("span", { class: "badge", text: kind }),
      " ",
      freeMarks(aspect.free),
      aspect.free && aspect.holder ? el("span", { class: "muted holder", text: ` for ${name(aspect.holder)}` }) : "",
    );
    const owner = aspect.kind === "consequence" ? aspect.member : aspect.by;
    if (seat.gm || owner === seat.member) {
      if (aspect.kind === "consequence") item.append(renamer(aspect));
      else {
        const remove = el("button", { type: "button", class: "quiet remove", text: "Remove", "aria-label": `Remove ${aspect.name}` });
        remove.addEventListener("click", () => act({ action: "remove", aspect: aspect.id }));
        item.append(" ", remove);
      }
    }
    return item;
  }

  /** A consequence's name, given or changed by its owner or the GM. */
  function renamer(aspect) {
    const field = el("input", {
      type: "text", maxlength: 120, class: "rename", value: PLACEHOLDER.test(aspect.name) ? "" : aspect.name,
      placeholder: "name this consequence", "aria-label": `name the consequence ${aspect.name}`,
    });
    const save = el("button", { type: "button", class: "quiet", text: "Name it" });
    save.addEventListener("click", () => field.value.trim() && act({ action: "rename", aspect: aspect.id, name: field.value.trim() }));
    const line = el("span", { class: "line rename-line" }, field, save);
    // named already: the field waits behind "Rename", the scene stays short on a phone
    return PLACEHOLDER.test(aspect.name) ? line : el("details", { class: "rename" }, el("summary", { text: "Rename" }), line);
  }

  function compelItem(compel, characters) {
    const item = el(
      "div",
      { class: "compel", dataset: { compel: compel.id }, role: compel.member === seat.member ? "alert" : null },
      el("p", {}, "Compel on ", el("strong", { text: compel.aspect }), ` for ${whoIs(compel.member, characters, members())}`,
        compel.text ? ": " : "", compel.text ? el("span", { text: compel.text }) : ""),
    );
    if (compel.member === seat.member) {
      const accept = el("button", { type: "button", class: "primary accept", text: "Accept (+1 fate point)" });
      const refuse = el("button", { type: "button", class: "quiet refuse", text: "Refuse (pay 1 fate point)" });
      accept.addEventListener("click", () => act({ action: "accept", compel: compel.id }));
      refuse.addEventListener("click", () => act({ action: "refuse", compel: compel.id }));
      item.append(el("div", { class: "line" }, accept, refuse));
    }
    return item;
  }

  /** What a member is typing in a consequence's name, kept across a redraw (every entry
   * of the feed redraws the scene): returns what puts it back, focus and caret too. */
  function typing() {
    const typed = new Map();
    for (const field of aspects.querySelectorAll("input.rename")) {
      if (field.value !== field.defaultValue) typed.set(field.closest("li").dataset.aspect, field.value);
    }
    const open = new Set([...aspects.querySelectorAll("details.rename[open]")].map((details) => details.closest("li").dataset.aspect));
    const active = document.activeElement;
    const focused = active && active.matches("#scene-aspects input.rename") ? active.closest("li").dataset.aspect : null;
    const caret = focused ? active.selectionStart : null;
    return () => {
      for (const field of aspects.querySelectorAll("input.rename")) {
        const id = field.closest("li").dataset.aspect;
        if (typed.has(id)) field.value = typed.get(id);
        const details = field.closest("details");
        if (details && open.has(id)) details.open = true;
        if (id === focused) {
          field.focus();
          field.setSelectionRange(caret, caret);
        }
      }
    };
  }

  function draw(state, characters) {
    panel.hidden = !state;
    if (!state) return;
    const scene = state.scene_name ? `Scene ${state.scene}: ${state.scene_name}` : `Scene ${state.scene}`;
    sceneLine.textContent = `${scene} \u00b7 session ${state.session} \u00b7 GM pool: ${state.gm_pool}`;
    const shown = state.aspects || [];
    const kept = typing();
    aspects.replaceChildren(
      ...(shown.length ? shown.map((aspect) => aspectItem(aspect, characters)) : [el("li", { class: "muted", text: "No aspect on the scene yet." })]),
    );
    kept();
    compels.replaceChildren(...(state.compels || []).map((compel) => compelItem(compel, characters)));
    party.replaceChildren(
      ...characters.filter((one) => one.stress).map((one) =>
        el("article", { class: "play-character", dataset: { member: one.member } }, el("h4", { text: one.name }), stateView(asSheet(one))),
      ),
    );
  }

  table.subscribe(draw);
  panel.hidden = true;
  return { panel, notice: compelNotice(table, seat) };
}
