// What a screen reader says of the log: each new entry of the room as one
// sentence, its dice in words (diewords.js) ("Ann rolled 4dF+2: plus, blank, minus, plus: +2, Great."),
// spoken through a polite live region that only the entries arriving after
// the page opened reach: the history already there is read as cards.

import { el } from "./dom.js";
import { VISIBILITY, hiddenText } from "./dice.js";
import { dieWords } from "./diewords.js";

/** How many sentences the live region keeps: enough for a burst of rolls read in turn. */
const KEPT = 5;

function text(value) {
  return value === undefined || value === null ? "" : String(value).trim();
}

function diceWords(rolled) {
  const dice = Array.isArray(rolled?.dice) ? rolled.dice : [];
  return dice.map(dieWords).join(", ");
}

/** What came of a roll: its total and the result in words, without saying a number twice. */
function outcome(roll, opposed) {
  const result = text(roll.result);
  const total = text(roll.total);
  const verdict = text(roll.verdict);
  if (!result) return [total, verdict].filter(Boolean).join(", ");
  if (opposed) return result; // each side's own result was said with its dice
  const ladder = result.match(/^([+-]?\d+) (.+)$/s);
  if (ladder) return `${ladder[1]}, ${ladder[2]}`;
  return total ? `${total}, ${result}` : result;
}

/** An opposed roll's sides, each with its dice and its own result. */
function sidesWords(sides) {
  return sides
    .map((side) => [text(side.notation), diceWords(side), text(side.result ?? side.total)].filter(Boolean).join(": "))
    .join("; ");
}

function sentence(...parts) {
  const said = parts.filter(Boolean).join(": ");
  return /[.!?]$/.test(said) ? said : `${said}.`;
}

/** A roll as written, less its "#label" (said on its own). */
function notation(roll) {
  const written = text(roll.notation);
  return roll.label ? written.replace(/\s*#.*$/s, "") : written;
}

/** What a member said at the table, as said (someone else's hidden talk is no line of the page). */
function talkSentence(talk, name) {
  const said = text(talk.text);
  if (talk.hidden || !said) return "";
  const to = text(talk.to_name);
  return `${name} ${to ? `whispers to ${to}` : "says"}: ${said}`;
}

/** One entry of the log as one sentence (two for a point spent: what was paid,
 * then the roll), from the data its card is drawn from; "" if it says nothing.
 * Talk is said as written, its own punctuation kept. */
export function rollSentence(roll) {
  if (!roll || typeof roll !== "object") return "";
  const name = text(roll.name) || "Someone";
  if (roll.kind === "talk") return talkSentence(roll, name);
  if (roll.hidden) return sentence(name, hiddenText(roll));
  if (roll.kind === "sheet" || roll.kind === "play") {
    const lines = Array.isArray(roll.lines) ? roll.lines.map(text).filter(Boolean) : [];
    return lines.length ? sentence(lines.join(" ")) : "";
  }
  const paid = roll.kind === "spend" && text(roll.spent) ? `${sentence(text(roll.spent))} ` : "";
  const visibility = text(roll.visibility) || "public";
  const seen = visibility === "public" ? "" : ` (${VISIBILITY[visibility] || visibility})`;
  const label = text(roll.label);
  const what = `${name} rolled ${label ? `${label}, ` : ""}${notation(roll)}${seen}`;
  const sides = Array.isArray(roll.sides) ? roll.sides : [];
  const dice = sides.length ? sidesWords(sides) : diceWords(roll);
  if (roll.failed) return paid + sentence(what, dice, `failed, ${text(roll.error)}`);
  return paid + sentence(what, dice, outcome(roll, sides.length > 0));
}

/**
 * The log's voice: a visually hidden live region (`region`) and `say(entry)`,
 * which speaks an entry's sentence once, the first time its seq is given.
 */
export function logVoice() {
  const region = el("div", { class: "sr", id: "log-voice", role: "log", "aria-live": "polite", "aria-label": "new rolls, read aloud" });
  const said = new Set();

  function say(entry) {
    const seq = Number(entry?.seq);
    if (!Number.isInteger(seq) || said.has(seq)) return;
    said.add(seq);
    const words = rollSentence(entry);
    if (!words) return;
    region.append(el("p", { text: words }));
    while (region.childElementCount > KEPT) region.firstElementChild.remove();
  }

  return { region, say };
}
