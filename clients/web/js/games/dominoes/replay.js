// One step of the replay viewer (js/replay_view.js) for a dominoes match: the board from the
// chosen perspective and the overlay at that step's belief.

import { renderBoard } from "./board.js";
import { changedBy } from "./describe.js";
import { overlayHolders, renderOracle } from "./overlay.js";

// ctx: {boardEl, overlayEl, state, perspective (a seat, "spectator" or "all"), belief,
//       earlier (the beliefs before this step), timeline, overlayOn}
export function renderReplayStep(ctx) {
  const { state, perspective } = ctx;
  const seat = state.seats.includes(perspective) ? perspective : null;
  renderBoard(ctx.boardEl, state, { me: seat, bottom: seat || state.seats[0], reveal: perspective === "all", replay: true });
  if (!ctx.overlayOn) return;
  const all = perspective === "all";
  // a belief outside a live hand names no holders: keep those of the last one that did
  const previous = [...ctx.earlier].reverse().find((b) => b && b.marginals && Object.keys(b.marginals).length);
  renderOracle(ctx.overlayEl, state, ctx.belief, seat, {
    previous: previous ? overlayHolders(state.rules, previous, seat, null) : null,
    timeline: ctx.timeline, hideGrids: all,
    before: ctx.earlier.length > 1 ? ctx.earlier[ctx.earlier.length - 2] : null,
    changedBy: changedBy(ctx.event, state),
    note: all ? "All hands open: nothing is hidden, so there is nothing to infer." : "",
  });
}
