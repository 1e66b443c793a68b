// A live Clue table for the shell's table view: the board, your controls (the moves the server
// offers), the notebook with its show-aware layer (layer.js). Each move goes back as the
// server offered it (`move`).

import { toast } from "../../ui.js";
import { adviceHtml } from "./advice.js";
import { moveSender } from "../move_sender.js";
import { controlsHtml, renderBoard } from "./board.js";
import { describe } from "./describe.js";
import { deckOf } from "./fold.js";
import { liveLayer } from "./layer.js";
import { renderNotebook } from "./overlay.js";
import { kindOf, onSheetClick } from "./sheet.js";

export function liveTable(ctx) {
  const { app, me, tableId, boardEl, overlayEl } = ctx;

  // the suggestion picked (on the sheet or with the pickers): kept across the board's redraws
  const chosen = {};
  const KINDS = ["suspect", "weapon", "room"];
  const picker = (kind) => boardEl.querySelector(`select[name=${kind}]`);

  function render() {
    const ov = `<div class="controls"><button type="button" class="ov-toggle" aria-pressed="${ctx.overlayOn()}">Detective notebook (O)</button>` +
      `${app.state.phase === "finished" && me ? ` <a class="button" href="#replay=${encodeURIComponent(tableId)}&perspective=${me}&game=clue">Replay this match</a>` : ""}</div>`;
    renderBoard(boardEl, app.state, { me, controlsHtml: controlsHtml(app.state, offered()) + adviceControlsHtml() + ov });
    for (const kind of KINDS) {
      const sel = picker(kind);
      if (!sel) continue;
      if (chosen[kind] && [...sel.options].some((o) => o.value === chosen[kind])) sel.value = chosen[kind];
      else chosen[kind] = sel.value;
    }
  }

  const canSuggest = () => offered().some((m) => m.kind === "suggest");

  // Advice (a table created with advice on): on your turn, when you must show a card, after
  // your suggestion; shown until the table moves on.
  const canAdvise = () => !!me && app.adviceOn && !app.adviceBusy && offered().length > 0;
  function currentAdvice() {
    const adv = app.advice;
    return adv && adv.advice && adv.seq === app.state.lastSeq ? adv.advice : null;
  }
  function adviceControlsHtml() {
    if (!me || !app.adviceOn) return "";
    const button = `<div class="controls"><button type="button" class="advise" ${canAdvise() ? "" : "disabled"} aria-keyshortcuts="A" ` +
      `title="Which suggestion tells me most, when to accuse, which card to show">${app.adviceBusy ? "Thinking…" : "Advice (A)"}</button></div>`;
    const adv = currentAdvice();
    if (!adv && !app.adviceBusy) return button;
    const body = adv ? adviceHtml(adv) : `<p class="muted">Weighing every suggestion over deals consistent with what you have seen…</p>`;
    return `${button}<section class="advice-box clue-advice" aria-label="advice" data-kind="${adv ? adv.kind : ""}">${body}</section>`;
  }

  // the show-aware layer beside the exact odds (layer.js), asked for once per belief
  const shows = liveLayer(app, tableId, () => renderOverlay());

  function renderOverlay() {
    if (!ctx.overlayOn()) return;
    const ev = app.belief && app.events[app.belief.seq - 1];
    renderNotebook(overlayEl, app.state, app.belief, me, { changedBy: ev ? `${describe(ev)} (seq ${ev.seq})` : "",
      sheet: me ? { tableId, seat: me, picked: { ...chosen }, canSuggest: canSuggest() } : null,
      layer: shows.current() });
    overlayEl.dataset.seq = app.belief ? app.belief.seq : 0;
    overlayEl.dataset.observer = me || "spectator";
    overlayEl.dataset.model = shows.layer.model;
    shows.ask();
  }

  const send = moveSender(app, tableId, () => render());
  // the detective sheet in the notebook: a mark cycles, a name picks (each keeps the focus),
  // its Suggest button sends the picked suggestion as the board's does
  overlayEl.addEventListener("click", (e) => {
    if (shows.onClick(e)) return;
    if (e.target.closest("[data-act]")) return void onClick(e);
    const hit = e.target.closest("[data-mark], [data-pick]");
    if (!onSheetClick(e, me ? { tableId, seat: me } : null, boardEl, deckOf(app.state.variant)) || !hit) return;
    if (hit.dataset.pick) {  // picked before the turn: kept for the pickers when they come
      const kind = kindOf(deckOf(app.state.variant), hit.dataset.pick);
      chosen[kind] = picker(kind) ? picker(kind).value : hit.dataset.pick;
    }
    renderOverlay();
    const attr = hit.dataset.mark ? "data-mark" : "data-pick";
    const again = overlayEl.querySelector(`[${attr}="${CSS.escape(hit.getAttribute(attr))}"]`);
    if (again) again.focus();
  });
  // the pickers on the board: the sheet shows what they hold
  boardEl.addEventListener("change", (e) => {
    const kind = e.target.name;
    if (!KINDS.includes(kind)) return;
    chosen[kind] = e.target.value;
    renderOverlay();
  });
  const offered = () => (me ? ctx.legalMoves() : []);
  // the offered move of this kind (and, for a suggestion or an accusation, these cards)
  const find = (kind, cards = {}) => offered().find((m) => m.kind === kind &&
    Object.entries(cards).every(([k, v]) => m[k] === v)) || null;

  function picked() {
    const v = (name) => boardEl.querySelector(`select[name=${name}]`).value;
    return { suspect: v("suspect"), weapon: v("weapon"), room: v("room") };
  }

  function onClick(e) {
    if (e.target.closest("button.advise")) return void ctx.askAdvice() || true;
    const show = e.target.closest("[data-show]");
    const act = e.target.closest("[data-act]");
    if (!show && !act) return false;
    const kind = show ? "show" : act.dataset.act;
    const move = show ? find("show", { card: show.dataset.show })
      : find(kind, kind === "end_turn" ? {} : picked());
    if (move && kind === "suggest") for (const k of KINDS) delete chosen[k];  // made: picks cleared
    if (move) send(move);
    else toast("That is not one of your legal moves now.");
    return true;
  }

  const onKey = (e) => {
    if (e.key.toLowerCase() !== "a" || !canAdvise()) return false;
    ctx.askAdvice();
    return true;
  };
  return { render, renderOverlay, afterEvent: () => render(), onClick, onKey, canAdvise };
}
