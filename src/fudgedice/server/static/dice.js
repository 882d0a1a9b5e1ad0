// A roll drawn as a card: its dice as faces, the result in words, the
// explanation. Built from the roll JSON (docs/results.md) read defensively:
// a field the server leaves out is shown as missing, never as an error.

import { dieWords } from "./diewords.js";
import { el } from "./dom.js";

/** Marks that take a toss out of the total: such a die is drawn struck. */
const STRUCK = new Set(["dropped", "rerolled", "ignored", "cancelled", "removed"]);

export const VISIBILITY = {
  public: "public",
  gm: "to the GM",
  self: "to themself",
  secret: "GM secret",
};

const HIDDEN = {
  secret: "a secret roll of the GM: hidden",
  gm: "a roll for the GM's eyes: hidden",
  self: "a roll kept to themself: hidden",
};

/** Which of a 3 x 3 grid's cells hold a pip, for a d6 face of 1 to 6. */
const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

function text(value) {
  return value === undefined || value === null ? "" : String(value);
}

/** A roll as written, less its "#label" (shown on its own beside it). */
function withoutLabel(notation) {
  return text(notation).replace(/\s*#.*$/s, "");
}

function dieTitle(face, marks, reason) {
  const parts = [face === " " ? "blank" : face];
  if (marks.length) parts.push(marks.join(", "));
  if (reason) parts.push(reason);
  return parts.join(" · ");
}

/** One die as a face: + blank - for Fudge dice, pips for a d6, else its number. */
export function die(rolled) {
  const marks = Array.isArray(rolled.marks) ? rolled.marks.map(String) : [];
  const face = text(rolled.face);
  const sides = text(rolled.sides);
  const classes = ["die"];
  let shown;
  if (sides.startsWith("F")) {
    classes.push("fudge");
    const kind = face.trim() === "+" ? "plus" : face.trim() === "-" ? "minus" : "blank";
    classes.push(kind);
    shown = el("span", { class: "face", text: { plus: "+", minus: "\u2212", blank: "" }[kind] });
  } else if (sides === "6" && PIPS[face]) {
    classes.push("d6", "pips");
    shown = el(
      "span",
      { class: "face grid" },
      [...Array(9).keys()].map((cell) => el("i", { class: PIPS[face].includes(cell) ? "pip" : "" })),
    );
  } else {
    classes.push("number");
    shown = el("span", { class: "face", text: face });
  }
  const struck = marks.some((mark) => STRUCK.has(mark)) || rolled.kept === false;
  if (struck) classes.push("struck");
  if (marks.includes("wild")) classes.push("wild");
  if (marks.includes("character_point")) classes.push("cp");
  if (marks.includes("exploded") || marks.includes("from_explosion")) classes.push("exploded");
  const title = dieTitle(face, marks, rolled.reason);
  const tag = marks.includes("wild") ? "W" : marks.includes("character_point") ? "CP" : null;
  // an image to assistive technology, named in words: a blank face or a d6's pips are no text
  return el(
    "span",
    { class: classes.join(" "), title, role: "img", "aria-label": dieWords(rolled), dataset: { face, sides } },
    shown,
    tag && el("b", { class: "tag", text: tag }),
  );
}

function diceRow(roll) {
  const dice = Array.isArray(roll.dice) ? roll.dice : [];
  return el("div", { class: "dice" }, dice.map(die));
}

function verdictClass(verdict) {
  if (["success", "win"].includes(verdict)) return "good";
  if (["failure", "loss"].includes(verdict)) return "bad";
  return "even";
}

/** A roll's result in words, less the name of its ladder when that is the
 * room's own (the room says it once: "+3 Good (Fate Core)" reads "+3 Good"). */
function resultWords(roll, reader) {
  const said = text(roll.result);
  const ladder = text(roll.details?.ladder);
  if (!ladder || !reader.system || roll.system !== reader.system) return said;
  return said.replace(` (${ladder})`, "");
}

function resultLine(roll, reader) {
  const total = roll.total === undefined || roll.total === null ? "?" : roll.total;
  return el(
    "div",
    { class: "result" },
    el("strong", { class: "total", text: total }),
    roll.verdict && el("span", { class: `verdict ${verdictClass(roll.verdict)}`, text: roll.verdict }),
    roll.result && el("span", { class: "word", text: resultWords(roll, reader) }),
  );
}

/** When a roll was made, as a person reads it: its day and its time, in the
 * reader's language ("Nov 27, 02:05 PM", "27 Nov, 14:05"), the year too when it
 * is not this one: an evening's rolls past midnight, or last week's, are told apart. */
export function when(at) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return "";
  const year = date.getFullYear() === new Date().getFullYear() ? undefined : "numeric";
  return date.toLocaleString(undefined, { day: "numeric", month: "short", year, hour: "2-digit", minute: "2-digit" });
}

/** A visibility's badge as its reader sees it: a roll kept to oneself is
 * "to yourself" for its roller (nobody else sees it but as a placeholder). */
function visibilityWords(visibility, mine) {
  if (visibility === "self" && mine) return "to yourself";
  return VISIBILITY[visibility] || visibility;
}

/** The first 16 hex digits of a roll's hash, which `fudgedice verify --hash
 * SEQ:HASH` takes (docs/fairness.md); the whole hash in its title and copied. */
function hashLine(roll) {
  const hash = text(roll.hash);
  if (!/^[0-9a-f]{16,}$/.test(hash)) return null;
  const noted = `${text(roll.seq)}:${hash}`;
  const copy = el("button", { type: "button", class: "quiet copy-hash", text: "copy", "aria-label": `copy ${noted}` });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(noted);
      copy.textContent = "copied";
    } catch {
      copy.textContent = "select it to copy"; // no clipboard here (a page not served over https)
    }
  });
  return el(
    "p",
    { class: "hash-line muted" },
    "hash ",
    el("code", { class: "hash", title: `${noted} (for fudgedice verify --hash)`, text: hash.slice(0, 16) }),
    " ",
    copy,
  );
}

/** What a reveal checked of a roll: its dice against the seed; of dice read
 * by hand, only that their reading gives the result (how they fell, nobody knows). */
function checked(roll) {
  if (roll.verified !== true && roll.verified !== false) return null;
  const good = roll.verified === true;
  const [text, title] = roll.by_hand
    ? [good ? "\u2713 reading checked" : "\u2717 reading fails to check", "dice read by hand: their faces give this result; how they fell is not checked"]
    : [good ? "\u2713 verified" : "\u2717 fails to verify", "its dice checked against the revealed seed"];
  return el("span", { class: `badge ${good ? "verified" : "unverified"}${roll.by_hand ? " reading" : ""}`, text, title });
}

function head(roll, byGm, reader) {
  const visibility = text(roll.visibility) || "public";
  const mine = Boolean(reader.member) && roll.member === reader.member;
  return el(
    "header",
    {},
    el("span", { class: "seq", text: `#${text(roll.seq)}` }),
    el("span", { class: "who", text: text(roll.name) }),
    byGm && el("span", { class: "badge gm", text: "GM" }),
    visibility !== "public" &&
      el("span", { class: `badge vis-${visibility}`, text: visibilityWords(visibility, mine) }),
    roll.by_hand && el("span", { class: "badge hand", text: "by hand" }),
    checked(roll),
    el("time", { datetime: text(roll.at), title: text(roll.at), text: when(roll.at) }),
  );
}

/** What a hidden entry shows in place of itself. */
export function hiddenText(roll) {
  if (roll.kind === "sheet") return "a change to a character sheet: hidden";
  return HIDDEN[text(roll.visibility) || "public"] || "a hidden roll";
}

/** A roll as one reader may see it: the whole roll, or the placeholder of a hidden one;
 * marked as the GM's when ``byGm`` (known from its member id: anyone may take a name).
 * ``actions(roll)`` may give what the card offers its reader (points to spend).
 * ``reader``: who reads it (``member``) in which room's system (``system``). */
export function rollCard(roll, byGm = false, actions = null, reader = {}) {
  const card = cardOf(roll, byGm, actions, reader);
  const hash = hashLine(roll);
  if (hash) card.append(hash);
  return card;
}

function cardOf(roll, byGm, actions, reader) {
  const visibility = text(roll.visibility) || "public";
  const card = el("article", {
    class: `roll vis-${visibility}${roll.hidden ? " hidden-roll" : ""}`,
    dataset: { seq: text(roll.seq), member: text(roll.member) },
  });
  card.append(head(roll, byGm, reader));
  if (roll.hidden) {
    card.append(el("p", { class: "placeholder", text: hiddenText(roll) }));
    return card;
  }
  if (roll.kind === "sheet" || roll.kind === "play") {
    // a sheet's change or an action of play: what happened, in words (docs/sheets.md)
    card.classList.add(roll.kind === "play" ? "play-entry" : "sheet-change");
    const lines = Array.isArray(roll.lines) ? roll.lines : [];
    card.append(el("div", { class: "change" }, lines.map((line) => el("p", { text: text(line) }))));
    return card;
  }
  if (roll.kind === "spend") {
    card.classList.add("spend");
    card.append(el("p", { class: "spent", text: text(roll.spent) }));
  }
  card.append(
    el(
      "div",
      { class: "what" },
      roll.label && el("span", { class: "label", text: roll.label }),
      el("code", { class: "notation", text: roll.label ? withoutLabel(roll.notation) : text(roll.notation) }),
    ),
  );
  const sides = Array.isArray(roll.sides) ? roll.sides : [];
  if (sides.length) {
    for (const side of sides) {
      card.append(
        el(
          "div",
          { class: "side" },
          el("code", { class: "side-notation", text: text(side.notation) }),
          diceRow(side),
          el("span", { class: "side-result", text: side.result ? resultWords(side, reader) : text(side.total) }),
        ),
      );
    }
  } else {
    card.append(diceRow(roll));
  }
  if (roll.failed) {
    // drawn dice are kept: a roll that failed on them is shown with what it drew
    card.classList.add("failed-roll");
    const drawn = Array.isArray(roll.tosses) ? roll.tosses.join(" ") : "";
    card.append(el("p", { class: "failed", text: `failed: ${text(roll.error)}${drawn ? ` (drew ${drawn})` : ""}` }));
  } else {
    card.append(resultLine(roll, reader));
  }
  if (roll.foreseeable) {
    card.append(
      el("p", { class: "foreseeable", text: "rolled with no client seed: the host could have foreseen these dice" }),
    );
  }
  if (roll.text) {
    card.append(
      el("details", { class: "explain" }, el("summary", { text: "how" }), el("pre", { text: roll.text })),
    );
  }
  const offered = actions ? actions(roll) : null;
  if (offered) card.append(offered);
  return card;
}
