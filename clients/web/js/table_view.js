// The live table: a seat (join, or resume with the stored token) or a spectator (watch).
// Events fold into the table state; beliefs feed the overlay and the uncertainty timeline.
// The seat's token, and a cache of the events seen (so a reload needs no full backlog), live in
// localStorage (js/store.js); after a dropped connection the view resumes from its last seq.

import { renderBoard } from "./board.js";
import { Connection } from "./conn.js";
import { domino } from "./draw.js";
import { SEATS, apply, legalMoves, mustPass, newState, nextSeat, parseTile } from "./game.js";
import { attachHover, renderOverlay } from "./overlay.js";
import { forgetSeat, getItem, loadSession, prune, saveLog, saveToken, setItem } from "./store.js";
import { esc, setConn, toast } from "./ui.js";

export function overlayHolders(state, me) {
  const seats = me ? [nextSeat(me), nextSeat(nextSeat(me)), nextSeat(nextSeat(nextSeat(me)))] : SEATS;
  return state.pool ? [...seats, "pool"] : [...seats];
}

// The played tiles (tile -> seat) a belief at `seq` already knows of.
export function playedUpTo(state, seq) {
  const out = new Map();
  if (state.hand) for (const p of state.hand.played) if (p.seq <= seq) out.set(p.tile, p.seat);
  return out;
}

// Advice figures as text: "+4.2 pts · 63%".
const signed = (x) => `${x > 0 ? "+" : x < 0 ? "−" : "±"}${Math.abs(x).toFixed(1)}`;
const pct = (p) => `${Math.round(p * 100)}%`;
export const ADVICE_LABEL = "optimistic estimate (perfect-information)";

export function adviceLine(m, i) {
  const where = m.end ? ` on the ${m.end}` : "";
  return `${i === 0 ? "★ " : ""}<b>${esc(m.tile)}</b>${where}: ${signed(m.expected_points)} points, ` +
    `team wins the hand in ${pct(m.p_win_hand)} of ${m.samples} deals`;
}

export function tableView(root, { tableId, seat = null }) {
  const me = seat;
  const audience = me || "spectator";
  const session = me ? loadSession(tableId, me) : null;
  prune(tableId, me);
  const app = (window.__app = {
    tableId, seat: me, audience, token: session ? session.token : null,
    events: [], state: newState(), belief: null, timeline: [], duplicates: 0, attaches: 0,
    view: me ? "seat" : "spectator",
    adviceOn: false, advice: null, adviceBusy: false,
  });
  if (session && Array.isArray(session.events) && session.events.length === session.last_seq &&
      session.events.every((e, i) => e.seq === i + 1)) {
    for (const ev of session.events) apply(app.state, ev);
    app.events = session.events;
    app.timeline = session.timeline || [];
    app.resumedFromStorage = session.last_seq;
  }
  let overlayOn = getItem("domino-oracle:overlay") !== "off";
  let focusIdx = 0;
  let chooser = null;
  let busy = false;
  let disposed = false;

  root.innerHTML =
    `<div class="table-view${overlayOn ? "" : " no-overlay"}" data-audience="${audience}">` +
    `<div class="board-wrap"><div class="table-head"><h1>${me ? `Table ${esc(tableId)} · you are ${me}` : `Watching table ${esc(tableId)}`}</h1>` +
    `<a href="#">Lobby</a></div><div id="board"></div></div>` +
    `<aside id="overlay" class="overlay" aria-label="probabilities"></aside></div>`;
  const view = root.firstElementChild;
  const boardEl = root.querySelector("#board");
  const overlayEl = root.querySelector("#overlay");
  attachHover(overlayEl);

  let saveTimer = null;
  function save() {
    if (!me || !app.token || saveTimer) return;
    saveTimer = setTimeout(() => {
      saveTimer = null;
      saveLog(tableId, me, { token: app.token, last_seq: app.state.lastSeq, events: app.events,
        timeline: app.timeline, finished: app.state.phase === "finished" });
    }, 50);
  }

  // The advice for the position on the board, or null once the table has moved on.
  function currentAdvice() {
    const adv = app.advice;
    return adv && adv.seq === app.state.lastSeq ? adv : null;
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
    const legal = legalMoves(app.state, me);
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

  function controlsHtml() {
    const ov = `<button type="button" class="ov-toggle" aria-pressed="${overlayOn}">Oracle overlay (O)</button>`;
    if (!me) return `<div class="controls">${ov}</div>`;
    const h = app.state.hand;
    const pass = mustPass(app.state, me);
    let chooserHtml = "";
    if (chooser && h) {
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
      chooserHtml = `<div class="chooser" role="group" aria-label="choose an end for ${chooser}">` +
        `<span>Play <b>${chooser}</b> on:</span>` +
        `<button type="button" data-end="left">Left end, shows ${l} (L)${endHint("left")}</button>` +
        `<button type="button" data-end="right">Right end, shows ${r} (R)${endHint("right")}</button>` +
        `<button type="button" data-cancel>Cancel (Esc)</button></div>`;
    }
    const replay = app.state.phase === "finished"
      ? ` <a class="button" href="#replay=${encodeURIComponent(tableId)}&perspective=${me}">Replay this match</a>` : "";
    return `<div class="controls"><button type="button" class="pass${pass ? " urgent" : ""}" ${pass ? "" : "disabled"}>` +
      `Pass (P)</button>${adviceButtonHtml()}${ov}${replay}</div>${chooserHtml}${adviceBoxHtml()}`;
  }

  function canAsk() {
    return app.adviceOn && !app.adviceBusy && legalMoves(app.state, me).size > 0;
  }

  function adviceButtonHtml() {
    if (!me || !app.adviceOn) return "";
    return `<button type="button" class="advise" ${canAsk() ? "" : "disabled"} aria-keyshortcuts="A" ` +
      `title="Rank my legal moves: ${ADVICE_LABEL}">${app.adviceBusy ? "Thinking…" : "Advice (A)"}</button>`;
  }

  function adviceBoxHtml() {
    const adv = currentAdvice();
    if (!me || !app.adviceOn || (!adv && !app.adviceBusy)) return "";
    const body = adv
      ? `<ol class="advice-list">${adv.moves.map((m, i) => `<li class="${i === 0 ? "best" : ""}">${adviceLine(m, i)}</li>`).join("")}</ol>`
      : `<p class="muted">Sampling deals consistent with what you have seen…</p>`;
    return `<section class="advice-box" aria-label="move advice" data-seq="${adv ? adv.seq : ""}">` +
      `<p class="advice-label"><b>Advice</b> · <span class="label">${ADVICE_LABEL}</span>: each sampled deal is ` +
      `solved with every hand open, so the figures (points for your team minus theirs this hand, and ` +
      `the chance your team scores it) are better than real play can expect — use them to rank moves.</p>` +
      `${body}</section>`;
  }

  async function askAdvice() {
    if (!me || !canAsk()) return;
    app.adviceBusy = true;
    renderBoardNow();
    try {
      const r = await conn.request({ type: "advise", table_id: tableId });
      app.advice = r;
    } catch (err) {
      if (err.code === "advice_disabled") app.adviceOn = false;
      toast(`${err.code}: ${err.message}`);
    } finally {
      app.adviceBusy = false;
      renderBoardNow();
    }
  }

  function renderBoardNow() {
    const hadFocus = boardEl.contains(document.activeElement) &&
      document.activeElement.classList.contains("tile-btn");
    renderBoard(boardEl, app.state, { me, bottom: me || "S", handHtml: handHtml(), controlsHtml: controlsHtml() });
    if (hadFocus || chooser) {
      const target = chooser ? boardEl.querySelector(".chooser button") : boardEl.querySelector(`.tile-btn[tabindex="0"]`);
      if (target) target.focus();
    }
  }

  function renderOverlayNow() {
    if (!overlayOn) return;
    const b = app.belief;
    const h = app.state.hand;
    const sameHand = b && h && b.hand === h.number;
    const played = sameHand ? playedUpTo(app.state, b.seq) : new Map();
    const dealt = me && h && h.dealtTiles[me] ? h.dealtTiles[me] : [];
    const mine = new Set(dealt.filter((t) => !played.has(t)));
    renderOverlay(overlayEl, {
      belief: b, maxPip: app.state.maxPip, holders: overlayHolders(app.state, me), mine,
      played, names: app.state.players,
      timeline: app.timeline,
    });
    overlayEl.dataset.seq = b ? b.seq : 0;
    overlayEl.dataset.observer = audience;
  }

  function onEvent(msg) {
    if (msg.seq <= app.state.lastSeq) {
      app.duplicates += 1;
      return;
    }
    if (msg.seq !== app.state.lastSeq + 1) {
      toast(`Missed events ${app.state.lastSeq + 1}–${msg.seq - 1}: resyncing…`);
      conn.drop();
      return;
    }
    apply(app.state, msg.event);
    app.events.push(msg.event);
    if (msg.event.type === "hand_started") app.timeline = [];
    if (chooser && !legalMoves(app.state, me).has(chooser)) chooser = null;
    save();
    renderBoardNow();
    if (msg.event.type === "hand_ended" || msg.event.type === "hand_started") renderOverlayNow();
  }

  function onBelief(msg) {
    if (msg.observer !== audience) return;
    if (app.belief && msg.seq < app.belief.seq) return;
    app.belief = msg;
    if (typeof msg.entropy_bits === "number" && msg.status === "live") {
      const last = app.timeline[app.timeline.length - 1];
      if (last && last.hand !== msg.hand) app.timeline = [];
      if (!last || last.seq !== msg.seq || last.hand !== msg.hand) {
        app.timeline.push({ seq: msg.seq, hand: msg.hand, bits: msg.entropy_bits });
      }
      save();
    }
    renderOverlayNow();
  }

  async function attach(again) {
    app.attaches += 1;
    try {
      if (!me) {
        const r = await conn.request({ type: "watch", table_id: tableId, after_seq: app.state.lastSeq });
        if (again) toast(`Reconnected: watching from seq ${r.after_seq}.`, "ok");
      } else if (app.token) {
        const r = await conn.request({ type: "resume", table_id: tableId, token: app.token, after_seq: app.state.lastSeq });
        app.resumedAt = r.after_seq;
        saveToken(tableId, me, app.token); // refreshed: the most recent tokens are kept
        app.adviceOn = !!r.advice;
        renderBoardNow();
        if (again || app.resumedFromStorage) toast(`Resumed seat ${r.seat} after seq ${r.after_seq}.`, "ok");
      } else {
        const name = getItem("domino-oracle:name") || "Guest";
        const r = await conn.request({ type: "join", table_id: tableId, seat: me, name });
        app.token = r.token;
        saveToken(tableId, me, r.token); // at once, before anything bigger
        app.adviceOn = !!r.advice;
        save();
        renderBoardNow();
      }
    } catch (err) {
      if (err.code === "offline") return;
      if (err.code === "unauthorized" && app.token) {
        forgetSeat(tableId, me);
        toast("Your saved seat is no longer valid at this table.");
      }
      const extra = err.code === "unknown_table"
        ? ` <a href="#replay=${encodeURIComponent(tableId)}">Replay it</a> if it has finished.`
        : err.code === "seat_taken" ? ` <a href="#watch=${encodeURIComponent(tableId)}">Watch instead</a>.` : "";
      boardEl.insertAdjacentHTML("afterbegin", `<p class="error" role="alert">${esc(err.message)}${extra}</p>`);
    }
  }

  const conn = (app.conn = new Connection({
    onOpen: attach,
    onStatus: (s) => setConn(s),
    onMessage: (msg) => {
      if (msg.table_id !== tableId) return;
      if (msg.type === "event") onEvent(msg);
      else if (msg.type === "belief") onBelief(msg);
    },
  }));

  async function play(tile, end) {
    if (busy) return;
    busy = true;
    chooser = null;
    try {
      await conn.request({ type: "play", table_id: tableId, tile, end });
    } catch (err) {
      toast(`${err.code}: ${err.message}`);
    } finally {
      busy = false;
      renderBoardNow();
    }
  }

  async function pass() {
    if (busy || !mustPass(app.state, me)) return;
    busy = true;
    try {
      await conn.request({ type: "pass", table_id: tableId });
    } catch (err) {
      toast(`${err.code}: ${err.message}`);
    } finally {
      busy = false;
    }
  }

  function pick(tile) {
    const ends = legalMoves(app.state, me).get(tile);
    if (!ends) {
      toast(app.state.hand && app.state.hand.turn === me ? `${tile} does not fit either end.` : "Not your turn.");
      return;
    }
    if (ends.length === 2) {
      chooser = tile;
      renderBoardNow();
    } else play(tile, ends[0]);
  }

  function toggleOverlay() {
    overlayOn = !overlayOn;
    setItem("domino-oracle:overlay", overlayOn ? "on" : "off");
    view.classList.toggle("no-overlay", !overlayOn);
    renderBoardNow();
    renderOverlayNow();
  }

  boardEl.addEventListener("click", (e) => {
    const t = e.target.closest(".tile-btn");
    if (t) {
      focusIdx = [...boardEl.querySelectorAll(".tile-btn")].indexOf(t);
      pick(t.dataset.tile);
      return;
    }
    const endBtn = e.target.closest(".chooser [data-end]");
    if (endBtn && chooser) return void play(chooser, endBtn.dataset.end);
    if (e.target.closest(".chooser [data-cancel]")) {
      chooser = null;
      return void renderBoardNow();
    }
    if (e.target.closest("button.pass")) return void pass();
    if (e.target.closest("button.advise")) return void askAdvice();
    if (e.target.closest(".ov-toggle")) toggleOverlay();
  });

  function onKey(e) {
    if (disposed || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
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
      const ends = tile && legalMoves(app.state, me).get(tile);
      if (ends && ends.includes(end)) play(tile, end);
      else if (ends && ends.length === 1 && ends[0] === null) play(tile, null);
    } else if (key === "p") pass();
    else if (key === "a") askAdvice();
    else if (key === "o") toggleOverlay();
    else if (key === "escape" && chooser) {
      chooser = null;
      renderBoardNow();
    }
  }
  document.addEventListener("keydown", onKey);

  renderBoardNow();
  renderOverlayNow();

  return () => {
    disposed = true;
    document.removeEventListener("keydown", onKey);
    conn.close();
  };
}
