// The dominoes renderer: everything the shell (lobby, table view, replay viewer) asks of a
// game, for partnership dominoes (four seats) and the two-player block and draw games.
// docs/web.md, "Renderers", describes this interface.

import { adviceLine } from "./advice.js";
import { describe } from "./describe.js";
import { apply, newState } from "./game.js";
import { liveTable } from "./live.js";
import { attachHover } from "./overlay.js";
import { renderReplayStep } from "./replay.js";
import { DEFAULT_VARIANT, SEATS, SEAT_NAMES, VARIANTS, getVariant, seatsNote } from "./variants.js";

export default {
  game: "dominoes",
  title: "Dominoes",
  // every seat any variant uses (the router checks #table=ID&seat=S against it)
  seats: SEATS,
  seatName: (seat) => SEAT_NAMES[seat] || seat,
  // the lobby's choices: {name, label, seats (in turn order), seatsNote}
  variants: Object.values(VARIANTS).map((v) => ({ name: v.name, label: v.label, seats: v.seats, seatsNote: seatsNote(v) })),
  defaultVariant: DEFAULT_VARIANT,
  seatsOf: (variant) => getVariant(variant).seats,
  // the fold: a state with `lastSeq` (the last event's seq) and `phase` ("finished" at the end)
  newState,
  apply,
  describe,
  // the events the advisor ranks, and where a replay opens (just after the first one)
  isPlay: (event) => event.type === "tile_played",
  // the events the replay's move list folds away (the deals)
  isFolded: (event) => event.type === "hand_dealt" || event.type === "match_started",
  // the seats of a folded match (the replay's perspectives)
  seatsOfState: (state) => state.seats,
  attachOverlay: attachHover,
  liveTable,
  renderReplayStep,
  adviceLine,
};
