// What the roll box offers for each system: examples to tap, and a short
// reference of the roll language (docs/notation.md has it all). A text with
// no "system:" prefix is read in the room's system.

export const SYSTEMS = {
  fudge: "Fudge",
  power: "Power Fudge",
  "3d6fudge": "3d6 Fudge",
  d6: "D6 System",
  fate: "Fate Core",
  fatecondensed: "Fate Condensed",
};

const COMMON = [
  ["2d6+3, d20, d%", "dice and arithmetic"],
  ["4d6kh3, 2d20dl1", "keep / drop the highest or lowest"],
  ["3d6!, 3d6!!, d6!p", "explode, compound, penetrate"],
  ["2d6r<=2, d6ro1", "reroll while / once"],
  ["6d10>=7", "count successes"],
  ["... #attack", "a label"],
];

const FUDGE = [
  ["4dF+1, Good, Superb+2", "a trait rolls 4dF"],
  ["Good vs Great", "against a difficulty"],
  ["Good opp Fair", "opposed: the relative degree"],
  ["4dF@d6, 4dF@3d6, 4dF@4d6", "Fudge dice read from ordinary dice"],
];

export const LANGUAGE = {
  fudge: { examples: ["Good", "4dF+1", "Good vs Great", "Good opp Fair"], forms: [...FUDGE, ...COMMON], faces: "+ 0 - +" },
  power: {
    examples: ["4dF+2 adv", "Good vs Superb", "4dF dis2", "Good take0"],
    forms: [...FUDGE, ["... adv, adv2, dis, dis2", "advantage / disadvantage"], ["... take0", "take zero"], ...COMMON],
    faces: "+ 0 - +",
  },
  "3d6fudge": {
    examples: ["Good", "Good-2", "Good opp Great", "6 opp 8"],
    forms: [["Good, Good-2, 6", "a skill: 3d6, triples first, drop the highest"], ["Good opp Great", "opposed: margins compared"], ...COMMON],
    faces: "5 2 1",
  },
  d6: {
    examples: ["4D+2", "4D+2 vs Moderate", "3D opp 4D+1", "30D fast"],
    forms: [
      ["4D+2", "a die code: one die is the Wild Die"],
      ["... vs 15, vs Moderate", "against a difficulty"],
      ["... opp 3D+1", "opposed; ties go to the left"],
      ["... nowild, cp2, fp", "no Wild Die; Character Points; a Fate Point"],
      ["... crit=cancel", "the Wild Die's 1: cancel, complication, ignore"],
      ["... fast, wildonly", "dice reduction"],
      ...COMMON,
    ],
    faces: "4 2 3 w5",
  },
};

const FATE = {
  examples: ["Good", "Good+2 vs Great", "Good opp Fair", "+3 vs 4"],
  forms: [
    ["Good, +3, Good+2", "a skill rolls 4dF"],
    ["... vs Great, vs 4", "passive opposition: the outcome and shifts"],
    ["... opp Fair", "active opposition: both sides roll"],
    ...COMMON,
  ],
  faces: "+ 0 - +",
};
LANGUAGE.fate = FATE;
LANGUAGE.fatecondensed = FATE;

export function language(system) {
  return LANGUAGE[system] || LANGUAGE.fudge;
}
