// The difficulty a roll is made against: the roll box's Difficulty field, the
// one field the roll box, the sheet's trait buttons, the favourites and the
// odds all read, through `withDifficulty`, the one rule of how it joins a
// roll's text (docs/notation.md: "TEXT vs DIFFICULTY # label").

import { LANGUAGE, language } from "./language.js";

/** A side of a check the text names itself: as the sheets' rolls read it
 * (fudgedice.sheets.rolling), "vs", "opp" or a D6 "dmg" as a word of its own. */
const NAMES_ITS_OWN = /(?<![\w.])(vs|opp|dmg)(?![\w.])/i;
/** A "system:" prefix, as the roll language reads one. */
const PREFIX = /^\s*([A-Za-z0-9]+)\s*:/;

/** The roll's text and its label ("# ..."), apart. */
function parts(text) {
  const hash = text.indexOf("#");
  return hash === -1 ? [text, ""] : [text.slice(0, hash), text.slice(hash)];
}

/** The system `text` is read in: the one its prefix names, else the room's. */
function systemOf(text, system) {
  const named = PREFIX.exec(text)?.[1]?.toLowerCase();
  return named && named in LANGUAGE ? named : system;
}

/** Whether a difficulty would join `text`: not when the text names its own
 * difficulty or opposition, nor in a system with no difficulties (3d6 Fudge
 * compares a roll to the skill itself). */
export function takesDifficulty(text, system) {
  const [roll] = parts(text);
  return !NAMES_ITS_OWN.test(roll) && language(systemOf(roll, system)).difficulties.length > 0;
}

/** `text` as it is rolled against `difficulty` in a room of `system`:
 * "Good #attack" and "Great" make "Good vs Great #attack". An empty
 * difficulty, or a text that takes none (`takesDifficulty`), leaves it as it is. */
export function withDifficulty(text, difficulty, system) {
  const wanted = String(difficulty || "").trim();
  if (!wanted || !takesDifficulty(text, system)) return text;
  const [roll, label] = parts(text);
  return `${roll.trimEnd()} vs ${wanted}${label ? ` ${label}` : ""}`;
}
