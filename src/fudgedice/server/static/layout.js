// The room's layout on a narrow screen: the log first, the roll line docked at
// the foot of the screen (the rest of the roll box opens above it), a header
// that stays on screen with the connection's state and a bar of the page's
// parts; your own roll's result just above the roll line; and, at any width,
// a "new rolls" pill when the log's newest entry is out of sight.

import { el } from "./dom.js";
import { entryCard } from "./entries.js";

/** Below this width the room is one column with the roll line docked (as in table.css). */
const NARROW = "(max-width: 51.99rem)";

export function narrow() {
  return window.matchMedia(NARROW).matches;
}

/** The result of this member's last roll, shown where they rolled (on a
 * narrow screen: a laptop has the log beside the roll box): a card drawn as
 * the log draws it, without its actions, until dismissed or the next roll. */
export function rollResult(me, system) {
  const card = el("div", { class: "result-card" });
  const close = el("button", { type: "button", class: "quiet dismiss", "aria-label": "dismiss the result", text: "\u00d7" });
  const line = el("div", { class: "roll-result", id: "roll-result", hidden: true }, card, close);
  close.addEventListener("click", () => {
    line.hidden = true;
  });
  function show(roll) {
    if (!roll || roll.seq === undefined) return;
    // drawn as the log draws it for this reader: a blind roll as its roller's placeholder
    const drawn = entryCard(roll, me, me.gm, null, { member: me.member, system });
    if (!drawn) return;
    delete drawn.dataset.seq; // the log's own card is the one that bears its seq
    drawn.dataset.resultOf = String(roll.seq);
    card.replaceChildren(drawn);
    line.hidden = false;
    line.dispatchEvent(new Event("shown"));
  }
  return { line, show };
}

/** The roll box's section, docked at the foot of a narrow screen: the roll
 * line always there (with what the next roll goes out with, and the
 * favourites to roll in one tap), the rest of the box behind "More". Open, the
 * box covers most of the page, so it folds again once a roll's result is there
 * to read (at its top), at a tap on the page above it, as the focus leaves it,
 * and at Escape. The dock's height is kept in --dock so that the page's end is
 * never under it. */
export function dock(section, result) {
  const more = el("button", {
    type: "button", class: "quiet dock-more", id: "roll-more", "aria-expanded": "false", text: "More",
  });
  const isOpen = () => section.classList.contains("open");
  function fold(open) {
    const focused = document.activeElement;
    section.classList.toggle("open", open);
    more.setAttribute("aria-expanded", String(open));
    more.textContent = open ? "Less" : "More";
    // a field folded away takes the focus with it: it goes to what opens it again
    if (!open && section.contains(focused) && !focused.getClientRects().length) more.focus({ preventScroll: true });
  }
  more.addEventListener("click", () => fold(!isOpen()));
  result.line.addEventListener("shown", () => isOpen() && fold(false));
  document.addEventListener("pointerdown", (event) => isOpen() && !section.contains(event.target) && fold(false), true);
  section.addEventListener("focusout", (event) => {
    // to nowhere (a tap on the page's background) is the tap's to judge
    if (isOpen() && event.relatedTarget && !section.contains(event.relatedTarget)) fold(false);
  });
  section.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !isOpen()) return;
    fold(false);
    more.focus();
  });
  section.classList.add("dock");
  section.append(result.line, more);
  keepHeight(section, "--dock");
  return section;
}

/** `element`'s height on a narrow screen (else 0) kept in the CSS variable `name`. */
export function keepHeight(element, name) {
  const measure = () => {
    const tall = narrow() ? element.getBoundingClientRect().height : 0;
    document.documentElement.style.setProperty(name, `${Math.ceil(tall)}px`);
  };
  new ResizeObserver(measure).observe(element);
  window.matchMedia(NARROW).addEventListener("change", measure);
}

function cssPixels(name) {
  return parseFloat(getComputedStyle(document.documentElement).getPropertyValue(name)) || 0;
}

/** A bar of the page's parts ([label, element] pairs; those absent are left
 * out): each button brings its part under the header. */
export function partsBar(parts) {
  const bar = el("nav", { class: "parts", id: "parts", "aria-label": "parts of the page" });
  for (const [label, part] of parts) {
    if (!part) continue;
    const button = el("button", { type: "button", class: "quiet", text: label, dataset: { part: part.id || "" } });
    button.addEventListener("click", () => part.scrollIntoView({ block: "start" }));
    // a part the page hides (no conflict under way, no play here) has no button
    const follow = () => (button.hidden = part.hidden);
    new MutationObserver(follow).observe(part, { attributes: true, attributeFilter: ["hidden"] });
    follow();
    bar.append(button);
  }
  return bar;
}

/** Where the page's header ends on screen (0 once it is scrolled away). */
function headBottom() {
  return Math.max(0, document.querySelector(".room-head")?.getBoundingClientRect().bottom ?? 0);
}

/** The pill that says entries came while the log's newest was out of sight;
 * clicked, it brings the newest there. `arrived(entry)` counts one. */
export function newRollsPill(list, me) {
  const pill = el("button", { type: "button", class: "new-rolls", id: "new-rolls", hidden: true });
  let unseen = 0;

  function newestInSight() {
    const newest = list.firstElementChild;
    if (!newest) return true;
    const box = newest.getBoundingClientRect();
    return box.bottom > headBottom() && box.top < window.innerHeight - cssPixels("--dock");
  }
  function settle() {
    if (unseen && newestInSight()) unseen = 0;
    pill.hidden = unseen === 0;
    pill.style.top = `${headBottom() + 8}px`;
    pill.textContent = `\u2191 ${unseen} new ${unseen === 1 ? "entry" : "entries"}`;
  }
  pill.addEventListener("click", () => {
    list.firstElementChild?.scrollIntoView({ block: "start" });
    unseen = 0;
    settle();
  });
  window.addEventListener("scroll", settle, { passive: true });
  window.addEventListener("resize", settle);

  return {
    pill,
    /** An entry of the live feed, placed in the log already. */
    arrived(entry) {
      // on a phone one's own roll shows above the roll line; on a laptop a
      // roll from the sheet far below the log is news like any other
      if ((entry?.member === me.member && narrow()) || newestInSight()) return;
      // an entry the log does not show (filtered out, someone's hidden talk) is no news here
      if (!list.querySelector(`[data-seq="${Number(entry?.seq)}"]`)) return;
      unseen += 1;
      settle();
    },
  };
}
