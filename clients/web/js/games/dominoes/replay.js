// One step of the replay viewer (js/replay_view.js) for a dominoes match: the board from the
// chosen perspective and the overlay at that step's belief, with the model switch: under
// "Behaviour (greedy)" the behaviour layer of that step (GET /api/matches/{id}/odds) is drawn
// under the exact grids, labelled, never instead of them.

import { getItem, setItem } from "../../store.js";
import { renderBoard } from "./board.js";
import { changedBy } from "./describe.js";
import { behaviourLayerHtml, modelSwitchHtml, overlayHolders, renderOracle } from "./overlay.js";

const layer = { model: getItem("domino-oracle:model") || "uniform", cache: new Map(), errors: new Map(), last: null };

// ctx: {boardEl, overlayEl, state, perspective (a seat, "spectator" or "all"), belief,
//       earlier (the beliefs before this step), timeline, overlayOn}
export function renderReplayStep(ctx) {
  const { state, perspective } = ctx;
  const seat = state.seats.includes(perspective) ? perspective : null;
  renderBoard(ctx.boardEl, state, { me: seat, bottom: seat || state.seats[0], reveal: perspective === "all", replay: true });
  if (!ctx.overlayOn) return;
  const all = perspective === "all";
  // a belief outside a live hand names no holders: keep those of the last one that did
  const previous = [...ctx.earlier].reverse().find((b) => b && b.marginals && Object.keys(b.marginals).length);
  const holders = renderOracle(ctx.overlayEl, state, ctx.belief, seat, {
    previous: previous ? overlayHolders(state.rules, previous, seat, null) : null,
    timeline: ctx.timeline, hideGrids: all,
    before: ctx.earlier.length > 1 ? ctx.earlier[ctx.earlier.length - 2] : null,
    changedBy: changedBy(ctx.event, state),
    note: all ? "All hands open: nothing is hidden, so there is nothing to infer." : "",
  });
  if (!all) renderLayer({ ...ctx, holders });
}

const keyOf = (ctx) => `${window.__app && window.__app.id}|${ctx.belief ? ctx.belief.seq : 0}|${ctx.perspective}`;

// The switch and, under "Behaviour (greedy)", the step's behaviour layer (fetched once).
function renderLayer(ctx) {
  layer.last = ctx;
  const el = ctx.overlayEl;
  if (!el._modelSwitch) {
    el._modelSwitch = true;
    el.addEventListener("click", (e) => {
      const b = e.target.closest(".ov-model [data-model]");
      if (!b || b.dataset.model === layer.model) return;
      layer.model = b.dataset.model;
      setItem("domino-oracle:model", layer.model);
      if (layer.last) renderLayer(layer.last);
    });
  }
  let box = el.querySelector(".ov-layers");
  if (!box) {
    box = document.createElement("div");
    box.className = "ov-layers";
    const grids = el.querySelector(".grids");
    if (grids) grids.after(box);
    else el.append(box);
  }
  const live = ctx.belief && ctx.belief.status === "live";
  const key = keyOf(ctx);
  let html = modelSwitchHtml(layer.model);
  if (layer.model !== "uniform") {
    const answer = live ? layer.cache.get(key) : null;
    if (live && !answer && !layer.errors.has(key)) fetchOdds(key, ctx);
    html += behaviourLayerHtml(answer || null, {
      variant: ctx.state.rules, maxPip: ctx.state.maxPip, holders: ctx.holders || [],
      seq: ctx.belief ? ctx.belief.seq : undefined, pending: live && !answer && !layer.errors.has(key),
      error: layer.errors.get(key) || "",
    });
  }
  if (box._html !== html) {
    box.innerHTML = html;
    box._html = html;
  }
}

const inFlight = new Set();

async function fetchOdds(key, ctx) {
  if (inFlight.has(key)) return;
  inFlight.add(key);
  const id = window.__app && window.__app.id;
  const url = `/api/matches/${encodeURIComponent(id)}/odds?seq=${ctx.belief.seq}&observer=${encodeURIComponent(ctx.perspective)}`;
  try {
    const r = await fetch(url);
    const body = await r.json();
    if (r.ok) layer.cache.set(key, body);
    const later = r.status === 503 || r.status === 429; // busy, or this address's turn
    if (!r.ok) layer.errors.set(key, later ? "The odds workers are busy: retrying…" : body.error || `HTTP ${r.status}`);
    if (later) { // ask again in a second (once), not at once
      setTimeout(() => {
        layer.errors.delete(key);
        if (layer.last && keyOf(layer.last) === key) renderLayer(layer.last);
      }, 1000);
    }
  } catch (err) {
    layer.errors.set(key, String(err));
  } finally {
    inFlight.delete(key);
    if (layer.last && keyOf(layer.last) === key) renderLayer(layer.last);
  }
}
