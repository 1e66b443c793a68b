// The Clue renderer: everything the shell (lobby, table view, replay viewer) asks of a game
// (docs/web.md, "Renderers"). The overlay is a detective notebook of exact probabilities.

import { replayAdviceHtml, verdictWords } from "./advice.js";
import { describe } from "./describe.js";
import { apply, newState } from "./fold.js";
import { liveTable } from "./live.js";
import { seatLabel } from "./names.js";
import { attachHover } from "./overlay.js";
import { renderReplayStep } from "./replay.js";

// every seat a Clue table may have (P1 ... P6: the table option `players` decides how many)
const SEATS = Array.from({ length: 6 }, (_, i) => `P${i + 1}`);

export default {
  game: "clue",
  title: "Clue",
  botLabels: { infomax: "infomax (asks what tells it most)" },
  defaultBot: "infomax",
  seats: SEATS,
  // the shell names seats out of any match too (the lobby, invites, clocks): "Player 2";
  // given a match's state, as its players are named there (the table's heading: "ann")
  seatName: (seat, state = null) => seatLabel(seat, (state && state.players) || {}),
  seatsNote: () => "each for themselves",
  newState,
  apply,
  describe,
  isPlay: (event) => event.type === "suggested" || event.type === "accused",
  isFolded: (event) => event.type === "dealt" || event.type === "match_started",
  seatsOfState: (state) => state.seats,
  attachOverlay: attachHover,
  liveTable,
  renderReplayStep,
  adviceLine: (move) => JSON.stringify(move),
  // the replay viewer's advisor panel and move-list verdict (suggestions, cards shown, accusations)
  replayAdvice: replayAdviceHtml,
  adviceVerdict: verdictWords,
};
