// What a tab left open all evening tells its person: the title counts the
// entries that came while the tab was hidden; and, if they asked for it (off
// by default, kept per browser), a beep and a browser notification for an
// entry that is about them: a roll or talk naming them or their character, a
// whisper to them, or a compel the GM offers their character.

import { el } from "./dom.js";

const KEPT = "fudgedice:notify";

function settings() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT) || "{}");
    return { sound: kept?.sound === true, notify: kept?.notify === true };
  } catch {
    return { sound: false, notify: false };
  }
}

function keep(chosen) {
  try {
    localStorage.setItem(KEPT, JSON.stringify(chosen));
  } catch {
    // storage refused (a private window): the choice lasts this page only
  }
}

function escaped(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether `words` names one of `names` (whole words, any case). */
export function names(words, all) {
  const text = typeof words === "string" ? words : "";
  return all.some((name) => name && new RegExp(`(^|[^\\p{L}\\p{N}])${escaped(name)}($|[^\\p{L}\\p{N}])`, "iu").test(text));
}

/** What an entry by someone else says to `me` (a sentence), or null. */
export function aboutMe(entry, me, character) {
  if (!entry || entry.hidden || entry.member === me.member) return null;
  const who = entry.name || entry.roller || "someone";
  if (entry.visibility === "whisper" && entry.to === me.member) return `${who} whispers to you: ${entry.text ?? ""}`;
  const said = entry.kind === "talk" ? entry.text : entry.label;
  if (!names(said, [me.name, character])) return null;
  if (entry.kind === "talk") return `${who}: ${said}`;
  const outcome = [entry.total, entry.result].filter((part) => part !== undefined && part !== null && part !== "");
  return `${who} rolls ${said}${outcome.length ? `: ${outcome.join(" ")}` : ""}`;
}

function granted() {
  return typeof Notification !== "undefined" && Notification.permission === "granted";
}

let audio = null;
function beep() {
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.15, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch {
    // no Web Audio here: the other signals remain
  }
}

/** The settings control: two choices, each off until the person turns it on. */
function control(chosen) {
  const sound = el("input", { type: "checkbox", id: "notify-sound", checked: chosen.sound });
  // a permission taken back in the browser's settings unticks the box
  const notify = el("input", { type: "checkbox", id: "notify-browser", checked: chosen.notify && granted() });
  const status = el("p", { class: "muted notify-status", id: "notify-status" });
  sound.addEventListener("change", () => {
    chosen.sound = sound.checked;
    keep(chosen);
    if (sound.checked) beep(); // heard once now; the click also lets the page play sound later
  });
  notify.addEventListener("change", async () => {
    status.textContent = "";
    if (notify.checked && typeof Notification === "undefined") {
      notify.checked = false;
      status.textContent = "This browser shows no notifications.";
    } else if (notify.checked && !granted()) {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") {
        notify.checked = false;
        status.textContent = "The browser refused: allow notifications for this site in its settings.";
      }
    }
    chosen.notify = notify.checked;
    keep(chosen);
  });
  return el(
    "details",
    { class: "notify-settings", id: "notify-settings" },
    el("summary", { text: "Notifications" }),
    el("p", { class: "muted", text: "The tab's title counts what comes while it is hidden. When a roll or talk names you, whispers to you, or a compel is offered to you:" }),
    el("label", { class: "check" }, sound, el("span", { text: "a beep" })),
    el("label", { class: "check" }, notify, el("span", { text: "a browser notification" })),
    status,
  );
}

/**
 * The notifications of a room's page. `title` is the page's own title;
 * `character()` the name of this member's character, if any. Returns the
 * settings `control`, `entry(entry)` for each entry of the live feed, and
 * `play(state)` for each state of the play (its compels).
 */
export function notifier(title, me, character) {
  const chosen = settings();
  let unseen = 0;
  const compels = new Set();
  let primed = false; // the compels on offer at the first reading are not news

  function retitle() {
    document.title = unseen ? `(${unseen}) ${title}` : title;
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      unseen = 0;
      retitle();
    }
  });

  function alert(what) {
    if (chosen.sound) beep();
    if (chosen.notify && granted()) {
      try {
        new Notification(title, { body: what, tag: `fudgedice-${title}` });
      } catch {
        // a browser that shows notifications only from a service worker: the title still counts
      }
    }
  }

  return {
    control: control(chosen),
    entry(entry) {
      // one's own entries are seen; someone else's hidden talk shows no line to count
      if (!entry || entry.member === me.member || (entry.kind === "talk" && entry.hidden)) return;
      if (document.visibilityState === "hidden") {
        unseen += 1;
        retitle();
      }
      const said = aboutMe(entry, me, character());
      if (said) alert(said);
    },
    play(state) {
      for (const compel of Array.isArray(state?.compels) ? state.compels : []) {
        if (compels.has(compel.id)) continue;
        compels.add(compel.id);
        if (primed && compel.member === me.member) alert(`A compel on ${compel.aspect}${compel.text ? `: ${compel.text}` : ""}`);
      }
      primed = true;
    },
  };
}
