// The live table, for any game: a seat (join, or resume with the stored token) or a spectator
// (watch). This shell owns the connection, the event order (no duplicates, no gaps), the seat's
// token and event cache (js/store.js), the beliefs and their uncertainty timeline, the overlay
// switch and the move log; the game's renderer (js/games/) folds the events, draws the table
// and the overlay, and makes the moves.

import { Connection } from "./conn.js";
import { gameOf, rendererFor } from "./games/registry.js";
import { forgetSeat, getItem, loadSession, prune, saveLog, saveToken, setItem } from "./store.js";
import { esc, hideTip, setConn, toast } from "./ui.js";

const LOG_LENGTH = 8; // the move log shows the latest events, newest first

// The events a stored session holds, when they are whole (seq 1..last_seq); else null.
function storedEvents(session) {
  if (!session || !Array.isArray(session.events) || session.events.length !== session.last_seq) return null;
  return session.events.every((e, i) => e.seq === i + 1) ? session.events : null;
}

// "S, W, N or E"
const orList = (items) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}` : items.join(""));

// `game`: the renderer to use (the URL's `game`, else the stored log's, else dominoes).
export function tableView(root, { tableId, seat = null, game = null }) {
  const session = seat ? loadSession(tableId, seat) : null;
  const events = storedEvents(session);
  const wanted = game || gameOf(events && events[0]);
  const renderer = rendererFor(wanted);
  if (!renderer) {
    root.innerHTML = `<p class="error" role="alert">This page cannot show the game ${esc(wanted)} yet.</p>`;
    return null;
  }
  if (seat && !renderer.seats.includes(seat)) {
    root.textContent = `Unknown seat ${seat}: use ${orList(renderer.seats)}.`;
    return null;
  }
  return mountTable(root, renderer, { tableId, me: seat, session, events });
}

function mountTable(root, renderer, { tableId, me, session, events }) {
  const audience = me || "spectator";
  prune(tableId, me);
  const app = (window.__app = {
    tableId, seat: me, audience, game: renderer.game, token: session ? session.token : null,
    events: [], state: renderer.newState(), belief: null, timeline: [], duplicates: 0, attaches: 0,
    view: me ? "seat" : "spectator",
    adviceOn: false, advice: null, adviceBusy: false,
  });
  if (events) {
    for (const ev of events) app.state = renderer.apply(app.state, ev);
    app.events = events;
    app.timeline = session.timeline || [];
    app.resumedFromStorage = session.last_seq;
  }
  let overlayOn = getItem("domino-oracle:overlay") !== "off";
  let disposed = false;

  root.innerHTML =
    `<div class="table-view${overlayOn ? "" : " no-overlay"}" data-audience="${audience}" data-game="${esc(renderer.game)}">` +
    `<div class="board-wrap"><div class="table-head"><h1>${me ? `Table ${esc(tableId)} · you are ${me}` : `Watching table ${esc(tableId)}`}</h1>` +
    `<a href="#">Lobby</a></div><div id="board"></div>` +
    `<section class="move-log" aria-label="latest moves"><h2>Latest moves</h2><ol id="log"></ol></section></div>` +
    `<aside id="overlay" class="overlay" aria-label="probabilities"></aside></div>`;
  const view = root.firstElementChild;
  const boardEl = root.querySelector("#board");
  const overlayEl = root.querySelector("#overlay");
  const logEl = root.querySelector("#log");
  renderer.attachOverlay(overlayEl);

  let saveTimer = null;
  function save() {
    if (!me || !app.token || saveTimer) return;
    saveTimer = setTimeout(() => {
      saveTimer = null;
      saveLog(tableId, me, { token: app.token, last_seq: app.state.lastSeq, events: app.events,
        timeline: app.timeline, finished: app.state.phase === "finished" });
    }, 50);
  }

  const live = renderer.liveTable({
    app, me, tableId, boardEl, overlayEl, overlayOn: () => overlayOn, askAdvice,
  });

  function renderLog() {
    logEl.innerHTML = app.events.slice(-LOG_LENGTH).reverse()
      .map((ev) => `<li data-seq="${ev.seq}" data-type="${esc(ev.type)}">${esc(renderer.describe(ev))}</li>`).join("");
  }

  async function askAdvice() {
    if (!live.canAdvise()) return;
    app.adviceBusy = true;
    live.render();
    try {
      app.advice = await conn.request({ type: "advise", table_id: tableId });
    } catch (err) {
      if (err.code === "advice_disabled") app.adviceOn = false;
      toast(`${err.code}: ${err.message}`);
    } finally {
      app.adviceBusy = false;
      live.render();
    }
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
    const ev = msg.event;
    if (ev.type === "match_started" && gameOf(ev) !== renderer.game) {
      // another game's table: the router mounts that game's renderer
      const params = new URLSearchParams(location.hash.replace(/^#/, ""));
      params.set("game", gameOf(ev));
      location.hash = params.toString();
      return;
    }
    app.state = renderer.apply(app.state, ev);
    app.events.push(ev);
    const last = app.timeline[app.timeline.length - 1];
    if (last && ev.hand != null && last.hand !== ev.hand) app.timeline = []; // a new hand
    save();
    live.afterEvent(ev);
    renderLog();
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
    live.renderOverlay();
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
        live.render();
        if (again || app.resumedFromStorage) toast(`Resumed seat ${r.seat} after seq ${r.after_seq}.`, "ok");
      } else {
        const name = getItem("domino-oracle:name") || "Guest";
        const r = await conn.request({ type: "join", table_id: tableId, seat: me, name });
        app.token = r.token;
        saveToken(tableId, me, r.token); // at once, before anything bigger
        app.adviceOn = !!r.advice;
        save();
        live.render();
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
      if (disposed || msg.table_id !== tableId) return;
      if (msg.type === "event") onEvent(msg);
      else if (msg.type === "belief") onBelief(msg);
    },
  }));

  function toggleOverlay() {
    overlayOn = !overlayOn;
    hideTip();
    setItem("domino-oracle:overlay", overlayOn ? "on" : "off");
    view.classList.toggle("no-overlay", !overlayOn);
    live.render();
    live.renderOverlay();
  }

  boardEl.addEventListener("click", (e) => {
    if (live.onClick(e)) return;
    if (e.target.closest(".ov-toggle")) toggleOverlay();
  });

  function onKey(e) {
    if (disposed || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    if (e.key.toLowerCase() === "o") toggleOverlay();
    else live.onKey(e);
  }
  document.addEventListener("keydown", onKey);

  live.render();
  live.renderOverlay();
  renderLog();

  return () => {
    disposed = true;
    document.removeEventListener("keydown", onKey);
    conn.close();
  };
}
