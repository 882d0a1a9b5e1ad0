// What the roll box offers for each system: examples to tap, and a short
// reference of the roll language (docs/notation.md has it all). A text with
// no "system:" prefix is read in the room's system.
//
// The systems are the server's (GET /api/systems: every installed system, a
// plugin's included), read once when the page loads; the forms every system
// shares are the page's own.

import { api } from "./api.js";

const COMMON = [
  ["2d6+3, d20, d%", "dice and arithmetic"],
  ["4d6kh3, 2d20dl1", "keep / drop the highest or lowest"],
  ["3d6!, 3d6!!, d6!p", "explode, compound, penetrate"],
  ["2d6r<=2, d6ro1", "reroll while / once"],
  ["6d10>=7", "count successes"],
  ["... #attack", "a label"],
];

const listing = await api("GET", "/api/systems");

/** Each system's title by name, in the server's order. */
export const SYSTEMS = Object.fromEntries(listing.systems.map((each) => [each.name, each.title]));

/** Each system's examples, forms (its own, then the common ones), faces and difficulties. */
export const LANGUAGE = Object.fromEntries(
  listing.systems.map((each) => [
    each.name,
    {
      examples: each.examples,
      forms: [...each.forms, ...COMMON],
      faces: each.faces,
      difficulties: each.difficulties,
    },
  ]),
);

export function language(system) {
  return LANGUAGE[system] || LANGUAGE[listing.default];
}
