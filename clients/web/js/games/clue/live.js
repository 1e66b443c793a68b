// A live Clue table for the shell's table view: the board, your controls, the notebook.
// Moves go to the server as the generic `move` message.

import { moveSender } from "../move_sender.js";
import { controlsHtml, renderBoard } from "./board.js";
import { describe } from "./describe.js";
import { renderNotebook } from "./overlay.js";

export function liveTable(ctx) {
  const { app, me, tableId, boardEl, overlayEl } = ctx;

  function render() {
    const ov = `<div class="controls"><button type="button" class="ov-toggle" aria-pressed="${ctx.overlayOn()}">Detective notebook (O)</button>` +
      `${app.state.phase === "finished" && me ? ` <a class="button" href="#replay=${encodeURIComponent(tableId)}&perspective=${me}&game=clue">Replay this match</a>` : ""}</div>`;
    renderBoard(boardEl, app.state, { me, controlsHtml: controlsHtml(app.state, me) + ov });
  }

  function renderOverlay() {
    if (!ctx.overlayOn()) return;
    const ev = app.belief && app.events[app.belief.seq - 1];
    renderNotebook(overlayEl, app.state, app.belief, me, { changedBy: ev ? `${describe(ev)} (seq ${ev.seq})` : "" });
    overlayEl.dataset.seq = app.belief ? app.belief.seq : 0;
    overlayEl.dataset.observer = me || "spectator";
  }

  const send = moveSender(app, tableId, () => render());

  function picked() {
    const v = (name) => boardEl.querySelector(`select[name=${name}]`).value;
    return { suspect: v("suspect"), weapon: v("weapon"), room: v("room") };
  }

  function onClick(e) {
    const show = e.target.closest("[data-show]");
    if (show) return void send({ kind: "show", card: show.dataset.show }) || true;
    const act = e.target.closest("[data-act]");
    if (!act) return false;
    const kind = act.dataset.act;
    if (kind === "end_turn") return void send({ kind }) || true;
    return void send({ kind, ...picked() }) || true;
  }

  return { render, renderOverlay, afterEvent: () => render(), onClick, onKey: () => false, canAdvise: () => false };
}
