// Every element of the page is built here as nodes. Text that a user typed (a
// name, a label, a roll) only ever becomes a text node, never markup, and no
// attribute named on... is ever set: event handlers are listeners.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, props, children) {
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: el("p", {class: "note"}, "text", el("b", {}, "bold")). */
export function el(tag, props = {}, ...children) {
  return build(document.createElement(tag), props, children);
}

/** An SVG element, for the odds chart. */
export function svg(tag, props = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), props, children);
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

/** Calls `work` once typing has paused for `wait` ms. */
export function debounce(work, wait) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => work(...args), wait);
  };
}

/** The text and, under the column an error names, a caret. */
export function pointAt(text, position) {
  if (position === undefined || position === null || !text) return null;
  const column = Math.max(0, Math.min(position, text.length));
  return el("pre", { class: "caret" }, text, "\n", " ".repeat(column) + "^");
}

/** An error answer of the API, shown as text (with where it is, when known). */
export function problem(error, text) {
  const shown = el("div", { class: "error", role: "alert" });
  shown.append(el("p", { text: error.message }));
  if (text !== undefined) {
    const caret = pointAt(text, error.position);
    if (caret) shown.append(caret);
  }
  if (error.hint) shown.append(el("p", { class: "hint", text: error.hint }));
  return shown;
}

/** "1 roll", "2 rolls": a count and its noun, singular for one alone. */
export function counted(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** Whether `container` shows an error that says `message` (one error is said once). */
export function says(container, message) {
  return [...container.querySelectorAll(".error > p:first-child")].some((said) => said.textContent === message);
}
