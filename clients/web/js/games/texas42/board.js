// The Texas 42 table: four seats around the trick, the bids, the trump, the led suit, tricks
// and count taken per team, the marks; your hand and the bidding box or trump choice below.

import { esc } from "../../ui.js";
import { domino } from "../dominoes/draw.js";
import { bidWords, pointsWord } from "./describe.js";
import { turnOf } from "./fold.js";
import { SEAT_NAMES, dominoesWord, ledSuit, ledWords, parseTile, trumpWords } from "./words.js";

const STYLE = `
.t42 { display: grid; grid-template-columns: 1fr 2fr 1fr; grid-template-rows: auto auto auto; gap: 8px; align-items: center; }
.t42 .seat { border: 1px solid #8884; border-radius: 8px; padding: 6px; text-align: center; min-height: 3em; }
.t42 .seat.to-act { outline: 3px solid #2a7; }
.t42 .top { grid-column: 2; grid-row: 1; } .t42 .left { grid-column: 1; grid-row: 2; }
.t42 .right { grid-column: 3; grid-row: 2; } .t42 .bottom { grid-column: 2; grid-row: 3; }
.t42 .trick { grid-column: 2; grid-row: 2; display: grid; grid-template-columns: repeat(3, 1fr);
  grid-template-rows: repeat(3, auto); min-height: 9em; border: 1px dashed #8886; border-radius: 8px; place-items: center; }
.t42 .trick svg { width: 34px; } .t42 .hand svg { width: 30px; }
.t42-info { display: flex; flex-wrap: wrap; gap: 12px; margin: 6px 0; }
.t42-box { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px 0; }
.t42-box button[disabled] { opacity: .35; }
.t42 .tile-btn.legal { outline: 2px solid #2a7; }
.t42-odds { border-collapse: collapse; font-size: 0.8rem; width: 100%; max-width: 26rem; table-layout: fixed; }
.t42-odds td, .t42-odds th { padding: 2px 4px; border: 1px solid #8883; text-align: center; white-space: nowrap; }
.t42-odds tr.group th { text-align: left; background: #eef0f6; font-weight: 700; }
.t42-odds th.tile { text-align: left; } .t42-odds th.tile small { color: #8a5a00; }
.t42-odds th.tile.count { color: #8a5a00; } .t42-odds th.tile.trump { color: #1d4ed8; }
.t42-odds td.c.changed { box-shadow: inset 0 0 0 2px #ea580c; }
.oracle-table { border-collapse: collapse; font-size: 0.78rem; }
.oracle-table th, .oracle-table td { border: 1px solid #c7cdea; padding: 0.15rem 0.3rem; text-align: center; }
.oracle-table td.cell small, .oracle-table td.score small { display: block; color: #555; }
.oracle-table td.cell .lower { display: block; color: #8a5a00; }
.oracle-table tr.chosen th, .oracle-table td.played { background: #dfe6ff; font-weight: 700; }
.oracle-table td.big-gap { outline: 2px dashed #d08a00; outline-offset: -2px; }
.oracle-table .flag { color: #a33; font-size: 0.7rem; }
.advice-box .scroll { overflow-x: auto; max-width: 100%; }
`;

export function ensureStyle() {
  if (document.getElementById("t42-style")) return;
  const el = document.createElement("style");
  el.id = "t42-style";
  el.textContent = STYLE;
  document.head.appendChild(el);
}

export const tileSvg = (t) => {
  const [a, b] = parseTile(t);
  return domino(a, b, { vertical: true, label: false });
};

function seatBox(state, seat, pos, opts) {
  const name = opts.names && opts.names[seat] ? opts.names[seat] : SEAT_NAMES[seat];
  const bid = state.bids.find(([s]) => s === seat);
  const bidText = bid ? (bid[1] ? `bid ${bidWords(bid[1])}` : "passed") : "";
  const shown = opts.reveal && opts.revealHands && opts.revealHands[seat];
  const tiles = seat === opts.me || !shown ? "" : `<div class="hand">${shown.map(tileSvg).join("")}</div>`;
  const acting = turnOf(state) === seat;
  const count = state.counts[seat] != null ? dominoesWord(state.counts[seat]) : "";
  return `<div class="seat ${pos}${acting ? " to-act" : ""}" data-seat="${seat}"><b>${esc(SEAT_NAMES[seat])}</b>` +
    `${name !== SEAT_NAMES[seat] ? ` <span class="muted">${esc(typeof name === "string" ? name : "")}</span>` : ""}` +
    `<div class="muted">${count}${bidText ? ` · ${bidText}` : ""}${state.bidder === seat && state.trump ? " · bidder" : ""}` +
    `${acting ? " · <b>to act</b>" : ""}</div>${tiles}</div>`;
}

function trickHtml(state) {
  const plays = state.trick.length ? state.trick : state.lastTrick ? state.lastTrick.plays : [];
  const slot = { top: "1 / 2", left: "2 / 1", right: "2 / 3", bottom: "3 / 2" }; // row / column
  const cells = plays.map(([seat, tile]) =>
    `<div class="played" data-seat="${seat}" data-tile="${tile}" style="grid-area: ${slot[posOf(state, seat)]}">${tileSvg(tile)}</div>`).join("");
  let led = "";
  if (state.trick.length && state.trump) led = `led: ${ledWords(ledSuit(state.trick[0][1], state.trump), state.trump)}`;
  else if (state.lastTrick) led = `${SEAT_NAMES[state.lastTrick.winner]} took the last trick (${pointsWord(state.lastTrick.points)})`;
  return `<div class="trick" aria-label="the trick">${cells}<div class="led" style="grid-area: 2 / 2">${esc(led)}</div></div>`;
}

let bottomSeat = "S";
function posOf(state, seat) {
  const order = ["bottom", "left", "top", "right"];
  return order[(state.seats.indexOf(seat) - state.seats.indexOf(bottomSeat) + 4) % 4];
}

export function infoHtml(state) {
  const target = state.targetPoints ? `${state.targetPoints} points`
    : `${state.targetMarks} mark${state.targetMarks === 1 ? "" : "s"}`;
  const parts = [`<span class="marks">Marks: NS ${state.totals.NS} · EW ${state.totals.EW} (to ${target})</span>`];
  if (state.hand) parts.push(`<span>Hand ${state.hand}, ${SEAT_NAMES[state.dealer] || state.dealer} dealt</span>`);
  if (state.bidder && state.bids.length === 4) {
    const high = Math.max(...state.bids.map(([, b]) => b));
    parts.push(`<span class="contract">${SEAT_NAMES[state.bidder]} bid ${bidWords(high)}` +
      `${state.nello ? `, <b>${esc(trumpWords("nello"))}</b>` : state.trump ? `, trump: <b>${esc(trumpWords(state.trump))}</b>` : ""}</span>`);
  }
  if (state.phase === "playing" || state.tricksPlayed) {
    const team = (t) => `${t} ${state.tricks[t]} trick${state.tricks[t] === 1 ? "" : "s"} + ` +
      `${state.points[t] - state.tricks[t]} count = ${pointsWord(state.points[t])}`;
    parts.push(`<span class="taken">Taken this hand: ${team("NS")} · ${team("EW")}</span>`);
  }
  if (state.lastHand && state.phase !== "playing") {
    const h = state.lastHand;
    parts.push(`<span class="last-hand">${h.outcome === "redeal" ? `Hand ${h.hand}: all passed, redeal` :
      `Hand ${h.hand}: ${SEAT_NAMES[h.bidder]}'s ${bidWords(h.bid)} ${h.outcome === "made" ? "made" : "set"} (NS ${h.points.NS}, EW ${h.points.EW})`}</span>`);
  }
  if (state.phase === "finished") parts.push(`<b class="winner">${state.winner} win the match</b>`);
  return `<div class="t42-info">${parts.join("")}</div>`;
}

// opts: {me, bottom, handHtml, controlsHtml, names, reveal, revealHands}
export function renderBoard(el, state, opts) {
  ensureStyle();
  bottomSeat = opts.bottom || "S";
  const seats = state.seats;
  const at = (pos) => seats.find((s) => posOf(state, s) === pos);
  el.innerHTML = `${infoHtml(state)}<div class="t42">` +
    ["top", "left", "right", "bottom"].map((p) => seatBox(state, at(p), p, opts)).join("") +
    trickHtml(state) + `</div>${opts.handHtml || ""}${opts.controlsHtml || ""}`;
}
