// Every entry of the room's log drawn for one reader: a roll (or a sheet's
// change, a spend, an action of play) as its card, talk as who said what, a
// blind roll hidden from its reader as a placeholder that says so.

import { BLIND, blindWords } from "./blind.js";
import { rollCard } from "./dice.js";
import { talkCard } from "./talk.js";

/** The card of `entry` for `me`, or null when there is nothing to show
 * (someone else's talk this reader may not see). */
export function entryCard(entry, me, byGm = false, actions = null, reader = null) {
  if (entry.kind === "talk") return entry.hidden ? null : talkCard(entry, me, byGm);
  const card = rollCard(entry, byGm, actions, reader);
  if (entry.hidden && entry.visibility === BLIND) {
    const placeholder = card.querySelector(".placeholder");
    if (placeholder) placeholder.textContent = blindWords(entry, me);
  }
  return card;
}
