// One die in the words a screen reader says of it: the card's die carries
// them (dice.js), and so does the sentence the log speaks of a roll (speech.js).

/** Marks that take a toss out of the total, said after the die. */
const SET_ASIDE = ["dropped", "rerolled", "ignored", "cancelled", "removed"];

/** One die in words: plus, blank or minus for a Fudge die; else its face, the
 * Wild Die and a Character Point die named; a toss set aside or exploded said so. */
export function dieWords(rolled) {
  const marks = Array.isArray(rolled?.marks) ? rolled.marks.map(String) : [];
  const face = text(rolled?.face);
  let words;
  if (text(rolled?.sides).startsWith("F")) {
    words = face === "+" ? "plus" : face === "-" ? "minus" : "blank";
  } else {
    // a die of 4dF@4d6 shows p4 or n1: positive 4, negative 1
    const signed = face.match(/^([pn])(\d+)$/);
    words = signed ? `${signed[1] === "p" ? "positive" : "negative"} ${signed[2]}` : face || "unknown";
    if (marks.includes("wild")) words = `Wild Die ${words}`;
    else if (marks.includes("character_point")) words = `Character Point die ${words}`;
  }
  const notes = marks.filter((mark) => SET_ASIDE.includes(mark) || mark === "exploded");
  if (!notes.length && rolled?.kept === false) notes.push("not kept");
  return notes.length ? `${words} (${notes.join(", ")})` : words;
}

function text(value) {
  return value === undefined || value === null ? "" : String(value).trim();
}
