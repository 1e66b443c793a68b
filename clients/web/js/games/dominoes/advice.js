// Advice figures in words, for the live table's hints and the replay's advisor panel.

import { ADVICE_LABEL, esc } from "../../ui.js";

export { ADVICE_LABEL };

// "+4.2", "−1.0", "±0.0"
export const signed = (x) => `${x > 0 ? "+" : x < 0 ? "−" : "±"}${Math.abs(x).toFixed(1)}`;
export const pct = (p) => `${Math.round(p * 100)}%`;

const partnership = (state) => !state || !state.seats || state.seats.length === 4;

// What the two figures are, for a partnership (teams) or a two-player table.
export function teamWords(state) {
  return partnership(state)
    ? "points for your team minus theirs this hand, and the chance your team scores it"
    : "your points minus your opponent's this hand, and the chance you score it";
}

// One ranked move: "★ 3-5 on the left: +4.2 points, team wins the hand in 63% of 32 deals".
export function adviceLine(m, i, state = null) {
  const where = m.end ? ` on the ${m.end}` : "";
  const who = partnership(state) ? "team wins" : "wins";
  return `${i === 0 ? "★ " : ""}<b>${esc(m.tile)}</b>${where}: ${signed(m.expected_points)} points, ` +
    `${who} the hand in ${pct(m.p_win_hand)} of ${m.samples} deals`;
}
