// A hit on a sheet, as the GM's party list and a player's own sheet panel
// give it: the amount (Fudge damage, a D6 margin over resistance, Fate
// shifts) and, on a Fate sheet, the track it lands on and the name of the
// consequence the hit may take
// (the hit's `aspect`; left empty, the sheet says "(name this ... consequence)").

import { el } from "./dom.js";

/** The hit's fields and button for `sheet`; `send(body)` posts it. */
export function hitControls(sheet, send) {
  const amount = el("input", {
    type: "number", min: 0, max: 99, value: 1, class: "amount", "aria-label": `damage to ${sheet.name}`,
  });
  // every Fate sheet (Core, Condensed, Accelerated) keeps stress tracks
  const tracks = (sheet.state && sheet.state.stress) || [];
  const named = tracks.length
    ? el("input", {
        type: "text", maxlength: 60, class: "consequence-name", placeholder: "name the consequence, if one is taken",
        "aria-label": `the consequence ${sheet.name} takes, if any`,
      })
    : null;
  const track = tracks.length > 1
    ? el(
        "select",
        { class: "track", "aria-label": `the stress track ${sheet.name}'s hit lands on` },
        ...tracks.map((each) => el("option", { value: each.track, text: each.track })),
      )
    : null;
  const hit = el("button", { type: "button", class: "quiet hit", text: "Hit" });
  hit.addEventListener("click", () => {
    const body = { amount: Number(amount.value) || 0 };
    if (track) body.track = track.value;
    if (named && named.value.trim()) body.aspect = named.value.trim();
    send(body);
  });
  return el("div", { class: "line gm-hand hit-line" }, amount, track, named, hit);
}
