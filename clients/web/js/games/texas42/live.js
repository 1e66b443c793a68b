// A live Texas 42 table for the shell's table view: the board, your hand (legal dominoes
// outlined), the bidding box on your bid, the trump choice when you won the bid, the overlay.
// Moves go to the server as the generic `move` message.

import { toast } from "../../ui.js";
import { moveSender } from "../move_sender.js";
import { adviceHtml } from "./advice.js";
import { renderBoard, tileSvg } from "./board.js";
import { bidWords, describe } from "./describe.js";
import { renderOracle } from "./overlay.js";
import { legalBids, legalTiles, toAct, trumpChoices, trumpWords } from "./rules.js";

export function liveTable(ctx) {
  const { app, me, tableId, boardEl, overlayEl } = ctx;

  const myTurn = () => !!me && toAct(app.state) === me;

  function handHtml() {
    const tiles = me && app.state.hands[me];
    if (!tiles) return "";
    const legal = app.state.phase === "playing" && myTurn() ? legalTiles(app.state, me) : new Set();
    return `<div class="hand mine" role="toolbar" aria-label="your dominoes">` + tiles.map((t) =>
      `<button type="button" class="tile-btn${legal.has(t) ? " legal" : ""}" data-tile="${t}" data-legal="${legal.has(t)}" ` +
      `aria-label="${t}${legal.has(t) ? ", playable" : ""}">${tileSvg(t)}</button>`).join("") + `</div>`;
  }

  function controlsHtml() {
    const ov = `<button type="button" class="ov-toggle" aria-pressed="${ctx.overlayOn()}">Oracle overlay (O)</button>`;
    let box = "";
    if (myTurn() && app.state.phase === "bidding") {
      const ok = new Set(legalBids(app.state, me));
      box = `<div class="t42-box bidding-box" role="group" aria-label="your bid">` +
        `<button type="button" data-bid="0" ${ok.has(0) ? "" : "disabled"}>Pass</button>` +
        [30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 84].map((b) =>
          `<button type="button" data-bid="${b}" ${ok.has(b) ? "" : "disabled"}>${bidWords(b)}</button>`).join("") + `</div>`;
    } else if (myTurn() && app.state.phase === "trump") {
      box = `<div class="t42-box trump-choice" role="group" aria-label="name trump">` +
        trumpChoices(app.state).map((t) => `<button type="button" data-trump="${t}">${trumpWords(t)}</button>`).join("") + `</div>`;
    }
    const replay = app.state.phase === "finished" && me
      ? ` <a class="button" href="#replay=${encodeURIComponent(tableId)}&perspective=${me}&game=texas42">Replay this match</a>` : "";
    return `${box}<div class="controls">${adviceButtonHtml()}${ov}${replay}</div>${adviceBoxHtml()}`;
  }

  // Advice (a table created with advice on): the oracle's table while bidding or naming
  // trump, the ranked plays while playing; shown until the table moves on.
  const canAdvise = () => !!me && app.adviceOn && !app.adviceBusy && myTurn() &&
    ["bidding", "trump", "playing"].includes(app.state.phase);

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

  function renderOverlay() {
    if (!ctx.overlayOn()) return;
    const ev = app.belief && app.events[app.belief.seq - 1];
    renderOracle(overlayEl, app.state, app.belief, me, { changedBy: ev ? `${describe(ev)} (seq ${ev.seq})` : "" });
    overlayEl.dataset.seq = app.belief ? app.belief.seq : 0;
    overlayEl.dataset.observer = me || "spectator";
  }

  function afterEvent(ev) {
    render();
    if (ev.type === "hand_ended" || ev.type === "hand_started") renderOverlay();
  }

  const send = moveSender(app, tableId, () => render());

  function onClick(e) {
    if (e.target.closest("button.advise")) return void ctx.askAdvice() || true;
    const bid = e.target.closest("button[data-bid]");
    if (bid) {
      const n = Number(bid.dataset.bid);
      return void send(n ? { kind: "bid", bid: n } : { kind: "pass" }) || true;
    }
    const trump = e.target.closest("button[data-trump]");
    if (trump) return void send({ kind: "trump", trump: trump.dataset.trump }) || true;
    const tile = e.target.closest(".tile-btn");
    if (tile) {
      if (tile.dataset.legal !== "true") {
        toast(myTurn() ? `${tile.dataset.tile} does not follow the led suit.` : "Not your turn.");
        return true;
      }
      return void send({ kind: "play", tile: tile.dataset.tile }) || true;
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
