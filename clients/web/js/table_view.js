// The live table, for any game: a seat (join, or resume with the stored token) or a spectator
// (watch). This shell owns the connection, the event order (no duplicates, no gaps), the seat's
// token and event cache (js/store.js), the seat's legal moves as the server offers them, the
// beliefs and their uncertainty timeline, the overlay switch and the move log; the game's
// renderer (js/games/) folds the events, draws the table and the overlay, and offers exactly
// the server's legal moves.

import { rulesLink } from "./rules_view.js";
import { mountChat } from "./chat.js";
import { Connection } from "./conn.js";
import { gameOf, gameParam, rendererFor } from "./games/registry.js";
import { forgetSeat, getItem, loadSession, prune, saveLog, saveToken, setItem } from "./store.js";
import { esc, hideTip, setConn, toast } from "./ui.js";

const LOG_LENGTH = 8; // the move log shows the latest events, newest first
const ADVICE_RETRIES = 3; // "busy" answers asked again, ADVICE_RETRY_MS apart, while the position stays
const ADVICE_RETRY_MS = 2000;

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

// The clock drawn, not a font's glyph (a headless or bare system may have no font with ⏱).
const CLOCK_ICON = `<svg class="clock-icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">` +
  `<circle cx="8" cy="9" r="6" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M8 5.5V9l2.2 1.6M6 1.5h4" ` +
  `fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/></svg> `;

function mountTable(root, renderer, { tableId, me, session, events }) {
  const audience = me || "spectator";
  prune(tableId, me);
  const app = (window.__app = {
    tableId, seat: me, audience, game: renderer.game, token: session ? session.token : null,
    events: [], state: renderer.newState(), belief: null, timeline: [], duplicates: 0, attaches: 0,
    view: me ? "seat" : "spectator",
    adviceOn: false, advice: null, adviceBusy: false,
    // the seat's legal moves as the server offered them with event `seq` (its feed only)
    legal: null,
  });
  if (events) {
    for (const ev of events) app.state = renderer.apply(app.state, ev);
    app.events = events;
    app.timeline = session.timeline || [];
    app.resumedFromStorage = session.last_seq;
  }
  let overlayOn = getItem("domino-oracle:overlay") !== "off";
  // The heading names the seat as the match does once its players are known (a renderer's
  // seatName may take the state: Clue's "ann", not "Player 1"); it is drawn before they are.
  const headText = () => (me ? `Table ${tableId} · you are ${renderer.seatName(me, app.state)}` : `Watching table ${tableId}`);
  let disposed = false;

  root.innerHTML =
    `<div class="table-view${overlayOn ? "" : " no-overlay"}" data-audience="${audience}" data-game="${esc(renderer.game)}">` +
    `${me ? `<button type="button" class="skip-link" data-skip-hand>Skip to your hand</button>` : ""}` +
    `<div class="board-wrap"><div class="table-head"><h1>${esc(headText())}</h1>` +
    `<a href="#">Lobby</a>${rulesLink(renderer.game, "Rules")}<button type="button" class="drawer-tab" aria-controls="overlay" aria-expanded="false">The odds ▲</button></div><div id="people" class="people"><p id="clock" class="clock" aria-live="off"></p>` +
    `<div id="invites"></div><div id="rematch"></div><section id="stand-in-note" class="stand-in-note" role="status" hidden></section></div><div id="board"></div>` +
    `<section class="move-log" aria-label="latest moves"><h2>Latest moves</h2><ol id="log"></ol></section></div>` +
    `<aside id="overlay" class="overlay" aria-label="probabilities"></aside></div>`;
  const view = root.firstElementChild;
  const headEl = root.querySelector(".table-head h1");
  const boardEl = root.querySelector("#board");
  const overlayEl = root.querySelector("#overlay");
  const logEl = root.querySelector("#log");
  const clockEl = root.querySelector("#clock");
  const invitesEl = root.querySelector("#invites");
  const noteEl = root.querySelector("#stand-in-note");
  renderer.attachOverlay(overlayEl);
  // On a phone the overlay is a drawer: this button, above the table, opens and closes it.
  const drawerBtn = root.querySelector(".drawer-tab");
  const setDrawer = (open) => {
    view.classList.toggle("drawer-open", open);
    drawerBtn.setAttribute("aria-expanded", String(open));
    drawerBtn.textContent = open ? "Close the odds ✕" : "The odds ▲";
  };
  drawerBtn.addEventListener("click", () => setDrawer(!view.classList.contains("drawer-open")));
  // "Skip to your hand": the first move in your hand (or the hand itself) takes the focus
  const skip = root.querySelector("[data-skip-hand]");
  if (skip) {
    skip.addEventListener("click", () => {
      const hand = boardEl.querySelector(".hand.mine, .clue-hand");
      if (!hand) return void toast("No hand to go to yet.", "info");
      const first = hand.querySelector('button[tabindex="0"], button:not([disabled])');
      if (first) return void first.focus();
      hand.tabIndex = -1;
      hand.focus();
    });
  }
  let failed = false; // the seat or table could not be had: no table is drawn
  app.info = null; // this table's `tables` entry: names, open seats, clock, stand-ins
  app.standIns = new Map(); // seq -> {seat, reason}: moves stand-in bots made for people
  let returnedAt = null; // the seq this seat came back after (resume): the summary's start
  const noted = new Set(); // the stand-in moves for me already in the note

  let saveTimer = null;
  function save() {
    if (!me || !app.token || saveTimer) return;
    saveTimer = setTimeout(() => {
      saveTimer = null;
      saveLog(tableId, me, { token: app.token, last_seq: app.state.lastSeq, events: app.events,
        timeline: app.timeline, finished: app.state.phase === "finished" });
    }, 50);
  }

  // What this seat may do now: the payloads the server offered with the last event folded
  // (each is sent back as it is, in a `move`); none once another event came, or not our turn.
  const legalMoves = () => (app.legal && app.legal.seq === app.state.lastSeq ? app.legal.moves : []);
  const offered = (msg) => {
    if (Array.isArray(msg.legal_moves)) app.legal = { seq: msg.seq, moves: msg.legal_moves };
  };
  // A resume asks for the last event it holds once more: that event carries the legal moves
  // when this seat is to act (nothing else in the protocol says them again).
  let rereading = 0;

  const live = renderer.liveTable({
    app, me, tableId, boardEl, overlayEl, overlayOn: () => overlayOn, askAdvice, legalMoves,
  });

  // "played by a stand-in for South (the clock ran out)": everyone sees who played for whom
  function standInWords(seq) {
    const m = app.standIns.get(seq);
    if (!m) return "";
    return ` — a stand-in played for ${renderer.seatName(m.seat)} (${m.reason === "clock" ? "the clock ran out" : "away"})`;
  }

  function renderLog() {
    logEl.innerHTML = app.events.slice(-LOG_LENGTH).reverse()
      .map((ev) => `<li data-seq="${ev.seq}" data-type="${esc(ev.type)}"${app.standIns.has(ev.seq) ? " data-stand-in" : ""}>` +
        `${esc(renderer.describe(ev, me))}${esc(standInWords(ev.seq))}</li>`).join("");
  }

  // -- playing with people: names, invites, the turn clock, stand-ins ----------------------

  const seatLink = (seat) => {
    const game = gameParam(renderer.game);
    return `${location.origin}${location.pathname}#table=${encodeURIComponent(tableId)}&seat=${encodeURIComponent(seat)}${game}`;
  };

  function renderInvites() {
    const info = app.info;
    // open seats while the table waits; once the match started (its first event) there are none
    const waiting = info && info.status === "waiting" && !app.state.lastSeq;
    const open = waiting ? Object.keys(info.seats).filter((s) => info.seats[s] === null) : [];
    invitesEl.innerHTML = open.map((seat) =>
      `<div class="invite" data-seat="${esc(seat)}"><span>${esc(renderer.seatName(seat))} is open — invite a friend:</span> ` +
      `<input readonly value="${esc(seatLink(seat))}" aria-label="invite link for ${esc(renderer.seatName(seat))}">` +
      `<button type="button" data-copy="${esc(seat)}">Copy link</button></div>`).join("");
  }

  // After the match: a rematch with the same seats (bots stay, people's seats open for them);
  // once someone set it up, the others are offered their seat there.
  function renderRematch() {
    const el = root.querySelector("#rematch");
    const info = app.info;
    if (!me || app.state.phase !== "finished" || !info) return void (el.innerHTML = "");
    const game = gameParam(renderer.game);
    el.innerHTML = info.rematch
      ? `<p class="rematch-ready">A rematch is set up: <a class="button primary" data-rematch-join href="#table=${encodeURIComponent(info.rematch)}&seat=${encodeURIComponent(me)}${game}">` +
        `Take your seat (${esc(renderer.seatName(me))}) at table ${esc(info.rematch)}</a></p>`
      : `<p><button type="button" class="primary" data-rematch>Rematch, same seats</button></p>`;
  }

  async function rematch() {
    const info = app.info;
    const bots = Object.fromEntries(Object.entries(info.seats)
      .filter(([, who]) => typeof who === "string" && who.startsWith("bot:")).map(([s, who]) => [s, who.slice(4)]));
    try {
      const r = await conn.request({
        type: "create_table", variant: info.variant,
        bots, advice: !!app.adviceOn, rematch_of: tableId, ...(info.turn_clock ? { turn_clock: info.turn_clock } : {}),
        ...(info.options && Object.keys(info.options).length ? { options: info.options } : {}),
      });
      const game = gameParam(renderer.game);
      location.hash = `table=${r.table_id}&seat=${me}${game}`;
    } catch (err) {
      toast(`${err.code}: ${err.message}`);
    }
  }

  // The running clocks on the seats themselves too (where the renderer draws `.seat[data-seat]`).
  function seatClocks(left) {
    for (const tag of boardEl.querySelectorAll(".seat-clock")) {
      if (!(tag.dataset.seat in left)) tag.remove();
    }
    for (const [seat, secs] of Object.entries(left)) {
      const head = boardEl.querySelector(`.seat[data-seat="${CSS.escape(seat)}"] header`);
      if (!head) continue;
      let tag = head.querySelector(".seat-clock");
      if (!tag) {
        tag = document.createElement("span");
        tag.className = "seat-clock";
        tag.dataset.seat = seat;
        head.append(tag);
      }
      const text = `${Math.ceil(secs)} s`;
      if (tag.dataset.text !== text) {
        tag.dataset.text = text;
        tag.innerHTML = `${CLOCK_ICON}${text}`;
      }
    }
  }

  function renderClock() {
    const info = app.info;
    const running = info && info.turn_clock ? Object.entries(info.clocks || {}) : [];
    if (!running.length || app.state.phase === "finished") {
      clockEl.textContent = info && info.turn_clock ? `Turn clock: ${info.turn_clock} s a move.` : "";
      clockEl.dataset.left = "";
      seatClocks({});
      return;
    }
    const now = Date.now() / 1000;
    const left = {};
    clockEl.innerHTML = running.map(([seat, started]) => {
      const secs = Math.max(0, Math.min(info.turn_clock, info.turn_clock - (now - started)));
      left[seat] = secs;
      return `<span class="clock-seat${seat === me ? " mine" : ""}" data-seat="${esc(seat)}" data-left="${secs.toFixed(1)}">` +
        `${seat === me ? "Your clock" : `${esc(renderer.seatName(seat))}'s clock`}: ${Math.ceil(secs)} s</span>`;
    }).join(" ") + ` <span class="muted">(then a stand-in moves)</span>`;
    seatClocks(left);
  }

  // The stand-in moves made for me that I have not been told of, in a note that stays.
  function renderStandInNote() {
    if (!me) return;
    // back after a resume: what was played since (the earlier moves were told before)
    const mine = [...app.standIns.entries()].filter(([seq, m]) => m.seat === me && !noted.has(seq) &&
      (returnedAt === null || seq > returnedAt) &&
      app.events[seq - 1] && app.events[seq - 1].seq === seq);
    if (!mine.length) return;
    for (const [seq] of mine) noted.add(seq);
    const items = [...noted].sort((a, b) => a - b).map((seq) => {
      const m = app.standIns.get(seq);
      return `<li data-seq="${seq}">${esc(renderer.describe(app.events[seq - 1], me))} ` +
        `<span class="muted">(${m.reason === "clock" ? "your clock ran out" : "you were away"})</span></li>`;
    }).join("");
    const away = returnedAt !== null && [...noted].some((seq) => seq > returnedAt);
    noteEl.hidden = false;
    noteEl.innerHTML = `<p><b>${away ? "While you were away, a stand-in played for you" : "A stand-in played for you"}:</b></p>` +
      `<ol>${items}</ol><button type="button" data-dismiss>OK</button>`;
  }

  let infoKey = "";
  function onInfo(info) {
    app.info = info;
    renderClock();
    // redraw only what changed: a board redrawn every poll would never hold still for a click
    const key = JSON.stringify([info.seats, info.status, info.stand_ins, info.rematch]);
    if (key === infoKey) return;
    infoKey = key;
    app.standIns = new Map((info.stand_ins || []).map((m) => [m.seq, m]));
    renderInvites();
    renderRematch();
    renderStandInNote();
    renderLog();
    if (!failed) live.render();
    renderClock();
  }

  // This table's entry in `list_tables` (following pages if the server pages them).
  let infoAsked = 0;
  let infoLater = null;
  async function fetchInfo() {
    if (disposed || failed || !conn.isOpen) return;
    if (performance.now() - infoAsked < 400) { // asked just now: once more, a little later
      if (!infoLater) infoLater = setTimeout(() => { infoLater = null; fetchInfo(); }, 400);
      return;
    }
    infoAsked = performance.now();
    try {
      let request = { type: "list_tables" };
      for (let page = 0; page < 20; page++) {
        const r = await conn.request(request);
        const found = r.tables.find((t) => t.table_id === tableId);
        if (found) return void (disposed || onInfo(found));
        if (!r.next) return;
        request = { type: "list_tables", after: r.next };
      }
    } catch {
      /* the next tick asks again */
    }
  }
  const infoTimer = setInterval(fetchInfo, 2000);
  const clockTimer = setInterval(() => app.info && app.info.turn_clock && renderClock(), 250);

  root.querySelector("#people").addEventListener("click", async (e) => {
    const copy = e.target.closest("[data-copy]");
    if (copy) {
      const link = seatLink(copy.dataset.copy);
      try {
        await navigator.clipboard.writeText(link);
        toast("Invite link copied.", "ok");
      } catch {
        copy.previousElementSibling.select(); // no clipboard here: selected, to copy by hand
        toast("Select the link and copy it.", "ok");
      }
    }
    if (e.target.closest("[data-dismiss]")) noteEl.hidden = true;
    if (e.target.closest("[data-rematch]")) rematch();
  });

  // A seat or table this page cannot have: say so and offer the ways on, draw no table.
  function fail(err) {
    failed = true;
    view.classList.add("failed");
    clearInterval(infoTimer);
    const id = encodeURIComponent(tableId);
    let extra = "";
    if (err.code === "unknown_table") extra = ` <a href="#replay=${id}">Replay it</a> if it has finished, or go back to the <a href="#">lobby</a>.`;
    else if (err.code === "table_abandoned") extra = ` <a href="#replay=${id}">Replay it</a>, or go back to the <a href="#">lobby</a>.`;
    else if (err.code === "seat_taken") extra = ` <a href="#watch=${id}">Watch instead</a>.`;
    boardEl.innerHTML = `<p class="error" role="alert">${esc(err.message)}${extra}</p><div id="open-seats"></div>`;
    if (err.code === "seat_taken") {
      conn.request({ type: "list_tables" }).then((r) => {
        const t = r.tables.find((x) => x.table_id === tableId);
        const open = t ? Object.keys(t.seats).filter((s) => t.seats[s] === null) : [];
        const el = boardEl.querySelector("#open-seats");
        if (el && open.length) {
          el.innerHTML = `<p>Open seats: ${open.map((s) => `<a class="button" href="#table=${id}&seat=${encodeURIComponent(s)}">Join ${esc(renderer.seatName(s))}</a>`).join(" ")}</p>`;
        }
      }).catch(() => {});
    }
  }

  async function askAdvice() {
    if (!live.canAdvise()) return;
    app.adviceBusy = true;
    live.render();
    const seq = app.state.lastSeq;
    try {
      // a game with a model switch (dominoes' advice) names its model; others ask as before
      const model = app.adviceModel && app.adviceModel !== "uniform" ? { model: app.adviceModel } : {};
      for (let tries = 0; ; tries += 1) {
        try {
          // partial answers (Texas 42's oracle as N grows) are drawn as they come
          const onProgress = (partial) => {
            if (partial.seq !== app.state.lastSeq) return;
            app.advice = partial;
            live.render();
          };
          app.advice = await conn.request({ type: "advise", table_id: tableId, progress: true, ...model }, { onProgress });
          break;
        } catch (err) {
          // the shared advisers are all busy: ask again a few times while the position stays
          if (err.code !== "busy" || tries >= ADVICE_RETRIES || app.state.lastSeq !== seq) throw err;
          toast("The advisor is busy: asking again in a moment…");
          await new Promise((done) => setTimeout(done, ADVICE_RETRY_MS));
          if (app.state.lastSeq !== seq) return;
        }
      }
    } catch (err) {
      if (err.code === "advice_disabled") app.adviceOn = false;
      toast(`${err.code}: ${err.message}`);
    } finally {
      app.adviceBusy = false;
      live.render();
    }
  }

  function onEvent(msg) {
    if (rereading && msg.seq === rereading && msg.seq === app.state.lastSeq) {
      rereading = 0; // the event asked for again at a resume: its legal moves, nothing else
      offered(msg);
      live.render();
      return;
    }
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
    offered(msg);
    const last = app.timeline[app.timeline.length - 1];
    if (last && ev.hand != null && last.hand !== ev.hand) app.timeline = []; // a new hand
    save();
    live.afterEvent(ev);
    if (ev.type === "match_started" && headEl.textContent !== headText()) headEl.textContent = headText();
    renderLog();
    renderStandInNote();
    if (app.info && app.info.turn_clock) renderClock(); // the board was redrawn: its seat clocks too
    if (ev.type === "match_started") renderInvites();
    if (ev.type === "match_ended") renderRematch();
    if (ev.type === "match_started" || ev.type === "match_ended" || (app.info && app.info.turn_clock)) fetchInfo();
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
        const had = app.state.lastSeq;
        rereading = had; // the last event again, for its legal moves (see `rereading`)
        const r = await conn.request({ type: "resume", table_id: tableId, token: app.token, after_seq: Math.max(0, had - 1) });
        app.resumedAt = Math.min(had, r.last_seq); // the seq this page held: new events follow it
        if (returnedAt === null || again) returnedAt = app.resumedAt; // the stand-in summary starts here
        saveToken(tableId, me, app.token); // refreshed: the most recent tokens are kept
        app.adviceOn = !!r.advice;
        live.render();
        if (again || app.resumedFromStorage) toast(`Resumed seat ${r.seat} after seq ${app.resumedAt}.`, "ok");
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
      fail(err);
      return;
    }
    fetchInfo();
  }

  const conn = (app.conn = new Connection({
    onOpen: attach,
    onStatus: (s) => setConn(s),
    onMessage: (msg) => {
      if (disposed || msg.table_id !== tableId) return;
      if (msg.type === "event") onEvent(msg);
      else if (msg.type === "belief") onBelief(msg);
      else if (chat) chat.onMessage(msg);
    },
  }));
  // the table's chat, under the move log (js/chat.js)
  const chat = (app.chat = mountChat(root.querySelector(".board-wrap"), {
    conn, tableId, me, seatName: (seat) => renderer.seatName(seat),
  }));

  function toggleOverlay() {
    if (failed) return;
    overlayOn = !overlayOn;
    hideTip();
    setItem("domino-oracle:overlay", overlayOn ? "on" : "off");
    view.classList.toggle("no-overlay", !overlayOn);
    live.render();
    live.renderOverlay();
  }

  boardEl.addEventListener("click", (e) => {
    if (failed) return;
    if (live.onClick(e)) return;
    if (e.target.closest(".ov-toggle")) toggleOverlay();
  });

  function onKey(e) {
    if (disposed || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    if (failed) return;
    if (e.key.toLowerCase() === "o") toggleOverlay();
    else live.onKey(e);
  }
  document.addEventListener("keydown", onKey);

  live.render();
  live.renderOverlay();
  renderLog();

  return () => {
    disposed = true;
    clearInterval(infoTimer);
    clearInterval(clockTimer);
    clearTimeout(infoLater);
    document.title = "Domino Oracle";
    document.removeEventListener("keydown", onKey);
    conn.close();
  };
}
