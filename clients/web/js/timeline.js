// The uncertainty timeline: log2 of the consistent deals (a belief's `entropy_bits`) after each
// move of the current hand, as an SVG line chart. Game-agnostic: every belief carries the figure.

export function timeline(points) {
  const W = 280, H = 96, L = 44, B = 18, T = 8, R = 8;
  const vals = points.filter((p) => typeof p.bits === "number");
  if (!vals.length) return `<p class="muted">No hand in play yet.</p>`;
  const max = Math.max(1, ...vals.map((p) => p.bits));
  const xs = (i) => L + (vals.length === 1 ? 0 : (i * (W - L - R)) / (vals.length - 1));
  const ys = (b) => T + (H - T - B) * (1 - b / max);
  const pts = vals.map((p, i) => `${xs(i).toFixed(1)},${ys(p.bits).toFixed(1)}`).join(" ");
  const last = vals[vals.length - 1];
  const dots = vals.map((p, i) => `<circle data-seq="${p.seq}" cx="${xs(i).toFixed(1)}" cy="${ys(p.bits).toFixed(1)}" r="3.5">` +
    `<title>after seq ${p.seq}: ${dealsWord(p.bits)} possible deals</title></circle>`).join("");
  return `<svg class="timeline-svg" viewBox="0 0 ${W} ${H}" role="img" ` +
    `aria-label="possible deals after each move, log scale: from ${dealsWord(vals[0].bits)} to ${dealsWord(last.bits)}">` +
    `<line class="axis" x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}"/>` +
    `<line class="axis" x1="${L}" y1="${T}" x2="${L}" y2="${H - B}"/>` +
    `<text x="${L - 4}" y="${T + 8}" text-anchor="end">${dealsShort(max)}</text>` +
    `<text x="${L - 4}" y="${H - B}" text-anchor="end">1</text>` +
    `<text x="${L}" y="${H - 4}">possible deals (log scale)</text>` +
    `<text x="${W - R}" y="${H - 4}" text-anchor="end">moves →</text>` +
    `<polyline points="${pts}"/>${dots}</svg>`;
}

// 2^bits for the axis: "1,200", "45k", "3.4M", "1.2B", "2^61".
function dealsShort(bits) {
  const n = 2 ** bits;
  if (n < 1e4) return dealsWord(bits);
  if (n < 1e6) return `${Math.round(n / 1e3)}k`;
  if (n < 1e9) return `${(n / 1e6).toFixed(1)}M`;
  if (n < 1e12) return `${(n / 1e9).toFixed(1)}B`;
  return `2^${bits.toFixed(0)}`;
}

// 2^bits in words: "1,200", "3.4 million", "2^61".
function dealsWord(bits) {
  const n = 2 ** bits;
  if (n < 1e4) return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  if (n < 1e6) return `${Math.round(n / 1e3)}k`;
  if (n < 1e9) return `${(n / 1e6).toFixed(1)} million`;
  if (n < 1e12) return `${(n / 1e9).toFixed(1)} billion`;
  return `2^${bits.toFixed(0)}`;
}

// A belief's count of consistent deals in words, digits grouped by hand (toLocaleString's
// first call loads locale data: slow).
export function dealsText(belief) {
  if (!belief || belief.consistent_deals == null) return "";
  const d = belief.consistent_deals;
  const bits = typeof belief.entropy_bits === "number" ? belief.entropy_bits.toFixed(2) : "?";
  const grouped = String(d).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${grouped} consistent deal${String(d) === "1" ? "" : "s"} · log₂ = ${bits} bits`;
}
