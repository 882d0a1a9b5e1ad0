// A compel the GM offers this member, told where they look: above the log
// (first on a phone, where the Scene panel with its Accept and Refuse sits far
// below), with a button that brings them to those buttons.

import { el } from "./dom.js";

/** The notice of the compels `table` (playstate.js) offers `seat`: hidden while there are none. */
export function compelNotice(table, seat) {
  const notice = el("div", { class: "compel-notice", id: "compel-notice", hidden: true });

  function answer(compel) {
    const item = document.querySelector(`#compels .compel[data-compel="${CSS.escape(String(compel.id))}"]`);
    if (!item) return;
    item.scrollIntoView({ block: "center" });
    item.querySelector("button.accept")?.focus({ preventScroll: true });
  }

  function show(state) {
    const mine = (Array.isArray(state?.compels) ? state.compels : []).filter((compel) => compel.member === seat.member);
    notice.hidden = !mine.length;
    notice.replaceChildren(
      ...mine.map((compel) =>
        el(
          "p",
          { class: "line" },
          el("span", {}, "The GM compels ", el("strong", { text: compel.aspect }), compel.text ? `: ${compel.text}` : ""),
          el("button", {
            type: "button", class: "quiet to-compel", dataset: { compel: compel.id },
            text: "Accept or refuse", onclick: () => answer(compel),
          }),
        ),
      ),
    );
  }

  table.subscribe(show);
  show(table.state);
  return notice;
}
