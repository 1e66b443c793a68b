// The dominoes renderer: everything the shell (lobby, table view, replay viewer) asks of a
// game, for partnership dominoes (four seats) and the two-player block and draw games.
// docs/web.md, "Renderers", describes this interface.

import { adviceLine } from "./advice.js";
import { describe } from "./describe.js";
import { apply, newState } from "./fold.js";
import { liveTable } from "./live.js";
import { attachHover } from "./overlay.js";
import { renderReplayStep } from "./replay.js";
import { SEATS, SEAT_NAMES } from "./variants.js";

export default {
  game: "dominoes",
  title: "Dominoes",
  // every seat any variant uses (the router checks #table=ID&seat=S against it)
  seats: SEATS,
  seatName: (seat) => SEAT_NAMES[seat] || seat,
  // the lobby's words for a variant the server lists (who plays whom, its bots)
  seatsNote: (v) => (v.seats.length === 4 ? "S and N against W and E" : "South against North"),
  botLabels: { pimc: "pimc (strong, slower)" },
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
  // the replay advisor's words for the models of the hidden hands its advice offers
  adviceModels: {
    "behaviour:greedy": { button: "weighed by how they played",
      line: "each other player taken to play as the greedy bot scores its moves" },
  },
};
