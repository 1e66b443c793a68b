// Uno's play-aware layer (`behaviour:plays`, games/uno/behaviour.py) beside the exact odds:
// the switch between the two, what the layer assumes and how sure it is, in words, and the
// two ways of getting it: the `odds` request at a live table (asked once per belief seq,
// again a few times when the workers are busy) and GET /api/matches/{id}/odds in a replay.
// The exact belief is never replaced: the layer is drawn only while its button is pressed.

import { getItem, setItem } from "../../store.js";

export const PLAY_MODEL = "behaviour:plays";
const STORED = "domino-oracle:uno-model";
const Z95 = 1.959963984540054;

export function layerSwitchHtml(model) {
  const b = (m, text) => `<button type="button" data-model="${m}" aria-pressed="${model === m}">${text}</button>`;
  return `<div class="ov-model" role="group" aria-label="which odds">${b("uniform", "Every deal alike (exact)")}` +
    `${b(PLAY_MODEL, "Weighed by the plays (estimate)")}</div>`;
}

const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

// Whose plays are weighed, from the observer: a seat weighs its opponent's, a spectator both.
function whose(odds) {
  return odds.observer === "S" ? "North's" : odds.observer === "N" ? "South's" : "the players'";
}

// What the layer is, in words: how sure (exact under the model, or the error and the
// effective sample), what it weighs, and that the model is an assumption.
export function layerWords(odds) {
  const assumption = "How a player picks a card was learnt from stored matches of the project's bots: " +
    "an assumption about the players, not a fact.";
  if (!odds.weighed) {
    return `No play to weigh yet: these are the exact figures. Once ${whose(odds)} plays are seen, each way the ` +
      `hidden cards could lie is weighed by how likely they were with the hand it gives. ${assumption}`;
  }
  const plays = odds.weighed === 1 ? `${whose(odds)} play was` : `${whose(odds)} ${odds.weighed} plays were`;
  const ess = Math.max(1, Math.round(odds.ess));
  if (odds.exact) {
    const n = odds.samples != null ? ` ${grouped(odds.samples)}` : "";
    return `Weighed by the plays, exact under the model: each of the${n} ways the hidden cards could lie is weighed ` +
      `by how likely ${plays} with the hand it gives (together they count like about ${ess} equally likely ways). ${assumption}`;
  }
  const err = typeof odds.error_95 === "number" ? `each figure within ±${(odds.error_95 * 100).toFixed(1)} points ` +
    `(95% confidence, the widest)` : "its error is not known";
  const few = ess < 10 ? ": few, so read the figures as rough" : "";
  return `Estimate, not exact: ${err}, from ${grouped(odds.samples)} sampled ways the hidden cards could lie, weighed ` +
    `by how likely ${plays} with the hand each gives; they count like about ${ess} independent ones${few}. ${assumption}`;
}

// The model in its own terms, for the folded "technically" box.
export function layerTechnical(odds) {
  const plays = odds.weighed ?? 0;
  const pulled = odds.exact ? "" : `; each figure pulled toward the exact one by ${odds.shrink ?? "K"} / (${odds.shrink ?? "K"} + ESS)`;
  return `${odds.label}. ${plays} play${plays === 1 ? "" : "s"} weighed, effective sample ${odds.ess}, ` +
    `${odds.samples} arrangements ${odds.exact ? "listed" : "drawn"}${pulled}.`;
}

// holder -> kind -> the 95% error of each figure (none when the layer is exact)
export function layerErrors(odds) {
  if (!odds || odds.exact || !odds.stderr) return null;
  const out = {};
  for (const [holder, row] of Object.entries(odds.stderr)) {
    out[holder] = {};
    for (const [item, se] of Object.entries(row)) if (!item.includes(">=")) out[holder][item] = Z95 * se;
  }
  return out;
}

export const storedModel = () => (getItem(STORED) === PLAY_MODEL ? PLAY_MODEL : "uniform");

// A click on the switch: the model chosen (kept in this browser), or null if nothing changed.
export function switched(e, current) {
  const b = e.target.closest && e.target.closest(".ov-model [data-model]");
  if (!b || b.dataset.model === current) return null;
  const model = b.dataset.model === PLAY_MODEL ? PLAY_MODEL : "uniform";
  setItem(STORED, model);
  return model;
}

const RETRIES = 5;
const RETRY_MS = 3000;
const NOT_EXACT = "Not computed here: the play-aware layer weighs the deals the exact odds count, and here the " +
  "exact odds are themselves an estimate.";

// The live table's layer: asks `odds` once per belief seq while the layer is chosen.
// app: the table's app (conn, belief); rerender: draws the panel again.
export function liveLayer(app, tableId, rerender) {
  const layer = { model: storedModel(), odds: null, pending: false, error: "", final: false, errorSeq: -1,
    askedSeq: -1, retries: 0, retriedSeq: -1 };

  function failed(seq, text, final) {
    layer.error = text;
    layer.final = final;
    layer.errorSeq = seq;
  }

  function ask() {
    const belief = app.belief;
    if (layer.model !== PLAY_MODEL || layer.pending || !app.conn || !belief) return;
    if (!belief.marginals || !Object.keys(belief.marginals).length || belief.seq <= layer.askedSeq) return;
    layer.askedSeq = belief.seq;
    if (belief.status === "estimate") return void failed(belief.seq, NOT_EXACT, true) || rerender();
    if (belief.seq !== layer.retriedSeq) {
      layer.retriedSeq = belief.seq;
      layer.retries = 0;
    }
    layer.pending = true;
    const seq = belief.seq;
    app.conn.request({ type: "odds", table_id: tableId, model: PLAY_MODEL }).then((answer) => {
      layer.odds = answer;
      layer.error = "";
    }, (err) => {
      const busy = err.code === "busy" || err.code === "rate_limited";
      const retry = busy && layer.retries < RETRIES;
      if (busy) {
        failed(seq, retry ? "The odds workers are busy: asking again in a moment…"
          : "The odds workers are busy: the next move will ask again.", !retry);
      } else {
        failed(seq, err.code === "wrong_phase" ? `Not computed here: ${err.message}.` : `${err.code}: ${err.message}`, true);
      }
      if (retry) { // the position may stay (your turn): ask again, a few times, spaced
        layer.retries += 1;
        setTimeout(() => {
          if (app.belief && layer.askedSeq === app.belief.seq) layer.askedSeq = -1;
          rerender();
        }, RETRY_MS);
      }
    }).finally(() => {
      layer.pending = false;
      rerender();
    });
  }

  // What the panel draws now: the answer only for the belief it reflects; `waiting` while
  // one is still to come (the figures shown meanwhile are the exact ones, dimmed).
  function current() {
    const belief = app.belief;
    const odds = layer.odds && belief && layer.odds.seq === belief.seq ? layer.odds : null;
    const error = !odds && belief && layer.errorSeq === belief.seq ? layer.error : "";
    return { model: layer.model, odds, error, waiting: !odds && !(error && layer.final) };
  }

  function onClick(e) {
    const model = switched(e, layer.model);
    if (!model) return false;
    layer.model = model;
    layer.odds = null;
    layer.error = "";
    layer.errorSeq = -1;
    layer.askedSeq = -1;
    rerender();
    return true;
  }
  return { layer, ask, current, onClick };
}

// A replay step's layer: fetched once per (match, seq, perspective), kept; a busy server is
// asked again once, a second later.
const replay = { cache: new Map(), errors: new Map(), inFlight: new Set(), last: null };

export function replayLayer(ctx, rerender) {
  replay.last = rerender;
  replay.model = storedModel(); // the live table's choice carries over, and back
  const id = window.__app && window.__app.id;
  const belief = ctx.belief;
  const live = !!(belief && belief.marginals && Object.keys(belief.marginals).length);
  const key = `${id}|${belief ? belief.seq : 0}|${ctx.perspective}`;
  if (replay.model === PLAY_MODEL && live && belief.status === "estimate") {
    return { model: replay.model, odds: null, error: NOT_EXACT, waiting: false };
  }
  if (replay.model === PLAY_MODEL && live && !replay.cache.has(key) && !replay.errors.has(key)) {
    fetchOdds(key, id, belief.seq, ctx.perspective);
  }
  const odds = replay.cache.get(key) || null;
  const error = odds ? "" : replay.errors.get(key) || "";
  return { model: replay.model, odds, error, waiting: live && !odds && (!error || error.includes("busy")) };
}

export function replayClick(e) {
  const model = switched(e, storedModel());
  if (!model) return false;
  replay.model = model;
  if (replay.last) replay.last();
  return true;
}

async function fetchOdds(key, id, seq, observer) {
  if (replay.inFlight.has(key)) return;
  replay.inFlight.add(key);
  const url = `/api/matches/${encodeURIComponent(id)}/odds?seq=${seq}&observer=${encodeURIComponent(observer)}` +
    `&model=${encodeURIComponent(PLAY_MODEL)}`;
  try {
    const r = await fetch(url);
    const body = await r.json();
    const later = r.status === 503 || r.status === 429; // busy, or this address's turn
    if (r.ok) replay.cache.set(key, body);
    else replay.errors.set(key, later ? "The odds workers are busy: asking again in a moment…"
      : `Not computed here: ${body.error || `HTTP ${r.status}`}.`);
    if (later) {
      setTimeout(() => {
        replay.errors.delete(key);
        if (replay.last) replay.last();
      }, 1000);
    }
  } catch (err) {
    replay.errors.set(key, `Not computed: ${String(err)}`);
  } finally {
    replay.inFlight.delete(key);
    if (replay.last) replay.last();
  }
}
