// Dominoes as SVG strings: real pips, doubles drawn across the line.

const GRID = [25, 50, 75];
const PIPS = {
  0: [],
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  7: [[0, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [2, 2]],
  8: [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
  9: [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
};

function half(value, dx, dy, rotate) {
  let out = "";
  for (const [c, r] of PIPS[value] || []) {
    // on a horizontal tile the pip columns run along the tile
    const x = rotate ? GRID[r] : GRID[c];
    const y = rotate ? GRID[c] : GRID[r];
    out += `<circle cx="${dx + x}" cy="${dy + y}" r="9"/>`;
  }
  return out;
}

// One domino showing `a` then `b` (left-right, or top-bottom when vertical).
export function domino(a, b, { vertical = false, cls = "", label = true } = {}) {
  const w = vertical ? 100 : 200;
  const h = vertical ? 200 : 100;
  const [dx2, dy2] = vertical ? [0, 100] : [100, 0];
  const divider = vertical
    ? `<line x1="12" y1="100" x2="88" y2="100"/>`
    : `<line x1="100" y1="12" x2="100" y2="88"/>`;
  const title = label ? `<title>${a}-${b}</title>` : "";
  return `<svg class="domino ${vertical ? "v" : "h"} ${cls}" viewBox="0 0 ${w} ${h}" ` +
    `role="img" aria-label="${a}-${b}">${title}<rect class="face" x="3" y="3" width="${w - 6}" ` +
    `height="${h - 6}" rx="14"/>${divider}<g class="pips">${half(a, 0, 0, !vertical)}` +
    `${half(b, dx2, dy2, !vertical)}</g></svg>`;
}

// A face-down tile (for counts of hidden hands).
export function back({ vertical = true } = {}) {
  const w = vertical ? 100 : 200;
  const h = vertical ? 200 : 100;
  return `<svg class="domino back ${vertical ? "v" : "h"}" viewBox="0 0 ${w} ${h}" ` +
    `aria-hidden="true"><rect class="face" x="3" y="3" width="${w - 6}" height="${h - 6}" ` +
    `rx="14"/></svg>`;
}

// The line of play: oriented pairs [left, right]; doubles stand across it.
export function line(pairs) {
  if (!pairs.length) return `<p class="empty-line">No tile played yet.</p>`;
  const left = pairs[0][0];
  const right = pairs[pairs.length - 1][1];
  let tiles = "";
  pairs.forEach(([a, b], i) => {
    const double = a === b;
    tiles += `<span class="lt${double ? " double" : ""}" data-i="${i}">` +
      `${domino(a, b, { vertical: double })}</span>`;
  });
  return `<div class="end end-left" data-end="left" aria-label="left end shows ${left}">` +
    `<span class="end-tag">left</span><b>${left}</b></div>` +
    `<div class="tiles">${tiles}</div>` +
    `<div class="end end-right" data-end="right" aria-label="right end shows ${right}">` +
    `<span class="end-tag">right</span><b>${right}</b></div>`;
}
