// The oracle overlay: per hidden holder, the domino triangle shaded by probability; the facts;
// the uncertainty timeline. Rendering is timed into window.__metrics: `overlay` (ms per update,
// a new belief on the same grids) and `overlayBuilds` (ms per build of the grids).
// The holders are those the belief names (the keys of its `marginals`), not a fixed list.

import { dealsText, timeline } from "../../timeline.js";
import { esc, hideTip, showTip } from "../../ui.js";
import { cellLabel, changedByHtml, changedCells, gistsHtml as sharedGists } from "../odds.js";
import { SEAT_NAMES, poolName, seatsFrom } from "./variants.js";

const metrics = (window.__metrics = window.__metrics || { overlay: [] });

// A holder's name: a seat's, the undealt tiles' for this variant, else the name as sent.
export function holderName(holder, variant) {
  if (SEAT_NAMES[holder]) return SEAT_NAMES[holder];
  return holder === "pool" ? poolName(variant) : holder;
}

// The holders to draw for `belief`, as seen from `me` (null: a spectator): the ones the belief
// names, seats in turn order after `me`, then any other holder in the belief's order. A belief
// outside a live hand names none: then the last ones shown stay (`previous`), or before any,
// the other seats of the variant.
export function overlayHolders(variant, belief, me, previous) {
  const named = belief && belief.marginals ? Object.keys(belief.marginals) : [];
  if (!named.length) return previous && previous.length ? previous : variant.seats.filter((s) => s !== me);
  const order = me ? seatsFrom(variant, me).slice(1) : variant.seats;
  const seats = order.filter((s) => named.includes(s));
  return [...seats, ...named.filter((h) => !seats.includes(h))];
}

export function pct(p) {
  if (p === 0) return "0";
  if (p === 1) return "100";
  if (p < 0.005) return "<1";
  if (p > 0.995) return ">99";
  return String(Math.round(p * 100));
}

// What one cell shows: its classes, text, and (for a hidden tile) p and its shade.
function cellState(tile, holder, ctx) {
  const st = cellLook(tile, holder, ctx);
  const who = holderName(holder, ctx.variant);
  st.label = st.known === "mine" ? `${tile}, in your hand`
    : st.known === "played" ? `${tile}, played by ${holderName(st.text, ctx.variant)}`
    : st.known === "revealed" ? `${who} had ${tile}`
    : st.p !== undefined ? cellLabel(who, tile, Number(st.p)) : `${who}, ${tile}`;
  return st;
}

function cellLook(tile, holder, ctx) {
  const playedBy = ctx.played.get(tile);
  if (ctx.mine.has(tile)) return { cls: "c known mine", text: ctx.maxPip > 6 ? "me" : "you", known: "mine" };
  if (playedBy) return { cls: "c known played", text: playedBy, known: "played" };
  // at a hand's end every hand is shown: the tiles a holder kept fill its triangle
  if (ctx.revealed && ctx.revealed[holder] && ctx.revealed[holder].has(tile)) {
    return { cls: "c known revealed", text: "had", known: "revealed" };
  }
  const column = ctx.marginals[holder];
  const p = column ? column[tile] : undefined;
  if (p === undefined) return { cls: "c none", text: "" };
  const dark = p > 0.81; // black text below, white above: both ≥ 4.5:1 on the blended shade
  const certain = p === 1 ? " certain" : p === 0 ? " zero" : "";
  const changed = ctx.changed && ctx.changed.has(`${holder}|${tile}`) ? " changed" : "";
  return { cls: `c${certain}${dark ? " dark" : ""}${changed}`, text: pct(p), p: String(p),
    bg: `rgba(29,78,216,${p.toFixed(3)})` };
}

// Every cell is focusable (the split shows on focus as on hover), but each triangle is a
// single Tab stop (roving tabindex: arrows move inside it), so Tab does not walk 28-55 cells.
function cell(tile, holder, ctx, stop) {
  const st = cellState(tile, holder, ctx);
  const attrs = `data-tile="${tile}" data-holder="${holder}" tabindex="${tile === stop ? 0 : -1}" role="img" aria-label="${esc(st.label)}"` +
    (st.known ? ` data-known="${st.known}"` : "") +
    (st.p !== undefined ? ` data-p="${st.p}" style="background:${st.bg}"` : "");
  return `<div class="${st.cls}" ${attrs}>${st.text}</div>`;
}

// A later belief at the same layout changes the cells in place: no HTML to parse, no
// elements to rebuild, and the focused cell stays the same element.
function updateCell(el, st) {
  if (el.className !== st.cls) el.className = st.cls;
  if (el.textContent !== st.text) el.textContent = st.text;
  if (el.getAttribute("aria-label") !== st.label) el.setAttribute("aria-label", st.label);
  if (st.known) el.dataset.known = st.known;
  else if (el.dataset.known !== undefined) delete el.dataset.known;
  if (st.p !== undefined) {
    if (el.dataset.p !== st.p) {
      el.dataset.p = st.p;
      el.style.background = st.bg;
    }
  } else if (el.dataset.p !== undefined) {
    delete el.dataset.p;
    el.style.background = "";
  }
}

function triangle(holder, ctx, stop) {
  const n = ctx.maxPip + 1;
  let html = `<div class="tri${ctx.maxPip > 6 ? " big" : ""}" style="--n:${n + 1}"><div class="h corner" title="row: the lower number; column: the higher" aria-hidden="true"></div>`;
  for (let c = 0; c < n; c++) html += `<div class="h">${c}</div>`;
  for (let r = 0; r < n; r++) {
    html += `<div class="h">${r}</div>`;
    for (let c = 0; c < n; c++) {
      html += c < r ? `<div class="gap"></div>` : cell(`${r}-${c}`, holder, ctx, stop);
    }
  }
  return html + "</div>";
}

function cardHead(holder, ctx, remaining) {
  const name = (SEAT_NAMES[holder] && ctx.names && ctx.names[holder]) || "";
  const count = remaining[holder];
  return `${holderName(holder, ctx.variant)}` +
    `${name ? ` <span class="muted">${esc(name)}</span>` : ""}` +
    `${count != null ? ` <span class="count">${tilesWord(count)}</span>` : ""}`;
}

export const tilesWord = (n) => `${n} tile${n === 1 ? "" : "s"}`;

// A holder in one line, strongest inferences first: "West: 6 tiles, has 5-5 for sure, can't
// have 3s, 4s; most likely 5-6 (62%)". From the belief's column alone (hidden tiles only).
export function gistText(name, column, count, maxPip, word = tilesWord) {
  const tiles = Object.entries(column || {});
  const parts = count != null ? [word(count)] : [];
  const sure = tiles.filter(([, p]) => p === 1).map(([t]) => t);
  if (sure.length) parts.push(`has ${sure.join(", ")} for sure`);
  const voids = [];
  for (let v = 0; v <= maxPip; v++) {
    const withV = tiles.filter(([t]) => t.split("-").map(Number).includes(v));
    if (withV.length && withV.every(([, p]) => p === 0)) voids.push(`${v}s`);
  }
  if (voids.length) parts.push(`can't have ${voids.join(", ")}`);
  const open = tiles.filter(([, p]) => p > 0 && p < 1)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  // a tile "most likely" only when it stands out; tied at the top, say how likely the top is
  const tied = open.length > 1 && open[0][1] - open[1][1] < 1e-9;
  const top = open.length ? Math.round(open[0][1] * 100) : 0;
  const likely = !open.length ? "" : tied ? `; no tile likelier than ${top}%` : `; most likely ${open[0][0]} (${top}%)`;
  return `${name}: ${parts.join(", ")}${likely}`;
}

function gistsHtml(ctx) {
  const belief = ctx.belief;
  if (!belief || !belief.marginals || handOver(ctx)) return "";
  return sharedGists(ctx.holders.filter((h) => belief.marginals[h]).map((h) => ({
    holder: h,
    text: gistText(holderName(h, ctx.variant), belief.marginals[h], (belief.remaining || {})[h], ctx.maxPip),
  })));
}

// Whether the overlay shows a hand that is over (every tile shown: nothing left to infer).
const handOver = (ctx) => !!ctx.revealed;

// What the jargon means, said once, behind the "details" toggle.
const DETAILS_NOTE = "Consistent deals: the ways the hidden tiles can lie that fit everything seen " +
  "so far, all taken as equally likely; each cell is the share of them in which that player " +
  "holds that tile. log\u2082 of the count is the uncertainty in bits; seq numbers the events.";

function headHtml(belief, ctx) {
  const over = handOver(ctx);
  const deals = over
    ? `<p class="deals">The hand is over: every hand is shown, so nothing is hidden. The tiles each player kept are marked \u201chad\u201d.</p>`
    : "";
  // always one line (empty when nothing moved), so the grids below never jump under the pointer
  const changed = over ? "" : changedByHtml(ctx.changedBy, ctx.changed);
  const details = belief && !over
    ? `<details class="ov-details"${ctx.detailsOpen ? " open" : ""}><summary>Details</summary>` +
      `<p class="deals">${dealsText(belief)}</p><p class="muted">Belief after seq ${belief.seq}. ${DETAILS_NOTE}</p></details>`
    : "";
  return `<h2>Oracle</h2><button type="button" class="ov-help" aria-keyshortcuts="?" aria-expanded="${!!ctx.helpOpen}">How to read this (?)</button>` +
    `${gistsHtml(ctx)}${changed}${deals}${details}` +
    `${ctx.note ? `<p class="muted">${esc(ctx.note)}</p>` : ""}`;
}

// The "how to read this" panel (the ? key or its button).
export const HELP_HTML =
  `<section class="ov-help-panel" aria-label="how to read the oracle"><h3>How to read this</h3><ul>` +
  `<li>Each triangle is one player you cannot see (or the face-down tiles): row = the lower number, ` +
  `column = the higher; a cell is the chance, in %, that this player holds that tile. Darker = likelier; ` +
  `an outlined cell is certain.</li>` +
  `<li><b>you</b>: in your hand. A seat letter struck through: already played by that seat.</li>` +
  `<li>The line per player sums it up: tiles left, tiles held for sure, numbers they cannot have ` +
  `(they passed on them, or every such tile is accounted for), and their likeliest tile.</li>` +
  `<li>Cells outlined in orange changed with the last move.</li>` +
  `<li>The chart: how many deals are still possible (log scale) as the hand goes on; a drop is a move that told you a lot.</li>` +
  `<li>The numbers are exact if every deal that fits what you saw is equally likely: they assume nothing about how people play.</li>` +
  `</ul><p class="muted">Press ? again to close.</p></section>`;

function sideHtml(belief, ctx) {
  const facts = (belief && belief.facts) || [];
  const factsHtml = handOver(ctx) ? `<p class="muted">The hand is over: no facts to find.</p>`
    : facts.length
    ? `<ul class="facts">${facts.map((f) => `<li>${esc(f)}</li>`).join("")}</ul>`
    : `<p class="muted">No certain facts yet.</p>`;
  return `<section><h3>Facts</h3>${factsHtml}</section>` +
    `<section class="timeline"><h3>Possible deals this hand (log scale)</h3>${timeline(ctx.timeline || [])}</section>` +
    `<p class="legend"><span class="sw" style="background:rgba(29,78,216,.15)"></span>unlikely ` +
    `<span class="sw" style="background:rgba(29,78,216,.9)"></span>likely · ` +
    `<b>you</b> your tile · <b>${ctx.variant.seats.join("/")}</b> played by</p>`;
}

function buildOverlay(el, ctx, full, remaining) {
  const stops = (el._stops = el._stops || {}); // holder -> the tile of its Tab stop
  let grids = "";
  for (const holder of ctx.holders) {
    grids += `<section class="grid-card" data-holder="${holder}"><h3>` +
      `${cardHead(holder, ctx, remaining)}</h3>` +
      triangle(holder, full, stops[holder] || "0-0") + `</section>`;
  }
  el.innerHTML = `<div class="ov-help-box">${ctx.helpOpen ? HELP_HTML : ""}</div><div class="ov-head">${headHtml(ctx.belief, ctx)}</div>` +
    `<div class="grids">${grids}</div><div class="ov-side">${sideHtml(ctx.belief, ctx)}</div>`;
}

function setHtml(el, html) {
  if (el._html !== html) {
    el.innerHTML = html;
    el._html = html;
  }
}

function updateOverlay(el, ctx, full, remaining) {
  setHtml(el.querySelector(".ov-head"), headHtml(ctx.belief, ctx));
  for (const card of el.querySelectorAll(".grid-card")) {
    const holder = card.dataset.holder;
    setHtml(card.querySelector("h3"), cardHead(holder, ctx, remaining));
    for (const c of card.querySelectorAll(".c[data-tile]")) {
      updateCell(c, cellState(c.dataset.tile, holder, full));
    }
  }
  setHtml(el.querySelector(".ov-side"), sideHtml(ctx.belief, ctx));
}

// ctx: {belief, variant, maxPip, holders, mine:Set, played:Map(tile->seat), names,
//       timeline:[{seq,bits}], revealed?: {holder: Set}, note?: string}
export function renderOverlay(el, ctx) {
  void el.offsetHeight; // flush layout owed by earlier changes (the board), not timed here
  const t0 = performance.now();
  const belief = ctx.belief;
  ctx = { ...ctx, changed: changedCells(el, belief, ctx.before), detailsOpen: !!el._detailsOpen, helpOpen: !!el._helpOpen };
  const full = { ...ctx, marginals: (belief && belief.marginals) || {} };
  const remaining = (belief && belief.remaining) || {};
  const layout = `${ctx.maxPip}:${ctx.holders.join(",")}`;
  const update = el._layout === layout && el.querySelector(".grids");
  if (update) {
    updateOverlay(el, ctx, full, remaining);
  } else {
    buildOverlay(el, ctx, full, remaining);
    el._layout = layout;
  }
  void el.offsetHeight; // include style and layout in the measured time
  const ms = performance.now() - t0;
  // updates (a new belief, the same grids) apart from builds (a new table or variant)
  (update ? metrics.overlay : (metrics.overlayBuilds = metrics.overlayBuilds || [])).push(ms);
  metrics.lastOverlayMs = ms;
  el._ctx = full;
  if (el._refreshFocused) el._refreshFocused(); // a focused cell's split: the new numbers
  return ms;
}

// The arrow keys' neighbour of a cell in its triangle (row = low, column = high), or null.
function neighbour(c, key, maxPip) {
  const [r, col] = c.dataset.tile.split("-").map(Number);
  const to = { ArrowLeft: [r, col - 1], ArrowRight: [r, col + 1], ArrowUp: [r - 1, col], ArrowDown: [r + 1, col] }[key];
  if (!to) return null;
  const [r2, c2] = to;
  if (r2 < 0 || c2 > maxPip || r2 > c2) return null;
  return c.parentElement.querySelector(`.c[data-tile="${r2}-${c2}"]`);
}

// Hovering (or focusing) a cell shows the tile's split across holders. The split is read from
// the triangles' own cells (data-p), so it always says what the grid shows; it is shown again
// after every render (a replay step, a new belief), and hidden when its cell is gone.
export function attachHover(el) {
  let hovered = null;
  el.addEventListener("toggle", (e) => {
    if (e.target.classList && e.target.classList.contains("ov-details")) el._detailsOpen = e.target.open;
  }, true);
  const toggleHelp = () => {
    el._helpOpen = !el._helpOpen;
    const box = el.querySelector(".ov-help-box");
    if (box) box.innerHTML = el._helpOpen ? HELP_HTML : "";
    const b = el.querySelector(".ov-help");
    if (b) b.setAttribute("aria-expanded", String(el._helpOpen));
  };
  el.addEventListener("click", (e) => {
    if (e.target.closest(".ov-help")) toggleHelp();
  });
  const onHelpKey = (e) => {
    if (!el.isConnected) return void document.removeEventListener("keydown", onHelpKey);
    if (e.key !== "?" || (e.target.closest && e.target.closest("input, select, textarea"))) return;
    e.preventDefault();
    toggleHelp();
  };
  document.addEventListener("keydown", onHelpKey);
  const clear = () => {
    hideTip();
    el.querySelectorAll(".c.hl").forEach((c) => c.classList.remove("hl"));
  };
  const splitText = (tile) => {
    const ctx = el._ctx;
    if (ctx.mine.has(tile)) return `${tile}: in your hand`;
    if (ctx.played.has(tile)) return `${tile}: played by ${holderName(ctx.played.get(tile), ctx.variant)}`;
    const parts = [];
    for (const card of el.querySelectorAll(".grid-card")) {
      const c = card.querySelector(`.c[data-tile="${tile}"]`);
      const name = holderName(card.dataset.holder, ctx.variant);
      if (c && c.dataset.p !== undefined) parts.push(`${name} ${(Number(c.dataset.p) * 100).toFixed(1)}%`);
      else if (c && c.dataset.known === "revealed") parts.push(`${name} had it`);
    }
    return parts.length ? `${tile}: ${parts.join(" · ")}` : `${tile}: not in any hand shown here`;
  };
  const show = (c) => {
    const tile = c.dataset.tile;
    clear();
    el.querySelectorAll(`.c[data-tile="${tile}"]`).forEach((x) => x.classList.add("hl"));
    showTip(splitText(tile), c.getBoundingClientRect());
  };
  const focused = () => el.contains(document.activeElement) && document.activeElement.closest(".c[data-tile]");
  el._refreshFocused = () => {
    const hadHover = Boolean(hovered);
    // a new layout replaces the hovered cell: the pointer may rest on its successor
    if (hovered && !el.contains(hovered)) hovered = el.querySelector(".c[data-tile]:hover");
    const target = hovered || focused();
    if (target && el._ctx) show(target);
    else if (hadHover) clear(); // its cell is gone and the pointer is on none: no split
  };
  el.addEventListener("mouseover", (e) => {
    const c = e.target.closest(".c[data-tile]");
    if (!c && hovered) clear(); // off the cells: no split (a stale one would mislead)
    hovered = c;
    if (c && el._ctx) show(c);
  });
  el.addEventListener("mouseleave", () => { // back to the focused cell's split, if any
    hovered = null;
    const f = focused();
    if (f && el._ctx) show(f);
    else clear();
  });
  el.addEventListener("focusin", (e) => {
    const c = e.target.closest(".c[data-tile]");
    if (!c || !el._ctx) return;
    // this cell is now its triangle's Tab stop (kept across renders)
    c.closest(".tri").querySelectorAll('.c[tabindex="0"]').forEach((x) => (x.tabIndex = -1));
    c.tabIndex = 0;
    (el._stops = el._stops || {})[c.dataset.holder] = c.dataset.tile;
    c.setAttribute("aria-describedby", "tip");
    show(c);
  });
  el.addEventListener("focusout", (e) => { // to anything but a cell (the model switch too)
    const to = e.relatedTarget;
    if (!to || !el.contains(to) || !to.closest(".c[data-tile]")) clear();
  });
  // Arrows move between cells; they stop here, so the page's own arrow keys (tiles, steps)
  // do not fire while a cell has the focus.
  el.addEventListener("keydown", (e) => {
    const c = e.target.closest && e.target.closest(".c[data-tile]");
    if (!c || !el._ctx || !e.key.startsWith("Arrow")) return;
    e.preventDefault();
    e.stopPropagation();
    const next = neighbour(c, e.key, el._ctx.maxPip);
    if (next) next.focus();
  });
}

// The overlay of `state` for observer `me` (null: a spectator) at `belief`: played tiles and
// the observer's own tiles as the belief's seq knew them, so every cell is the belief's own
// number even while a newer event is already on the board. Returns the holders drawn.
// extra: {previous (holders last drawn), timeline, note, hideGrids, changedBy (the last event
// in words), before (the belief to compare with, else the one this element showed last)}
export function renderOracle(el, state, belief, me, extra = {}) {
  const h = state.hand;
  const sameHand = belief && h && belief.hand === h.number;
  const known = (x) => sameHand && x.seq <= belief.seq;
  const played = new Map(h ? h.played.filter(known).map((p) => [p.tile, p.seat]) : []);
  // a belief of no hand or of the last one: every tile of ours shows as ours (as it always did)
  const gained = me && h && h.gained[me] ? h.gained[me].filter((g) => !sameHand || known(g)) : [];
  const mine = new Set(gained.map((g) => g.tile).filter((t) => !played.has(t)));
  const holders = extra.hideGrids ? [] : overlayHolders(state.rules, belief, me, extra.previous);
  // the hand is over (and the belief says so, or names nobody): show what each holder kept
  const over = h && h.ended && (!belief || belief.status !== "live" || !Object.keys(belief.marginals || {}).length);
  const revealed = over
    ? Object.fromEntries(Object.entries(h.ended.remaining || {}).map(([seat, tiles]) => [seat, new Set(tiles)]))
    : null;
  renderOverlay(el, {
    belief, variant: state.rules, maxPip: state.maxPip, holders, mine, played, revealed,
    names: state.players, timeline: extra.timeline || [], note: extra.note || "",
    changedBy: extra.changedBy || "", ...(extra.before !== undefined ? { before: extra.before } : {}),
  });
  return holders;
}

// -- the behaviour layer: a second, labelled estimate beside the exact one (never instead) ----

export const MODELS = [
  { name: "uniform", label: "Uniform" },
  { name: "behaviour:greedy", label: "Behaviour (greedy)" },
];

// The switch above the layers: "Uniform" shows the exact belief alone; "Behaviour (greedy)"
// adds the behaviour model's estimate under it. The exact triangles stay either way.
export function modelSwitchHtml(model) {
  const buttons = MODELS.map((m) =>
    `<button type="button" data-model="${m.name}" aria-pressed="${m.name === model}"` +
    `${m.name === model ? ` style="font-weight:700;outline:2px solid #b45309"` : ""}>${m.label}</button>`).join("");
  return `<div class="ov-model" role="group" aria-label="which model to show beside the exact odds">` +
    `<span class="muted">Model:</span> ${buttons}</div>`;
}

const LAYER_NOTE = "Estimate under the behaviour model: each player is taken to play as the greedy bot " +
  "scores its moves, softened by a fitted temperature, so a deal is likelier the more its plays look " +
  "like that. Sampled, with the error shown; the exact odds above assume nothing about how people play.";

function layerCell(tile, holder, odds) {
  const column = odds.marginals[holder] || {};
  const p = column[tile];
  if (p === undefined) return `<div class="c none"></div>`;
  const se = ((odds.stderr || {})[holder] || {})[tile] || 0;
  const dark = p > 0.81;
  const title = `${holderName(holder, odds.variantRules)} holds ${tile}: ${(p * 100).toFixed(1)}%` +
    (odds.exact ? " (exact under the model)" : ` ± ${(1.96 * se * 100).toFixed(1)} (95%)`);
  return `<div class="c${dark ? " dark" : ""}" data-btile="${tile}" data-holder="${holder}" data-p="${p}" ` +
    `title="${esc(title)}" style="background:rgba(180,83,9,${p.toFixed(3)})">${pct(p)}</div>`;
}

function layerTriangle(holder, odds, maxPip) {
  const n = maxPip + 1;
  let html = `<div class="tri${maxPip > 6 ? " big" : ""}" style="--n:${n + 1}"><div class="h corner" title="row: the lower number; column: the higher" aria-hidden="true"></div>`;
  for (let c = 0; c < n; c++) html += `<div class="h">${c}</div>`;
  for (let r = 0; r < n; r++) {
    html += `<div class="h">${r}</div>`;
    for (let c = 0; c < n; c++) html += c < r ? `<div class="gap"></div>` : layerCell(`${r}-${c}`, holder, odds);
  }
  return html + "</div>";
}

// The behaviour layer for `odds` (an `odds_belief` reply), or its state while there is none:
// ctx {variant (rules), maxPip, holders, seq (the exact belief's), pending, error}.
export function behaviourLayerHtml(odds, ctx) {
  const head = `<h3>Behaviour (greedy) <span class="layer-tag">estimate</span></h3>`;
  if (!odds) {
    const why = ctx.error ? esc(ctx.error) : ctx.pending ? "Weighing deals by how the players played…" : "No hand in play.";
    return `<section class="behaviour-layer" data-model="behaviour:greedy" aria-label="behaviour model odds" style="border:2px dashed #b45309;padding:.4em;margin:.5em 0">` +
      `${head}<p class="muted layer-status">${why}</p></section>`;
  }
  const stale = ctx.seq !== undefined && odds.seq < ctx.seq;
  const error = odds.exact ? "exact under the model" : `within ±${(odds.error_95 * 100).toFixed(1)} percentage points (95%, the widest)`;
  const status = `<p class="layer-status" data-seq="${odds.seq}" data-exact="${odds.exact}">` +
    `<b>model: ${esc(odds.model)}</b> · after seq ${odds.seq} · ${error} · effective sample ${odds.ess.toFixed(0)} of ${odds.samples} deals` +
    `${stale ? ` · <span class="stale">the table has moved on: updating…</span>` : ""}</p>`;
  const rules = { ...odds, variantRules: ctx.variant };
  const cards = ctx.holders.filter((h) => odds.marginals[h]).map((h) =>
    `<section class="layer-card" data-holder="${h}"><h4>${holderName(h, ctx.variant)}</h4>` +
    `${layerTriangle(h, rules, ctx.maxPip)}</section>`).join("");
  const ctxError = ctx.error ? `<p class="muted">${esc(ctx.error)}</p>` : "";
  return `<section class="behaviour-layer" data-model="${esc(odds.model)}" aria-label="behaviour model odds" style="border:2px dashed #b45309;padding:.4em;margin:.5em 0">` +
    `${head}${status}<p class="muted">${LAYER_NOTE}</p>${ctxError}<div class="grids layer-grids">${cards}</div></section>`;
}
