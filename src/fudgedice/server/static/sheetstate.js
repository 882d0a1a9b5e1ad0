// A sheet's state where people look: points, stress boxes, consequences by
// name, wounds, and each trait's level as a wound leaves it. The sheet panel
// and the GM's party list draw it alike, from the sheet JSON the API answers
// (its `state` and each trait's `adjusted`). Every name is set as text.

import { el } from "./dom.js";

const POINT_NAMES = {
  fudge_points: "Fudge Points",
  ep: "EP",
  character_points: "Character Points",
  fate_points: "Fate Points",
  refresh: "refresh",
};

/** How the page names a sheet's points: "Fudge Points", "EP". */
export function pointName(key) {
  return POINT_NAMES[key] || key;
}

/** A sheet's points as one line: "Character Points: 2 · Fate Points: 1". */
export function pointsLine(points) {
  return Object.entries(points || {})
    .map(([key, count]) => `${pointName(key)}: ${count}`)
    .join(" \u00b7 ");
}

/** A trait as its button says it: "Melee +1 Good", and "→ +0 Fair (Hurt -1)" when wounded. */
export function traitText(trait) {
  return trait.adjusted ? `${trait.name} ${trait.level} \u2192 ${trait.adjusted}` : `${trait.name} ${trait.level}`;
}

/** One box: a mark and its number shown, "box 2 checked" said to a screen reader. */
function box(spoken, checked, shown = "") {
  const said = `${spoken} ${checked ? "checked" : "free"}`;
  return el(
    "span",
    { class: `box${checked ? " checked" : ""}`, title: said },
    el("span", { "aria-hidden": "true", text: `${checked ? "\u2612" : "\u2610"}${shown}` }),
    el("span", { class: "sr", text: said }),
  );
}

function row(name, ...content) {
  return el("div", { class: "state-row" }, el("span", { class: "state-name", text: name }), ...content);
}

function fateRows(state) {
  const rows = (state.stress || []).map((track) =>
    row(
      `${track.track[0].toUpperCase()}${track.track.slice(1)} stress`,
      el("span", { class: "boxes", dataset: { track: track.track } }, ...track.boxes.map((one) => box(`box ${one.value}`, one.checked, String(one.value)))),
    ),
  );
  const consequences = (state.consequences || []).map((one) =>
    el(
      "li",
      { class: one.name ? "taken" : "free", dataset: { slot: one.slot } },
      `${one.slot} (${one.shifts}): `,
      one.name ? el("strong", { text: one.name }) : el("span", { class: "muted", text: "free" }),
    ),
  );
  if (consequences.length) rows.push(row("Consequences", el("ul", { class: "consequences" }, ...consequences)));
  if ((state.aspects || []).length) {
    rows.push(row("Aspects", el("ul", { class: "aspects-own" }, ...state.aspects.map((text) => el("li", { text })))));
  }
  return rows;
}

function woundRows(state) {
  if (state.wound !== undefined) return [row("Wound", el("strong", { class: "wound", text: state.wound }))];
  if (!state.wounds) return [];
  const levels = state.wounds.map((level) =>
    el(
      "span",
      { class: "wound-level", dataset: { level: level.level } },
      `${level.level} `,
      ...Array.from({ length: level.boxes }, (_, index) => box(`${level.level} box ${index + 1}`, index < level.checked)),
    ),
  );
  return [row("Wounds", el("span", { class: "wound-track" }, ...levels), state.worst ? el("strong", { text: ` now ${state.worst}` }) : "")];
}

/** The state block of `sheet`: its points, then stress and consequences, or wounds. */
export function stateView(sheet) {
  const state = sheet?.state || {};
  return el(
    "div",
    { class: "sheet-state" },
    el("p", { class: "points", text: pointsLine(sheet?.points) || "no points" }),
    ...fateRows(state),
    ...woundRows(state),
  );
}

/** The traits as a list to read (the GM's party view): name, level and the wounded level. */
export function traitsList(sheet) {
  const traits = sheet?.traits || [];
  if (!traits.length) return "";
  return el("ul", { class: "trait-levels" }, ...traits.map((trait) => el("li", { class: trait.adjusted ? "lowered" : "", text: traitText(trait) })));
}
