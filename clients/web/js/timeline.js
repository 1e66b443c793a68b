// The uncertainty timeline: log2 of the consistent deals (a belief's `entropy_bits`) after each
// move of the current hand, as an SVG line chart. Game-agnostic: every belief carries the figure.

export function timeline(points) {
  const W = 280, H = 90, L = 30, B = 16, T = 8, R = 8;
  const vals = points.filter((p) => typeof p.bits === "number");
  if (!vals.length) return `<p class="muted">No hand in play yet.</p>`;
  const max = Math.max(1, ...vals.map((p) => p.bits));
  const xs = (i) => L + (vals.length === 1 ? 0 : (i * (W - L - R)) / (vals.length - 1));
  const ys = (b) => T + (H - T - B) * (1 - b / max);
  const pts = vals.map((p, i) => `${xs(i).toFixed(1)},${ys(p.bits).toFixed(1)}`).join(" ");
  const last = vals[vals.length - 1];
  const dots = vals.map((p, i) => `<circle cx="${xs(i).toFixed(1)}" cy="${ys(p.bits).toFixed(1)}" r="2.5"><title>seq ${p.seq}: ${p.bits.toFixed(2)} bits</title></circle>`).join("");
  return `<svg class="timeline-svg" viewBox="0 0 ${W} ${H}" role="img" ` +
    `aria-label="log2 of consistent deals per move: from ${vals[0].bits.toFixed(1)} to ${last.bits.toFixed(1)} bits">` +
    `<line class="axis" x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}"/>` +
    `<line class="axis" x1="${L}" y1="${T}" x2="${L}" y2="${H - B}"/>` +
    `<text x="${L - 4}" y="${T + 8}" text-anchor="end">${max.toFixed(0)}</text>` +
    `<text x="${L - 4}" y="${H - B}" text-anchor="end">0</text>` +
    `<text x="${W - R}" y="${H - 3}" text-anchor="end">moves →</text>` +
    `<polyline points="${pts}"/>${dots}</svg>`;
}

// A belief's count of consistent deals in words, digits grouped by hand (toLocaleString's
// first call loads locale data: slow).
export function dealsText(belief) {
  if (!belief || belief.consistent_deals == null) return "";
  const d = belief.consistent_deals;
  const bits = typeof belief.entropy_bits === "number" ? belief.entropy_bits.toFixed(2) : "?";
  const grouped = String(d).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${grouped} consistent deals · log₂ = ${bits} bits`;
}
