// The Clue renderer: everything the shell (lobby, table view, replay viewer) asks of a game
// (docs/web.md, "Renderers"). The overlay is a detective notebook of exact probabilities.

import { describe } from "./describe.js";
import { apply, newState } from "./game.js";
import { liveTable } from "./live.js";
import { attachHover } from "./overlay.js";
import { renderReplayStep } from "./replay.js";

const seatsFor = (n) => Array.from({ length: n }, (_, i) => `P${i + 1}`);
const SEATS = seatsFor(6);
const note = "each for themselves";

// `clue` seats 3-6 by its table option `players` (the lobby renders it from the server's
// declaration); clue-3 ... clue-6 are old names kept for old logs, offered no more.
const VARIANTS = [
  { name: "clue", label: "Clue (3-6 players)", seats: seatsFor(4), seatsNote: note },
  { name: "clue-mini", label: "Clue, small deck (3 players)", seats: seatsFor(3), seatsNote: note },
];
const ALIASES = [3, 4, 5, 6].map((n) => ({ name: `clue-${n}`, seats: seatsFor(n) }));

export default {
  game: "clue",
  title: "Clue",
  bots: [["infomax", "infomax (asks what tells it most)"], ["random", "random"]],
  seats: SEATS,
  seatName: (seat) => seat,
  variants: VARIANTS,
  defaultVariant: "clue",
  seatsOf: (variant) => ([...VARIANTS, ...ALIASES].find((v) => v.name === variant) || VARIANTS[0]).seats,
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
};
