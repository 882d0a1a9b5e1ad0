// The room's play (docs/table.md, "Play"): its scene, aspects, compels, GM
// pool and initiative, and the characters at the table, read from GET
// .../play and kept current from the live feed (a play entry carries the
// state it left). The panels that show it subscribe; an action is posted here.

import { ApiError, api } from "./api.js";

/** The play of `room` as `seat` reads it. */
export function tableState(room, seat) {
  const path = `/api/rooms/${encodeURIComponent(room.room)}/play`;
  const listeners = [];
  let state = null; // null until read, or where the server has no play
  let characters = [];
  let reading = null;
  let again = false; // an entry came while a read was under way: read once more after it
  let taken = 0; // entries whose state was shown: a read begun before one is older than it

  function tell() {
    for (const listener of listeners) listener(state, characters);
  }

  async function readOnce() {
    const seen = taken;
    try {
      const answer = await api("GET", path, { token: seat.token });
      // a state the feed brought while this read was under way is the newer one
      if (taken === seen) state = answer?.play || null;
      characters = Array.isArray(answer?.characters) ? answer.characters : [];
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status !== 404) throw error;
      state = null; // a server without play: the panels stay hidden
    }
  }

  /** The state and the characters again, from the server. */
  async function load() {
    // one read at a time: a burst of entries on the feed reads once more, not once each,
    // and never leaves a read older than the last entry for the last word
    if (reading) {
      again = true;
      return reading;
    }
    reading = (async () => {
      try {
        do {
          again = false;
          await readOnce();
        } while (again);
      } finally {
        reading = null;
      }
      tell();
    })();
    return reading;
  }

  /** An entry of the live feed: its state at once, the characters read again
   * when it may have changed their points, stress or consequences. */
  function take(entry) {
    if (entry?.play && typeof entry.play === "object") {
      state = entry.play;
      taken += 1;
      tell();
    }
    if (entry?.kind === "play" || entry?.kind === "sheet" || entry?.kind === "spend") load();
  }

  /** An action of play; its answer's state is shown at once. */
  async function act(body) {
    const answer = await api("POST", path, { token: seat.token, body });
    if (answer?.play) {
      state = answer.play;
      taken += 1;
      tell();
    }
    load();
    return answer;
  }

  return {
    load,
    take,
    act,
    subscribe(listener) {
      listeners.push(listener);
    },
    get state() {
      return state;
    },
    get characters() {
      return characters;
    },
  };
}

/** A member's name in the play: their character's, or as the room lists them. */
export function whoIs(who, characters, members = []) {
  const character = characters.find((one) => one.member === who);
  if (character) return character.name;
  const member = members.find((one) => one.member === who);
  return member ? member.name : who;
}
