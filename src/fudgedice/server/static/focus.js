// Where the keyboard's focus goes: after an action, to where the person's work
// goes on (never left on the page's body when what held it was redrawn or
// hidden), and from the page's first Tab, past the room's controls to its log.

import { el } from "./dom.js";

/** What a Tab can reach inside a card, in order: its place survives a redraw. */
const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

function lost() {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

/** Focus on `node` (a heading or a card too: made focusable by script alone). */
export function focusOn(node, options = {}) {
  if (!node) return false;
  if (!node.matches(FOCUSABLE) || node.disabled) node.setAttribute("tabindex", "-1");
  node.focus(options);
  return document.activeElement === node;
}

/** Focus on `node` only if nothing holds it now (what did was redrawn, or hidden). */
export function focusIfLost(node, options = {}) {
  if (lost() || document.activeElement.closest("[hidden]")) focusOn(node, options);
}

const NEXT = "fudgedice:focus";

/** Where the next page this tab opens puts the focus (a selector): a page
 * loaded anew otherwise starts at its top, where the skip link is. */
export function focusOnNextPage(selector) {
  try {
    sessionStorage.setItem(NEXT, selector);
  } catch {
    // no storage (a private window's policy): the next page starts at its top
  }
}

/** The selector `focusOnNextPage` left for this page, taken (once), or null. */
export function takeNextFocus() {
  try {
    const selector = sessionStorage.getItem(NEXT);
    sessionStorage.removeItem(NEXT);
    return selector;
  } catch {
    return null;
  }
}

/** The log's card of entry `seq`, focused; else `fallback` (a filter may leave it out). */
export function focusCard(seq, fallback) {
  const card = document.querySelector(`#rolls [data-seq="${Number(seq)}"]`);
  if (!focusOn(card)) focusIfLost(fallback);
}

/** `old` replaced by `replacement`; focus that was inside it stays there, on the
 * control at the same place (its caret kept), or on the replacement itself. */
export function replaceKeepingFocus(old, replacement) {
  const active = document.activeElement;
  if (!active || !old.contains(active)) return old.replaceWith(replacement);
  const place = active === old ? -1 : [...old.querySelectorAll(FOCUSABLE)].indexOf(active);
  const caret = typeof active.selectionStart === "number" ? [active.selectionStart, active.selectionEnd] : null;
  old.replaceWith(replacement);
  const same = place >= 0 ? replacement.querySelectorAll(FOCUSABLE)[place] : null;
  if (same && same.tagName === active.tagName && focusOn(same, { preventScroll: true })) {
    try {
      if (caret) same.setSelectionRange(...caret);
    } catch {
      // a control without a caret: the focus alone is kept
    }
    return;
  }
  focusOn(replacement, { preventScroll: true });
}

/** The page's first link, shown when focused: straight to the log of rolls. */
export function skipToLog() {
  const link = el("a", { class: "skip", id: "skip-to-log", href: "#history", text: "Skip to the log" });
  link.addEventListener("click", (event) => {
    const log = document.querySelector("#history");
    if (!log) return;
    event.preventDefault(); // the address keeps its own fragment (a GM link's token is read from it)
    log.scrollIntoView({ block: "start" });
    focusOn(log.querySelector("h2") || log, { preventScroll: true });
  });
  return link;
}

/** The skip link, first in the page's body (once). */
export function placeSkipLink() {
  document.querySelector("#skip-to-log")?.remove();
  document.body.prepend(skipToLog());
}
