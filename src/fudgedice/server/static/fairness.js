// The room's fairness: the commitment in force, every seed so far (revealed
// ones with the seed itself), this player's client seed, the GM's reveal, and
// the hash-chained log for `fudgedice verify`.

import { ApiError, api, download, keepSeat, ownRolls } from "./api.js";
import { BLIND } from "./blind.js";
import { counted, el, problem } from "./dom.js";
import { focusIfLost } from "./focus.js";

export function fairnessPanel(room, seat) {
  const base = `/api/rooms/${encodeURIComponent(room.room)}`;
  const commitment = el("code", { id: "commitment", class: "hash" });
  const seeds = el("ol", { class: "seeds", id: "seeds" });
  const status = el("div", { class: "status" });
  const clientSeed = el("input", {
    id: "client-seed", type: "text", maxlength: 64, autocomplete: "off", spellcheck: "false",
    value: seat.clientSeed || "", placeholder: "empty: a fresh random one for each roll",
  });
  clientSeed.addEventListener("change", () => keepSeat(room.room, { clientSeed: clientSeed.value }));

  function show(list) {
    const all = Array.isArray(list) ? list : [];
    const current = all.find((one) => !one.server_seed) || all[all.length - 1];
    commitment.textContent = current?.commitment || room.commitment || "";
    seeds.replaceChildren(
      ...all.map((one) =>
        el(
          "li",
          { dataset: { epoch: one.epoch } },
          el("span", { text: one.server_seed ? "revealed seed " : "committed, not yet revealed " }),
          el("code", { class: "hash", text: one.server_seed || one.commitment }),
        ),
      ),
    );
  }

  let armed = false;
  const reveal = el("button", { type: "button", id: "reveal", class: "danger", text: "Reveal the seed" });
  reveal.addEventListener("click", async () => {
    // two clicks, not a dialog: a reveal shows every hidden roll of this seed
    if (!armed) {
      armed = true;
      reveal.textContent = "Click again: every hidden roll of this seed becomes checkable";
      setTimeout(() => {
        armed = false;
        reveal.textContent = "Reveal the seed";
      }, 6000);
      return;
    }
    armed = false;
    reveal.disabled = true;
    status.replaceChildren();
    try {
      await api("POST", `${base}/reveal`, { token: seat.token });
      reveal.textContent = "Reveal the seed";
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.replaceChildren(problem(error));
    } finally {
      reveal.disabled = false;
      focusIfLost(reveal, { preventScroll: true }); // disabled while it held the focus, it let go of it
    }
  });

  const log = el("button", { type: "button", class: "quiet", id: "download-log", text: "Download the log" });
  log.addEventListener("click", async () => {
    status.replaceChildren();
    try {
      await download(`${base}/log`, seat.token, {}, `fudgedice-${room.room}-log.json`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.replaceChildren(problem(error));
    }
  });

  const mine = el("button", { type: "button", class: "quiet", id: "check-mine", text: "Check the rolls under my name" });
  const checked = el("p", { class: "status", id: "mine-checked", "aria-live": "polite" });
  mine.addEventListener("click", async () => {
    status.replaceChildren();
    try {
      checked.textContent = strangers(await rollsOf(base, seat), ownRolls(room.room));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.replaceChildren(problem(error));
    }
  });

  show(room.seeds);
  const panel = el(
    "details",
    { class: "fairness", id: "fairness" },
    el("summary", {}, "Fair dice: commitment ", commitment),
    el(
      "p",
      { class: "muted" },
      "Every roll is drawn from the room's secret seed, whose SHA-256 is the commitment above. ",
      "Once the GM reveals it, each roll is checked and marked verified (of dice read by hand, only their reading is checked), and ",
      el("code", { text: "fudgedice verify" }),
      " checks the downloaded log with no server.",
    ),
    seeds,
    el("label", { class: "field" }, el("span", { text: "A client seed of your own (mixed into your rolls; leave it empty, and nobody, host included, can foresee them)" }), clientSeed),
    el("div", { class: "line" }, log, mine, seat.gm && reveal),
    checked,
    status,
  );
  return { panel, show, clientSeed: () => clientSeed.value.trim() };
}

const MOST_PAGES = 20;

/** The rolls under this member's name, oldest first (at most 10,000). */
async function rollsOf(base, seat) {
  const rolls = [];
  for (let pages = 0; pages < MOST_PAGES; pages += 1) {
    const after = rolls.length ? rolls[rolls.length - 1].seq : 0;
    const params = { member: seat.member, after, limit: 500 };
    const page = (await api("GET", `${base}/rolls`, { token: seat.token, params })).rolls || [];
    rolls.push(...page);
    if (page.length < 500) break;
  }
  return rolls;
}

/** What a player checks of the rolls under their name (docs/fairness.md): each
 * drawn one was sent from this browser with that client seed, and the nonces
 * under each seed run on with no gap. */
function strangers(rolls, own) {
  const sent = new Map(own.map((one) => [one.seq, one.client_seed]));
  const drawn = rolls.filter((roll) => !roll.hidden && !roll.by_hand && !roll.kind);
  const foreign = drawn.filter((roll) => sent.get(roll.seq) !== roll.client_seed).map((roll) => `#${roll.seq}`);
  const nonces = new Map();
  const gaps = [];
  // a blind roll of one's own is hidden from its roller until the reveal: each
  // one takes a nonce unseen, so the nonces may skip as many as it made
  let blind = 0;
  const checkable = new Set(drawn);
  for (const roll of rolls) {
    if (roll.hidden && roll.visibility === BLIND) blind += 1;
    if (!checkable.has(roll)) continue;
    const next = nonces.get(roll.commitment) || 0;
    const skipped = roll.nonce - next;
    if (skipped > 0 && skipped <= blind) blind -= skipped;
    else if (skipped !== 0) gaps.push(`#${roll.seq}`);
    nonces.set(roll.commitment, roll.nonce + 1);
  }
  const said = [];
  if (foreign.length) said.push(`not sent from this browser: ${foreign.join(", ")}`);
  if (gaps.length) said.push(`a nonce skipped before ${gaps.join(", ")}`);
  const blinds = rolls.filter((roll) => roll.hidden && roll.visibility === BLIND).length;
  const later = blinds === 1 ? " Your blind roll is checked once the seed is revealed." : blinds ? ` Your ${blinds} blind rolls are checked once the seed is revealed.` : "";
  if (said.length) return `Rolls under your name ${said.join("; ")}.${later}`;
  if (drawn.length === 0) return `No rolls under your name yet.${later}`;
  // a blind roll before it took the nonces before its own
  const first = blinds ? "its nonce with no gap" : "its nonce the first";
  if (drawn.length === 1) return `The 1 roll under your name was sent from this browser, ${first}.${later}`;
  return `All ${counted(drawn.length, "roll")} under your name were sent from this browser, their nonces with no gap.${later}`;
}
