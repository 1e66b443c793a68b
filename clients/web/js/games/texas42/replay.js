// One replay step of a Texas 42 match: the board from the chosen perspective and the overlay,
// with the bid-aware layer's switch (its figures: the replay odds route's answer).

import { renderBoard, tileSvg } from "./board.js";
import { describe } from "./describe.js";
import { BIDS_LAYER, renderOracle } from "./overlay.js";
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
  const all = perspective === "all";
  const el = ctx.overlayEl;
  if (!el._t42Layer) { // the switch of the bid-aware layer, listened to once
    el._t42Layer = true;
    el.addEventListener("click", (e) => BIDS_LAYER.replayClick(e));
  }
  const draw = () => {
    const layer = all ? null : BIDS_LAYER.replayLayer(ctx, draw);
    renderOracle(el, state, all ? null : ctx.belief, seat, {
      changedBy: ctx.event ? `${describe(ctx.event)} (seq ${ctx.event.seq})` : "",
      before: ctx.earlier && ctx.earlier.length > 1 ? ctx.earlier[ctx.earlier.length - 2] : null,
      note: all ? "All hands open: nothing is hidden, so there is nothing to infer." : "",
      layer,
    });
    el.dataset.model = layer ? layer.model : "uniform";
  };
  draw();
}
