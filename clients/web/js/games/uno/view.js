// The Uno table and its overlay. The overlay lists, for each hand you cannot see and the
// deck, every card kind with its expected copies and P(at least one) — exact from the
// belief's marginals, whose items are "r7" (holds >= 1) and "r7>=2" (holds >= 2): the
// expected copies are their sum.

import { esc, hideTip, showTip } from "../../ui.js";
import { moveSender } from "../move_sender.js";
import { COLOURS, describe, isBlack, matches, toAct } from "./game.js";

const STYLE = `
.uno .seats { display: flex; gap: 10px; margin: 6px 0; } .uno .seat { border: 1px solid #8884; border-radius: 8px; padding: 6px 10px; }
.uno .seat.to-act { outline: 3px solid #2a7; }
.uno .card { display: inline-block; min-width: 34px; padding: 6px 6px; margin: 2px; border-radius: 6px; border: 1px solid #0005; font-weight: bold; text-align: center; color: #fff; background: #333; }
.uno .card.r { background: #c22; } .uno .card.y { background: #db0; color: #222; } .uno .card.g { background: #2a5; } .uno .card.b { background: #26c; }
.uno button.card:disabled { opacity: .35; }
.uno-ov table { border-collapse: collapse; font-size: 12px; } .uno-ov td, .uno-ov th { padding: 2px 6px; border: 1px solid #8883; }
.uno-ov .relaxed { color: #b60; } .uno-ov .cols { display: flex; flex-wrap: wrap; gap: 12px; }
`;

function ensureStyle() {
  if (document.getElementById("uno-style")) return;
  const el = document.createElement("style");
  el.id = "uno-style";
  el.textContent = STYLE;
  document.head.appendChild(el);
}

const colourClass = (card) => (isBlack(card) ? "k" : card[0]);
const cardHtml = (card) => `<span class="card ${colourClass(card)}">${esc(card)}</span>`;

function controlsHtml(s, me) {
  if (!me || toAct(s) !== me) return "";
  const hand = s.hands[me] || [];
  const legal = s.owed ? [] : [...new Set(hand)].filter((c) => matches(c, s.top, s.colour));
  const buttons = legal.flatMap((c) => (isBlack(c)
    ? Object.keys(COLOURS).filter((k) => (s.variant === "uno-2-mini" ? "rg" : "rygb").includes(k))
      .map((k) => `<button type="button" class="card ${k}" data-card="${esc(c)}" data-colour="${k}">${esc(c)}→${k}</button>`)
    : [`<button type="button" class="card ${colourClass(c)}" data-card="${esc(c)}">${esc(c)}</button>`]));
  const draw = legal.length ? "" : `<button type="button" data-act="draw">Draw${s.owed ? ` ${s.owed} (penalty)` : ""}</button>`;
  return `<div class="uno-move" role="group" aria-label="your move">${buttons.join("")}${draw}</div>`;
}

export function renderBoard(el, s, opts = {}) {
  ensureStyle();
  const { me } = opts;
  const acting = toAct(s);
  const seats = s.seats.map((seat) => `<div class="seat${seat === acting ? " to-act" : ""}" data-seat="${seat}">` +
    `<b>${seat}</b>${seat === me ? " (you)" : ""} · ${s.counts[seat] ?? "?"} cards</div>`).join("");
  const top = s.top ? `<p>Pile: ${cardHtml(s.top)}${s.colour ? ` colour in force: <b>${COLOURS[s.colour]}</b>` : " (any card)"} · deck: ${s.deckCount} cards</p>` : "";
  const hand = me && s.hands[me] ? `<div class="hand" aria-label="your cards">${s.hands[me].map(cardHtml).join("")}</div>` : "";
  const over = s.phase === "finished" ? `<p class="over"><b>${s.winner ? `${esc(s.winner)} wins` : "Nobody wins"}</b></p>` : "";
  const turn = acting ? `<p>${acting === me ? "<b>Your move.</b>" : `Waiting for ${esc(acting)}.`}</p>` : "";
  el.innerHTML = `<div class="uno"><div class="seats">${seats}</div>${top}${over}${turn}${hand}` +
    `${controlsHtml(s, me)}${opts.extraHtml || ""}</div>`;
}

const pct = (p) => (p >= 0.9995 ? "100%" : p < 0.0005 ? "0" : `${(100 * p).toFixed(p < 0.1 ? 1 : 0)}%`);

// holder -> kind -> {e, p}: expected copies (the sum of P(>= j)) and P(>= 1)
export function holdings(marginals) {
  const out = {};
  for (const [holder, row] of Object.entries(marginals || {})) {
    const kinds = {};
    for (const [item, p] of Object.entries(row)) {
      const kind = item.split(">=")[0];
      kinds[kind] = kinds[kind] || { e: 0, p: 0 };
      kinds[kind].e += p;
      if (kind === item) kinds[kind].p = p;
    }
    out[holder] = kinds;
  }
  return out;
}

export function renderOverlay(el, s, belief, me, opts = {}) {
  const held = holdings(belief && belief.marginals);
  const holders = Object.keys(held);
  if (!holders.length) {
    el.innerHTML = `<section class="uno-ov"><h2>Hidden cards</h2><p class="muted">${esc(opts.note || "Waiting for the deal.")}</p></section>`;
    return;
  }
  const table = (holder) => {
    const rows = Object.entries(held[holder]).sort((a, b) => b[1].e - a[1].e || a[0].localeCompare(b[0]));
    const name = holder === "deck" ? "The deck" : `${holder}'s hand`;
    const size = (belief.remaining || {})[holder];
    return `<div class="holder" data-holder="${holder}"><h3>${esc(name)}${size != null ? ` (${size} cards)` : ""}</h3>` +
      `<table><thead><tr><th>card</th><th>expected</th><th>P(at least one)</th></tr></thead><tbody>` +
      rows.map(([kind, v]) => `<tr><th>${cardHtml(kind)}</th><td class="e" data-holder="${holder}" data-kind="${esc(kind)}" data-e="${v.e}">${v.e.toFixed(2)}</td>` +
        `<td class="c" data-holder="${holder}" data-tile="${esc(kind)}" data-p="${v.p}">${pct(v.p)}</td></tr>`).join("") +
      `</tbody></table></div>`;
  };
  const relaxed = belief.status === "relaxed" || belief.status === "estimate"
    ? `<p class="relaxed"><b>Not exact here</b>: ${esc(belief.estimate || (belief.details || {}).estimate || "")}</p>` : "";
  const facts = (belief.facts || []).map((f) => `<li>${esc(f)}</li>`).join("");
  el.innerHTML = `<section class="uno-ov" aria-label="hidden cards"><h2>Hidden cards</h2>` +
    `<p class="muted label">Model: <b>${esc(belief.model || "")}</b>. ${me ? `From ${esc(me)}'s seat.` : "As a spectator."}` +
    `${opts.changedBy ? ` After: ${esc(opts.changedBy)}.` : ""}</p>${relaxed}` +
    `<div class="cols">${holders.map(table).join("")}</div>${facts ? `<ul class="facts">${facts}</ul>` : ""}</section>`;
}

export function attachHover(el) {
  el.addEventListener("mouseover", (e) => {
    const c = e.target.closest && e.target.closest(".c[data-p]");
    if (!c) return void hideTip();
    showTip(`${c.dataset.holder} holds at least one ${c.dataset.tile}: ${(100 * Number(c.dataset.p)).toFixed(2)}%`, c.getBoundingClientRect());
  });
  el.addEventListener("mouseleave", () => hideTip());
}

export function liveTable(ctx) {
  const { app, me, tableId, boardEl, overlayEl } = ctx;

  function render() {
    const extra = `<div class="controls"><button type="button" class="ov-toggle" aria-pressed="${ctx.overlayOn()}">Hidden cards (O)</button></div>`;
    renderBoard(boardEl, app.state, { me, extraHtml: extra });
  }

  function renderOverlayNow() {
    if (!ctx.overlayOn()) return;
    const ev = app.belief && app.events && app.events[app.belief.seq - 1];
    renderOverlay(overlayEl, app.state, app.belief, me, { changedBy: ev ? `${describe(ev)} (seq ${ev.seq})` : "" });
    overlayEl.dataset.seq = app.belief ? app.belief.seq : 0;
    overlayEl.dataset.observer = me || "spectator";
  }

  const send = moveSender(app, tableId, () => render());

  function onClick(e) {
    const card = e.target.closest("[data-card]");
    if (card) {
      const move = { kind: "play", card: card.dataset.card };
      if (card.dataset.colour) move.colour = card.dataset.colour;
      return void send(move) || true;
    }
    if (e.target.closest("[data-act=draw]")) return void send({ kind: "draw" }) || true;
    return false;
  }

  return { render, renderOverlay: renderOverlayNow, afterEvent: () => render(), onClick, onKey: () => false, canAdvise: () => false };
}

export function renderReplayStep(ctx) {
  const { state, perspective } = ctx;
  const seat = state.seats.includes(perspective) ? perspective : null;
  renderBoard(ctx.boardEl, state, { me: seat });
  if (!ctx.overlayOn) return;
  renderOverlay(ctx.overlayEl, state, perspective === "all" ? null : ctx.belief, seat, {
    changedBy: ctx.event ? `${describe(ctx.event)} (seq ${ctx.event.seq})` : "",
    note: perspective === "all" ? "Every card open: nothing to infer." : "",
  });
}
