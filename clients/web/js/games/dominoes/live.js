// A live dominoes table for the shell's table view (js/table_view.js): the board, your hand
// with the tiles the server offers outlined, the end chooser, Pass / Draw, advice hints, the
// overlay, and the keys that make moves. Every move sent is one of the server's legal moves
// as it offered it (`ctx.legalMoves()`); the page knows no rule. The shell owns the
// connection, the events, the beliefs and the overlay switch.

import { getItem, setItem } from "../../store.js";
import { esc, toast } from "../../ui.js";
import { renderBoard } from "./board.js";
import { ADVICE_LABEL, adviceLine, pct, signed, teamWords } from "./advice.js";
import { domino } from "./draw.js";
import { parseTile } from "./fold.js";
import { changedBy } from "./describe.js";
import { MODELS, behaviourLayerHtml, modelSwitchHtml, renderOracle } from "./overlay.js";

// The server's offer for this position, by what the page draws: the plays of each tile (one
// per end it fits), and the pass or the draw when that is the seat's only move.
export function offerOf(moves) {
  const plays = new Map();
  for (const m of moves) {
    if (m.kind === "play") plays.set(m.tile, [...(plays.get(m.tile) || []), m]);
  }
  return { any: moves.length > 0, plays, pass: moves.find((m) => m.kind === "pass") || null,
    draw: moves.find((m) => m.kind === "draw") || null };
}

// Why a tile the server did not offer cannot be played, in the rule's words: on the empty line
// of a match's first hand only the highest double (else the heaviest tile) may open.
export function refusalWords(tile, offer, hand) {
  if (!offer.any) return "Not your turn.";
  const opening = [...offer.plays.keys()];
  if (hand && !hand.line.length && hand.number === 1 && opening.length === 1) {
    return `The first hand opens with the highest double dealt (with no double, the heaviest tile): play ${opening[0]}.`;
  }
  return `${tile} is not one of your legal moves now.`;
}

// ctx: {app, me, tableId, boardEl, overlayEl, overlayOn(), askAdvice(), legalMoves()}; `app`
// holds the shell's state: {state, belief, timeline, adviceOn, adviceBusy, advice, conn}.
export function liveTable(ctx) {
  const { app, me, tableId, boardEl, overlayEl } = ctx;
  let focusIdx = 0;
  let chooser = null;
  let busy = false;
  let holders = null; // the overlay's holders last drawn (kept while a belief names none)
  let wasMyTurn = false;
  const offer = () => offerOf(me ? ctx.legalMoves() : []);
  const soundOn = () => getItem("domino-oracle:sound") === "on";
  // The model switch (remembered): "uniform" shows the exact belief alone; a behaviour model
  // adds its estimate (an `odds` request, answered from this seat's own view) under it.
  const odds = { model: getItem("domino-oracle:model") || "uniform", answer: null, pending: false, askedSeq: -1, error: "" };
  // The advice's own model switch (remembered apart): the deals the advisor solves come from
  // the exact uniform posterior or the behaviour one; the shell sends it with `advise`.
  app.adviceModel = getItem("domino-oracle:advice-model") || "uniform";

  // A short tone when your turn comes (the Sound switch, off by default, remembered).
  function beep() {
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      const audio = beep.audio || (beep.audio = new Ctx());
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.value = 0.08;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.15);
      window.__sounds = (window.__sounds || 0) + 1; // for the tests, as __metrics
    } catch {
      /* no audio here: the title still says it */
    }
  }

  // The advice for the position on the board under the chosen model, or null once the
  // table has moved on (or the model was switched).
  function currentAdvice() {
    const adv = app.advice;
    return adv && adv.seq === app.state.lastSeq && (adv.model || "uniform") === app.adviceModel ? adv : null;
  }

  function hintHtml(t, adv) {
    const rows = adv ? adv.moves.filter((m) => m.tile === t) : [];
    if (!rows.length) return { html: "", aria: "" };
    const m = rows[0]; // the better end, if it fits both
    const best = adv.moves[0].tile === t;
    return {
      html: `<span class="hint${best ? " best" : ""}" data-ep="${m.expected_points}" data-pwin="${m.p_win_hand}">` +
        `${best ? "★ " : ""}${signed(m.expected_points)}<br>${pct(m.p_win_hand)}</span>`,
      aria: `, advice ${signed(m.expected_points)} points, ${pct(m.p_win_hand)} win${best ? ", best" : ""}`,
    };
  }

  function handHtml() {
    const h = app.state.hand;
    if (!me || !h || !h.hands[me]) return null;
    const legal = offer().plays;
    const tiles = h.hands[me];
    const adv = currentAdvice();
    focusIdx = Math.max(0, Math.min(focusIdx, tiles.length - 1));
    const buttons = tiles.map((t, i) => {
      const [a, b] = parseTile(t);
      const ok = legal.has(t);
      const chosen = chooser === t ? " chosen" : "";
      const hint = ok ? hintHtml(t, adv) : { html: "", aria: "" };
      return `<button type="button" class="tile-btn${ok ? " legal" : ""}${chosen}${hint.html ? " hinted" : ""}" data-tile="${t}" ` +
        `data-legal="${ok}" tabindex="${i === focusIdx ? 0 : -1}" aria-label="${t}${ok ? ", playable" : ""}${hint.aria}">` +
        `${domino(a, b, { vertical: true, label: false })}${hint.html}</button>`;
    }).join("");
    return `<div class="hand mine" role="toolbar" aria-label="your tiles: arrows to pick, Enter to play">${buttons}</div>`;
  }

  function chooserHtml() {
    const h = app.state.hand;
    if (!chooser || !h) return "";
    const l = h.line[0][0];
    const r = h.line[h.line.length - 1][1];
    const adv = currentAdvice();
    // Both ends showing one number make both plays one move, which the advisor lists once
    // (under either end): the same figures belong on both buttons.
    const endHint = (end) => {
      const m = adv && (adv.moves.find((x) => x.tile === chooser && x.end === end) ||
        (l === r ? adv.moves.find((x) => x.tile === chooser) : null));
      return m ? ` · advice ${signed(m.expected_points)}, ${pct(m.p_win_hand)}` : "";
    };
    return `<div class="chooser" role="group" aria-label="choose an end for ${chooser}">` +
      `<span>Play <b>${chooser}</b> on:</span>` +
      `<button type="button" data-end="left">Left end, shows ${l} (L)${endHint("left")}</button>` +
      `<button type="button" data-end="right">Right end, shows ${r} (R)${endHint("right")}</button>` +
      `<button type="button" data-cancel>Cancel (Esc)</button></div>`;
  }

  function controlsHtml() {
    const ov = `<button type="button" class="ov-toggle" aria-pressed="${ctx.overlayOn()}">Oracle overlay (O)</button>`;
    if (!me) return `<div class="controls">${ov}</div>`;
    const { pass: passMove, draw: drawMove } = offer();
    const pass = !!passMove;
    const draw = app.state.draws
      ? `<button type="button" class="draw${drawMove ? " urgent" : ""}" ` +
        `${drawMove ? "" : "disabled"} aria-keyshortcuts="D">Draw (D)</button>` : "";
    const replay = app.state.phase === "finished"
      ? ` <a class="button" href="#replay=${encodeURIComponent(tableId)}&perspective=${me}">Replay this match</a>` : "";
    return `<div class="controls">${draw}<button type="button" class="pass${pass ? " urgent" : ""}" ${pass ? "" : "disabled"}>` +
      `Pass (P)</button>${adviceButtonHtml()}${adviceModelHtml()}${ov}` +
      `<button type="button" class="sound-toggle" aria-pressed="${soundOn()}" title="a short tone when your turn comes">Sound</button>` +
      `${replay}</div>${chooserHtml()}${adviceBoxHtml()}`;
  }

  function canAsk() {
    return app.adviceOn && !app.adviceBusy && offer().plays.size > 0;
  }

  function adviceButtonHtml() {
    if (!me || !app.adviceOn) return "";
    return `<button type="button" class="advise" ${canAsk() ? "" : "disabled"} aria-keyshortcuts="A" ` +
      `title="Rank my legal moves: ${ADVICE_LABEL}">${app.adviceBusy ? "Thinking…" : "Advice (A)"}</button>`;
  }

  // "Deals from: Uniform | Behaviour (greedy)", beside the Advice button.
  function adviceModelHtml() {
    if (!me || !app.adviceOn) return "";
    const buttons = MODELS.map((m) =>
      `<button type="button" data-advice-model="${m.name}" aria-pressed="${m.name === app.adviceModel}"` +
      `${m.name === app.adviceModel ? ` style="font-weight:700;outline:2px solid #b45309"` : ""}>${m.label}</button>`).join("");
    return `<span class="advice-model" role="group" aria-label="which model the advice draws its deals from">` +
      `<span class="muted">Advice deals:</span> ${buttons}</span>`;
  }

  // What the advice's deals assume, and how many they are worth.
  function adviceModelLine(adv) {
    const model = adv.model || "uniform";
    const worth = model === "uniform"
      ? `${adv.moves[0] ? adv.moves[0].samples : 0} deals drawn uniformly from those consistent with your view`
      : `${adv.moves[0] ? adv.moves[0].samples : 0} deals resampled from ${adv.pool} weighed` +
        `${adv.exact_pool ? " (every consistent deal)" : ""}, worth an effective sample of ${Number(adv.ess).toFixed(1)}` +
        ` — each other player taken to play as the greedy bot scores its moves`;
    return `<p class="advice-model-line" data-model="${esc(model)}" data-ess="${adv.ess ?? ""}"><b>model: ${esc(model)}</b> · ${worth}</p>`;
  }

  function adviceBoxHtml() {
    const adv = currentAdvice();
    if (!me || !app.adviceOn || (!adv && !app.adviceBusy)) return "";
    const body = adv
      ? adviceModelLine(adv) + `<ol class="advice-list">${adv.moves.map((m, i) => `<li class="${i === 0 ? "best" : ""}">${adviceLine(m, i, app.state)}</li>`).join("")}</ol>`
      : `<p class="muted">Sampling deals consistent with what you have seen${app.adviceModel === "uniform" ? "" : ", weighed by how the others played"}…</p>`;
    return `<section class="advice-box" aria-label="move advice" data-seq="${adv ? adv.seq : ""}" data-model="${adv ? esc(adv.model || "uniform") : ""}">` +
      `<p class="advice-label"><b>Advice</b> · <span class="label">${ADVICE_LABEL}</span>: each sampled deal is ` +
      `solved with every hand open, so the figures (${teamWords(app.state)}) are better than real play ` +
      `can expect — use them to rank moves.</p>` +
      `${body}</section>`;
  }

  function render() {
    const hadFocus = boardEl.contains(document.activeElement) &&
      document.activeElement.classList.contains("tile-btn");
    renderBoard(boardEl, app.state, { me, bottom: me || app.state.seats[0], handHtml: handHtml(), controlsHtml: controlsHtml(),
      names: app.info ? app.info.seats : null });
    const mine = !!me && offer().any;
    document.title = mine ? "▶ Your turn · Domino Oracle" : "Domino Oracle";
    if (mine && !wasMyTurn && soundOn()) beep();
    wasMyTurn = mine;
    if (hadFocus || chooser) {
      const target = chooser ? boardEl.querySelector(".chooser button") : boardEl.querySelector(`.tile-btn[tabindex="0"]`);
      if (target) target.focus();
    }
  }

  function renderOverlay() {
    if (!ctx.overlayOn()) return;
    const ev = app.belief && app.events[app.belief.seq - 1];
    holders = renderOracle(overlayEl, app.state, app.belief, me, { previous: holders, timeline: app.timeline,
      changedBy: changedBy(ev, app.state) });
    overlayEl.dataset.seq = app.belief ? app.belief.seq : 0;
    overlayEl.dataset.observer = me || "spectator";
    renderLayer();
    askOdds();
  }

  // The switch and (when a behaviour model is chosen) its layer, just under the exact grids.
  function renderLayer() {
    if (!ctx.overlayOn()) return;
    let box = overlayEl.querySelector(".ov-layers");
    if (!box) {
      box = document.createElement("div");
      box.className = "ov-layers";
      const grids = overlayEl.querySelector(".grids");
      if (grids) grids.after(box);
      else overlayEl.append(box);
    }
    const live = app.belief && app.belief.status === "live";
    const layer = odds.model === "uniform" ? ""
      : behaviourLayerHtml(live && odds.answer && odds.answer.hand === app.belief.hand ? odds.answer : null, {
        variant: app.state.rules, maxPip: app.state.maxPip, holders: holders || [],
        seq: app.belief ? app.belief.seq : undefined, pending: odds.pending, error: odds.error,
      });
    const html = modelSwitchHtml(odds.model) + layer;
    if (box._html !== html) {
      box.innerHTML = html;
      box._html = html;
    }
  }

  // Ask for the chosen model's odds of the position now: one request at a time, once per
  // belief seq (a refusal waits for the next move), only while a hand is in play.
  function askOdds() {
    const belief = app.belief;
    if (odds.model === "uniform" || odds.pending || !app.conn || !belief || belief.status !== "live") return;
    if (belief.seq <= odds.askedSeq) return;
    odds.pending = true;
    odds.askedSeq = belief.seq;
    const model = odds.model;
    app.conn.request({ type: "odds", table_id: tableId, model }).then((answer) => {
      if (model === odds.model) {
        odds.answer = answer;
        odds.error = "";
      }
    }, (err) => {
      odds.error = err.code === "busy" ? "The odds workers are busy: the next move will ask again."
        : `${err.code}: ${err.message}`;
    }).finally(() => {
      odds.pending = false;
      renderLayer();
      askOdds(); // the table may have moved on meanwhile
    });
    renderLayer();
  }

  overlayEl.addEventListener("click", (e) => {
    const b = e.target.closest(".ov-model [data-model]");
    if (!b || b.dataset.model === odds.model) return;
    odds.model = b.dataset.model;
    odds.answer = null;
    odds.error = "";
    odds.askedSeq = -1;
    setItem("domino-oracle:model", odds.model);
    renderLayer();
    askOdds();
  });

  // After an event is folded in: a chooser for a tile no longer playable goes.
  function afterEvent(ev) {
    if (chooser && !offer().plays.has(chooser)) chooser = null;
    render();
    if (ev.type === "hand_ended" || ev.type === "hand_started") renderOverlay();
  }

  // One of the server's legal moves, sent back as it offered it.
  async function send(move) {
    if (busy || !move) return;
    busy = true;
    chooser = null;
    try {
      await app.conn.request({ type: "move", table_id: tableId, move });
    } catch (err) {
      toast(`${err.code}: ${err.message}`);
    } finally {
      busy = false;
      render();
    }
  }

  // The offered play of `tile` on `end` (null: the one that opens the line), if any.
  const playOf = (tile, end) => (offer().plays.get(tile) || []).find((m) => (m.end ?? null) === end) || null;
  const play = (tile, end) => send(playOf(tile, end));
  const pass = () => send(offer().pass);
  const draw = () => send(offer().draw); // draw-2: nothing fits and the boneyard has tiles

  function pick(tile) {
    const moves = offer().plays.get(tile);
    if (!moves) return void toast(refusalWords(tile, offer(), app.state.hand));
    const h = app.state.hand;
    if (moves.length > 1 && h && h.line.length && h.line[0][0] === h.line[h.line.length - 1][1]) {
      // both ends show one number: either end leaves the same position, so no chooser
      send(moves.find((m) => m.end === "right") || moves[0]);
    } else if (moves.length > 1) {
      chooser = tile; // the offered plays of this tile differ by end: the player chooses
      render();
    } else send(moves[0]);
  }

  // A click in the board; true when it was a move's.
  function onClick(e) {
    const t = e.target.closest(".tile-btn");
    if (t) {
      focusIdx = [...boardEl.querySelectorAll(".tile-btn")].indexOf(t);
      pick(t.dataset.tile);
      return true;
    }
    const endBtn = e.target.closest(".chooser [data-end]");
    if (endBtn && chooser) return void play(chooser, endBtn.dataset.end) || true;
    if (e.target.closest(".chooser [data-cancel]")) {
      chooser = null;
      render();
      return true;
    }
    if (e.target.closest("button.pass")) return void pass() || true;
    if (e.target.closest("button.draw")) return void draw() || true;
    if (e.target.closest("button.advise")) return void ctx.askAdvice() || true;
    const modelBtn = e.target.closest(".advice-model [data-advice-model]");
    if (modelBtn) {
      if (modelBtn.dataset.adviceModel !== app.adviceModel) {
        app.adviceModel = modelBtn.dataset.adviceModel;
        setItem("domino-oracle:advice-model", app.adviceModel);
        render(); // the advice shown was another model's: ask again (A)
      }
      return true;
    }
    if (e.target.closest("button.sound-toggle")) {
      setItem("domino-oracle:sound", soundOn() ? "off" : "on");
      render();
      return true;
    }
    return false;
  }

  // A key on the page (not in a form field); true when handled.
  function onKey(e) {
    const key = e.key.toLowerCase();
    const tiles = [...boardEl.querySelectorAll(".tile-btn")];
    if ((key === "arrowleft" || key === "arrowright") && tiles.length && !chooser) {
      focusIdx = (focusIdx + (key === "arrowleft" ? -1 : 1) + tiles.length) % tiles.length;
      tiles.forEach((b, i) => (b.tabIndex = i === focusIdx ? 0 : -1));
      tiles[focusIdx].focus();
      e.preventDefault();
    } else if (key === "l" || key === "r") {
      const end = key === "l" ? "left" : "right";
      const tile = chooser || (tiles[focusIdx] && tiles[focusIdx].dataset.tile);
      if (tile && playOf(tile, end)) play(tile, end);
      else if (tile && playOf(tile, null)) play(tile, null);
    } else if (key === "p") pass();
    else if (key === "d") draw();
    else if (key === "a") ctx.askAdvice();
    else if (key === "escape" && chooser) {
      chooser = null;
      render();
    } else return false;
    return true;
  }

  // Whether `advise` makes sense now (the shell sends it).
  const canAdvise = () => !!me && canAsk();

  return { render, renderOverlay, afterEvent, onClick, onKey, canAdvise };
}
