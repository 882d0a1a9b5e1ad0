// The exact odds of what is typed in the roll box, before it is rolled: a
// small chart of the outcomes and the chance of success against the
// Difficulty (as Roll sends it: difficulty.js), from GET /api/odds (the same
// measure as `fudgedice odds`).

import { api, patiently } from "./api.js";
import { withDifficulty } from "./difficulty.js";
import { debounce, el, problem, says, svg } from "./dom.js";

const HEIGHT = 80;
const TAIL = 0.005;
/** A tail of values rarer than this together (an exploding Wild Die's, to 100 and
 * past) is one bar at the chart's end, "N or more" or "N or less": the bars keep
 * the width, where the chances are. */
const LABELS = 10;
/** Values labelled under the bars at most: ten fit a phone's width, none overlapping. */

/** "31/81 (38.27%)": the exact fraction (shortened when it is very long) and a percentage. */
export function chance(figure) {
  if (!figure) return "";
  const p = Number(figure.p);
  const percent = p === 0 ? "0%" : p < 0.0001 ? "<0.01%" : `${(p * 100).toFixed(2)}%`;
  const exact = String(figure.exact ?? "");
  if (!exact || exact.length > 24) return `\u2248 ${percent}`;
  return `${exact} (${percent})`;
}

/** The rows to chart: each value's, but a rare tail at either end as one
 * row of the value where it starts, marked `tail` ("less" or "more"). */
export function trimmed(outcomes) {
  let first = 0;
  let last = outcomes.length - 1;
  while (first < last && Number(outcomes[first].at_most) < TAIL) first += 1;
  while (last > first && Number(outcomes[last].at_least) < TAIL) last -= 1;
  const rows = outcomes.slice(first, last + 1);
  if (first > 0) rows[0] = { ...rows[0], p: outcomes[first].at_most, exact: null, tail: "less" };
  if (last < outcomes.length - 1) {
    rows[rows.length - 1] = { ...rows[rows.length - 1], p: outcomes[last].at_least, exact: null, tail: "more" };
  }
  return rows;
}

function barName(row) {
  if (row.tail) return `${row.value} or ${row.tail}`;
  return row.name ? `${row.value} ${row.name}` : String(row.value);
}

function tickText(row) {
  return row.tail === "less" ? `\u2264${row.value}` : row.tail === "more" ? `${row.value}+` : String(row.value);
}

/** Which bars are labelled: every `every`-th, and the last (a tail's, say) with
 * room kept before it. */
function labelled(count) {
  const every = Math.ceil(count / LABELS);
  return (index) => index === count - 1 || (index % every === 0 && index <= count - 1 - every);
}

/** Where a bar's label stands: under its middle, but the first and the last
 * kept within the chart, from its edge. */
function under(index, count, step) {
  if (index === 0 && count > 1) return { x: "0%", "text-anchor": "start" };
  if (index === count - 1 && count > 1) return { x: "100%", "text-anchor": "end" };
  return { x: `${(index + 0.5) * step}%`, "text-anchor": "middle" };
}

function tailsNote(rows) {
  const ends = rows.filter((row) => row.tail).map(barName);
  if (!ends.length) return null;
  return el("p", { class: "muted tails", text: `The bars at the ends hold the rare rest: ${ends.join(", ")}.` });
}

function chart(measured) {
  const outcomes = trimmed(Array.isArray(measured.outcomes) ? measured.outcomes : []);
  if (!outcomes.length) return null;
  const most = Math.max(...outcomes.map((row) => Number(row.p) || 0)) || 1;
  // x in percent of the width, y in pixels: the bars stretch to fit, the labels keep their shape
  const step = 100 / outcomes.length;
  const labelledAt = labelled(outcomes.length);
  return svg(
    "svg",
    {
      id: "odds-chart",
      height: HEIGHT + 16,
      role: "img",
      "aria-label": `chance of each ${measured.value_title || "value"}`,
    },
    outcomes.map((row, index) => {
      const height = Math.max(1, ((Number(row.p) || 0) / most) * HEIGHT);
      return svg(
        "g",
        {},
        svg(
          "rect",
          {
            x: `${index * step + step * 0.08}%`, y: HEIGHT - height, width: `${step * 0.84}%`, height,
            dataset: { value: row.value, tail: row.tail },
          },
          svg("title", { text: `${barName(row)}: ${chance(row)}` }),
        ),
        labelledAt(index) && svg("text", { ...under(index, outcomes.length, step), y: HEIGHT + 12, text: tickText(row) }),
      );
    }),
  );
}

function events(measured) {
  const found = measured.events && typeof measured.events === "object" ? measured.events : {};
  const names = Object.keys(found);
  if (!names.length) return null;
  return el(
    "dl",
    { class: "events" },
    names.map((name) => [el("dt", { text: name }), el("dd", { dataset: { event: name }, text: chance(found[name]) })]),
  );
}

function summary(measured) {
  const mean = Number(measured.mean);
  const stdev = Number(measured.stdev);
  const title = measured.value_title || "value";
  if (!Number.isFinite(mean)) return null;
  return el("p", { class: "summary", text: `${title}: mean ${mean.toFixed(2)}, spread \u00b1${stdev.toFixed(2)}` });
}

/**
 * Watches the roll box's text and difficulty inputs and keeps `panel` showing
 * their odds. `system` is the room's, for texts that name none. An error that
 * `besides` shows already (the roll's own, once it was sent) is not said again.
 */
export function oddsPanel(panel, textInput, difficultyInput, system, besides = null) {
  const cache = new Map();
  let controller = null;

  async function measure(text, signal) {
    const key = `${system}\u0000${text}`;
    if (!cache.has(key)) {
      // the table measures one text at a time: busy, it is asked again after its Retry-After
      const asked = () => api("GET", "/api/odds", { params: { text, system }, signal });
      const measured = await patiently(asked, signal);
      if (cache.size > 200) cache.clear();
      cache.set(key, measured);
    }
    return cache.get(key);
  }

  async function update() {
    const text = textInput.value.trim();
    const difficulty = difficultyInput.value.trim();
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    if (!text) {
      panel.replaceChildren(el("p", { class: "muted", text: "Type a roll to see its exact odds." }));
      return;
    }
    panel.setAttribute("aria-busy", "true");
    let asked = text;
    try {
      const measured = await measure(text, signal);
      // the roll as Roll sends it: against the Difficulty, unless it names its own
      const applied = withDifficulty(text, difficulty, system);
      let success = null;
      if (applied !== text) {
        asked = applied;
        const versus = await measure(asked, signal);
        success = versus.events?.success;
      }
      const kept = difficulty && asked === text;
      panel.replaceChildren(
        el("p", { class: "notation", text: String(measured.notation || text) }),
        chart(measured) || "",
        tailsNote(trimmed(Array.isArray(measured.outcomes) ? measured.outcomes : [])) || "",
        summary(measured) || "",
        success
          ? el(
              "p",
              { id: "success", class: "success" },
              `Chance of success vs ${difficulty}: `,
              el("strong", { text: chance(success) }),
            )
          : "",
        kept
          ? el("p", {
              id: "difficulty-note", class: "muted",
              text: `The Difficulty (${difficulty}) does not apply: this roll names its own, or its system has none.`,
            })
          : "",
        events(measured) || "",
      );
    } catch (error) {
      if (error.name === "AbortError") return;
      if (besides && says(besides, error.message)) panel.replaceChildren();
      else panel.replaceChildren(problem(error, asked));
    } finally {
      if (!signal.aborted) panel.removeAttribute("aria-busy");
    }
  }

  const later = debounce(update, 200);
  textInput.addEventListener("input", later);
  difficultyInput.addEventListener("input", later);
  update();
  return { update };
}
