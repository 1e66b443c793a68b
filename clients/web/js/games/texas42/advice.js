// Texas 42's advice on the page: the bidding oracle's table (seed 003) for a bid or the trump,
// the ranked plays for a play; the same drawing at a live table and in the replay viewer.
// Every figure is shown with what it is: the completion model and the evaluator.

import { esc } from "../../ui.js";
import { bidWords } from "./describe.js";
import { BIDS, SEAT_NAMES, trumpWords } from "./rules.js";

const pct = (p) => `${Math.round(p * 100)}%`;
const ci = (pair) => `[${pct(pair[0])}–${pct(pair[1])}]`;
const num = (x, d = 1) => (x == null ? "–" : Number(x).toFixed(d));

// The oracle's table: one row per trump (the recommended one first and marked), one column
// per bid level; each cell P_upper [95% interval] over P_lower; the score's mean and quantiles.
export function oracleHtml(advice, opts = {}) {
  const o = advice.oracle;
  if (!o) return `<p class="muted">${esc(advice.note || "The oracle has no table for this position.")}</p>`;
  const levels = (opts.levels || BIDS).map(String);
  const trumps = Object.keys(o.cells).sort((a, b) => (a === o.trump ? -1 : b === o.trump ? 1 : o.score_means[b] - o.score_means[a]));
  const mark = opts.bid ? String(opts.bid) : null;
  const head = levels.map((k) => `<th scope="col" class="${k === mark ? "played" : ""}">${esc(bidWords(Number(k)))}</th>`).join("");
  const rows = trumps.map((t) => {
    const row = o.cells[t];
    const c30 = row["30"];
    const cells = levels.map((k) => {
      const c = row[k];
      const gap = c.fusion_gap > 0.2 ? " big-gap" : "";
      return `<td class="cell${gap}${k === mark && t === o.trump ? " played" : ""}" data-trump="${esc(t)}" data-bid="${k}" ` +
        `data-p-upper="${c.P_upper}" data-p-lower="${c.P_lower}" ` +
        `title="P_upper ${pct(c.P_upper)} ${ci(c.P_upper_CI)}; P_lower ${pct(c.P_lower)}; fusion gap ${pct(c.fusion_gap)}">` +
        `<b>${pct(c.P_upper)}</b><small>${ci(c.P_upper_CI)}</small><span class="lower">${pct(c.P_lower)}</span></td>`;
    }).join("");
    return `<tr class="${t === o.trump ? "chosen" : ""}" data-trump="${esc(t)}"><th scope="row">${t === o.trump ? "★ " : ""}${esc(trumpWords(t))}` +
      `${c30.strategy_stable ? "" : ` <span class="flag" title="${esc(c30.flags.join("; "))}">unstable</span>`}</th>` +
      `<td class="score">${num(c30.score_mean)} <small>q5 ${c30.score_q5} · q50 ${c30.score_q50} · q95 ${c30.score_q95}</small></td>${cells}</tr>`;
  }).join("");
  return `<p class="oracle-summary">Name <b data-trump="${esc(o.trump)}">${esc(trumpWords(o.trump))}</b>: it has the highest mean score ` +
    `(${num(o.max_trump_E_score)} of 42, trump chosen before averaging). Letting the oracle pick trump per deal would claim ` +
    `${num(o.E_max_trump_score)} — never the value of a bid.</p>` +
    `<div class="scroll"><table class="oracle-table" data-n="${o.N}"><thead><tr><th scope="col">Trump</th><th scope="col">Mean score</th>${head}</tr></thead>` +
    `<tbody>${rows}</tbody></table></div>` +
    `<p class="muted oracle-legend">Each cell: <b>P<sub>upper</sub>(make)</b> [95% Wilson interval] and, below, P<sub>lower</sub>. ` +
    `N = ${o.N} completions (stopped: ${esc(o.stopped)}). Completions: <i>${esc(o.completion_model)}</i>. ` +
    `Upper: <i>${esc(o.evaluator)}</i>. Lower: <i>${esc(o.lower_evaluator)}</i>. ${esc(o.note)}.</p>`;
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
  const what = kind === "bid" ? "Bidding oracle" : kind === "trump" ? "Trump oracle" : "Play advice";
  return `<p class="advice-label"><b>${what}</b> · <span class="label">${esc(advice.label)}</span></p>${body}`;
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
  if (r.played.kind === "pass") return `passed (oracle: P_upper(make 30) with ${trumpWords(a.oracle.trump)} ${pct(a.oracle.cells[a.oracle.trump]["30"].P_upper)})`;
  const c = r.cell;
  return c ? `bid ${bidWords(r.played.bid)}: P_upper(make) ${pct(c.P_upper)} ${ci(c.P_upper_CI)}, P_lower ${pct(c.P_lower)} with ${trumpWords(r.trump)}` : "";
}

// The replay viewer's advisor panel for one move (js/replay_view.js calls this when present).
export function replayAdviceHtml(r) {
  const who = esc(SEAT_NAMES[r.seat] || r.seat);
  const opts = r.played && r.played.kind === "bid" ? { bid: r.played.bid } : r.played && r.played.kind === "play" ? { played: r.played.tile } : {};
  return `<p class="advice-label"><b>Advisor</b> · ${who} before seq ${r.seq}: <span class="verdict">${esc(verdictWords(r))}</span></p>` +
    adviceHtml(r.advice, opts);
}
