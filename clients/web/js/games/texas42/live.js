// A live Texas 42 table for the shell's table view: the board, your hand (the dominoes the
// server offers outlined), the bidding box with the bids it offers, the trumps it offers when
// you won the bid, the overlay. Each move goes back as the server offered it (`move`).

import { esc, toast } from "../../ui.js";
import { moveSender } from "../move_sender.js";
import { adviceHtml } from "./advice.js";
import { renderBoard, tileSvg } from "./board.js";
import { bidWords, describe } from "./describe.js";
import { BIDS_LAYER, renderOracle } from "./overlay.js";
import { trumpWords } from "./words.js";

export function liveTable(ctx) {
  const { app, me, tableId, boardEl, overlayEl } = ctx;

  // the server's legal moves for this seat now, by kind (each sent back as it is)
  const offered = () => (me ? ctx.legalMoves() : []);
  const ofKind = (...kinds) => offered().filter((m) => kinds.includes(m.kind));
  const myTurn = () => offered().length > 0;
  // a move button carries its payload, so a click sends exactly what was offered
  const moveAttr = (m) => `data-move="${esc(JSON.stringify(m))}"`;

  function handHtml() {
    const tiles = me && app.state.hands[me];
    if (!tiles) return "";
    const plays = new Map(ofKind("play").map((m) => [m.tile, m]));
    return `<div class="hand mine" role="toolbar" aria-label="your dominoes">` + tiles.map((t) => {
      const m = plays.get(t);
      return `<button type="button" class="tile-btn${m ? " legal" : ""}" data-tile="${t}" data-legal="${!!m}" ` +
        `${m ? moveAttr(m) : ""} aria-label="${t}${m ? ", playable" : ""}">${tileSvg(t)}</button>`;
    }).join("") + `</div>`;
  }

  function controlsHtml() {
    const ov = `<button type="button" class="ov-toggle" aria-pressed="${ctx.overlayOn()}">The odds (O)</button>`;
    let box = "";
    const bids = ofKind("bid", "pass");
    const trumps = ofKind("trump");
    if (bids.length) {
      box = `<div class="t42-box bidding-box" role="group" aria-label="your bid">` + bids.map((m) =>
        `<button type="button" data-bid="${m.kind === "pass" ? 0 : m.bid}" ${moveAttr(m)}>` +
        `${m.kind === "pass" ? "Pass" : bidWords(m.bid)}</button>`).join("") + `</div>`;
    } else if (trumps.length) {
      box = `<div class="t42-box trump-choice" role="group" aria-label="name trump">` + trumps.map((m) =>
        `<button type="button" data-trump="${esc(m.trump)}" ${moveAttr(m)}>${esc(trumpWords(m.trump))}</button>`).join("") + `</div>`;
    }
    const replay = app.state.phase === "finished" && me
      ? ` <a class="button" href="#replay=${encodeURIComponent(tableId)}&perspective=${me}&game=texas42">Replay this match</a>` : "";
    return `${box}<div class="controls">${adviceButtonHtml()}${ov}${replay}</div>${adviceBoxHtml()}`;
  }

  // Advice (a table created with advice on): the oracle's table while bidding or naming
  // trump, the ranked plays while playing; shown until the table moves on.
  const canAdvise = () => !!me && app.adviceOn && !app.adviceBusy && myTurn();

  function currentAdvice() {
    const adv = app.advice;
    return adv && adv.advice && adv.seq === app.state.lastSeq ? adv.advice : null;
  }

  function adviceButtonHtml() {
    if (!me || !app.adviceOn) return "";
    const what = app.state.phase === "playing" ? "Rank my plays" : "The bidding oracle's table for my hand";
    return `<button type="button" class="advise" ${canAdvise() ? "" : "disabled"} aria-keyshortcuts="A" ` +
      `title="${what}">${app.adviceBusy ? "Thinking…" : "Advice (A)"}</button>`;
  }

  function adviceBoxHtml() {
    const adv = currentAdvice();
    if (!me || !app.adviceOn || (!adv && !app.adviceBusy)) return "";
    const body = adv ? adviceHtml(adv) : `<p class="muted">Solving deals consistent with your hand…</p>`;
    return `<section class="advice-box t42-advice" aria-label="advice" data-kind="${adv ? adv.kind : ""}" data-seq="${adv ? app.advice.seq : ""}">${body}</section>`;
  }

  function render() {
    renderBoard(boardEl, app.state, { me, bottom: me || "S", handHtml: handHtml(), controlsHtml: controlsHtml(),
      names: app.info ? app.info.seats : null });
    document.title = myTurn() ? "▶ Your turn · Domino Oracle" : "Domino Oracle";
  }

  // The layer shown: the exact belief, or the bid-aware estimate asked for once per belief seq.
  const bids = BIDS_LAYER.live(app, tableId, () => renderOverlay());

  function renderOverlay() {
    if (!ctx.overlayOn()) return;
    const ev = app.belief && app.events[app.belief.seq - 1];
    const layer = bids.current();
    renderOracle(overlayEl, app.state, app.belief, me, { changedBy: ev ? `${describe(ev)} (seq ${ev.seq})` : "",
      layer });
    overlayEl.dataset.seq = app.belief ? app.belief.seq : 0;
    overlayEl.dataset.observer = me || "spectator";
    overlayEl.dataset.model = layer.model;
    bids.ask();
  }

  overlayEl.addEventListener("click", (e) => bids.onClick(e));

  function afterEvent(ev) {
    render();
    if (ev.type === "hand_ended" || ev.type === "hand_started") renderOverlay();
  }

  const send = moveSender(app, tableId, () => render());

  function onClick(e) {
    if (e.target.closest("button.advise")) return void ctx.askAdvice() || true;
    const offer = e.target.closest("[data-move]");
    if (offer) return void send(JSON.parse(offer.dataset.move)) || true;
    const tile = e.target.closest(".tile-btn");
    if (tile) {
      toast(myTurn() ? `${tile.dataset.tile} is not one of your legal moves now.` : "Not your turn.");
      return true;
    }
    return false;
  }

  const onKey = (e) => {
    if (e.key.toLowerCase() !== "a" || !canAdvise()) return false;
    ctx.askAdvice();
    return true;
  };
  return { render, renderOverlay, afterEvent, onClick, onKey, canAdvise };
}
