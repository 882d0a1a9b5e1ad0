// A conflict's order, live to everyone: who acts now (marked), who is next,
// the round. The GM starts it as the system orders a conflict (Fate Core by
// Notice or Empathy, Fate Condensed's elective order, D6 Perception rolled
// every round, or the GM's own order), moves it on and ends it; a D6 player
// rolls their Perception for it from here.

import { guardIn, sendRoll } from "./api.js";
import { el } from "./dom.js";
import { whoIs } from "./playstate.js";

const MODES = {
  notice: "Notice (Fate Core, physical)",
  empathy: "Empathy (Fate Core, mental)",
  elective: "Elective (Fate Condensed)",
  perception: "Perception rolled each round (D6)",
  gm: "The GM's order",
};
const FIRST = { fate: "notice", d6: "perception" };
const FATE = ["fate", "fatecondensed", "fae"];

/** The tracker of `seat` in `room`, drawn from `table` (playstate.js). */
export function initiativePanel(room, seat, table, { members, rolled, clientSeed }) {
  const base = `/api/rooms/${encodeURIComponent(room.room)}`;
  const status = el("div", { class: "status", id: "initiative-status", "aria-live": "polite" });
  const guarded = guardIn(status);
  const act = (body) => guarded(() => table.act(body));
  const heading = el("p", { class: "initiative-line", id: "initiative-line" });
  const order = el("ol", { class: "initiative-order", id: "initiative-order", "aria-label": "who acts, in order" });
  const mine = el("div", { class: "line", id: "initiative-mine" });
  const mode = el("select", { id: "initiative-mode", "aria-label": "how the order is made" },
    Object.entries(MODES).map(([value, text]) => el("option", { value, text })));
  mode.value = FIRST[room.system] || "gm";
  const given = el("input", {
    id: "initiative-given", type: "text", maxlength: 600, placeholder: "who acts, first to last: Ann, Ogre, Bob",
    "aria-label": "the order (names, commas between)",
  });
  const moving = el(
    "div",
    { class: "line", id: "initiative-moves" },
    el("button", { type: "button", id: "initiative-next", class: "primary", text: "Next", onclick: () => act({ action: "next" }) }),
    el("button", { type: "button", id: "initiative-order-rolls", class: "quiet", text: "Order from the rolls", onclick: () => act({ action: "order" }) }),
    el("button", { type: "button", id: "initiative-end", class: "quiet", text: "End the conflict", onclick: end }),
  );
  // who conceded gains a fate point at the end (Fate), as each consequence taken in it does
  const conceded = el("span", { class: "line muted", id: "initiative-conceded" });
  moving.append(conceded);
  // the GM's setup stays folded until wanted: a room without a conflict shows one line
  const setup = el(
    "details",
    { class: "gm-initiative", id: "initiative-setup" },
    el("summary", { text: "Start a conflict's order" }),
    el("div", { class: "line" }, mode, given),
    el("button", { type: "button", id: "initiative-start", class: "quiet", text: "Start the order", onclick: start }),
  );
  const gm = seat.gm ? el("div", {}, moving, setup) : "";
  const panel = el("section", { class: "initiative card", id: "initiative" }, el("h2", { text: "Initiative" }), heading, order, mine, gm, status);

  /** Names typed by the GM: a member's or character's name becomes their id, the rest are NPCs. */
  function start() {
    const names = given.value.split(",").map((one) => one.trim()).filter(Boolean);
    const people = [...table.characters.map((one) => [one.name, one.member]), ...members().map((one) => [one.name, one.member])];
    const ids = names.map((name) => people.find(([known]) => known.toLowerCase() === name.toLowerCase())?.[1] || name);
    const known = new Set(people.map(([, member]) => member));
    // elective: the first named starts, and the NPCs named take part; any other mode: the order given
    const body = mode.value === "elective"
      ? { order: ids.slice(0, 1), ...(ids.some((id) => !known.has(id)) ? { npcs: ids.filter((id) => !known.has(id)) } : {}) }
      : ids.length ? { order: ids } : {};
    act({ action: "initiative", mode: mode.value, ...body }).then(() => {
      if (table.state?.initiative) setup.open = false; // started: the order itself comes first
    });
  }

  function end() {
    const ids = [...conceded.querySelectorAll("input:checked")].map((box) => box.value);
    act({ action: "end_conflict", ...(ids.length ? { conceded: ids } : {}) });
  }

  /** A box for each Fate character, to tick who conceded (the ticks kept across redraws). */
  function concessions(characters) {
    const ticked = new Set([...conceded.querySelectorAll("input:checked")].map((box) => box.value));
    const fate = (characters || []).filter((one) => FATE.includes(one.system));
    conceded.replaceChildren(...(fate.length ? ["Conceded:", ...fate.map((one) => el("label", {},
      el("input", { type: "checkbox", value: one.member, checked: ticked.has(one.member) }), ` ${one.name}`))] : []));
  }

  async function rollPerception() {
    await guarded(async () => {
      const body = { request: "Perception #initiative", visibility: "public" };
      const path = `${base}/members/${encodeURIComponent(seat.member)}/sheet/roll`;
      rolled(await sendRoll(room.room, path, seat.token, body, clientSeed()));
    });
  }

  function draw(state, characters) {
    const held = state?.initiative;
    panel.hidden = !state || (!held && !seat.gm);
    moving.hidden = !held;
    if (!held) {
      heading.textContent = "No conflict.";
      order.replaceChildren();
      mine.replaceChildren();
      return;
    }
    const name = (who) => whoIs(who, characters, members());
    heading.textContent = `Round ${held.round} \u00b7 ${MODES[held.mode] || held.mode}`;
    moving.querySelector("#initiative-order-rolls").hidden = held.mode !== "perception";
    if (seat.gm) concessions(characters);
    order.replaceChildren(
      ...(held.order || []).map((entry, index) => {
        const now = index === held.current;
        return el(
          "li",
          { class: `${now ? "current" : ""}${(held.acted || []).includes(entry.who) ? " acted" : ""}`, dataset: { who: entry.who }, "aria-current": now ? "true" : null },
          now ? el("span", { class: "now", text: "\u25b6 acting: " }) : "",
          el("span", { class: "who", text: entry.name || name(entry.who) }),
          entry.score !== null && entry.score !== undefined ? el("span", { class: "muted", text: ` (${entry.score})` }) : "",
        );
      }),
    );
    const parts = [];
    if ((held.ties || []).length) parts.push(el("p", { class: "muted ties", text: `Tied: ${held.ties.map((tie) => tie.map(name).join(" = ")).join("; ")}` }));
    // a D6 player rolls once a round (again when tied), until the GM orders the round
    const ordered = (held.order || []).find((entry) => entry.who === seat.member && entry.score !== null && entry.score !== undefined);
    const tied = (held.ties || []).some((tie) => tie.includes(seat.member));
    if (held.mode === "perception" && !seat.gm && (!ordered || tied)) {
      parts.push(el("button", { type: "button", id: "roll-initiative", class: "primary", text: "Roll initiative (Perception)", onclick: rollPerception }));
    }
    const acting = (held.order || [])[held.current];
    if (held.mode === "elective" && acting && (seat.gm || acting.who === seat.member)) parts.push(passOn(held));
    mine.replaceChildren(...parts);
  }

  /** Elective order: whoever acts names who acts next, of those who have not. */
  function passOn(held) {
    const left = held.order.filter((entry, index) => index !== held.current && !(held.acted || []).includes(entry.who));
    const to = el("select", { id: "initiative-to", "aria-label": "who acts next" },
      (left.length ? left : held.order).map((entry) => el("option", { value: entry.who, text: entry.name })));
    const pass = el("button", { type: "button", id: "initiative-pass", class: "quiet", text: "Pass to", onclick: () => act({ action: "next", to: to.value }) });
    return el("span", { class: "line" }, pass, to);
  }

  table.subscribe(draw);
  panel.hidden = true;
  return { panel };
}
