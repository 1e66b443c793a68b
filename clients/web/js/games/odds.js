// What every game's odds panel shares: which figures moved with the last belief (outlined, with
// the move that moved them named), one line per holder, each estimate labelled in words with
// its error, and the accessible name of one figure. Dominoes drew these first; the other
// games' panels use the same pieces, so they read the same way.

import { esc } from "../ui.js";

// A figure is outlined when its probability moved by this much (3 points): smaller shifts
// touch nearly every figure after any move and would drown the ones that matter.
export const CHANGED = 0.03;

// The figures ("holder|item") whose probability moved by CHANGED or more with the last
// belief: against `before` when given (a replay's previous step), else the belief this
// element showed before the current one (same hand only: a belief's `hand`, where it has one).
export function changedCells(el, belief, before) {
  const now = belief && belief.marginals ? belief.marginals : null;
  if (belief && belief.seq !== el._seqNow) {
    el._basis = el._seqNow !== undefined ? { hand: el._handNow, marginals: el._marginalsNow } : null;
    el._seqNow = belief.seq;
    el._handNow = belief.hand;
    el._marginalsNow = now;
  }
  const basis = before !== undefined ? before : el._basis;
  const out = new Set();
  if (!now || !basis || !basis.marginals || basis.hand !== belief.hand) return out;
  for (const [holder, column] of Object.entries(now)) {
    const old = basis.marginals[holder] || {};
    for (const [item, p] of Object.entries(column)) {
      if (old[item] !== undefined && Math.abs(old[item] - p) >= CHANGED) out.add(`${holder}|${item}`);
    }
  }
  return out;
}

// The line under the summaries: what the outlined figures changed after. Always one line
// (empty when nothing moved), so what is below never jumps under the pointer.
export function changedByHtml(changedBy, changed) {
  return changedBy && changed && changed.size
    ? `<p class="changed-by"><span class="sw changed"></span>Outlined: changed after <b>${esc(changedBy)}</b></p>`
    : `<p class="changed-by" aria-hidden="true">&nbsp;</p>`;
}

// One line per holder: [{holder, text}] -> the list the panel starts with.
export function gistsHtml(lines) {
  const items = lines.map(({ holder, text }) => `<li data-holder="${esc(holder)}" title="${esc(text)}">${esc(text)}</li>`);
  return items.length ? `<ul class="gists" aria-label="each player in a line">${items.join("")}</ul>` : "";
}

// A probability as the panels print it: "0", "<1%", "42%", ">99%", "100%".
export function pctText(p) {
  if (p <= 0) return "0";
  if (p >= 1) return "100%";
  if (p < 0.005) return "<1%";
  if (p > 0.995) return ">99%";
  return `${Math.round(p * 100)}%`;
}

// a count in words: digits grouped ("12,870"), or "3.2 × 10²¹" past 15 digits
function grouped(n) {
  const text = String(n);
  if (/^\d+$/.test(text) && text.length <= 15) return text.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const x = Number(n);
  if (!Number.isFinite(x)) return text;
  const exp = Math.floor(Math.log10(x));
  const sup = String(exp).replace(/\d/g, (d) => "⁰¹²³⁴⁵⁶⁷⁸⁹"[d]);
  return `${(x / 10 ** exp).toFixed(1)} × 10${sup}`;
}

// What the figures are, in words, with their error: exact (counted over N deals, so no error)
// or an estimate within ± its widest 95% error. `what` names the deals ("deals", "deals and draws").
export function accuracyWords(belief, what = "deals") {
  if (!belief) return "";
  if (belief.status === "estimate") {
    const err = typeof belief.error_95 === "number" ? ` each figure within ±${(belief.error_95 * 100).toFixed(1)} percentage points (95% confidence, the widest)` : " its error is not known";
    const n = belief.samples != null ? `, from ${grouped(belief.samples)} sampled ${what}` : "";
    return `Estimate, not exact:${err}${n}. Exact counting is over its budget here.`;
  }
  const deals = belief.consistent_deals;
  // one deal left is the truth itself: said so, not "the 1 deals"
  const n = deals === 1 ? ": only one deal fits what you saw"
    : deals != null ? ` over the ${grouped(deals)} ${what} that fit what you saw` : "";
  return `Exact: counted${n}, so no sampling error.`;
}

// The accessible name of one figure: "West, 5-6, 42%".
export const cellLabel = (holder, item, p) => `${holder}, ${item}, ${p <= 0 ? "0%" : pctText(p)}`;
