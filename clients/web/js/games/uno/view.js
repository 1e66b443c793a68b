// The Uno table: the two seats, the pile's top card and the colour in force, your hand as
// cards (the ones the server offers you raised and clickable; a wild with one button per
// colour it offers), the Draw button apart from the cards, and, once the match is over, every
// hand face up. The odds panel is in panel.js.

import { esc } from "../../ui.js";
import { moveSender } from "../move_sender.js";
import { adviceHtml } from "./advice.js";
import { describe } from "./describe.js";
import { CARD_STYLE, cardFace, cardWords } from "./cards.js";
import { COLOURS, turnOf } from "./fold.js";
import { liveLayer, replayClick, replayLayer } from "./layer.js";
import { PANEL_STYLE, attachHover, cardsWord, holderName, renderOverlay } from "./panel.js";

export { attachHover };

const STYLE = `
.uno .seats { display: flex; flex-wrap: wrap; gap: 10px; margin: 6px 0; } .uno .seat { border: 1px solid #8884; border-radius: 8px; padding: 6px 10px; }
.uno .seat.to-act { outline: 3px solid #2a7; }
.uno .pile { display: flex; flex-wrap: wrap; align-items: center; gap: 10px; margin: 6px 0; }
.uno .uno-hand { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 6px; margin: 8px 0; padding: 8px; border-radius: 10px; background: #eef3ec; }
.uno .uno-hand h3 { flex-basis: 100%; margin: 0; font-size: 0.9rem; }
.uno .in-hand { display: inline-flex; flex-direction: column; align-items: center; gap: 3px; }
.uno button.uno-card { cursor: pointer; transform: translateY(-6px); box-shadow: 0 0 0 3px #16a34a, 0 3px 6px #0006; }
.uno button.uno-card:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.uno .uno-hand.my-turn span.uno-card { opacity: .55; }
.uno .name-colour { display: flex; gap: 2px; }
.uno .name-colour button { width: 22px; height: 22px; padding: 0; border-radius: 50%; border: 2px solid #fff; box-shadow: 0 0 0 1px #0007; cursor: pointer; }
.uno .name-colour button.r { background: #c62828; } .uno .name-colour button.y { background: #e6b800; }
.uno .name-colour button.g { background: #2e7d32; } .uno .name-colour button.b { background: #1565c0; }
.uno .uno-move { margin: 6px 0; }
.uno .kept { margin: 4px 0; } .uno .kept .uno-card { width: 34px; height: 50px; font-size: 0.75rem; }
`;

function ensureStyle() {
  if (document.getElementById("uno-style")) return;
  const el = document.createElement("style");
  el.id = "uno-style";
  el.textContent = STYLE + CARD_STYLE + PANEL_STYLE;
  document.head.appendChild(el);
}

const payload = (m) => `data-move="${esc(JSON.stringify(m))}"`;

// Your hand: each card offered is a button (its move's payload, sent back as it is); a wild
// offered once per colour gets one small button per colour under it.
function handHtml(cards, moves, myTurn) {
  const plays = new Map();
  for (const m of moves) if (m.kind !== "draw") plays.set(m.card, [...(plays.get(m.card) || []), m]);
  const items = cards.map((card) => {
    const offered = plays.get(card) || [];
    if (!offered.length) return `<span class="in-hand">${cardFace(card)}</span>`;
    if (offered.some((m) => m.colour)) {
      const dots = offered.filter((m) => m.colour).map((m) =>
        `<button type="button" class="${esc(m.colour)}" data-card="${esc(card)}" data-colour="${esc(m.colour)}" ${payload(m)} ` +
        `aria-label="play ${esc(cardWords(card))}, name ${esc(COLOURS[m.colour] || m.colour)}" title="name ${esc(COLOURS[m.colour] || m.colour)}"></button>`).join("");
      return `<span class="in-hand">${cardFace(card, { cls: "offered" })}<span class="name-colour" role="group" aria-label="name a colour">${dots}</span></span>`;
    }
    return `<span class="in-hand">${cardFace(card, { tag: "button", label: `${cardWords(card)}, playable`,
      attrs: `data-card="${esc(card)}" ${payload(offered[0])}` })}</span>`;
  }).join("");
  return `<div class="uno-hand hand mine${myTurn ? " my-turn" : ""}" aria-label="your cards">` +
    `<h3>Your hand${myTurn ? ": play a raised card" : ""}</h3>${items}</div>`;
}

function drawHtml(s, moves) {
  const draw = moves.find((m) => m.kind === "draw");
  return draw ? `<div class="uno-move" role="group" aria-label="your move"><button type="button" data-act="draw" ${payload(draw)}>` +
    `Draw${s.owed ? ` ${s.owed} (penalty)` : ""}</button></div>` : "";
}

export function renderBoard(el, s, opts = {}) {
  ensureStyle();
  const { me } = opts;
  const moves = opts.moves || [];
  const acting = turnOf(s);
  const seats = s.seats.map((seat) => `<div class="seat${seat === acting ? " to-act" : ""}" data-seat="${seat}">` +
    `<header><b>${esc(holderName(seat))}</b>${seat === me ? " (you)" : ""}</header> ${s.counts[seat] != null ? cardsWord(s.counts[seat]) : "? cards"}</div>`).join("");
  const top = s.top ? `<div class="pile"><span>Pile:</span>${cardFace(s.top)}<span>${s.colour ? `colour in force: <b>${COLOURS[s.colour]}</b>` : "(any card)"}` +
    ` · deck: ${cardsWord(s.deckCount)}</span></div>` : "";
  const finished = s.phase === "finished";
  const over = finished ? `<p class="over"><b>${s.winner ? `${esc(holderName(s.winner))} wins` : "Nobody wins"}</b>${s.reason ? ` (${esc(s.reason)})` : ""}</p>` : "";
  const kept = finished ? s.seats.filter((seat) => seat !== me && s.hands[seat]).map((seat) =>
    `<div class="kept" data-seat="${seat}">${esc(holderName(seat))} kept: ${s.hands[seat].length ? s.hands[seat].map((c) => cardFace(c)).join("") : "no cards"}</div>`).join("") : "";
  const turn = acting ? `<p>${acting === me ? "<b>Your move.</b>" : `Waiting for ${esc(holderName(acting))}.`}</p>` : "";
  const hand = me && s.hands[me] ? handHtml(s.hands[me], moves, moves.length > 0) : "";
  el.innerHTML = `<div class="uno"><div class="seats">${seats}</div>${top}${over}${kept}${turn}${hand}` +
    `${drawHtml(s, moves)}${opts.extraHtml || ""}</div>`;
}

export function liveTable(ctx) {
  const { app, me, tableId, boardEl, overlayEl } = ctx;

  // Advice (a table created with advice on): each legal move's chance to win, on your turn;
  // shown until the table moves on.
  const myMoves = () => (me ? ctx.legalMoves() : []);
  const canAdvise = () => !!me && app.adviceOn && !app.adviceBusy && myMoves().length > 0;
  function currentAdvice() {
    const adv = app.advice;
    return adv && adv.advice && adv.seq === app.state.lastSeq ? adv.advice : null;
  }
  function adviceHtmlNow() {
    if (!me || !app.adviceOn) return "";
    const adv = currentAdvice();
    if (!adv && !app.adviceBusy) return "";
    const body = adv ? adviceHtml(adv) : `<p class="muted">Playing every move out over deals consistent with what you have seen…</p>`;
    return `<section class="advice-box uno-advice" aria-label="advice" data-kind="${adv ? adv.kind : ""}">${body}</section>`;
  }

  function render() {
    const advise = me && app.adviceOn ? `<button type="button" class="advise" ${canAdvise() ? "" : "disabled"} aria-keyshortcuts="A" ` +
      `title="My chance to win with each legal move">${app.adviceBusy ? "Thinking…" : "Advice (A)"}</button>` : "";
    const extra = `<div class="controls">${advise}<button type="button" class="ov-toggle" aria-pressed="${ctx.overlayOn()}">The odds (O)</button></div>${adviceHtmlNow()}`;
    renderBoard(boardEl, app.state, { me, moves: me ? ctx.legalMoves() : [], extraHtml: extra });
  }

  // the play-aware layer beside the exact odds (layer.js), asked for once per belief
  const plays = liveLayer(app, tableId, () => renderOverlayNow());
  overlayEl.addEventListener("click", (e) => plays.onClick(e));

  function renderOverlayNow() {
    if (!ctx.overlayOn()) return;
    const ev = app.belief && app.events && app.events[app.belief.seq - 1];
    renderOverlay(overlayEl, app.state, app.belief, me, { changedBy: ev ? `${describe(ev)} (seq ${ev.seq})` : "",
      layer: plays.current() });
    overlayEl.dataset.seq = app.belief ? app.belief.seq : 0;
    overlayEl.dataset.observer = me || "spectator";
    overlayEl.dataset.model = plays.layer.model;
    plays.ask();
  }

  const send = moveSender(app, tableId, () => render());

  function onClick(e) {
    if (e.target.closest("button.advise")) return void ctx.askAdvice() || true;
    const offered = e.target.closest("[data-move]");
    if (offered) return void send(JSON.parse(offered.dataset.move)) || true;
    return false;
  }

  function afterEvent(ev) {
    render();
    if (ev.type === "match_ended") renderOverlayNow();
  }

  const onKey = (e) => {
    if (e.key.toLowerCase() !== "a" || !canAdvise()) return false;
    ctx.askAdvice();
    return true;
  };
  return { render, renderOverlay: renderOverlayNow, afterEvent, onClick, onKey, canAdvise };
}

export function renderReplayStep(ctx) {
  const { state, perspective } = ctx;
  const seat = state.seats.includes(perspective) ? perspective : null;
  renderBoard(ctx.boardEl, state, { me: seat });
  if (!ctx.overlayOn) return;
  const all = perspective === "all";
  const el = ctx.overlayEl;
  if (!el._unoLayer) { // the switch of the play-aware layer (layer.js), listened to once
    el._unoLayer = true;
    el.addEventListener("click", (e) => replayClick(e));
  }
  const draw = () => renderOverlay(el, state, all ? null : ctx.belief, seat, {
    changedBy: ctx.event ? `${describe(ctx.event)} (seq ${ctx.event.seq})` : "",
    before: ctx.earlier && ctx.earlier.length > 1 ? ctx.earlier[ctx.earlier.length - 2] : null,
    note: all ? "Every card open: nothing to infer." : "",
    layer: all ? null : replayLayer(ctx, draw),
  });
  draw();
}

