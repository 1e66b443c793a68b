// The Uno odds panel: one line per hand you cannot see ("North: 5 cards; no red; most likely
// holds a Wild (62%)"), then each hidden hand and the deck as small cards grouped by colour,
// each with the chance of holding at least one (and the expected copies where two are
// possible) — exact from the belief's marginals, whose items are "r7" (holds >= 1) and
// "r7>=2" (holds >= 2), so the expected copies are their sum. Figures that moved with the
// last move are outlined and the move named; an estimate says so, with its error. A switch
// above the figures shows, instead, the play-aware layer (layer.js) with its own label; the
// exact figures come back with the other button.

import { esc, hideTip, showTip } from "../../ui.js";
import { accuracyWords, cellLabel, changedByHtml, changedCells, gistsHtml, pctText } from "../odds.js";
import { cardFace, cardWords, colourOf } from "./cards.js";
import { COLOURS } from "./fold.js";
import { PLAY_MODEL, layerErrors, layerSwitchHtml, layerTechnical, layerWords } from "./layer.js";

const SEAT_NAMES = { S: "South", N: "North" };
export const holderName = (h) => (h === "deck" ? "The deck" : SEAT_NAMES[h] || h);
export const cardsWord = (n) => `${n} card${n === 1 ? "" : "s"}`;
const ORDER = ["r", "y", "g", "b", "k"];
const VALUES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2", "W", "W+4"];
const valueRank = (kind) => VALUES.indexOf(kind[0] === "W" ? kind : kind.slice(1));

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

// One hand in a line, strongest first: the cards held for sure, the colours it cannot hold,
// its likeliest card.
export function gistText(holder, kinds, count) {
  const parts = count != null ? [cardsWord(count)] : [];
  const rows = Object.entries(kinds);
  const sure = rows.filter(([, v]) => v.p >= 1).map(([k]) => cardWords(k));
  const known = !rows.some(([, v]) => v.p > 0 && v.p < 1); // every card known: said with its figure
  if (sure.length) parts.push(`holds ${sure.join(", ")} for sure${known ? " (100%)" : ""}`);
  const none = ORDER.filter((c) => !rows.some(([k, v]) => colourOf(k) === c && v.p > 0))
    .map((c) => (c === "k" ? "no Wild" : `no ${COLOURS[c]}`));
  if (none.length) parts.push(none.join(", "));
  const open = rows.filter(([, v]) => v.p > 0 && v.p < 1).sort((a, b) => b[1].p - a[1].p || a[0].localeCompare(b[0]));
  const tied = open.length > 1 && open[0][1].p - open[1][1].p < 1e-9;
  const likely = !open.length ? "" : tied ? `; no card likelier than ${pctText(open[0][1].p)}`
    : `; most likely holds ${/^[aeiouAEIOU]/.test(cardWords(open[0][0])) ? "an" : "a"} ${cardWords(open[0][0])} (${pctText(open[0][1].p)})`;
  return `${holderName(holder)}: ${parts.join("; ")}${likely}`;
}

function chip(holder, kind, v, ctx) {
  const moved = ctx.changed.has(`${holder}|${kind}`) ? " changed" : "";
  const err = ctx.errors && ctx.errors[holder] && ctx.errors[holder][kind];
  const label = `${cellLabel(holderName(holder), cardWords(kind), v.p)}${err != null ? ` ±${(err * 100).toFixed(1)}` : ""}` +
    `${v.e - v.p > 0.005 ? `, about ${v.e.toFixed(1)} copies` : ""}`;
  const shade = `rgba(29,78,216,${(0.08 + 0.5 * v.p).toFixed(3)})`;
  return `<span class="uno-chip${moved}" data-holder="${holder}" data-kind="${esc(kind)}">` +
    cardFace(kind, { mini: true, label: cardWords(kind) }) +
    `<span class="c" data-holder="${holder}" data-tile="${esc(kind)}" data-p="${v.p}" role="img" aria-label="${esc(label)}" ` +
    `style="background:${shade}">${pctText(v.p)}</span>` +
    `<span class="e" data-holder="${holder}" data-kind="${esc(kind)}" data-e="${v.e}" aria-hidden="true">${v.e - v.p > 0.005 ? `~${v.e.toFixed(1)}` : ""}</span></span>`;
}

function holderHtml(holder, kinds, size, ctx) {
  const byColour = ORDER.map((c) => {
    const rows = Object.entries(kinds).filter(([k]) => colourOf(k) === c)
      .sort((a, b) => valueRank(a[0]) - valueRank(b[0]));
    if (!rows.length) return "";
    return `<div class="uno-row" data-colour="${c}"><span class="uno-row-name">${c === "k" ? "Wild" : COLOURS[c]}</span>` +
      `<div class="uno-chips">${rows.map(([k, v]) => chip(holder, k, v, ctx)).join("")}</div></div>`;
  }).join("");
  return `<section class="uno-holder" data-holder="${holder}"><h3>${esc(holderName(holder))}` +
    `${size != null ? ` <span class="muted">${cardsWord(size)}</span>` : ""}</h3>` +
    `${byColour || `<p class="muted">No card can be there.</p>`}</section>`;
}

// opts: {note (why there is nothing to show), changedBy, before, over (the match ended),
//        layer: {model, odds (the play-aware answer for this belief, or null), error, waiting}}
// With the layer chosen and its answer in, the figures are the layer's, labelled as such;
// while it is on its way, the exact ones dimmed; the exact figures are drawn as ever otherwise.
export function renderOverlay(el, s, belief, me, opts = {}) {
  const layer = opts.layer;
  const switchHtml = layer ? layerSwitchHtml(layer.model) : "";
  const changed = changedCells(el, belief, opts.before); // the exact belief's moves, whatever is shown
  const exactHeld = holdings(belief && belief.marginals);
  const holders = Object.keys(exactHeld);
  el.dataset.shown = "exact";
  if (!holders.length) {
    const over = s.phase === "finished" || (belief && belief.status === "over");
    // an estimate with too few effective samples shows no numbers, only why
    const said = belief && belief.status === "estimate" && (belief.estimate || (belief.details || {}).estimate);
    const note = opts.note || (over ? "The match is over: every hand is shown on the table, so nothing is hidden."
      : said ? `Estimate, not exact: ${said}` : "Waiting for the deal.");
    el.innerHTML = `<section class="uno-ov"><h2>The odds: hidden cards</h2>${switchHtml}<p class="muted">${esc(note)}</p></section>`;
    return;
  }
  const weighed = layer && layer.model === PLAY_MODEL;
  const odds = weighed ? layer.odds : null;
  const held = odds ? holdings(odds.marginals) : exactHeld;
  const remaining = (odds && odds.remaining) || belief.remaining || {};
  const players = holders.filter((h) => h !== "deck");
  const gists = gistsHtml(players.map((h) => ({ holder: h, text: gistText(h, held[h] || {}, remaining[h]) })));
  const outlined = weighed ? new Set() : changed; // the layer's figures are not compared move to move
  const ctx = { changed: outlined, errors: odds ? layerErrors(odds) : belief.status === "estimate" ? belief.marginal_error_95 : null };
  const facts = (belief.facts || []).map((f) => `<li>${esc(f)}</li>`).join("");
  const seat = me ? `From ${esc(SEAT_NAMES[me] || me)}'s seat.` : "As a spectator.";
  let words = `${esc(accuracyWords(belief, "deals and draws"))} Every deal and draw that fits the public moves counts as equally likely. ${seat}`;
  let labelClass = belief.status === "estimate" ? " relaxed" : "";
  if (weighed) {
    el.dataset.shown = odds ? "plays" : layer.waiting ? "waiting" : "exact";
    words = odds ? `${esc(layerWords(odds))} ${seat}`
      : `${esc(layer.error || "Weighing the deals by the plays…")} The figures shown are the exact ones` +
        `${layer.waiting ? ", until the estimate comes" : ""}. ${seat}`;
    labelClass = " layer-words";
  }
  const technical = odds && odds.label ? `<details class="uno-model"${el._modelOpen ? " open" : ""}><summary>The model, ` +
    `technically</summary><p class="muted">${esc(layerTechnical(odds))}</p></details>` : "";
  el.innerHTML = `<section class="uno-ov" aria-label="the odds: hidden cards"><h2>The odds: hidden cards</h2>${switchHtml}` +
    `${gists}${changedByHtml(opts.changedBy, outlined)}` +
    `<p class="muted label accuracy${labelClass}">${words}</p>${technical}` +
    `<div class="uno-holders${weighed && !odds && layer.waiting ? " pending" : ""}">` +
    `${players.map((h) => holderHtml(h, held[h] || {}, remaining[h], ctx)).join("")}` +
    `${held.deck ? `<details class="uno-deck"${el._deckOpen ? " open" : ""}><summary>The deck, card by card ` +
      `(${cardsWord(remaining.deck ?? 0)})</summary>${holderHtml("deck", held.deck, remaining.deck, ctx)}</details>` : ""}</div>` +
    `<p class="muted legend">Under each card: the chance of holding at least one; ~1.4: the expected copies, where two are possible.</p>` +
    `${facts ? `<h3>Facts</h3><ul class="facts">${facts}</ul>` : ""}${weighed ? "" : seedHtml(el, belief, exactHeld)}</section>`;
}

// Seed 004's approximate update beside the exact belief (a seat's view): where the two
// differ most, both figures, and the largest gap. A comparison, folded; never the odds.
function seedHtml(el, belief, held) {
  const seed = belief.seed_update || (belief.details || {}).seed_update;
  if (!seed || seed.largest_gap == null) return "";
  const mine = held[seed.holder] || {};
  const ours = (kind) => (mine[kind] ? mine[kind].p : 0);
  const theirs = (kind) => seed.at_least_one[kind] || 0;
  const kinds = [...new Set([...Object.keys(mine), ...Object.keys(seed.at_least_one)])]
    .map((kind) => [kind, Math.abs(theirs(kind) - ours(kind))])
    .filter(([, gap]) => gap >= 0.005).sort((a, b) => b[1] - a[1]).slice(0, 6);
  const named = (kind) => { const w = cardWords(kind); return w[0].toUpperCase() + w.slice(1); };
  const rows = kinds.map(([kind]) => `<li>${esc(named(kind))}: this page ${pctText(ours(kind))}, ` +
    `the seed's update ${pctText(theirs(kind))}</li>`).join("");
  const who = SEAT_NAMES[seed.holder] || seed.holder;
  return `<details class="uno-seed"${el._seedOpen ? " open" : ""}><summary>Compare: seed 004's approximate update ` +
    `(largest gap ${Math.round(seed.largest_gap * 100)} points)</summary>` +
    `<p class="muted">The chance that ${esc(who)} holds at least one of a card, as seed 004's quick update says ` +
    `(it starts again from "any hand" after every move and forgets what draws showed), beside the exact figure above.</p>` +
    `${rows ? `<ul>${rows}</ul>` : `<p class="muted">The two agree on every card here.</p>`}</details>`;
}

export const PANEL_STYLE = `
.uno-ov .uno-holder h3 { margin: 0.5rem 0 0.2rem; font-size: 0.95rem; }
.uno-row { display: flex; align-items: flex-start; gap: 6px; margin: 2px 0; }
.uno-row-name { flex: none; width: 3.6em; font-size: 0.75rem; color: #555; padding-top: 10px; text-transform: capitalize; }
.uno-chips { display: flex; flex-wrap: wrap; gap: 4px; min-width: 0; }
.uno-chip { display: inline-flex; flex-direction: column; align-items: center; gap: 1px; padding: 2px; border-radius: 6px; min-width: 38px; }
.uno-chip.changed { box-shadow: inset 0 0 0 2px #ea580c; }
.uno-chip .c { font-size: 0.72rem; font-weight: 700; padding: 0 3px; border-radius: 3px; white-space: nowrap; color: #111; }
.uno-chip .e { font-size: 0.66rem; color: #555; min-height: 0.8em; line-height: 1; }
.uno-ov .relaxed { color: #8a4b00; }
.uno-ov .ov-model { display: flex; flex-wrap: wrap; gap: 0.4rem; margin: 0.4rem 0; }
.uno-ov .ov-model button[aria-pressed="true"] { font-weight: 700; outline: 2px solid #b45309; }
.uno-ov .layer-words { color: #7c2d12; }
.uno-holders.pending { opacity: 0.55; }
.uno-ov .uno-model p { font-size: 0.8rem; margin: 0.2rem 0; }
.uno-ov .uno-model summary { font-size: 0.85rem; }
`;

export function attachHover(el) {
  el.addEventListener("toggle", (e) => { // the deck's list stays open (or shut) across updates
    if (e.target.classList && e.target.classList.contains("uno-deck")) el._deckOpen = e.target.open;
    if (e.target.classList && e.target.classList.contains("uno-seed")) el._seedOpen = e.target.open;
    if (e.target.classList && e.target.classList.contains("uno-model")) el._modelOpen = e.target.open;
  }, true);
  el.addEventListener("mouseover", (e) => {
    const c = e.target.closest && e.target.closest(".uno-chip");
    if (!c) return void hideTip();
    const cell = c.querySelector(".c[data-p]");
    showTip(cell.getAttribute("aria-label"), c.getBoundingClientRect());
  });
  el.addEventListener("mouseleave", () => hideTip());
}
