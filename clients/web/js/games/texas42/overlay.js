// The odds overlay for Texas 42: one line per other seat ("West: 5 dominoes, has 6-6 for
// sure, can't have 3s; about 1.4 trumps; most likely 5-5 (62%)"), then one row per unseen
// domino (count dominoes, then trumps, then the rest, each group under its heading) with one
// column per seat: a narrow table that fits the panel on a desktop and on a phone. Figures
// that moved with the last move are outlined and the move named; the figures' accuracy and
// the model they assume are said in words.

import { esc, hideTip, showTip } from "../../ui.js";
import { behaviourLayer } from "../behaviour_layer.js";
import { gistText } from "../dominoes/overlay.js";
import { accuracyWords, cellLabel, changedByHtml, changedCells, gistsHtml, pctText } from "../odds.js";
import { SEAT_NAMES, SEATS, countOf, dominoesWord, isTrump } from "./words.js";

function order(tiles, trump) {
  const key = (t) => [countOf(t) ? 0 : 1, isTrump(t, trump) ? 0 : 1, -countOf(t), t];
  return tiles.slice().sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i += 1) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
}

const groupOf = (t, trump) => (countOf(t) ? "count" : isTrump(t, trump) ? "trump" : "other");
const GROUPS = { count: "Count dominoes", trump: "Trumps", other: "The rest" };

// A seat's line: the dominoes' summary, and how many trumps it is expected to hold.
export function seatGist(holder, column, count, trump) {
  const known = !Object.values(column).some((p) => p > 0 && p < 1); // every domino known: said with its figure
  const text = gistText(SEAT_NAMES[holder] || holder, column, count, 6, dominoesWord).replace(/ for sure/, known ? " for sure (100%)" : " for sure");
  const trumps = Object.entries(column).filter(([t]) => isTrump(t, trump));
  if (!trumps.length) return text;
  const expected = trumps.reduce((sum, [, p]) => sum + p, 0);
  const words = expected < 0.005 ? "no trumps" : `about ${expected.toFixed(1)} trump${Math.abs(expected - 1) < 0.05 ? "" : "s"}`;
  const at = text.indexOf(";");
  return at < 0 ? `${text}; ${words}` : `${text.slice(0, at)}; ${words}${text.slice(at)}`;
}

// The two layers a player may choose: the exact belief, or the bid-aware estimate beside it
// (the switch, the choice kept in this browser and the live `odds` requests: behaviour_layer.js).
export const BID_MODEL = "behaviour:bids";
export const BIDS_LAYER = behaviourLayer({ model: BID_MODEL, stored: "domino-oracle:t42-model",
  button: "Weighed by the bids (estimate)" });
const layerSwitchHtml = (model) => BIDS_LAYER.switchHtml(model);

// What the bid-aware layer is, in words: how sure, what it assumes.
function bidLayerWords(odds) {
  const weighed = odds.weighed ? `${odds.weighed} bid${odds.weighed === 1 ? "" : "s"} or pass${odds.weighed === 1 ? "" : "es"} weighed` : "no bid to weigh yet";
  return `${accuracyWords(odds)} Deals are weighed by how likely each seat's bids and passes were with the hand it would hold (${weighed}), ` +
    `by a model of bidding learnt from stored matches: an assumption about the players, not a fact.`;
}

// belief: the server's `belief` frame (the game's snapshot_dict) or null
// opts: {changedBy (the last move in words), before (a replay's previous belief), note,
//        layer: {model, odds (the `odds` answer for this seq, or null), error}: the live
//        layer's current() (behaviour_layer.js)}
export function renderOracle(el, state, belief, me, opts = {}) {
  const layer = opts.layer;
  if (layer && layer.model === BID_MODEL && belief && belief.marginals && Object.keys(belief.marginals).length) {
    const odds = layer.odds;
    const shown = odds ? { ...belief, marginals: odds.marginals, status: odds.status, error_95: odds.error_95, samples: odds.samples } : null;
    const words = odds ? bidLayerWords(odds) : layer.error ? layer.error : "Weighing the deals by the bids…";
    return void renderGrid(el, state, shown || belief, me, { ...opts, words, switchHtml: layerSwitchHtml(layer.model), dim: !odds });
  }
  const base = layer ? { ...opts, switchHtml: layerSwitchHtml(layer.model) } : opts;
  renderGrid(el, state, belief, me, base);
}

function renderGrid(el, state, belief, me, opts) {
  const marginals = belief && belief.marginals ? belief.marginals : {};
  const named = Object.keys(marginals);
  const changed = changedCells(el, belief, opts.before);
  if (!named.length) {
    el.innerHTML = `<section class="t42-ov"><h2>The odds</h2>${opts.switchHtml || ""}<p class="muted">${esc(opts.note ||
      "Nothing hidden to infer now (between hands).")}</p></section>`;
    return;
  }
  // seats in turn order after mine
  const from = me ? SEATS.indexOf(me) + 1 : 0;
  const holders = [...SEATS.slice(from), ...SEATS.slice(0, from)].filter((s) => named.includes(s));
  const trump = belief.trump != null ? belief.trump : state.trump;
  const tiles = order([...new Set(holders.flatMap((h) => Object.keys(marginals[h])))], trump);
  const gists = gistsHtml(holders.map((h) => ({
    holder: h, text: seatGist(h, marginals[h], (belief.remaining || {})[h], trump),
  })));
  const head = holders.map((h) => `<th scope="col" data-holder="${h}">${esc(SEAT_NAMES[h] || h)}</th>`).join("");
  let group = null;
  const rows = tiles.map((t) => {
    const g = groupOf(t, trump);
    const heading = g === group ? "" : `<tr class="group"><th colspan="${holders.length + 1}" scope="colgroup">${GROUPS[g]}</th></tr>`;
    group = g;
    const cells = holders.map((h) => {
      const p = marginals[h][t] ?? 0;
      const shade = Math.round(255 - 155 * p);
      const moved = changed.has(`${h}|${t}`) ? " changed" : "";
      return `<td class="c${moved}" data-holder="${h}" data-tile="${t}" data-p="${p}" ` +
        `aria-label="${esc(cellLabel(SEAT_NAMES[h] || h, t, p))}" style="background: rgb(${shade}, ${shade}, 255)">${pctText(p)}</td>`;
    }).join("");
    const what = countOf(t) ? ` <small>${countOf(t)}</small>` : "";
    return `${heading}<tr><th scope="row" class="tile ${g}">${t}${what}</th>${cells}</tr>`;
  }).join("");
  const facts = (belief.facts || []).map((f) => `<li>${esc(f)}</li>`).join("");
  const words = opts.words || `${accuracyWords(belief)} Every such deal counts as equally likely; the bids are not used.`;
  el.innerHTML = `<section class="t42-ov" aria-label="the odds"><h2>The odds: who holds which domino</h2>${opts.switchHtml || ""}` +
    `${gists}${changedByHtml(opts.changedBy, changed)}` +
    `<p class="muted label accuracy">${esc(words)} ` +
    `${me ? `From ${esc(SEAT_NAMES[me])}'s seat.` : "As a spectator."}</p>` +
    `<table class="t42-odds${opts.dim ? " pending" : ""}"><thead><tr><th scope="col">Domino</th>${head}</tr></thead><tbody>${rows}</tbody></table>` +
    `<p class="muted legend">Each figure: the chance that seat holds that domino. Count dominoes carry their points.</p>` +
    `${facts ? `<h3>Facts</h3><ul class="facts">${facts}</ul>` : ""}</section>`;
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
