// One replay step of a Texas 42 match: the board from the chosen perspective and the overlay.

import { renderBoard, tileSvg } from "./board.js";
import { describe } from "./describe.js";
import { renderOracle } from "./overlay.js";
import { SEAT_NAMES } from "./words.js";

export function renderReplayStep(ctx) {
  const { state, perspective } = ctx;
  const seat = state.seats.includes(perspective) ? perspective : null;
  // the seat's own hand at every step (its dominoes are in its own view of the deal)
  const own = seat && state.hands[seat];
  const handHtml = own ? `<div class="hand mine replay-hand" aria-label="${SEAT_NAMES[seat]}'s dominoes">` +
    `${own.map((t) => `<span class="tile" data-tile="${t}">${tileSvg(t)}</span>`).join("")}</div>` : "";
  renderBoard(ctx.boardEl, state, { me: seat, bottom: seat || "S", reveal: perspective === "all",
    revealHands: state.hands, handHtml });
  if (!ctx.overlayOn) return;
  renderOracle(ctx.overlayEl, state, perspective === "all" ? null : ctx.belief, seat, {
    changedBy: ctx.event ? `${describe(ctx.event)} (seq ${ctx.event.seq})` : "",
    before: ctx.earlier && ctx.earlier.length > 1 ? ctx.earlier[ctx.earlier.length - 2] : null,
    note: perspective === "all" ? "All hands open: nothing is hidden, so there is nothing to infer." : "",
  });
}
