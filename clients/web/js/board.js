// The table drawn from a folded state: four seats around the line of play, scores, turn.
// Shared by the live table, the spectator view and the replay viewer.

import { back, domino, line } from "./draw.js";
import { SEATS, SEAT_NAMES, ends, nextSeat, parseTile, teamOf } from "./game.js";

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

export function scoreboard(state) {
  const hand = state.hand ? `hand ${state.hand.number}` : "no hand yet";
  const won = state.winner ? ` · <b>${state.winner} won the match</b>` : "";
  return `<div class="scores" aria-label="scores"><span class="team ns">NS <b data-score="NS">${state.scores.NS}</b></span>` +
    `<span class="team ew">EW <b data-score="EW">${state.scores.EW}</b></span>` +
    `<span class="muted">to ${state.target} · ${hand} · ${state.handsPlayed} finished${won}</span></div>`;
}

// `me`: the seat addressed as "you" (none in a replay: there the seat to play is named).
export function statusText(state, me) {
  const h = state.hand;
  if (state.phase === "finished") return `Match over: ${state.winner} won ${state.scores.NS}–${state.scores.EW} (NS–EW).`;
  if (!h) return state.matchId ? "Waiting for the first deal…" : "Waiting for players…";
  if (h.ended) {
    const e = h.ended;
    const who = e.winner ? `${e.winner} won hand ${e.hand}` : `Hand ${e.hand} tied`;
    return `${who} (${e.reason === "domino" ? "domino" : "blocked"}), ${e.points} points. Next hand soon…`;
  }
  if (state.phase === "dealing") return `Dealing hand ${h.number}…`;
  if (h.turn === me) return "Your turn.";
  return `${SEAT_NAMES[h.turn]}'s turn.`;
}

function tilesFace(tiles, cls = "") {
  return tiles.map((t) => {
    const [a, b] = parseTile(t);
    return `<span class="ht ${cls}" data-tile="${t}">${domino(a, b, { vertical: true })}</span>`;
  }).join("");
}

function seatBox(state, seat, pos, opts) {
  const h = state.hand;
  const name = state.players[seat] || "—";
  const turn = h && !h.ended && state.phase === "playing" && h.turn === seat;
  const count = h ? h.counts[seat] : 0;
  const passes = h ? h.passes.filter((p) => p.seat === seat) : [];
  const passHtml = passes.map((p) => `<span class="pass" title="passed at seq ${p.seq}">passed on ${p.left}|${p.right}</span>`).join("");
  let tiles = "";
  const revealed = h && h.ended ? h.ended.remaining[seat] : null;
  const known = h ? h.hands[seat] : null;
  if (pos === "bottom" && opts.handHtml != null) tiles = opts.handHtml;
  else if (revealed) tiles = `<div class="hand small revealed">${tilesFace(revealed)}</div>`;
  else if (known && (opts.reveal || seat === opts.me)) tiles = `<div class="hand small">${tilesFace(known)}</div>`;
  else tiles = `<div class="hand small backs">${back().repeat(Math.max(0, count))}</div>`;
  const you = seat === opts.me ? ` <span class="you">you</span>` : "";
  return `<section class="seat pos-${pos}${turn ? " turn" : ""}" data-seat="${seat}" aria-label="${SEAT_NAMES[seat]}${turn ? ", to play" : ""}">` +
    `<header><b>${SEAT_NAMES[seat]}</b>${you} <span class="muted">${esc(name)} · ${teamOf(seat)}</span>` +
    `<span class="count" data-count="${count}">${count} tile${count === 1 ? "" : "s"}</span>` +
    `${turn ? `<span class="turn-tag">to play</span>` : ""}</header>` +
    `<div class="passes">${passHtml}</div>${tiles}</section>`;
}

// opts: {me, bottom, reveal, replay, handHtml, controlsHtml}
export function renderBoard(el, state, opts) {
  const bottom = opts.bottom || "S";
  const left = nextSeat(bottom);
  const top = nextSeat(left);
  const right = nextSeat(top);
  const h = state.hand;
  const e = ends(h);
  const lineHtml = h ? line(h.line) : `<p class="empty-line">No hand yet.</p>`;
  el.innerHTML =
    scoreboard(state) +
    `<div class="board">` +
    seatBox(state, top, "top", opts) +
    seatBox(state, left, "left", opts) +
    `<div class="center"><div class="line" aria-label="line of play${e.left !== null ? `, ends ${e.left} and ${e.right}` : ""}">${lineHtml}</div>` +
    `<p class="status" data-phase="${state.phase}" aria-live="polite">${statusText(state, opts.replay ? null : opts.me)}</p></div>` +
    seatBox(state, right, "right", opts) +
    seatBox(state, bottom, "bottom", opts) +
    `</div>` + (opts.controlsHtml || "");
}

export { SEATS };
