// The Uno renderer: everything the shell (lobby, table view, replay viewer) asks of a game
// (docs/web.md, "Renderers"). The overlay shows each hidden hand and the deck as card kinds
// with expected copies and P(at least one), exact from the belief.

import { apply, describe, newState } from "./game.js";
import { attachHover, liveTable, renderReplayStep } from "./view.js";

const SEATS = ["S", "N"];
const VARIANTS = [
  { name: "uno-2", label: "Uno for two (108 cards)", seats: SEATS, seatsNote: "each for themselves" },
  { name: "uno-2-mini", label: "Uno for two, small deck (20 cards)", seats: SEATS, seatsNote: "each for themselves" },
];

export default {
  game: "uno",
  title: "Uno",
  seats: SEATS,
  seatName: (seat) => ({ S: "South", N: "North" })[seat] || seat,
  variants: VARIANTS,
  defaultVariant: "uno-2",
  seatsOf: () => SEATS,
  newState,
  apply,
  describe,
  isPlay: (event) => event.type === "card_played",
  isFolded: (event) => event.type === "hand_dealt" || event.type === "match_started",
  seatsOfState: (state) => state.seats,
  attachOverlay: attachHover,
  liveTable,
  renderReplayStep,
  adviceLine: (move) => JSON.stringify(move),
};
