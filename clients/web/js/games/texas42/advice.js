// Texas 42's advice on the page: the bidding oracle's table (seed 003) for a bid or the trump,
// the ranked plays for a play; the same drawing at a live table and in the replay viewer.
// Every figure is shown with what it is, in words; the oracle's own labels (completion model,
// evaluators) are under "Technical labels".

import { esc } from "../../ui.js";
import { bidWords } from "./describe.js";
import { SEAT_NAMES, trumpWords } from "./words.js";

const pct = (p) => `${Math.round(p * 100)}%`;
const ci = (pair) => `[${pct(pair[0])}–${pct(pair[1])}]`;
const num = (x, d = 1) => (x == null ? "–" : Number(x).toFixed(d));

// The oracle's table in a player's words: one row per trump (the recommended one first and
// marked), one column per bid level; each cell the chance to make that bid with every hand
// open (double-dummy) with its 95% interval, and under it the chance with simple (greedy)
// play against defenders who see every hand; the average points and their usual range. The
// oracle's own labels (models, evaluators, stopping rule) are one click away, under
// "Technical labels". The data attributes keep the payload's figures for the tests.
export function oracleHtml(advice, opts = {}) {
  const o = advice.oracle;
  if (!o) return `<p class="muted">${esc(advice.note || "The oracle has no table for this position.")}</p>`;
  // the bid levels the oracle's table has (30 ... 42, 84), in order
  const levels = (opts.levels || Object.keys(o.cells[o.trump] || Object.values(o.cells)[0] || {})
    .map(Number).sort((a, b) => a - b)).map(String);
  const trumps = Object.keys(o.cells).sort((a, b) => (a === o.trump ? -1 : b === o.trump ? 1 : o.score_means[b] - o.score_means[a]));
  const mark = opts.bid ? String(opts.bid) : null;
  const head = levels.map((k) => `<th scope="col" class="${k === mark ? "played" : ""}">${esc(bidWords(Number(k)))}</th>`).join("");
  const rows = trumps.map((t) => {
    const row = o.cells[t];
    const c30 = row["30"];
    const cells = levels.map((k) => {
      const c = row[k];
      const gap = c.fusion_gap > 0.2 ? " big-gap" : "";
      const words = `${bidWords(Number(k))} with ${trumpWords(t)}: ${pct(c.P_dd)} with every hand open ${ci(c.P_dd_CI)}, ` +
        `${pct(c.P_greedy)} with simple play against defenders who see every hand`;
      return `<td class="cell${gap}${k === mark && t === o.trump ? " played" : ""}" data-trump="${esc(t)}" data-bid="${k}" ` +
        `data-p-dd="${c.P_dd}" data-p-greedy="${c.P_greedy}" title="${esc(words)}" aria-label="${esc(words)}">` +
        `<b>${pct(c.P_dd)}</b><small>${ci(c.P_dd_CI)}</small><span class="lower">${pct(c.P_greedy)}</span></td>`;
    }).join("");
    return `<tr class="${t === o.trump ? "chosen" : ""}" data-trump="${esc(t)}"><th scope="row">${t === o.trump ? "★ " : ""}${esc(trumpWords(t))}` +
      `${c30.strategy_stable ? "" : ` <span class="flag" title="the best way to play it changes from deal to deal">unsteady</span>`}</th>` +
      `<td class="score">${num(c30.score_mean)} <small>usually ${c30.score_q5}–${c30.score_q95}</small></td>${cells}</tr>`;
  }).join("");
  const technical = [o.completion_model, o.evaluator, o.lower_evaluator, o.note, advice.label].filter(Boolean);
  return `<p class="oracle-summary">Name <b data-trump="${esc(o.trump)}">${esc(trumpWords(o.trump))}</b>: with it your side ` +
    `takes <b>${num(o.max_trump_E_score)}</b> of the 42 points on average, over ${o.N} deals that fit your hand.` +
    (advice.partial ? ` <span class="partial muted">So far: ${o.N} of ${o.N_target} deals solved; the intervals narrow as the rest come in.</span>` : "") +
    `</p>` +
    `<div class="scroll"><table class="oracle-table${advice.partial ? " partial" : ""}" data-n="${o.N}" data-n-target="${o.N_target}"${advice.partial ? ` data-partial="true"` : ""}><caption class="muted">Your chance to make each bid</caption>` +
    `<thead><tr><th scope="col">Trump</th><th scope="col">Points (average)</th>${head}</tr></thead>` +
    `<tbody>${rows}</tbody></table></div>` +
    `<p class="muted oracle-legend">Each cell: <b>the chance to make the bid</b> if all four hands were open and everyone ` +
    `played perfectly, its 95% interval, and under it, in brown, the chance when your side plays the simple way ` +
    `against defenders who see every hand. Measured against played-out hands, the first overstates a real ` +
    `chance (by about 20–30 points mid-range) and the second understates it: real play lay between them, though ` +
    `neither is a bound. The bids so far are not used.</p>` +
    `<details class="technical"><summary>Technical labels</summary><p class="muted">N = ${o.N} completions (stopped: ${esc(o.stopped)}). ` +
    `Letting the oracle pick trump per deal would claim ${num(o.E_max_trump_score)} points: never the value of a bid.</p>` +
    `<ul class="muted">${technical.map((t) => `<li>${esc(t)}</li>`).join("")}</ul></details>`;
}

// The ranked plays: "★ 6-4: your team 33.5 points [23–44], bid made in 67% of 6 deals".
export function playsHtml(advice, played = null) {
  if (!advice.moves || !advice.moves.length) {
    return `<p class="muted">${esc(advice.note)} (greedy: <b>${esc(advice.greedy)}</b>).</p>`;
  }
  const who = `${esc(SEAT_NAMES[advice.bidder] || advice.bidder)}'s ${advice.bid}`;
  return `<ol class="advice-list">` + advice.moves.map((m, i) =>
    `<li class="${i === 0 ? "best" : ""}${played === m.tile ? " played" : ""}" data-tile="${esc(m.tile)}" data-team-points="${m.team_points}">` +
    `${i === 0 ? "★ " : ""}<b>${esc(m.tile)}</b>: your team ${num(m.team_points)} points` +
    `${m.ci[0] == null ? "" : ` [${num(m.ci[0], 0)}–${num(m.ci[1], 0)}]`}, ${who} made in ${pct(m.p_bid_made)} of ${m.samples} deals` +
    `${played === m.tile ? ` <span class="you-played">played</span>` : ""}</li>`).join("") + `</ol>`;
}

// The whole advice box (a live table's or a replay's), with its label.
export function adviceHtml(advice, opts = {}) {
  const kind = advice.kind;
  const body = kind === "play" ? playsHtml(advice, opts.played) : oracleHtml(advice, opts);
  const what = kind === "bid" ? "Bidding advice" : kind === "trump" ? "Which trump to name" : "Play advice";
  // the oracle's label is among its technical labels; the plays' label is in words already
  const label = kind === "play" ? ` · <span class="label">${esc(advice.label)}</span>` : "";
  return `<p class="advice-label"><b>${what}</b>${label}</p>${body}`;
}

// The replay's verdict on the move shown, in words (and for the move list).
export function verdictWords(r) {
  const a = r.advice;
  if (!a || !r.played) return "";
  if (r.played.kind === "play") {
    if (!r.moves.length) return "";
    if (r.rank === 1) return "✓ the advisor's best play";
    const best = r.moves[0];
    const mine = r.rank ? r.moves[r.rank - 1] : null;
    return mine ? `played ${mine.tile}: ${(mine.team_points - best.team_points).toFixed(1).replace("-", "−")} points against the best, ${best.tile}` : "";
  }
  if (r.played.kind === "trump") {
    return r.rank === 1 ? `✓ the oracle's trump` : `named ${trumpWords(r.played.trump)}; the oracle ranks it ${r.rank} of 9 (it names ${trumpWords(a.oracle.trump)})`;
  }
  if (r.played.kind === "pass") return `passed (the chance to make 30 with ${trumpWords(a.oracle.trump)}: ${pct(a.oracle.cells[a.oracle.trump]["30"].P_dd)} with every hand open)`;
  const c = r.cell;
  return c ? `bid ${bidWords(r.played.bid)}: the chance to make it ${pct(c.P_dd)} ${ci(c.P_dd_CI)} with every hand open, ` +
    `${pct(c.P_greedy)} with simple play, with ${trumpWords(r.trump)}` : "";
}

// The replay viewer's advisor panel for one move (js/replay_view.js calls this when present).
export function replayAdviceHtml(r) {
  const who = esc(SEAT_NAMES[r.seat] || r.seat);
  const opts = r.played && r.played.kind === "bid" ? { bid: r.played.bid } : r.played && r.played.kind === "play" ? { played: r.played.tile } : {};
  return `<p class="advice-label"><b>Advisor</b> · ${who} before seq ${r.seq}: <span class="verdict">${esc(verdictWords(r))}</span></p>` +
    adviceHtml(r.advice, opts);
}
