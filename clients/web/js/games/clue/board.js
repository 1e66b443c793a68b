// The Clue table: each seat with its hand size (out or to act), the suggestion being answered
// and its outcome, your hand, and your controls (suggest / accuse with three pickers, show a
// card, end the turn).

import { esc } from "../../ui.js";
import { deckOf, toAct } from "./game.js";

const STYLE = `
.clue-seats { display: flex; flex-wrap: wrap; gap: 8px; margin: 6px 0; }
.clue-seats .seat { border: 1px solid #8884; border-radius: 8px; padding: 6px 10px; }
.clue-seats .seat.to-act { outline: 3px solid #2a7; } .clue-seats .seat.out { opacity: .5; text-decoration: line-through; }
.clue-hand { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
.clue-hand .card, .clue-show button { border: 1px solid #8886; border-radius: 6px; padding: 4px 8px; background: #fffbe8; color: #222; }
.clue-box { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 6px 0; }
.clue-ov .scroll { overflow-x: auto; max-width: 100%; }
.clue-ov table { border-collapse: collapse; font-size: 12px; } .clue-ov td, .clue-ov th { padding: 2px 5px; border: 1px solid #8883; }
.clue-ov tr.kind th { text-align: left; background: #8882; } .clue-ov th.card { text-align: left; white-space: nowrap; }
.clue-ov td.sure { font-weight: bold; } .clue-ov td.out { color: #999; }
.clue-ov .estimate { color: #b60; } .clue-ov .envelope-odds { list-style: none; padding: 0; font-size: 13px; }
`;

export function ensureStyle() {
  if (document.getElementById("clue-style")) return;
  const el = document.createElement("style");
  el.id = "clue-style";
  el.textContent = STYLE;
  document.head.appendChild(el);
}

const options = (cards) => cards.map((c) => `<option value="${esc(c)}">${esc(c)}</option>`).join("");

export function controlsHtml(state, me) {
  if (!me || toAct(state) !== me) return "";
  if (state.phase === "refute") {
    const mine = new Set(state.hands[me] || []);
    return `<div class="clue-box clue-show" role="group" aria-label="show a card">Show ${esc(state.pending.seat)} one card: ` +
      state.pending.cards.filter((c) => mine.has(c)).map((c) => `<button type="button" data-show="${esc(c)}">${esc(c)}</button>`).join("") + `</div>`;
  }
  const deck = deckOf(state.variant);
  const pickers = `<select name="suspect" aria-label="suspect">${options(deck.suspects)}</select>` +
    `<select name="weapon" aria-label="weapon">${options(deck.weapons)}</select>` +
    `<select name="room" aria-label="room">${options(deck.rooms)}</select>`;
  const suggest = state.phase === "turn" ? `<button type="button" data-act="suggest">Suggest</button>` : "";
  const end = state.phase === "after" ? `<button type="button" data-act="end_turn">End turn</button>` : "";
  return `<div class="clue-box clue-move" role="group" aria-label="your move">${pickers}${suggest}` +
    `<button type="button" data-act="accuse">Accuse</button>${end}</div>`;
}

export function renderBoard(el, state, opts = {}) {
  ensureStyle();
  const { me } = opts;
  const acting = toAct(state);
  const seats = state.seats.map((s) => `<div class="seat${s === acting ? " to-act" : ""}${state.out.includes(s) ? " out" : ""}" data-seat="${s}">` +
    `<b>${esc(s)}</b>${s === me ? " (you)" : ""} · ${state.handSizes[s] ?? "?"} cards</div>`).join("");
  const p = state.pending;
  const last = p ? `<p class="clue-last">${esc(p.seat)} suggested <b>${p.cards.map(esc).join(", ")}</b>` +
    `${p.passed.length ? `; ${p.passed.map(esc).join(", ")} could not refute` : ""}` +
    `${p.refuter ? `; ${esc(p.refuter)} refutes${p.shown ? `: <b>${esc(p.shown)}</b>` : p.shownSeen === false ? " (a card you did not see)" : ""}` : "; nobody could refute"}</p>` : "";
  const hand = me && state.hands[me] ? `<div class="clue-hand" aria-label="your cards">${state.hands[me].map((c) => `<span class="card">${esc(c)}</span>`).join("")}</div>` : "";
  const over = state.phase === "finished"
    ? `<p class="clue-over"><b>${state.winner ? `${esc(state.winner)} wins` : "Nobody wins"}</b>: ${state.envelope.map(esc).join(", ")}.</p>` : "";
  const turn = state.phase !== "finished" && acting ? `<p>${acting === me ? "<b>Your move.</b>" : `Waiting for ${esc(acting)}.`}</p>` : "";
  el.innerHTML = `<div class="clue"><div class="clue-seats">${seats}</div>${last}${over}${turn}${hand}${opts.controlsHtml || ""}</div>`;
}
