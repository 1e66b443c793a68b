// The oracle overlay for Texas 42: for each other seat, the exact probability that it holds
// each unseen domino (count dominoes first, then trumps, then the rest), the facts in words,
// and the model the numbers assume.

import { esc, hideTip, showTip } from "../../ui.js";
import { SEAT_NAMES, countOf, isTrump } from "./rules.js";

function order(tiles, trump) {
  const key = (t) => [countOf(t) ? 0 : 1, isTrump(t, trump) ? 0 : 1, -countOf(t), t];
  return tiles.slice().sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i += 1) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
}

const pct = (p) => (p >= 0.9995 ? "100%" : p < 0.0005 ? "0" : `${(100 * p).toFixed(p < 0.1 ? 1 : 0)}%`);

// belief: the server's `belief` frame (the game's snapshot_dict) or null
export function renderOracle(el, state, belief, me, opts = {}) {
  const marginals = belief && belief.marginals ? belief.marginals : {};
  const holders = Object.keys(marginals);
  if (!holders.length) {
    el.innerHTML = `<section class="t42-ov"><h2>Oracle</h2><p class="muted">${esc(opts.note ||
      "Nothing hidden to infer now (between hands).")}</p></section>`;
    return;
  }
  const trump = belief.trump != null ? belief.trump : state.trump;
  const tiles = order([...new Set(holders.flatMap((h) => Object.keys(marginals[h])))], trump);
  const head = tiles.map((t) => `<th class="${countOf(t) ? "count" : isTrump(t, trump) ? "trump" : ""}" ` +
    `title="${countOf(t) ? `count: ${countOf(t)}` : isTrump(t, trump) ? "trump" : ""}">${t}</th>`).join("");
  const rows = holders.map((h) => `<tr><th>${esc(SEAT_NAMES[h] || h)}</th>${tiles.map((t) => {
    const p = marginals[h][t] ?? 0;
    const shade = Math.round(255 - 155 * p);
    return `<td class="c" data-holder="${h}" data-tile="${t}" data-p="${p}" ` +
      `style="background: rgb(${shade}, ${shade}, 255)">${pct(p)}</td>`;
  }).join("")}</tr>`).join("");
  const facts = (belief.facts || []).map((f) => `<li>${esc(f)}</li>`).join("");
  el.innerHTML = `<section class="t42-ov" aria-label="oracle overlay"><h2>Oracle: who can hold which domino</h2>` +
    `<p class="muted label">Model: <b>${esc(belief.model || "")}</b> — the bids are not used. ` +
    `${belief.consistent_deals != null ? `${Number(belief.consistent_deals).toLocaleString("en")} consistent deals.` : ""} ` +
    `${me ? `From ${esc(SEAT_NAMES[me])}'s seat.` : "As a spectator."}${opts.changedBy ? ` After: ${esc(opts.changedBy)}.` : ""}</p>` +
    `<div class="scroll"><table><thead><tr><th></th>${head}</tr></thead><tbody>${rows}</tbody></table></div>` +
    `${facts ? `<ul class="facts">${facts}</ul>` : ""}</section>`;
}

export function attachHover(el) {
  el.addEventListener("mouseover", (e) => {
    const c = e.target.closest && e.target.closest(".c[data-p]");
    if (!c) return void hideTip();
    showTip(`${SEAT_NAMES[c.dataset.holder] || c.dataset.holder} holds ${c.dataset.tile}: ` +
      `${(100 * Number(c.dataset.p)).toFixed(2)}%`, c.getBoundingClientRect());
  });
  el.addEventListener("mouseleave", () => hideTip());
}
