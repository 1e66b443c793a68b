// The detective notebook: every card (rows, by type) against every holder (seats and the
// envelope, columns) with the exact probability, the envelope's odds per type, the facts the
// seed's rules reach (each exactly 0 or 1 in the numbers), and the model the numbers assume.
// A switch above the figures shows, instead, the show-aware layer (layer.js: the server's
// answer, with its own words); the exact figures come back with the other button.

import { esc, hideTip, showTip } from "../../ui.js";
import { accuracyWords, cellLabel, changedByHtml, changedCells, gistsHtml, pctText } from "../odds.js";
import { deckOf } from "./fold.js";
import { namedText, seatLabel } from "./names.js";
import { SHOW_MODEL, layerErrors, layerSwitchHtml, layerTechnical, layerWords } from "./layer.js";
import { loadMarks, markButton } from "./sheet.js";

const pct = pctText;
const holderName = (h, me) => (h === "envelope" ? "Envelope" : h === me ? `${seatLabel(h)} (you)` : seatLabel(h));
const cardsWord = (n) => `${n} card${n === 1 ? "" : "s"}`;

// one figure; `err`: its 95% error where the layer shown is sampled (in its name and tip)
function cell(h, card, p, changed, err) {
  const shade = Math.round(255 - 155 * p);
  const mark = p >= 0.9995 ? " sure" : p < 0.0005 ? " out" : "";
  const moved = changed.has(`${h}|${card}`) ? " changed" : "";
  const pm = err != null ? ` ±${(err * 100).toFixed(1)}` : "";
  return `<td class="c${mark}${moved}" data-holder="${h}" data-tile="${esc(card)}" data-p="${p}"${pm ? ` data-err="${err}"` : ""} ` +
    `aria-label="${esc(cellLabel(holderName(h), card, p) + pm)}" style="background: rgb(${shade}, ${shade}, 255)">${pct(p)}</td>`;
}

// A seat in one line: "Ann: 3 cards; holds Rope for sure; can't hold Scarlet, Hall; most likely
// Dagger (62%)" (the cards it cannot hold named when they are few, else counted).
export function seatGist(holder, column, size) {
  const rows = Object.entries(column || {});
  const parts = size != null ? [cardsWord(size)] : [];
  const sure = rows.filter(([, p]) => p >= 1).map(([c]) => c);
  const open = rows.filter(([, p]) => p > 0 && p < 1).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  // every card known: said with its figure, so the line still reads as odds
  if (sure.length) parts.push(`holds ${sure.join(", ")} for sure${open.length ? "" : " (100%)"}`);
  const out = rows.filter(([, p]) => p <= 0).map(([c]) => c);
  if (out.length) parts.push(out.length <= 4 ? `can't hold ${out.join(", ")}` : `can't hold ${out.length} cards`);
  const tied = open.length > 1 && open[0][1] - open[1][1] < 1e-9;
  const likely = !open.length ? "" : tied ? `; no card likelier than ${pct(open[0][1])}` : `; most likely ${open[0][0]} (${pct(open[0][1])})`;
  return `${holder}: ${parts.join("; ")}${likely}`;
}

// opts: {note (why there is nothing to show), changedBy (the last move in words), before,
//        sheet: {tableId, seat, picked: {suspect, weapon, room}, canSuggest} (a seated player's
//        own marks, card names that pick, and the picked suggestion with its button),
//        layer: {model, odds (the show-aware answer for this belief, or null), error, waiting}}
// With the layer chosen and its answer in, the figures are the layer's, labelled as such;
// while it is on its way, the exact ones dimmed; the exact figures are drawn as ever otherwise.
export function renderNotebook(el, state, belief, me, opts = {}) {
  const exact = belief && belief.marginals ? belief.marginals : {};
  const changed = changedCells(el, belief, opts.before); // the exact belief's moves, whatever is shown
  const layer = opts.layer || null;
  const switchHtml = layer ? layerSwitchHtml(layer.model) : "";
  el.dataset.shown = "exact";
  if (!Object.keys(exact).length) {
    const over = state.phase === "finished";
    el.innerHTML = `<section class="clue-ov"><h2>Detective notebook</h2>${switchHtml}<p class="muted">${esc(opts.note ||
      (over ? "The match is over: the envelope is open on the table." : "Waiting for the deal."))}</p></section>`;
    return;
  }
  const weighed = !!layer && layer.model === SHOW_MODEL;
  const odds = weighed ? layer.odds : null;
  const marginals = odds ? odds.marginals : exact;
  const holders = Object.keys(marginals);
  const outlined = weighed ? new Set() : changed; // the layer's figures are not compared move to move
  const errors = odds ? layerErrors(odds) : null;
  const errOf = (h, c) => (errors && errors[h] && errors[h][c] != null ? errors[h][c] : null);
  const seat = me ? `From your seat (${esc(seatLabel(me))}).` : "As a spectator.";
  let words = `${esc(accuracyWords(belief))} Every deal that fits what you saw counts as equally likely ` +
    `(how players choose what to suggest or show is not used). ${seat}`;
  let wordsClass = belief.status === "estimate" ? " estimate" : "";
  if (weighed) {
    el.dataset.shown = odds ? "shows" : layer.waiting ? "waiting" : "exact";
    words = odds ? `${esc(layerWords(odds, me))} ${seat}`
      : `${esc(layer.error || "Weighing the deals by the cards shown…")} The figures shown are the exact ones` +
        `${layer.waiting ? ", until the estimate comes" : ""}. ${seat}`;
    wordsClass = " layer-words";
  }
  const technical = odds && odds.label && odds.weighed ? `<details class="clue-model"${el._modelOpen ? " open" : ""}>` +
    `<summary>The model, technically</summary><p class="muted">${esc(layerTechnical(odds))}</p></details>` : "";
  const deck = deckOf(state.variant);
  const sheet = opts.sheet || null;
  const marks = sheet ? loadMarks(sheet.tableId, sheet.seat) : {};
  // "Envelope" may break as "Enve-lope" in a narrow column (a phone with six seats)
  const head = holders.map((h) => `<th scope="col">${h === "envelope" ? "Enve&shy;lope" : esc(holderName(h, me))}</th>`).join("");
  const width = holders.length + 1;
  // with the sheet: the player's mark, then the name (a click picks it for the suggestion)
  const picked = new Set(sheet && sheet.canSuggest ? Object.values(sheet.picked || {}) : []);
  const name = (c) => (sheet ? `${markButton(c, marks)}<button type="button" class="pick${picked.has(c) ? " picked" : ""}" data-pick="${esc(c)}" ` +
    `aria-pressed="${picked.has(c)}" title="pick ${esc(c)} for your suggestion">${esc(c)}</button>` : esc(c));
  const section = (title, cards) => `<tr class="kind"><th colspan="${width}" scope="colgroup">${title}</th></tr>` +
    cards.map((c) => `<tr><th class="clue-name" scope="row">${name(c)}</th>${holders.map((h) => cell(h, c, marginals[h][c] ?? 0, outlined, errOf(h, c))).join("")}</tr>`).join("");
  // the envelope's column is P(envelope = card): one card of each type, so per type it is the odds
  const column = marginals.envelope || {};
  const byKind = { suspect: deck.suspects, weapon: deck.weapons, room: deck.rooms };
  const oddsHtml = ["suspect", "weapon", "room"].map((kind) => {
    const row = byKind[kind].map((c) => [c, column[c] ?? 0]).sort((a, b) => b[1] - a[1]);
    return `<li class="odds" data-kind="${kind}"><b>${kind}</b>: ${row.map(([c, p]) =>
      `<span data-card="${esc(c)}" data-odds="${p}">${esc(c)} ${pct(p)}</span>`).join(" · ")}</li>`;
  }).join("");
  const gists = gistsHtml(holders.filter((h) => h !== "envelope" && h !== me).map((h) => ({
    holder: h, text: seatGist(seatLabel(h), marginals[h], state.handSizes[h]),
  })));
  el.innerHTML = `<section class="clue-ov" aria-label="detective notebook"><h2>Detective notebook</h2>${switchHtml}` +
    `${gists}${changedByHtml(opts.changedBy, outlined)}` +
    `<p class="muted label accuracy${wordsClass}">${words}</p>${technical}` +
    `<div class="clue-figures${weighed && !odds && layer.waiting ? " pending" : ""}">` +
    `<h3>The envelope</h3><ul class="envelope-odds">${oddsHtml}</ul>` +
    `${sheet ? `<p class="muted sheet-note">Your sheet: mark a card with the box before its name (✗ cleared, ? maybe, ★ your suspect); ` +
      `the marks are yours alone and never change the odds. A card's name picks it for your suggestion.</p>${suggestHtml(sheet)}` : ""}` +
    `<table class="notebook"><thead><tr><th scope="col">Card</th>${head}</tr></thead><tbody>` +
    `${section("Suspects", deck.suspects)}${section("Weapons", deck.weapons)}${section("Rooms", deck.rooms)}` +
    `</tbody></table></div>` +
    `${factsHtml(belief, me, weighed)}</section>`;
}

// The suggestion picked on the sheet, with its button when the seat may suggest now.
function suggestHtml(sheet) {
  const p = sheet.picked || {};
  if (!sheet.canSuggest) return "";
  const cards = ["suspect", "weapon", "room"].map((k) => `<b data-picked="${k}">${esc(p[k] || "?")}</b>`).join(" · ");
  return `<div class="sheet-suggest" role="group" aria-label="suggest from your sheet">Your suggestion: ${cards} ` +
    `<button type="button" data-act="suggest">Suggest</button></div>`;
}

// The facts as a player reads them: a line per card (where it is, or which hands it is not
// in, with the envelope's odds), then a line per rule, each deduction once; long lists fold.
// `weighed`: the layer is shown above, so the odds in these lines are said to be the exact ones.
function factsHtml(belief, me, weighed = false) {
  const groups = belief.fact_groups || (belief.details || {}).fact_groups || null;
  const cards = groups ? groups.cards : [];
  const rules = groups ? groups.rules : belief.facts || [];
  if (!cards.length && !rules.length) return "";
  const cardLine = ({ card, text }) => {
    const rest = text.startsWith(`${card}: `) ? text.slice(card.length + 2) : text;
    return `<li data-card="${esc(card)}"><b>${esc(card)}</b>: ${esc(namedText(rest, me))}</li>`;
  };
  const byCard = cards.length ? `<details class="clue-facts fact-cards"${cards.length <= 6 ? " open" : ""}>` +
    `<summary>Known so far, card by card (${cards.length})${weighed ? "; odds here: every deal alike" : ""}</summary><ul class="facts by-card">${cards.map(cardLine).join("")}</ul></details>` : "";
  const byRule = rules.length ? `<details class="clue-facts fact-rules"><summary>How it was found (${rules.length})</summary>` +
    `<ul class="facts by-rule">${rules.map((r) => `<li>${esc(namedText(r, me))}</li>`).join("")}</ul></details>` : "";
  return byCard + byRule;
}

export function attachHover(el) {
  el.addEventListener("toggle", (e) => { // the model's fold stays open (or shut) across updates
    if (e.target.classList && e.target.classList.contains("clue-model")) el._modelOpen = e.target.open;
  }, true);
  el.addEventListener("mouseover", (e) => {
    const c = e.target.closest && e.target.closest(".c[data-p]");
    if (!c) return void hideTip();
    const who = c.dataset.holder === "envelope" ? "The envelope" : seatLabel(c.dataset.holder);
    const err = c.dataset.err ? ` ±${(100 * Number(c.dataset.err)).toFixed(1)}` : "";
    showTip(`${who} holds ${c.dataset.tile}: ${(100 * Number(c.dataset.p)).toFixed(2)}%${err}`, c.getBoundingClientRect());
  });
  el.addEventListener("mouseleave", () => hideTip());
}
