// The Clue table: each seat with its hand size (out or to act), the suggestion being answered
// and its outcome, your hand, and your controls, made of the moves the server offers (suggest
// / accuse with three pickers of the cards it offers, show a card, end the turn).

import { esc } from "../../ui.js";
import { turnOf } from "./fold.js";
import { seatLabel } from "./names.js";

const STYLE = `
.clue-seats { display: flex; flex-wrap: wrap; gap: 8px; margin: 6px 0; }
.clue-seats .seat { border: 1px solid #8884; border-radius: 8px; padding: 6px 10px; }
.clue-seats .seat.to-act { outline: 3px solid #2a7; } .clue-seats .seat.out { opacity: .5; text-decoration: line-through; }
.clue-hand { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
.clue-show button { border: 1px solid #8886; border-radius: 6px; padding: 4px 8px; background: #fffbe8; color: #222; }
.clue-hand { align-items: center; } .clue-hand .clue-card { border: 1px solid #b9b2a0; border-top: 6px solid #7c2d12; border-radius: 5px;
  padding: 10px 8px; min-width: 4.5rem; text-align: center; background: #fff; color: #222; font-weight: 600; box-shadow: 1px 2px 0 #0002; }
.clue-box { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 6px 0; }
.clue-ov table { border-collapse: collapse; font-size: 12px; width: 100%; table-layout: fixed; }
.clue-ov td, .clue-ov th { padding: 2px 3px; border: 1px solid #8883; text-align: center; white-space: nowrap; overflow-wrap: normal; }
.clue-ov thead th:first-child { width: 30%; } .clue-ov thead th { font-size: 10.5px; padding: 2px 1px; white-space: normal; overflow-wrap: anywhere; } .clue-ov td.c.changed { box-shadow: inset 0 0 0 2px #ea580c; }
.clue-ov tr.kind th { text-align: left; background: #8882; } .clue-ov th.clue-name { text-align: left; white-space: normal; }
.clue-ov td.sure { font-weight: bold; } .clue-ov td.out { color: #999; }
.clue-ov button.mark { display: inline-block; width: 1.5em; margin-right: 3px; padding: 0; border: 1px solid #b9b2a0; border-radius: 3px; background: #fffbe8; font-weight: 700; cursor: pointer; }
.clue-ov button.pick { all: unset; cursor: pointer; text-decoration: underline dotted; }
.clue-ov button.pick:focus-visible, .clue-ov button.mark:focus-visible { outline: 2px solid #f59e0b; }
.clue-ov th.clue-name, .clue-ov thead th { hyphens: auto; } .clue-ov .sheet-note { font-size: 0.8rem; }
.clue-ov button.pick.picked { font-weight: 700; text-decoration: none; background: #fde68a; color: #222; border-radius: 3px; padding: 0 2px; }
.clue-ov .sheet-suggest { display: flex; flex-wrap: wrap; gap: 4px 6px; align-items: center; margin: 6px 0; font-size: 13px; }
.clue-ov .clue-facts { font-size: 13px; margin: 6px 0; } .clue-ov ul.facts { margin: 4px 0; padding-left: 1.2em; }
@media (max-width: 480px) { .clue-ov th.clue-name { font-size: 11px; padding: 2px 1px; } .clue-ov thead th { font-size: 9.5px; }
  .clue-ov button.mark { width: 1.25em; margin-right: 2px; } }
.clue-ov .estimate { color: #b60; } .clue-ov .envelope-odds { list-style: none; padding: 0; font-size: 13px; }
.clue-ov .ov-model { display: flex; flex-wrap: wrap; gap: 0.4rem; margin: 0.4rem 0; }
.clue-ov .ov-model button[aria-pressed="true"] { font-weight: 700; outline: 2px solid #b45309; }
.clue-ov .layer-words { color: #7c2d12; } .clue-ov .clue-figures.pending { opacity: 0.55; }
.clue-ov .clue-model p { font-size: 0.8rem; margin: 0.2rem 0; } .clue-ov .clue-model summary { font-size: 0.85rem; }
`;

export function ensureStyle() {
  if (document.getElementById("clue-style")) return;
  const el = document.createElement("style");
  el.id = "clue-style";
  el.textContent = STYLE;
  document.head.appendChild(el);
}

const options = (cards) => cards.map((c) => `<option value="${esc(c)}">${esc(c)}</option>`).join("");

const distinct = (moves, key) => [...new Set(moves.map((m) => m[key]))];

// `moves`: the seat's legal moves as the server offered them (none: not its turn).
export function controlsHtml(state, moves) {
  if (!moves || !moves.length) return "";
  const shows = moves.filter((m) => m.kind === "show");
  if (shows.length) {
    const asker = state.pending ? seatLabel(state.pending.seat) : "the asker";
    return `<div class="clue-box clue-show" role="group" aria-label="show a card">Show ${esc(asker)} one card: ` +
      shows.map((m) => `<button type="button" data-show="${esc(m.card)}">${esc(m.card)}</button>`).join("") + `</div>`;
  }
  const triples = moves.filter((m) => m.kind === "suggest" || m.kind === "accuse");
  const pickers = triples.length ? `<select name="suspect" aria-label="suspect">${options(distinct(triples, "suspect"))}</select>` +
    `<select name="weapon" aria-label="weapon">${options(distinct(triples, "weapon"))}</select>` +
    `<select name="room" aria-label="room">${options(distinct(triples, "room"))}</select>` : "";
  const button = (kind, label) => (moves.some((m) => m.kind === kind) ? `<button type="button" data-act="${kind}">${label}</button>` : "");
  return `<div class="clue-box clue-move" role="group" aria-label="your move">${pickers}${button("suggest", "Suggest")}` +
    `${button("accuse", "Accuse")}${button("end_turn", "End turn")}</div>`;
}

export function renderBoard(el, state, opts = {}) {
  ensureStyle();
  const { me } = opts;
  const acting = turnOf(state);
  const seats = state.seats.map((s) => `<div class="seat${s === acting ? " to-act" : ""}${state.out.includes(s) ? " out" : ""}" data-seat="${s}">` +
    `<b>${esc(seatLabel(s))}</b>${s === me ? " (you)" : ""} · ${state.handSizes[s] != null ? `${state.handSizes[s]} card${state.handSizes[s] === 1 ? "" : "s"}` : "? cards"}</div>`).join("");
  const p = state.pending;
  const who = (s) => (s === me ? "you" : esc(seatLabel(s))); // the reader in the first person
  const last = p ? `<p class="clue-last">${p.seat === me ? "You" : who(p.seat)} suggested <b>${p.cards.map(esc).join(", ")}</b>` +
    `${p.passed.length ? `; ${p.passed.map(who).join(", ")} could not refute` : ""}` +
    `${p.refuter ? `; ${p.refuter === me ? "you refute" : `${who(p.refuter)} refutes`}${p.shown ? `: <b>${esc(p.shown)}</b>` : p.shownSeen === false ? " (a card you did not see)" : ""}` : "; nobody could refute"}</p>` : "";
  const hand = me && state.hands[me] ? `<div class="clue-hand" aria-label="your cards"><span class="muted">Your cards:</span>${state.hands[me].map((c) => `<span class="clue-card">${esc(c)}</span>`).join("")}</div>` : "";
  const over = state.phase === "finished"
    ? `<p class="clue-over"><b>${state.winner ? (state.winner === me ? "You win" : `${esc(seatLabel(state.winner))} wins`) : "Nobody wins"}</b>: ${state.envelope.map(esc).join(", ")}.</p>` : "";
  const turn = state.phase !== "finished" && acting ? `<p>${acting === me ? "<b>Your move.</b>" : `Waiting for ${esc(seatLabel(acting))}.`}</p>` : "";
  el.innerHTML = `<div class="clue"><div class="clue-seats">${seats}</div>${last}${over}${turn}${hand}${opts.controlsHtml || ""}</div>`;
}
