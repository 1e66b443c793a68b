// The Uno renderer: everything the shell (lobby, table view, replay viewer) asks of a game
// (docs/web.md, "Renderers"). The overlay shows each hidden hand and the deck as card kinds
// with expected copies and P(at least one), exact from the belief.

import { replayAdviceHtml, verdictWords } from "./advice.js";
import { describe } from "./describe.js";
import { apply, newState } from "./fold.js";
import { attachHover, liveTable, renderReplayStep } from "./view.js";

const SEATS = ["S", "N"];

export default {
  game: "uno",
  title: "Uno",
  seats: SEATS,
  seatName: (seat) => ({ S: "South", N: "North" })[seat] || seat,
  seatsNote: () => "each for themselves",
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
  // the replay viewer's advisor panel and move-list verdict (each move's chance to win)
  replayAdvice: (r) => replayAdviceHtml(r, (s) => ({ S: "South", N: "North" })[s] || s),
  adviceVerdict: verdictWords,
};
