// The detective notebook: every card (rows, by type) against every holder (seats and the
// envelope, columns) with the exact probability, the envelope's odds per type, the facts the
// seed's rules reach (each exactly 0 or 1 in the numbers), and the model the numbers assume.

import { esc, hideTip, showTip } from "../../ui.js";
import { deckOf } from "./game.js";

const pct = (p) => (p >= 0.9995 ? "100%" : p < 0.0005 ? "0" : `${(100 * p).toFixed(p < 0.1 ? 1 : 0)}%`);
const holderName = (h, me) => (h === "envelope" ? "Envelope" : h === me ? `${h} (you)` : h);

function cell(h, card, p) {
  const shade = Math.round(255 - 155 * p);
  const mark = p >= 0.9995 ? " sure" : p < 0.0005 ? " out" : "";
  return `<td class="c${mark}" data-holder="${h}" data-tile="${esc(card)}" data-p="${p}" ` +
    `style="background: rgb(${shade}, ${shade}, 255)">${pct(p)}</td>`;
}

export function renderNotebook(el, state, belief, me, opts = {}) {
  const marginals = belief && belief.marginals ? belief.marginals : {};
  const holders = Object.keys(marginals);
  if (!holders.length) {
    el.innerHTML = `<section class="clue-ov"><h2>Detective notebook</h2><p class="muted">${esc(opts.note ||
      "Waiting for the deal.")}</p></section>`;
    return;
  }
  const deck = deckOf(state.variant);
  const head = holders.map((h) => `<th>${esc(holderName(h, me))}</th>`).join("");
  const section = (title, cards) => `<tr class="kind"><th colspan="${holders.length + 1}">${title}</th></tr>` +
    cards.map((c) => `<tr><th class="card">${esc(c)}</th>${holders.map((h) => cell(h, c, marginals[h][c] ?? 0)).join("")}</tr>`).join("");
  // the envelope's column is P(envelope = card): one card of each type, so per type it is the odds
  const column = marginals.envelope || {};
  const byKind = { suspect: deck.suspects, weapon: deck.weapons, room: deck.rooms };
  const oddsHtml = ["suspect", "weapon", "room"].map((kind) => {
    const row = byKind[kind].map((c) => [c, column[c] ?? 0]).sort((a, b) => b[1] - a[1]);
    return `<li class="odds" data-kind="${kind}"><b>${kind}</b>: ${row.map(([c, p]) =>
      `<span data-card="${esc(c)}" data-odds="${p}">${esc(c)} ${pct(p)}</span>`).join(" · ")}</li>`;
  }).join("");
  const facts = (belief.facts || []).map((f) => `<li>${esc(f)}</li>`).join("");
  const status = belief.status === "estimate"
    ? `<p class="estimate"><b>Estimate, not exact</b>: exact counting is over budget at this position (the model line gives the error bar).</p>` : "";
  el.innerHTML = `<section class="clue-ov" aria-label="detective notebook"><h2>Detective notebook</h2>` +
    `<p class="muted label">Model: <b>${esc(belief.model || "")}</b>. ` +
    `${belief.consistent_deals != null ? `${Number(belief.consistent_deals).toLocaleString("en")} consistent deals. ` : ""}` +
    `${me ? `From ${esc(me)}'s seat.` : "As a spectator."}${opts.changedBy ? ` After: ${esc(opts.changedBy)}.` : ""}</p>${status}` +
    `<h3>The envelope</h3><ul class="envelope-odds">${oddsHtml}</ul>` +
    `<div class="scroll"><table class="notebook"><thead><tr><th></th>${head}</tr></thead><tbody>` +
    `${section("Suspects", deck.suspects)}${section("Weapons", deck.weapons)}${section("Rooms", deck.rooms)}` +
    `</tbody></table></div>` +
    `${facts ? `<h3>Facts (seed 002's rules)</h3><ul class="facts">${facts}</ul>` : ""}</section>`;
}

export function attachHover(el) {
  el.addEventListener("mouseover", (e) => {
    const c = e.target.closest && e.target.closest(".c[data-p]");
    if (!c) return void hideTip();
    const who = c.dataset.holder === "envelope" ? "The envelope" : c.dataset.holder;
    showTip(`${who} holds ${c.dataset.tile}: ${(100 * Number(c.dataset.p)).toFixed(2)}%`, c.getBoundingClientRect());
  });
  el.addEventListener("mouseleave", () => hideTip());
}
