// The Texas 42 renderer: everything the shell (lobby, table view, replay viewer) asks of a
// game (docs/web.md, "Renderers").

import { replayAdviceHtml, verdictWords } from "./advice.js";
import { describe } from "./describe.js";
import { apply, newState } from "./fold.js";
import { liveTable } from "./live.js";
import { attachHover } from "./overlay.js";
import { renderReplayStep } from "./replay.js";
import { SEATS, SEAT_NAMES } from "./words.js";

export default {
  game: "texas42",
  title: "Texas 42",
  seats: SEATS,
  seatName: (seat) => SEAT_NAMES[seat] || seat,
  seatsNote: () => "two teams: North-South, East-West",
  newState,
  apply,
  describe,
  isPlay: (event) => event.type === "played" || event.type === "bid" || event.type === "trump_named",
  isFolded: (event) => event.type === "dealt" || event.type === "match_started",
  seatsOfState: (state) => state.seats,
  attachOverlay: attachHover,
  liveTable,
  renderReplayStep,
  adviceLine: (move) => JSON.stringify(move),
  // the replay viewer's advisor panel and move-list verdict (the oracle at bids and trump)
  // the replay advisor's words for the models of the hidden hands its advice offers
  adviceModels: {
    "bids:greedy": { button: "weighed by the bids",
      line: "each other player taken to bid as the greedy bot does with its hand" },
  },
  replayAdvice: replayAdviceHtml,
  adviceVerdict: verdictWords,
};
