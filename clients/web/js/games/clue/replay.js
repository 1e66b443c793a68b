// One replay step of a Clue match: the board from the chosen perspective and the notebook,
// with the show-aware layer's switch (layer.js: the replay odds route's answer).

import { renderBoard } from "./board.js";
import { describe } from "./describe.js";
import { replayClick, replayLayer } from "./layer.js";
import { renderNotebook } from "./overlay.js";

export function renderReplayStep(ctx) {
  const { state, perspective } = ctx;
  const seat = state.seats.includes(perspective) ? perspective : null;
  renderBoard(ctx.boardEl, state, { me: seat });
  if (!ctx.overlayOn) return;
  const all = perspective === "all";
  const el = ctx.overlayEl;
  if (!el._clueLayer) { // the switch of the show-aware layer, listened to once
    el._clueLayer = true;
    el.addEventListener("click", (e) => replayClick(e));
  }
  const draw = () => renderNotebook(el, state, all ? null : ctx.belief, seat, {
    changedBy: ctx.event ? `${describe(ctx.event)} (seq ${ctx.event.seq})` : "",
    before: ctx.earlier && ctx.earlier.length > 1 ? ctx.earlier[ctx.earlier.length - 2] : null,
    note: all ? "Every card open: nothing is hidden, so there is nothing to infer." : "",
    layer: all ? null : replayLayer(ctx, draw),
  });
  draw();
}
