// One replay step of a Clue match: the board from the chosen perspective and the notebook.

import { renderBoard } from "./board.js";
import { describe } from "./describe.js";
import { renderNotebook } from "./overlay.js";

export function renderReplayStep(ctx) {
  const { state, perspective } = ctx;
  const seat = state.seats.includes(perspective) ? perspective : null;
  renderBoard(ctx.boardEl, state, { me: seat });
  if (!ctx.overlayOn) return;
  renderNotebook(ctx.overlayEl, state, perspective === "all" ? null : ctx.belief, seat, {
    changedBy: ctx.event ? `${describe(ctx.event)} (seq ${ctx.event.seq})` : "",
    before: ctx.earlier && ctx.earlier.length > 1 ? ctx.earlier[ctx.earlier.length - 2] : null,
    note: perspective === "all" ? "Every card open: nothing is hidden, so there is nothing to infer." : "",
  });
}
