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

// The line of play as dominoes lie on a table: a snake that runs from the left end to the
// right end, left to right, turning down at the edge and coming back, and so on; doubles
// stand across; each tile shows its halves in the direction of travel (touching halves
// match). Both open ends are labelled beside the snake. SVG units: half a tile = 1.
export const SNAKE_WIDTH = 16; // half-tiles per row: 8 tiles lying down

export function snakeLayout(pairs, width = SNAKE_WIDTH) {
  const placed = [];
  let x = 0;
  let row = 0;
  let dir = 1;
  for (const [a, b] of pairs) {
    const double = a === b;
    const w = double ? 1 : 2;
    if ((dir > 0 && x + w > width) || (dir < 0 && x - w < 0)) { // the edge: turn
      row += 1;
      dir = -dir;
    }
    const left = dir > 0 ? x : x - w;
    x = dir > 0 ? x + w : x - w;
    // leftwards, the half that touches the previous tile is on the right
    placed.push({ a: dir > 0 ? a : b, b: dir > 0 ? b : a, x: left, row, double, dir });
  }
  return { placed, rows: row + 1 };
}

// On a phone the snake's rows are shorter, so its tiles stay big enough to read.
const snakeWidth = () => (typeof window !== "undefined" && window.innerWidth < 600 ? 9 : SNAKE_WIDTH);

export function line(pairs) {
  if (!pairs.length) return `<p class="empty-line">No tile played yet.</p>`;
  const left = pairs[0][0];
  const right = pairs[pairs.length - 1][1];
  const width = snakeWidth();
  const { placed, rows } = snakeLayout(pairs, width);
  const ROW = 2.4; // a row's height: room for a double standing across
  let tiles = "";
  placed.forEach((t, i) => {
    const y = t.row * ROW + (t.double ? 0.2 : 0.7);
    const [w, h] = t.double ? [1, 2] : [2, 1];
    const svg = domino(t.a, t.b, { vertical: t.double, label: true }).replace(
      "<svg ", `<svg x="${t.x}" y="${y.toFixed(2)}" width="${w}" height="${h}" data-i="${i}" `);
    tiles += svg;
  });
  const first = placed[0];
  const last = placed[placed.length - 1];
  const mark = (t, side, text) => {
    const w = t.double ? 1 : 2;
    const cx = side === "start" ? (t.dir > 0 ? t.x : t.x + w) : (t.dir > 0 ? t.x + w : t.x);
    return `<text class="snake-end" x="${cx}" y="${(t.row * ROW + 0.55).toFixed(2)}" text-anchor="middle">${text}</text>`;
  };
  const height = rows * ROW;
  return `<div class="end end-left" data-end="left" aria-label="left end shows ${left}">` +
    `<span class="end-tag">left</span><b>${left}</b></div>` +
    `<div class="tiles snake" data-rows="${rows}"><svg class="snake-svg" viewBox="-0.3 0 ${width + 0.6} ${height.toFixed(2)}" ` +
    `role="img" aria-label="the line of play, ${pairs.length} tile${pairs.length === 1 ? "" : "s"}, from the left end ${left} to the right end ${right}">` +
    `${tiles}${mark(first, "start", "L")}${mark(last, "end", "R")}</svg></div>` +
    `<div class="end end-right" data-end="right" aria-label="right end shows ${right}">` +
    `<span class="end-tag">right</span><b>${right}</b></div>`;
}
