// Uno's advice on the page, in words: each legal move's chance to win, played out over deals
// drawn from what you have seen. The technical labels are one click away.

import { esc } from "../../ui.js";
import { cardWords } from "./cards.js";

const pct = (p) => `${Math.round(p * 100)}%`;
const COLOUR_WORDS = { r: "red", y: "yellow", g: "green", b: "blue" };

export function moveWords(m) {
  if (m.kind === "draw") return "Draw";
  return `${cardWords(m.card)}${m.colour ? ` (name ${COLOUR_WORDS[m.colour] || m.colour})` : ""}`;
}

const same = (a, b) => a && b && a.kind === b.kind && a.card === b.card && (a.colour || null) === (b.colour || null);

export function adviceHtml(advice, played = null) {
  const moves = advice.moves || [];
  const how = advice.only ? "" : advice.exact
    ? `over ${advice.deals} deals drawn exactly from what you have seen`
    : `over ${advice.deals} deals from an estimate of what you have seen (worth about ${advice.ess ?? "?"} independent deals)`;
  const items = moves.map((m, i) => `<li class="${i === 0 ? "best" : ""}${same(m, played) ? " played" : ""}"><b>${esc(moveWords(m))}</b>` +
    (m.p_win == null ? ": your only move" : `: wins ${pct(m.p_win)} (${pct(m.ci[0])}–${pct(m.ci[1])})`) + `</li>`).join("");
  return `<p class="advice-label"><b>Your chance to win with each move</b>${how ? ` · ${how}` : ""}</p>` +
    `<ol class="advice-list">${items}</ol>` +
    `<details class="technical"><summary>Technical labels</summary><ul class="muted"><li>${esc(advice.label)}</li></ul></details>`;
}

export function verdictWords(r) {
  const a = r.advice;
  if (!a || !r.played) return "";
  if (r.rank === 1) return "✓ the advisor's best move";
  const best = (a.moves || [])[0];
  return r.rank && best ? `move ranked ${r.rank} of ${a.moves.length} (wins ${pct(r.p_win)}; ${moveWords(best)} ${pct(best.p_win)})` : "";
}

export function replayAdviceHtml(r, seatName = (s) => s) {
  return `<p class="advice-label"><b>Advisor</b> · ${esc(seatName(r.seat))} before seq ${r.seq}: <span class="verdict">${esc(verdictWords(r))}</span></p>` +
    adviceHtml(r.advice, r.played);
}
