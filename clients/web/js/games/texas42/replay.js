// One replay step of a Texas 42 match: the board from the chosen perspective and the overlay.

import { renderBoard } from "./board.js";
import { describe } from "./describe.js";
import { renderOracle } from "./overlay.js";

export function renderReplayStep(ctx) {
  const { state, perspective } = ctx;
  const seat = state.seats.includes(perspective) ? perspective : null;
  renderBoard(ctx.boardEl, state, { me: seat, bottom: seat || "S", reveal: perspective === "all",
    revealHands: state.hands });
  if (!ctx.overlayOn) return;
  renderOracle(ctx.overlayEl, state, perspective === "all" ? null : ctx.belief, seat, {
    changedBy: ctx.event ? `${describe(ctx.event)} (seq ${ctx.event.seq})` : "",
    note: perspective === "all" ? "All hands open: nothing is hidden, so there is nothing to infer." : "",
  });
}
