// The GM's hand on a Fate scene: a situation aspect (or a boost), a fate
// point awarded, a compel offered, the GM's pool spent, a new scene, a new
// session (every character refreshed). Each is one action of play, logged.

import { counted, el } from "./dom.js";

function field(label, input) {
  return el("label", { class: "field" }, el("span", { text: label }), input);
}

function button(id, text, onclick, primary = false) {
  return el("button", { type: "button", id, class: primary ? "primary" : "quiet", text, onclick });
}

/** The GM's controls, acting through `table` (playstate.js); `guarded` shows a refusal. */
export function gmControls(table, guarded) {
  /** An action; true when it was done (a field is emptied only then). */
  async function act(body) {
    let done = false;
    await guarded(async () => {
      await table.act(body);
      done = true;
    });
    return done;
  }
  const aspectName = el("input", { id: "gm-aspect-name", type: "text", maxlength: 120, placeholder: "On fire" });
  const aspectFree = el(
    "select",
    { id: "gm-aspect-free" },
    [0, 1, 2].map((count) => el("option", { value: count, text: counted(count, "free invoke") })),
  );
  const boost = el("input", { id: "gm-aspect-boost", type: "checkbox" });
  const holder = el("select", { id: "gm-aspect-holder", "aria-label": "whose free invokes" });
  const addAspect = () => {
    const name = aspectName.value.trim();
    if (!name) return;
    const whose = holder.value ? { holder: holder.value } : {};
    act({ action: "aspect", name, free: Number(aspectFree.value), boost: boost.checked, ...whose }).then((done) => {
      if (done && aspectName.value.trim() === name) aspectName.value = ""; // not what was typed meanwhile
    });
  };

  const who = el("select", { id: "gm-member", "aria-label": "which character" });
  const count = el("input", { id: "gm-award-count", type: "number", min: 1, max: 5, value: 1 });
  const why = el("input", { id: "gm-why", type: "text", maxlength: 200, placeholder: "why (optional)", "aria-label": "why" });
  const compelAspect = el("input", { id: "gm-compel-aspect", type: "text", maxlength: 120, list: "gm-aspects", placeholder: "the aspect" });
  const known = el("datalist", { id: "gm-aspects" });
  const compelText = el("input", { id: "gm-compel-text", type: "text", maxlength: 500, placeholder: "what happens" });
  const sceneName = el("input", { id: "gm-scene-name", type: "text", maxlength: 120, placeholder: "the next scene" });
  const pool = el("span", { id: "gm-pool", class: "badge" });

  table.subscribe((state, characters) => {
    const chosen = who.value;
    const fate = characters.filter((one) => one.stress);
    who.replaceChildren(...fate.map((one) => el("option", { value: one.member, text: one.name })));
    if (fate.some((one) => one.member === chosen)) who.value = chosen;
    const held = holder.value;
    holder.replaceChildren(
      el("option", { value: "", text: "free invokes for anyone" }),
      ...fate.map((one) => el("option", { value: one.member, text: `free invokes for ${one.name}` })),
    );
    if (fate.some((one) => one.member === held)) holder.value = held;
    const names = [...fate.flatMap((one) => one.aspects || []), ...((state?.aspects || []).map((one) => one.name))];
    known.replaceChildren(...[...new Set(names)].map((name) => el("option", { value: name })));
    pool.textContent = `GM pool: ${state?.gm_pool ?? 0}`;
  });

  const reason = () => (why.value.trim() ? { why: why.value.trim() } : {});
  return el(
    "details",
    { class: "gm-play", id: "gm-play", open: true },
    el("summary", { text: "The GM's hand" }),
    el(
      "div",
      { class: "gm-row" },
      field("Situation aspect", aspectName),
      el("div", { class: "line" }, el("label", { class: "inline" }, el("span", { class: "sr", text: "free invokes" }), aspectFree),
        holder, el("label", { class: "check" }, boost, "a boost"), button("gm-add-aspect", "Add the aspect", addAspect, true)),
    ),
    el(
      "div",
      { class: "gm-row" },
      field("Character", who),
      el("div", { class: "line" }, el("label", { class: "inline" }, el("span", { text: "Points" }), count), why,
        button("gm-award", "Award fate points", () => act({ action: "award", member: who.value, count: Number(count.value) || 1, ...reason() }))),
      field("Compel on", compelAspect),
      known,
      el("div", { class: "line" }, el("label", { class: "sr", for: "gm-compel-text", text: "what the compel does" }), compelText,
        button("gm-compel", "Offer the compel", () =>
          act({ action: "compel", member: who.value, aspect: compelAspect.value.trim(), text: compelText.value.trim() })
            .then((done) => done && (compelText.value = "")))),
    ),
    el(
      "div",
      { class: "line gm-row" },
      pool,
      button("gm-spend", "Spend from the GM pool", () => act({ action: "gm_spend", count: 1, ...reason() })),
    ),
    el(
      "div",
      { class: "gm-row" },
      el("div", { class: "line" }, el("label", { class: "sr", for: "gm-scene-name", text: "the next scene's name" }), sceneName,
        button("gm-scene", "New scene", () => act({ action: "scene", name: sceneName.value.trim() }).then((done) => done && (sceneName.value = "")))),
      el("div", { class: "line" }, button("gm-session", "New session (refresh)", () => act({ action: "session" }))),
    ),
  );
}
