// A behaviour model's layer beside a game's exact odds (games/behaviour.py on the server): the
// two-button switch, the choice kept in this browser, and the two ways of getting the layer's
// figures — the `odds` request at a live table (asked once per belief seq, again a few times
// when the workers are busy) and GET /api/matches/{id}/odds in a replay. It names no game: a
// game's renderer makes one with its model's name and its words (games/<game>/layer.js) and
// draws the answer itself. The exact belief is never replaced: the layer is drawn only while
// its button is pressed, and its figures are only ever the server's answer.

import { getItem, setItem } from "../store.js";

const Z95 = 1.959963984540054;
const RETRIES = 5;
const RETRY_MS = 3000;

// holder -> item -> the 95% error of each figure (null when the layer is exact); `keep`
// chooses the items a panel draws.
export function layerErrors(odds, keep = () => true) {
  if (!odds || odds.exact || !odds.stderr) return null;
  const out = {};
  for (const [holder, row] of Object.entries(odds.stderr)) {
    out[holder] = {};
    for (const [item, se] of Object.entries(row)) if (keep(item)) out[holder][item] = Z95 * se;
  }
  return out;
}

export const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

// spec: {model (its name on the server), stored (this browser's key for the choice),
//        button (the layer's button, in words), notExact (what to say instead of asking when
//        the exact belief is itself an estimate; null: ask all the same)}
export function behaviourLayer(spec) {
  const { model, stored, button, notExact = null } = spec;

  function switchHtml(current) {
    const b = (m, text) => `<button type="button" data-model="${m}" aria-pressed="${current === m}">${text}</button>`;
    return `<div class="ov-model" role="group" aria-label="which odds">${b("uniform", "Every deal alike (exact)")}` +
      `${b(model, button)}</div>`;
  }

  const storedModel = () => (getItem(stored) === model ? model : "uniform");

  // A click on the switch: the model chosen (kept in this browser), or null if nothing changed.
  function switched(e, current) {
    const b = e.target.closest && e.target.closest(".ov-model [data-model]");
    if (!b || b.dataset.model === current) return null;
    const chosen = b.dataset.model === model ? model : "uniform";
    setItem(stored, chosen);
    return chosen;
  }

  const refused = (belief) => notExact && belief.status === "estimate";

  // The live table's layer: asks `odds` once per belief seq while the layer is chosen.
  // app: the table's app (conn, belief); rerender: draws the panel again.
  function live(app, tableId, rerender) {
    const layer = { model: storedModel(), odds: null, pending: false, error: "", final: false, errorSeq: -1,
      askedSeq: -1, retries: 0, retriedSeq: -1 };

    function failed(seq, text, final) {
      layer.error = text;
      layer.final = final;
      layer.errorSeq = seq;
    }

    function ask() {
      const belief = app.belief;
      if (layer.model !== model || layer.pending || !app.conn || !belief) return;
      if (!belief.marginals || !Object.keys(belief.marginals).length || belief.seq <= layer.askedSeq) return;
      layer.askedSeq = belief.seq;
      if (refused(belief)) return void failed(belief.seq, notExact, true) || rerender();
      if (belief.seq !== layer.retriedSeq) {
        layer.retriedSeq = belief.seq;
        layer.retries = 0;
      }
      layer.pending = true;
      const seq = belief.seq;
      app.conn.request({ type: "odds", table_id: tableId, model }).then((answer) => {
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
      const chosen = switched(e, layer.model);
      if (!chosen) return false;
      layer.model = chosen;
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
  // asked again, a second later.
  const replay = { cache: new Map(), errors: new Map(), inFlight: new Set(), last: null, model: "uniform" };

  function replayLayer(ctx, rerender) {
    replay.last = rerender;
    replay.model = storedModel(); // the live table's choice carries over, and back
    const id = window.__app && window.__app.id;
    const belief = ctx.belief;
    const shown = !!(belief && belief.marginals && Object.keys(belief.marginals).length);
    const key = `${id}|${belief ? belief.seq : 0}|${ctx.perspective}`;
    if (replay.model === model && shown && refused(belief)) {
      return { model: replay.model, odds: null, error: notExact, waiting: false };
    }
    if (replay.model === model && shown && !replay.cache.has(key) && !replay.errors.has(key)) {
      fetchOdds(key, id, belief.seq, ctx.perspective);
    }
    const odds = replay.cache.get(key) || null;
    const error = odds ? "" : replay.errors.get(key) || "";
    return { model: replay.model, odds, error, waiting: shown && !odds && (!error || error.includes("busy")) };
  }

  function replayClick(e) {
    const chosen = switched(e, storedModel());
    if (!chosen) return false;
    replay.model = chosen;
    if (replay.last) replay.last();
    return true;
  }

  async function fetchOdds(key, id, seq, observer) {
    if (replay.inFlight.has(key)) return;
    replay.inFlight.add(key);
    const url = `/api/matches/${encodeURIComponent(id)}/odds?seq=${seq}&observer=${encodeURIComponent(observer)}` +
      `&model=${encodeURIComponent(model)}`;
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

  return { model, switchHtml, storedModel, switched, live, replayLayer, replayClick };
}
