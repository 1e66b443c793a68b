// The table drawn from a folded state: the variant's seats around the line of play (four:
// bottom, left, top, right in turn order; two: bottom and top), scores per side, turn, draws.
// Shared by the live table, the spectator view and the replay viewer.

import { esc } from "../../ui.js";
import { back, domino, line } from "./draw.js";
import { ends, parseTile } from "./fold.js";
import { SEAT_NAMES, isPartnership, poolName, seatsFrom, sideLabel, sideOf } from "./variants.js";

const POSITIONS = { 4: ["bottom", "left", "top", "right"], 2: ["bottom", "top"] };

export function scoreboard(state) {
  const hand = state.hand ? `hand ${state.hand.number}` : "no hand yet";
  const won = state.winner ? ` · <b>${esc(sideLabel(state.winner))} won the match</b>` : "";
  const sides = state.sides.map((side) =>
    `<span class="team ${side.toLowerCase()}">${esc(side.length === 1 ? sideLabel(side) : side)} ` +
    `<b data-score="${side}">${state.scores[side] ?? 0}</b></span>`).join("");
  const yard = state.draws && state.hand
    ? `<span class="boneyard" data-boneyard="${state.hand.boneyard}">boneyard: ${state.hand.boneyard} ` +
      `tile${state.hand.boneyard === 1 ? "" : "s"} left</span>` : "";
  return `<div class="scores" aria-label="scores">${sides}${yard}` +
    `<span class="muted">to ${state.target} · ${hand} · ${state.handsPlayed} finished${won}</span></div>`;
}

// `me`: the seat addressed as "you" (none in a replay: there the seat to play is named).
export function statusText(state, me) {
  const h = state.hand;
  if (state.phase === "finished") {
    // the winner's score first: "North won 122–0 (N–S)"
    const sides = [state.winner, ...state.sides.filter((s) => s !== state.winner)].filter((s) => state.sides.includes(s));
    const score = sides.map((s) => state.scores[s] ?? 0).join("–");
    return `Match over: ${sideLabel(state.winner)} won ${score} (${sides.join("–")}).`;
  }
  if (!h) return state.matchId ? "Waiting for the first deal…" : "Waiting for players…";
  if (h.ended) {
    const e = h.ended;
    const who = e.winner ? `${sideLabel(e.winner)} won hand ${e.hand}` : `Hand ${e.hand} tied`;
    return `${who} (${e.reason === "domino" ? "domino" : "blocked"}), ${e.points} point${e.points === 1 ? "" : "s"}. Next hand soon…`;
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

// What a seat did without playing this hand: passes, and draws (with the tiles for the drawer).
function recordsHtml(h, seat) {
  if (!h) return "";
  const passes = h.passes.filter((p) => p.seat === seat).map((p) =>
    `<span class="pass" title="passed at seq ${p.seq}">passed on ${p.left}|${p.right}</span>`);
  const draws = h.draws.filter((d) => d.seat === seat).map((d) =>
    `<span class="drew" data-count="${d.count}" title="drew at seq ${d.seq}${d.tiles ? `: ${d.tiles.join(" ")}` : ""}">` +
    `drew ${d.count}</span>`);
  return [...passes, ...draws].join("");
}

function seatBox(state, seat, pos, opts) {
  const h = state.hand;
  // before the match starts, the names come from the table's listing (opts.names: null = open)
  const listed = opts.names && seat in opts.names ? opts.names[seat] : undefined;
  const name = state.players[seat] || (listed === null ? "open seat" : listed) || "—";
  const turn = h && !h.ended && state.phase === "playing" && h.turn === seat;
  const count = h ? h.counts[seat] : 0;
  let tiles = "";
  const revealed = h && h.ended ? h.ended.remaining[seat] : null;
  const known = h ? h.hands[seat] : null;
  if (pos === "bottom" && opts.handHtml != null) tiles = opts.handHtml;
  else if (revealed) tiles = `<div class="hand small revealed">${tilesFace(revealed)}</div>`;
  else if (known && (opts.reveal || seat === opts.me)) tiles = `<div class="hand small">${tilesFace(known)}</div>`;
  else tiles = `<div class="hand small backs">${back().repeat(Math.max(0, count))}</div>`;
  const you = seat === opts.me ? ` <span class="you">you</span>` : "";
  const team = isPartnership(state.rules) ? ` · ${sideOf(state.rules, seat)}` : "";
  return `<section class="seat pos-${pos}${turn ? " turn" : ""}" data-seat="${seat}" aria-label="${SEAT_NAMES[seat]}${turn ? ", to play" : ""}">` +
    `<header><b>${SEAT_NAMES[seat]}</b>${you} <span class="muted">${esc(name)}${team}</span>` +
    `<span class="count" data-count="${count}">${count} tile${count === 1 ? "" : "s"}</span>` +
    `${turn ? `<span class="turn-tag">to play</span>` : ""}</header>` +
    `<div class="passes">${recordsHtml(h, seat)}</div>${tiles}</section>`;
}

// At a hand's end, the tiles nobody held (left in the boneyard, or never dealt), face up.
function poolLeftHtml(state) {
  const pool = state.hand && state.hand.ended ? state.hand.ended.pool || [] : [];
  if (!pool.length) return "";
  return `<div class="pool-left" data-pool="${pool.join(" ")}"><span>${esc(poolName(state.rules))}, shown: </span>` +
    `<div class="hand small revealed">${tilesFace(pool)}</div></div>`;
}

// opts: {me, bottom, reveal, replay, handHtml, controlsHtml}
export function renderBoard(el, state, opts) {
  const seats = seatsFrom(state.rules, opts.bottom || state.seats[0]);
  const positions = POSITIONS[seats.length] || POSITIONS[4];
  const boxes = Object.fromEntries(seats.map((seat, i) => [positions[i], seatBox(state, seat, positions[i], opts)]));
  const h = state.hand;
  const e = ends(h);
  const lineHtml = h ? line(h.line) : `<p class="empty-line">No hand yet.</p>`;
  el.innerHTML =
    scoreboard(state) +
    `<div class="board seats-${seats.length}">` +
    (boxes.top || "") + (boxes.left || "") +
    `<div class="center"><div class="line" aria-label="line of play${e.left !== null ? `, ends ${e.left} and ${e.right}` : ""}">${lineHtml}</div>` +
    `<p class="status" data-phase="${state.phase}" aria-live="polite">${statusText(state, opts.replay ? null : opts.me)}</p>` +
    `${poolLeftHtml(state)}</div>` +
    (boxes.right || "") + (boxes.bottom || "") +
    `</div>` + (opts.controlsHtml || "");
}
