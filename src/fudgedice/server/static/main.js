// The table's page: the landing page (create a room), a room's link (join
// with a name), and the room itself. A share link is /r/ROOM; the GM's own
// link adds #token=... (a fragment never reaches the server), which this page
// moves into localStorage at once: beside the seat in use, if it is another
// member's, for the person to choose (a GM opening a player's link stays GM).

import { ApiError, api, keepSeat, leaveSeat, offerSeat, roomSeats, seat, seats, sitAs } from "./api.js";
import { choicesLine } from "./choices.js";
import { $, el, problem } from "./dom.js";
import { fairnessPanel } from "./fairness.js";
import { focusOn, focusOnNextPage, placeSkipLink, takeNextFocus } from "./focus.js";
import { historyPanel } from "./history.js";
import { initiativePanel } from "./initiative.js";
import { invokeActions } from "./invoke.js";
import { playPanel } from "./play.js";
import { tableState } from "./playstate.js";
import { follow } from "./live.js";
import { dock, keepHeight, newRollsPill, partsBar, rollResult } from "./layout.js";
import { deleteRoomControl } from "./deleteroom.js";
import { notifier } from "./notify.js";
import { outageLine, whenBack } from "./outage.js";
import { rollBox } from "./rollbox.js";
import { partyPanel } from "./party.js";
import { sheetPanel } from "./sheets.js";
import { logVoice } from "./speech.js";
import { SYSTEMS } from "./language.js";
import { talkBox } from "./talk.js";
import { webhookControl } from "./webhook.js";

const main = $("#main");
/** The rooms whose page shows the scene's aspects and the fate-point economy. */
const FATE_ROOMS = ["fate", "fatecondensed", "fae"];

function field(label, input) {
  return el("label", { class: "field" }, el("span", { text: label }), input);
}

function landing() {
  document.title = "fudgedice table";
  const name = el("input", { id: "room-name", type: "text", required: true, maxlength: 60, placeholder: "Friday game" });
  const system = el(
    "select",
    { id: "room-system" },
    Object.entries(SYSTEMS).map(([value, shown]) => el("option", { value, text: shown })),
  );
  const gmName = el("input", { id: "gm-name", type: "text", required: true, maxlength: 60, value: "GM" });
  const status = el("div", { class: "status" });
  const form = el(
    "form",
    { id: "create-room", class: "card" },
    el("h1", { text: "Start a table" }),
    field("Room", name),
    field("System", system),
    field("Your name (you are its GM)", gmName),
    el("button", { type: "submit", class: "primary", text: "Create the room" }),
    status,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.replaceChildren();
    try {
      const made = await api("POST", "/api/rooms", {
        body: { name: name.value.trim(), system: system.value, gm_name: gmName.value.trim() },
      });
      keepSeat(made.room, { token: made.gm_token, member: made.member, name: gmName.value.trim(), gm: true, roomName: made.name });
      focusOnNextPage("#room-title"); // the room made: its page is read from its name on
      location.assign(`/r/${encodeURIComponent(made.room)}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.replaceChildren(problem(error));
    }
  });
  const mine = seats();
  main.replaceChildren(
    el("p", { class: "lead", text: "Roll together, live: every die drawn from a committed seed, every roll kept and checkable." }),
    form,
    mine.length
      ? el(
          "section",
          { class: "card" },
          el("h2", { text: "Your rooms" }),
          el(
            "ul",
            {},
            mine.map((one) =>
              el(
                "li",
                {},
                el("a", { href: `/r/${encodeURIComponent(one.room)}`, text: one.roomName || one.room }),
                ` as ${one.name || "?"}${one.gm ? " (GM)" : ""}`,
              ),
            ),
          ),
        )
      : "",
  );
}

function joinForm(roomId, why) {
  const name = el("input", { id: "join-name", type: "text", required: true, maxlength: 60, placeholder: "your name" });
  const status = el("div", { class: "status" });
  const form = el(
    "form",
    { id: "join", class: "card" },
    el("h1", { text: "Join this table" }),
    why ? el("p", { class: "muted", text: why }) : "",
    field("Your name", name),
    el("button", { type: "submit", class: "primary", text: "Join" }),
    status,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.replaceChildren();
    try {
      const joined = await api("POST", `/api/rooms/${encodeURIComponent(roomId)}/members`, { body: { name: name.value.trim() } });
      keepSeat(roomId, { token: joined.token, member: joined.member, name: joined.name, gm: !!joined.gm });
      openRoom(roomId, "#roll-text"); // joined to roll: the roll's text first
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.replaceChildren(problem(error.status === 404 ? new ApiError(404, { error: "There is no such room: check the link." }) : error));
    }
  });
  main.replaceChildren(form);
  name.focus();
}

/** A token given in the link's fragment (#token=...): kept, then taken out of
 * the address bar. It is sat in only if the browser had no seat here: another
 * member's seat is kept beside the one in use, and returned, to be offered. */
async function tokenFromFragment(roomId) {
  const given = new URLSearchParams(location.hash.slice(1)).get("token");
  if (!given) return null;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    const info = await api("GET", `/api/rooms/${encodeURIComponent(roomId)}`, { token: given });
    const offered = { token: given, member: info.me?.member, name: info.me?.name, gm: !!info.me?.gm };
    const mine = seat(roomId);
    if (mine && mine.token !== given && mine.member !== offered.member) {
      offerSeat(roomId, offered);
      return offered;
    }
    keepSeat(roomId, { ...offered, roomName: info.name });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  return null;
}

function seatName(one) {
  return `${one.name || "?"}${one.gm ? " (GM)" : ""}`;
}

/** Who this browser sits as: a choice when it holds several seats of the room. */
function seatChoice(roomId, me) {
  const all = roomSeats(roomId);
  if (all.length < 2) return el("span", { class: "you" }, "You: ", el("strong", { id: "me", text: me.name }), me.gm ? " (GM)" : "");
  const choice = el(
    "select",
    { id: "seat-choice", "aria-label": "sit as" },
    all.map((one) => el("option", { value: one.token, text: seatName(one), selected: one.token === me.token })),
  );
  choice.addEventListener("change", () => {
    sitAs(roomId, choice.value);
    location.reload();
  });
  return el("label", { class: "you inline" }, el("span", { text: "You:" }), choice);
}

/** A link gave another member's seat: it is kept, and sat in only if chosen. */
function seatOffer(roomId, offered, me) {
  const sit = el("button", { type: "button", class: "primary", id: "sit-offered", text: `Sit as ${seatName(offered)}` });
  const stay = el("button", { type: "button", class: "quiet", id: "stay-seated", text: `Stay as ${seatName(me)}` });
  const card = el(
    "section",
    { class: "card offer", id: "seat-offer", role: "alert" },
    el("p", {}, "This link holds the seat of ", el("strong", { text: seatName(offered) }), " at this table. ",
      "This browser sits here as ", el("strong", { text: seatName(me) }), "; both are kept (switch under \u201cYou\u201d)."),
    el("div", { class: "line" }, sit, stay),
  );
  sit.addEventListener("click", () => {
    sitAs(roomId, offered.token);
    location.reload();
  });
  stay.addEventListener("click", () => card.remove());
  return card;
}

function shareLinks(roomId, mine) {
  const link = `${location.origin}/r/${roomId}`;
  // the clipboard API exists only on https and localhost: elsewhere the link is selected for Ctrl+C
  function copier(input) {
    const button = el("button", { type: "button", class: "quiet", text: "Copy" });
    button.addEventListener("click", async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        button.textContent = "Copied";
        setTimeout(() => (button.textContent = "Copy"), 2000);
      } catch {
        button.textContent = "Press Ctrl+C";
      }
    });
    return el("div", { class: "line" }, input, button);
  }
  const share = el("input", { id: "share-link", type: "text", readonly: true, value: link, "aria-label": "share link" });
  share.addEventListener("focus", () => share.select());
  const parts = [copier(share)];
  if (mine.gm) {
    const own = el("input", { type: "text", readonly: true, value: `${link}#token=${mine.token}`, "aria-label": "GM link" });
    parts.push(
      el(
        "details",
        { class: "gm-link" },
        el("summary", { text: "Your GM link, for your other devices (keep it to yourself)" }),
        copier(own),
      ),
      webhookControl(roomId, mine),
    );
  }
  return el("section", { class: "share" }, el("span", { class: "muted", text: "Invite players with this link:" }), ...parts);
}

/** The room's page; focus on `start` (a selector) once it is drawn, if given. */
async function openRoom(roomId, start = takeNextFocus()) {
  const offered = await tokenFromFragment(roomId);
  const mine = seat(roomId);
  if (!mine) return joinForm(roomId);
  let room;
  try {
    room = await api("GET", `/api/rooms/${encodeURIComponent(roomId)}`, { token: mine.token });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401 || error.status === 404) {
      leaveSeat(roomId);
      if (seat(roomId)) return openRoom(roomId); // another seat kept here
      return joinForm(roomId, "This browser's seat at the table is gone: join again.");
    }
    main.replaceChildren(problem(error));
    // the table or its database out of reach: the room is drawn once it answers again
    if (error.status === 503 || error.status === 0) whenBack(() => openRoom(roomId, start));
    return;
  }
  keepSeat(roomId, { roomName: room.name, name: room.me?.name ?? mine.name, gm: !!room.me?.gm });
  const me = { ...mine, gm: !!room.me?.gm, name: room.me?.name ?? mine.name };
  document.title = `${room.name} · fudgedice table`;

  let sheet = null; // made after the roll box, whose visibility its trait buttons use
  let invokes = null; // a Fate roll's invokes and advantage, at a table with play
  const history = historyPanel(room, me, (roll) => (sheet ? (invokes?.(roll) ?? sheet.spendButtons(roll)) : null));
  const fairness = fairnessPanel(room, me);
  if (me.gm) fairness.panel.append(deleteRoomControl(room, me, () => roomGone(roomId, "You deleted it: its rolls, sheets, messages and members are gone.")));
  const talk = talkBox(room, me, { said: history.place });
  // who is here is both the log's filter and the talk's whispers
  const people = whoIsHere(roomId, me, {
    members(all) {
      history.members(all);
      talk.members(all);
    },
  }, fairness);
  const live = el("span", { class: "live", id: "live", text: "connecting" });
  const voice = logVoice(); // each new entry of the live feed, spoken

  const result = rollResult(me, room.system);
  // this member's own roll: in the log, and its result where they rolled
  const rolled = (roll) => {
    history.place(roll);
    result.show(roll);
  };
  const box = rollBox(room, me, { rolled, clientSeed: fairness.clientSeed });
  const [visibility, difficulty] = [box.querySelector("#roll-visibility"), box.querySelector("#roll-difficulty")];
  sheet = sheetPanel(room, me, {
    rolled,
    visibility: () => visibility.value,
    difficulty: () => difficulty.value,
    choices: choicesLine(visibility, difficulty, "sheet"),
    clientSeed: fairness.clientSeed,
    changed: history.redraw,
  });
  const party = me.gm ? partyPanel(room, me) : null; // only the GM reads every sheet
  const table = tableState(room, me);
  const members = () => people.members;
  const scene = FATE_ROOMS.includes(room.system) ? playPanel(room, me, table, members) : null;
  const initiative = initiativePanel(room, me, table, { members, rolled, clientSeed: fairness.clientSeed });
  invokes = invokeActions(room, me, {
    table, sheet: () => sheet.current, rolled, reload: () => sheet.load(), unnamed: (roll) => sheet.spendButtons(roll),
  });
  table.subscribe(() => history.redraw()); // the cards' invokes follow the aspects' free invokes
  const notify = notifier(document.title, me, () => sheet.current?.sheet?.name);
  table.subscribe((state) => notify.play(state));
  const pill = newRollsPill(history.panel.querySelector("#rolls"), me);
  const roller = dock(el("section", { class: "roller card", id: "roller" }, el("h2", { text: "Roll" }), box), result);
  layRoom({ room, roomId, me, offered }, { live, pill, people, notify, voice, history, talk, roller, scene, initiative, party, sheet, fairness });
  placeSkipLink();
  if (start && document.activeElement === document.body) focusOn($(start));
  people.show(room.members);
  await sheet.load();
  if (party) await party.load();
  await table.load();
  await history.reload();
  followRoom(roomId, room, me, { history, fairness, people, live, sheet, party, table, pill, notify, voice });
}

/** The room's parts on the page: a header (the connection's state, the
 * parts' bar on a narrow screen), then the two columns, the log on the right
 * (first, on a narrow screen; layout.js and table.css). */
function layRoom({ room, roomId, me, offered }, { live, pill, people, notify, voice, history, talk, roller, scene, initiative, party, sheet, fairness }) {
  const log = el("div", { class: "card log", id: "log" }, scene?.notice || "", talk.panel, history.panel);
  const parts = [["Log", log], ["Scene", scene?.panel], ["Order", initiative.panel], ["Party", party?.panel], ["Sheet", sheet.panel], ["Table", fairness.panel]];
  const header = el(
    "header",
    { class: "room-head" },
    el(
      "div",
      { class: "head-line" },
      el("h1", { id: "room-title", text: room.name }),
      el("span", { class: "badge system", text: SYSTEMS[room.system] || room.system }),
      live,
      seatChoice(roomId, me),
    ),
    outageLine(), // the table out of reach, said beside the connection's state
    partsBar(parts),
  );
  keepHeight(header, "--head"); // what scrolls under the header stops below it
  main.replaceChildren(
    header,
    pill.pill,
    offered ? seatOffer(roomId, offered, me) : "",
    el("div", { class: "table-line" }, people.line, notify.control),
    shareLinks(roomId, me),
    el("div", { class: "columns" }, el("div", { class: "left" }, scene?.panel, roller, initiative.panel, party?.panel, sheet.panel), log),
    fairness.panel,
    voice.region,
  );
}

/** Who is at the table, as a line; `show(members)` draws it, `again()` asks the room. */
function whoIsHere(roomId, me, history, fairness) {
  const line = el("p", { class: "people", id: "members" });
  let known = new Set();
  let everyone = [];

  function show(all) {
    const list = Array.isArray(all) ? all : [];
    known = new Set(list.map((one) => one.member));
    everyone = list;
    line.replaceChildren(
      el("span", { class: "muted", text: "At the table: " }),
      ...list.map((one) => el("span", { class: `person${one.gm ? " gm" : ""}${one.member === me.member ? " me" : ""}`, text: one.gm ? `${one.name} (GM)` : one.name })),
    );
    history.members(list);
  }

  async function again() {
    try {
      const info = await api("GET", `/api/rooms/${encodeURIComponent(roomId)}`, { token: me.token });
      show(info.members);
      fairness.show(info.seeds);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }

  return {
    line, show, again, knows: (member) => known.has(member),
    get members() {
      return everyone;
    },
  };
}

/** The room's live feed, into its panels. */
function followRoom(roomId, room, me, { history, fairness, people, live, sheet, party, table, pill, notify, voice }) {
  const again = people.again;
  let connected = false;
  follow(roomId, me.token, Number(room.last_seq) || 0, {
    roll(roll) {
      history.place(roll);
      pill.arrived(roll);
      notify.entry(roll);
      voice.say(roll);
      // a change to this member's sheet (by the GM too), a point spent, or an
      // action of play that moved their fate points: the sheet again
      const changes = roll.kind && roll.kind !== "talk"; // talk changes no sheet
      if (changes && (roll.member === me.member || me.member in (roll.points || {}))) sheet.load();
      table.take(roll);
      // any sheet's change or spend: the GM's view of the party again
      if (changes && party) party.load();
      if (roll.member && !people.knows(roll.member)) again();
    },
    async reveal(data) {
      fairness.show(data?.seeds);
      await history.refresh();
    },
    ready() {
      again();
      // after a reconnect: a reveal may have been missed, and with it the rolls' marks
      if (connected) history.refresh();
      connected = true;
    },
    status(state) {
      live.textContent = state === "live" ? "live" : "reconnecting";
      live.classList.toggle("off", state !== "live");
    },
    member() {
      again(); // one joined: the list of who is here, at once
    },
    refused() {
      live.textContent = "no longer at the table";
      live.classList.add("off");
    },
    replaced() {
      live.textContent = "paused: followed in your other tabs (reload to follow here)";
      live.classList.add("off");
    },
    deleted() {
      roomGone(roomId, "Its rolls, sheets, messages and members are gone.");
    },
  });
}

/** The room was deleted (by this GM, or told by the live feed): this
 * browser's seats in it go, and the page says so. */
function roomGone(roomId, why) {
  for (let left = 20; left > 0 && seat(roomId); left -= 1) leaveSeat(roomId);
  document.title = "fudgedice table";
  const title = el("h1", { id: "room-gone", text: "This room was deleted" });
  main.replaceChildren(
    el("section", { class: "card" }, title, el("p", { text: why }), el("p", {}, el("a", { href: "/", text: "Start a table" }))),
  );
  focusOn(title);
}

const match = location.pathname.match(/^\/r\/([A-Za-z0-9_-]+)\/?$/);
if (match) openRoom(match[1]);
else landing();
// a link with a token opened in this tab changes only the fragment: read it as a new load
window.addEventListener("hashchange", () => {
  if (new URLSearchParams(location.hash.slice(1)).has("token")) location.reload();
});
