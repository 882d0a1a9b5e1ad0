// The exact odds of what is typed in the roll box, before it is rolled: a
// small chart of the outcomes and the chance of success against the
// Difficulty (as Roll sends it: difficulty.js), from GET /api/odds (the same
// measure as `fudgedice odds`).

import { api, patiently } from "./api.js";
import { withDifficulty } from "./difficulty.js";
import { debounce, el, problem, svg } from "./dom.js";

const HEIGHT = 80;

/** "31/81 (38.27%)": the exact fraction (shortened when it is very long) and a percentage. */
export function chance(figure) {
  if (!figure) return "";
  const p = Number(figure.p);
  const percent = p === 0 ? "0%" : p < 0.0001 ? "<0.01%" : `${(p * 100).toFixed(2)}%`;
  const exact = String(figure.exact ?? "");
  if (!exact || exact.length > 24) return `\u2248 ${percent}`;
  return `${exact} (${percent})`;
}

function chart(measured) {
  const outcomes = Array.isArray(measured.outcomes) ? measured.outcomes : [];
  if (!outcomes.length) return null;
  const most = Math.max(...outcomes.map((row) => Number(row.p) || 0)) || 1;
  // x in percent of the width, y in pixels: the bars stretch to fit, the labels keep their shape
  const step = 100 / outcomes.length;
  const every = Math.ceil(outcomes.length / 16); // at most 16 labels fit under the bars
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
      const name = row.name ? ` ${row.name}` : "";
      return svg(
        "g",
        {},
        svg(
          "rect",
          { x: `${index * step + step * 0.08}%`, y: HEIGHT - height, width: `${step * 0.84}%`, height, dataset: { value: row.value } },
          svg("title", { text: `${row.value}${name}: ${chance(row)}` }),
        ),
        index % every === 0 &&
          svg("text", { x: `${(index + 0.5) * step}%`, y: HEIGHT + 12, "text-anchor": "middle", text: row.value }),
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
 * their odds. `system` is the room's, for texts that name none.
 */
export function oddsPanel(panel, textInput, difficultyInput, system) {
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
      panel.replaceChildren(problem(error, asked));
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
