// A blind roll: the GM sees it, its roller does not (until the seed is
// revealed, as any hidden roll). The roll box offers it to every member.

export const BLIND = "blind";

/** The roll box's choice of it. */
export const BLIND_CHOICE = "blind: GM only";

/** What the placeholder of a blind roll says to `me`, who may not see it. */
export function blindWords(roll, me) {
  return roll.member === me.member ? "Your blind roll: only the GM sees it" : "a blind roll: only the GM sees it";
}
