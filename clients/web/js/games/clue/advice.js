// Clue's advice on the page, in words: which suggestion teaches you most (bits of information
// about the envelope), the accusation once it is certain, which card to show. The technical
// labels (model, evaluator, deals) are one click away.

import { esc } from "../../ui.js";
import { seatLabel } from "./names.js";

const pct = (p) => `${Math.round(p * 100)}%`;
const bits = (b) => `${Number(b).toFixed(2)} bits`;
const triple = (m) => `${esc(m.suspect)}, ${esc(m.weapon)}, ${esc(m.room)}`;

function technical(advice) {
  const rows = [advice.label, advice.samples ? `${advice.samples} deals` : ""].filter(Boolean);
  return `<details class="technical"><summary>Technical labels</summary><ul class="muted">` +
    rows.map((t) => `<li>${esc(t)}</li>`).join("") + `</ul></details>`;
}

function envelopesHtml(advice) {
  const list = advice.likely_envelopes || [];
  if (!list.length) return "";
  return `<p class="muted">Likeliest envelopes: ` + list.map((e) =>
    `${triple(e)} (${pct(e.share)} ± ${pct(e.error_95)})`).join("; ") + `.</p>`;
}

// The advice box's body for one payload.
export function adviceHtml(advice, played = null) {
  const moves = advice.moves || [];
  let head, body = "";
  if (advice.kind === "accuse") {
    const m = moves[0];
    head = "Accuse now";
    body = `<p class="advice-summary">The envelope holds <b>${triple(m)}</b>: certain (probability 100%).</p>`;
  } else if (advice.kind === "suggest") {
    head = "Which suggestion tells you most";
    body = moves.length ? `<ol class="advice-list">` + moves.map((m, i) =>
      `<li class="${i === 0 ? "best" : ""}${played && played === `${m.suspect}|${m.weapon}|${m.room}` ? " played" : ""}">` +
      `<b>${triple(m)}</b>: expected to tell you ${bits(m.bits)} (± ${Number(m.error_95).toFixed(2)}) about the envelope</li>`).join("") +
      `</ol><p class="muted">About ${bits(advice.envelope_bits)} about the envelope are still unknown to you in the sampled deals; ` +
      `each bit halves the envelopes still possible.</p>` + envelopesHtml(advice)
      : `<p class="muted">${esc(advice.note || "No figures for this position.")}</p>`;
  } else if (advice.kind === "end_turn") {
    head = "End your turn";
    body = `<p class="advice-summary">No accusation is certain yet, and a wrong one puts you out.</p>` + envelopesHtml(advice);
  } else {
    head = `Which card to show ${esc(seatLabel(advice.suggester))}`;
    body = `<ol class="advice-list">` + moves.map((m, i) =>
      `<li class="${i === 0 ? "best" : ""}${played === m.card ? " played" : ""}"><b>${esc(m.card)}</b>: ` +
      (m.already_shown ? "already shown to them: tells them nothing new"
        : `tells them ${bits(m.bits)} about the envelope (for them, a ${pct(m.p_envelope)} chance it is in the envelope)`) +
      `</li>`).join("") + `</ol>`;
  }
  return `<p class="advice-label"><b>${head}</b></p>${body}${technical(advice)}`;
}

// The replay's verdict on the move shown, in words (and for the move list).
export function verdictWords(r) {
  const a = r.advice;
  if (!a || !r.played) return "";
  const p = r.played;
  if (p.kind === "accuse" && a.kind === "accuse") return r.rank === 1 ? "✓ accused with certainty" : "accused other than the certain envelope";
  if (p.kind === "accuse") return `accused without certainty${r.share != null ? ` (that envelope in ${pct(r.share)} of the deals)` : ""}`;
  if (p.kind === "end_turn") return r.rank === 1 ? "✓ ended the turn" : "ended the turn with the accusation certain";
  if (p.kind === "show") return r.rank === 1 ? "✓ showed the least telling card" : `showed the card ranked ${r.rank} of ${(a.moves || []).length}`;
  if (p.kind === "suggest") {
    if (a.kind === "accuse") return "suggested when the accusation was certain";
    if (r.rank === 1) return "✓ the suggestion that tells most";
    return r.rank ? `suggestion ranked ${r.rank} of ${(a.ranking || []).length} (${bits(r.bits)}; the best ${bits(a.moves[0].bits)})` : "";
  }
  return "";
}

// The replay viewer's advisor panel for one move.
export function replayAdviceHtml(r) {
  const p = r.played || {};
  const played = p.kind === "suggest" ? `${p.suspect}|${p.weapon}|${p.room}` : p.card || null;
  return `<p class="advice-label"><b>Advisor</b> · ${esc(seatLabel(r.seat))} before seq ${r.seq}: <span class="verdict">${esc(verdictWords(r))}</span></p>` +
    adviceHtml(r.advice, played);
}
