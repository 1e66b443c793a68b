// The replay viewer: a stored match by id (or an uploaded JSONL log) from any perspective,
// stepped or scrubbed, with the overlay and the timeline at every step. The match's game
// (its first event's `game`) picks the renderer that folds and draws each step.

import { showStoredChat } from "./chat.js";
import { allRenderers, gameOf, rendererFor } from "./games/registry.js";
import { getItem, setItem } from "./store.js";
import { ADVICE_LABEL, esc, hideTip, toast } from "./ui.js";

// The perspectives a match offers: each seat (by the renderer's names), a spectator, all open.
function perspectives(seats, seatName) {
  return [...seats.map((s) => [s, seatName(s)]), ["spectator", "Spectator"], ["all", "All hands open"]];
}

const optionsHtml = (list, chosen) =>
  list.map(([v, l]) => `<option value="${esc(v)}"${v === chosen ? " selected" : ""}>${esc(l)}</option>`).join("");

let upload = null; // {text, name}: the last uploaded log, kept for perspective changes

// An Error carrying the HTTP status (403: a seat's perspective of a match still in play).
function failure(message, status, partial = null) {
  const err = new Error(message);
  err.status = status;
  err.partial = partial; // 202 `computing` asked with progress: the answer as it stands
  return err;
}

async function getJson(url, init) {
  const r = await fetch(url, init);
  const type = r.headers.get("Content-Type") || "";
  if (!type.includes("json")) {
    throw failure(r.ok ? "unexpected reply" : `the server refused the request (HTTP ${r.status})`, r.status);
  }
  const data = await r.json();
  if (!r.ok || r.status === 202) { // 202: accepted, still computing; ask again
    const where = data.line ? ` (line ${data.line})` : data.seq ? ` (seq ${data.seq})` : "";
    throw failure(`${data.error}${where}`, r.status, r.status === 202 ? data.partial || null : null);
  }
  return data;
}

// The step asked for in the URL: a whole number, or null (not given, or not a finite number:
// the viewer then opens where it opens without one).
export function parseStep(text) {
  if (text == null || !text.trim()) return null;
  const n = Number(text);
  return Number.isFinite(n) ? Math.trunc(n) : null;
}

// Uploads go over a WebSocket of their own (the server's HTTP side reads no bodies).
function uploadLog(text, perspective) {
  return new Promise((resolve, reject) => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/api/replay/upload?perspective=${encodeURIComponent(perspective)}`);
    let done = false;
    ws.onopen = () => ws.send(text);
    ws.onmessage = (e) => {
      done = true;
      let data;
      try {
        data = JSON.parse(e.data);
      } catch {
        return reject(new Error("unreadable reply"));
      }
      if (data.error || data.type === "error") {
        const where = data.line ? ` (line ${data.line})` : data.seq ? ` (seq ${data.seq})` : "";
        reject(failure(`${data.error || data.message}${where}`, data.status));
      } else resolve(data);
      ws.close();
    };
    ws.onclose = () => done || reject(new Error("this server does not take uploads (see docs/web.md)"));
  });
}

// A match's scores by side: "NS 100 · EW 40", "S 12 · N 77".
const scoresText = (scores) =>
  scores ? Object.entries(scores).map(([side, n]) => `${esc(side)} ${n}`).join(" · ") : "—";

function pickerView(root, params) {
  const renderers = allRenderers();
  let disposed = false; // the list may arrive after the person has moved on to a replay
  // an upload's game is known only once read: offer every seat of every game
  const seats = [...new Set(renderers.flatMap((r) => r.seats))];
  const seatName = (s) => (renderers.find((r) => r.seats.includes(s)) || { seatName: String }).seatName(s);
  const choices = perspectives(seats, seatName);
  root.innerHTML =
    `<div class="lobby"><section class="card"><h1>Replays</h1>` +
    `<form id="upload" class="row"><label>Upload a JSONL log <input type="file" id="file" accept=".jsonl,.json,.txt,application/json"></label>` +
    `<label>Perspective <select id="upersp">${optionsHtml(choices, "spectator")}</select></label>` +
    `<button type="submit">Open</button></form>` +
    `<form id="byid" class="row"><label>Match id <input id="mid" maxlength="64" required></label><button type="submit">Open</button></form></section>` +
    `<section class="card"><h2>Stored matches</h2><div id="matches"><p class="muted">Loading…</p></div></section></div>`;
  root.querySelector("#byid").addEventListener("submit", (e) => {
    e.preventDefault();
    location.hash = `replay=${encodeURIComponent(root.querySelector("#mid").value.trim())}`;
  });
  root.querySelector("#upload").addEventListener("submit", async (e) => {
    e.preventDefault();
    const file = root.querySelector("#file").files[0];
    if (!file) return toast("Choose a .jsonl file first.");
    if (file.size > 2 * 1024 * 1024) return toast("The log is larger than 2 MiB.");
    upload = { text: await file.text(), name: file.name };
    location.hash = `replay=upload&perspective=${root.querySelector("#upersp").value}`;
  });
  getJson("/api/matches").then(({ matches }) => {
    const el = root.querySelector("#matches");
    if (disposed || !el) return;
    if (!matches.length) return void (el.innerHTML = `<p class="muted">No matches stored yet.</p>`);
    el.innerHTML = `<table class="tables"><thead><tr><th>Match</th><th>Variant</th><th>Status</th><th>Scores</th><th>Events</th><th></th></tr></thead><tbody>` +
      matches.map((m) => `<tr><td data-label="Match"><code>${esc(m.match_id)}</code></td><td data-label="Variant">${esc(m.variant)}</td>` +
        `<td data-label="Status">${m.finished ? `finished, ${esc(m.winner)} won` : "in play"}</td>` +
        `<td data-label="Scores">${scoresText(m.scores)}</td><td data-label="Events">${m.events}</td>` +
        `<td class="go"><a class="button small" href="#replay=${encodeURIComponent(m.match_id)}&perspective=${m.finished ? "S" : "spectator"}">Replay</a></td></tr>`).join("") +
      `</tbody></table>`;
  }).catch((err) => {
    const el = root.querySelector("#matches");
    if (!disposed && el) el.innerHTML = `<p class="error">Cannot list matches: ${esc(err.message)}</p>`;
  });
  void params;
  return () => { disposed = true; };
}

export function replayView(root, params) {
  const id = params.get("replay");
  if (!id) return pickerView(root, params);
  let perspective = params.get("perspective") || "spectator";
  let step = parseStep(params.get("step"));
  let data = null;
  let renderer = null; // the match's game's, once its events are here
  let timer = null;
  let disposed = false;
  let overlayOn = getItem("domino-oracle:overlay") !== "off";
  let advisorOn = getItem("domino-oracle:advisor") !== "off";
  const app = (window.__app = { view: "replay", id, perspective, data: null, step: 0, advice: null });

  root.innerHTML =
    `<div class="replay"><div class="table-head"><h1>Replay <code>${esc(id === "upload" && upload ? upload.name : id)}</code></h1>` +
    `<label>Perspective <select id="persp">${optionsHtml(perspectives(perspective === "spectator" || perspective === "all" ? [] : [perspective], String), perspective)}</select></label>` +
    `<a href="#replay">All replays</a><button type="button" class="drawer-tab" aria-controls="overlay" aria-expanded="false">The odds ▲</button></div>` +
    `<p id="in-play" class="muted" hidden>This match is still in play: only the spectator perspective is ` +
    `available until it ends (the others would show hands still hidden).</p>` +
    `<p id="table-options" class="muted" hidden></p>` +
    `<div class="replay-controls" role="group" aria-label="step through the match">` +
    `<button type="button" data-go="first" aria-label="first">|◀</button><button type="button" data-go="prev" aria-label="previous (left arrow)">◀</button>` +
    `<input type="range" id="scrub" min="0" max="0" value="0" aria-label="position in the match">` +
    `<button type="button" data-go="next" aria-label="next (right arrow)">▶</button><button type="button" data-go="last" aria-label="last">▶|</button>` +
    `<button type="button" data-go="play" aria-label="play or pause (space)">Play</button>` +
    `<button type="button" class="ov-toggle" aria-pressed="${overlayOn}">Overlay (O)</button>` +
    `<button type="button" class="advisor-toggle" aria-pressed="${advisorOn}" aria-keyshortcuts="A">Advisor (A)</button>` +
    `<button type="button" class="share">Copy link to this position</button></div>` +
    `<p id="where" class="where" aria-live="polite"></p>` +
    `<div class="table-view${overlayOn ? "" : " no-overlay"}"><div class="board-wrap"><div id="board"></div>` +
    `<section id="advisor" class="advice-box replay-advice" aria-live="polite" aria-label="the advisor on this move" hidden></section>` +
    `<nav id="moves" class="move-list" aria-label="moves, by hand"></nav></div>` +
    `<aside id="overlay" class="overlay" aria-label="probabilities"></aside></div></div>`;
  const boardEl = root.querySelector("#board");
  const overlayEl = root.querySelector("#overlay");
  const scrub = root.querySelector("#scrub");
  const where = root.querySelector("#where");
  const tv = root.querySelector(".table-view");
  const perspSel = root.querySelector("#persp");
  const advisorEl = root.querySelector("#advisor");
  const inPlayEl = root.querySelector("#in-play");
  const movesEl = root.querySelector("#moves");
  const drawerBtn = root.querySelector(".drawer-tab");
  drawerBtn.addEventListener("click", () => {
    const open = !tv.classList.contains("drawer-open");
    tv.classList.toggle("drawer-open", open);
    drawerBtn.setAttribute("aria-expanded", String(open));
    drawerBtn.textContent = open ? "Close the odds ✕" : "The odds ▲";
  });
  let hoverAttached = false;

  // The advisor on the move just shown: GET /api/matches/{id}/advice?seq=N (finished matches).
  // Answers are kept per seq under `uniform` (the verdicts beside the moves are those) and
  // per "model@seq" under another model the game's advisor offers (data.advice_models).
  const adviceCache = new Map();
  let adviceTimer = null;
  let adviceWanted = 0;
  let adviceModel = "uniform";
  let lastShown = null;
  const adviceKey = (seq, model) => (model === "uniform" ? seq : `${model}@${seq}`);
  const BUSY_TRIES = 30; // about five minutes of a busy replay worker before the page gives up

  // "Deals: every consistent one alike | weighed by M", where the advisor offers more models
  function modelSwitchHtml() {
    const models = (data && data.advice_models) || [];
    if (models.length < 2) return "";
    const label = (m) => (m === "uniform" ? "every consistent deal alike" : esc(modelWords(m).button));
    return `<p class="advice-model" role="group" aria-label="which model the advisor draws its deals from">` +
      `<span class="muted">Advisor's deals:</span> ` + models.map((m) =>
        `<button type="button" data-replay-advice-model="${esc(m)}" aria-pressed="${m === adviceModel}">${label(m)}</button>`).join(" ") +
      `</p>`;
  }

  // the game's words for a model (its renderer's adviceModels), else its name
  function modelWords(m) {
    const words = renderer && renderer.adviceModels && renderer.adviceModels[m];
    return words || { button: `weighed by ${m}`, line: `the deals weighed by the model ${m}` };
  }

  // what a model other than the uniform one assumes, and what its sample is worth
  function modelLine(r) {
    if (!r.model || r.model === "uniform") return "";
    const worth = r.ess != null ? `, worth an effective sample of ${Number(r.ess).toFixed(1)}${r.pool ? ` from ${r.pool} deals` : ""}` : "";
    return `<p class="advice-model-line" data-model="${esc(r.model)}" data-ess="${r.ess ?? ""}" title="model: ${esc(r.model)}">` +
      `<b>Deals ${esc(modelWords(r.model).button)}</b>: ${esc(modelWords(r.model).line)} — an assumption about the players, not a fact${worth}.</p>`;
  }

  function advisorNote(html) {
    advisorEl.hidden = false;
    advisorEl.dataset.seq = "";
    advisorEl.innerHTML = `${modelSwitchHtml()}<p class="muted">${html}</p>`;
  }

  advisorEl.addEventListener("click", (e) => {
    const button = e.target.closest("[data-replay-advice-model]");
    if (!button || button.dataset.replayAdviceModel === adviceModel) return;
    adviceModel = button.dataset.replayAdviceModel;
    updateAdvisor(lastShown);
  });

  function updateAdvisor(last) {
    clearTimeout(adviceTimer);
    adviceWanted = 0;
    app.advice = null;
    lastShown = last;
    if (!advisorOn || !data || data.advice === false || !last || !renderer.isPlay(last)) {
      advisorEl.hidden = true;
      advisorEl.innerHTML = "";
      return;
    }
    if (id === "upload") return advisorNote("The advisor ranks the moves of stored matches, not of uploads.");
    if (!data.finished) return advisorNote("The advisor's ranking is shown once the match has finished (it reveals the mover's hand).");
    const seq = last.seq;
    const model = adviceModel;
    const key = (adviceWanted = adviceKey(seq, model));
    if (adviceCache.has(key)) return renderAdvisor(adviceCache.get(key));
    if (timer) return advisorNote("Pause to see the advisor's ranking of this move.");
    advisorNote(`Advisor: ranking ${renderer.seatName(last.seat)}'s legal moves before seq ${seq}…`);
    adviceTimer = setTimeout(() => fetchAdvice(seq, model, 0), 200);
  }

  async function fetchAdvice(seq, model, tries) {
    const key = adviceKey(seq, model);
    const asked = model === "uniform" ? "" : `&model=${encodeURIComponent(model)}`;
    try {
      // progress=1: while it is computed, the server answers 202 within half a second with
      // the answer so far (Texas 42's oracle table as N grows), drawn until the whole one comes
      const r = await getJson(`/api/matches/${encodeURIComponent(id)}/advice?seq=${seq}${asked}&progress=1`);
      adviceCache.set(key, r);
      if (model === "uniform") showVerdict(seq);
      if (!disposed && adviceWanted === key) renderAdvisor(r);
    } catch (err) {
      if (disposed || adviceWanted !== key) return;
      if (err.status === 202 && err.partial) renderAdvisor(err.partial);
      // 202: under way on the server (bounded there), so wait for it. 503: the replay worker
      // is busy (each ask waits 10 s there for it), often with this match's verdicts, which
      // end: asked again while this step is on screen, up to BUSY_TRIES times (CI saw a bid's
      // oracle wait past 5 tries behind South's verdicts). 429: a few tries.
      if (err.status === 202 || (err.status === 503 && tries < BUSY_TRIES) || (err.status === 429 && tries < 5)) {
        adviceTimer = setTimeout(() => fetchAdvice(seq, model, tries + 1), err.status === 202 ? 500 : 1000);
      } else advisorNote(`<span class="error">Advisor: ${esc(err.message)}</span>`);
    }
  }

  function renderAdvisor(r) {
    app.advice = r;
    if (renderer.replayAdvice) { // a game that draws its own advice (Texas 42: the oracle's table)
      advisorEl.hidden = false;
      advisorEl.dataset.seq = r.seq;
      advisorEl.dataset.rank = r.rank ?? "";
      advisorEl.dataset.model = r.model || "uniform";
      advisorEl.innerHTML = modelSwitchHtml() + modelLine(r) + renderer.replayAdvice(r, app.state);
      return;
    }
    const who = renderer.seatName(r.seat);
    const n = r.moves.length;
    const verdict = r.rank === 1 ? `${who} played the advisor's best move${n === 1 ? " (the only one)" : ""}.`
      : r.rank ? `${who}'s move ranks <b>${r.rank} of ${n}</b>.` : `${who}'s move is not among them.`;
    const items = r.moves.map((m, i) => {
      const played = i + 1 === r.rank;
      return `<li class="${i === 0 ? "best" : ""}${played ? " played" : ""}" data-tile="${esc(m.tile)}" data-end="${m.end || ""}">` +
        `${renderer.adviceLine(m, i, app.state)}${played ? `<span class="you-played">played</span>` : ""}</li>`;
    }).join("");
    advisorEl.hidden = false;
    advisorEl.dataset.seq = r.seq;
    advisorEl.dataset.rank = r.rank ?? "";
    advisorEl.dataset.model = r.model || "uniform";
    advisorEl.innerHTML = modelSwitchHtml() + modelLine(r) + `<p class="advice-label"><b>Advisor</b> · ${who}'s legal moves before seq ${r.seq}, best first — ` +
      `<span class="label">${ADVICE_LABEL}</span> (each sampled deal solved with every hand open). ` +
      `<span class="verdict">${verdict}</span></p><ol class="advice-list">${items}</ol>`;
  }

  // -- the move list: every event but the deals, grouped by hand; the advisor's verdict beside
  // each play of the chosen seat (finished stored matches), from the match's verdicts job.

  const handOf = (ev) => (ev.hand != null ? ev.hand : null);
  // each event's hand: its own, else the hand it falls in (a game whose bids and plays name no
  // hand, such as Texas 42's, has them under their hand's start); match events have none
  const MATCH_EVENTS = ["match_started", "match_ended"];
  const handsOf = (events) => {
    let current = null;
    return events.map((ev) => {
      if (handOf(ev) != null) current = handOf(ev);
      return MATCH_EVENTS.includes(ev.type) ? handOf(ev) : current;
    });
  };

  function buildMoveList() {
    const groups = [];
    const handAt = handsOf(data.events);
    data.events.forEach((ev, i) => {
      if (renderer.isFolded && renderer.isFolded(ev)) return;
      const hand = handAt[i];
      let g = groups[groups.length - 1];
      if (!g || g.hand !== hand) groups.push((g = { hand, items: [] }));
      g.items.push({ ev, step: i + 1 });
    });
    const hands = groups.filter((g, i) => g.hand != null && groups.findIndex((x) => x.hand === g.hand) === i);
    const jump = hands.length > 1
      ? `<label class="jump">Hand <select id="jump-hand">${hands.map((g) => `<option value="${g.items[0].step}">${g.hand}</option>`).join("")}</select></label>` : "";
    movesEl.innerHTML = `<h2>Moves</h2>${jump}` + groups.map((g) =>
      `<section class="hand-moves" data-hand="${g.hand ?? ""}"><h3><button type="button" data-step="${g.items[0].step}">` +
      `${g.hand != null ? `Hand ${g.hand}` : "Match"}</button></h3><ol>` +
      g.items.map(({ ev, step: k }) => {
        const mine = renderer.isPlay(ev) && ev.seat === perspective;
        return `<li><button type="button" class="mv" data-step="${k}" data-seq="${ev.seq}">${esc(renderer.describe(ev, perspective))}</button>` +
          `${mine ? `<span class="verdict" data-seq="${ev.seq}"></span>` : ""}</li>`;
      }).join("") + `</ol></section>`).join("");
    for (const key of adviceCache.keys()) if (typeof key === "number") showVerdict(key);
  }

  function verdictText(r) {
    if (r && renderer.adviceVerdict) return renderer.adviceVerdict(r);
    if (!r || !r.moves || !r.moves.length) return "";
    if (r.rank === 1) return "✓ the advisor's best move";
    const best = r.moves[0];
    const played = r.rank ? r.moves[r.rank - 1] : null;
    if (!played) return "not among the advisor's moves";
    const diff = played.expected_points - best.expected_points;
    const name = (m) => `${m.tile}${m.end ? ` ${m.end}` : ""}`;
    return `played ${name(played)}: ${diff.toFixed(1).replace("-", "−")} points against the best, ${name(best)}`;
  }

  function showVerdict(seq) {
    const el = movesEl.querySelector(`.verdict[data-seq="${seq}"]`);
    const r = adviceCache.get(seq);
    if (el && r) {
      el.textContent = verdictText(r);
      el.classList.toggle("best", r.rank === 1);
    }
  }

  // the chosen seat's verdicts for the whole match: one job on the server, which computes
  // each move once (GET /api/matches/{id}/verdicts?seat=S); asked again until complete. The
  // asking belongs to one seat: another perspective stops it (stopVerdicts) and asks anew.
  let verdictsSeat = null;
  let verdictsTimer = null;
  let verdictsWaits = 0;
  function queueVerdicts() {
    if (verdictsSeat === perspective || id === "upload" || !data || !data.finished || data.advice === false) return;
    // the move on screen first: its advice is asked for on its own, then the whole match's
    // (a few seconds at most: a refused or failed step does not hold the list back)
    if (adviceWanted && !adviceCache.has(adviceWanted) && verdictsWaits < 20) {
      if (!verdictsTimer) verdictsTimer = setTimeout(() => { verdictsTimer = null; verdictsWaits += 1; queueVerdicts(); }, 500);
      return;
    }
    if (!data.events.some((ev) => renderer.isPlay(ev) && ev.seat === perspective)) return;
    stopVerdicts();
    verdictsSeat = perspective;
    pollVerdicts(perspective, 0);
  }
  function stopVerdicts() {
    clearTimeout(verdictsTimer);
    verdictsTimer = null;
    verdictsSeat = null;
  }
  async function pollVerdicts(seat, refusals) {
    if (disposed || seat !== verdictsSeat) return;
    try {
      const r = await getJson(`/api/matches/${encodeURIComponent(id)}/verdicts?seat=${encodeURIComponent(seat)}`);
      if (disposed || seat !== verdictsSeat) return; // the page moved on while it was asked
      for (const [key, advice] of Object.entries(r.verdicts)) {
        const seq = Number(key);
        if (!adviceCache.has(seq)) {
          adviceCache.set(seq, advice);
          if (adviceWanted === seq) renderAdvisor(advice);
        }
        showVerdict(seq);
      }
      if (!r.complete) verdictsTimer = setTimeout(() => pollVerdicts(seat, 0), 2000);
    } catch (err) {
      // refused for now (the workers busy, the address's share taken): a few more tries
      if (!disposed && seat === verdictsSeat && (err.status === 503 || err.status === 429) && refusals < 10) {
        verdictsTimer = setTimeout(() => pollVerdicts(seat, refusals + 1), 3000);
      }
    }
  }

  function markCurrent() {
    for (const b of movesEl.querySelectorAll(".mv.current")) b.classList.remove("current");
    const cur = movesEl.querySelector(`.mv[data-step="${step}"]`);
    if (cur) {
      cur.classList.add("current");
      cur.setAttribute("aria-current", "step");
      const list = movesEl;
      const top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 30) list.scrollTop = top - 40;
    }
    const jump = movesEl.querySelector("#jump-hand");
    const hand = app.state && app.state.hand ? app.state.hand.number : null;
    if (jump && hand != null) {
      const opt = [...jump.options].find((o) => o.textContent === String(hand));
      if (opt) jump.value = opt.value;
    }
  }

  movesEl.addEventListener("click", (e) => {
    const b = e.target.closest("[data-step]");
    if (b) show(Number(b.dataset.step));
  });
  movesEl.addEventListener("change", (e) => {
    if (e.target.id === "jump-hand") show(Number(e.target.value));
  });

  function toggleAdvisor() {
    advisorOn = !advisorOn;
    setItem("domino-oracle:advisor", advisorOn ? "on" : "off");
    root.querySelector(".advisor-toggle").setAttribute("aria-pressed", String(advisorOn));
    show(step);
  }

  function show(k) {
    if (!data || !renderer) return;
    const n = data.events.length;
    step = Number.isFinite(k) ? Math.max(0, Math.min(n, Math.trunc(k))) : 0;
    app.step = step;
    scrub.value = String(step);
    const events = data.events.slice(0, step);
    let state = renderer.newState();
    for (const ev of events) state = renderer.apply(state, ev);
    app.state = state;
    const last = events[step - 1];
    where.textContent = step ? `Step ${step} of ${n} · seq ${last.seq}: ${renderer.describe(last, perspective)}` : `Step 0 of ${n}: before the first event`;
    updateAdvisor(last);
    const belief = (app.belief = perspective !== "all" && step ? data.beliefs[step - 1] : null);
    const earlier = belief ? data.beliefs.slice(0, step) : [];
    // the uncertainty timeline: the live beliefs of this hand so far
    const timeline = earlier
      .filter((b) => b.hand === belief.hand && b.status === "live" && typeof b.entropy_bits === "number")
      .map((b) => ({ seq: b.seq, bits: b.entropy_bits }));
    renderer.renderReplayStep({ boardEl, overlayEl, state, perspective, belief, earlier, timeline, overlayOn, event: last });
    if (overlayOn) {
      overlayEl.dataset.seq = belief ? belief.seq : 0;
      overlayEl.dataset.observer = perspective;
    }
    const hash = `replay=${encodeURIComponent(id)}&perspective=${perspective}&step=${step}`;
    history.replaceState(null, "", `#${hash}`);
    markCurrent();
    queueVerdicts();
  }

  async function load() {
    where.textContent = "Loading…";
    try {
      if (id === "upload") {
        if (!upload) throw new Error("Upload the log again (uploads are not kept across reloads).");
        data = await uploadLog(upload.text, perspective);
      } else {
        data = await getJson(`/api/matches/${encodeURIComponent(id)}/replay?perspective=${perspective}`);
      }
    } catch (err) {
      if (disposed) return;
      if (err.status === 403 && perspective !== "spectator") {
        // still in play: the server shows it to spectators only, and so does the viewer
        inPlay(true);
        perspective = app.perspective = perspSel.value = "spectator";
        return load();
      }
      where.innerHTML = `<span class="error" role="alert">${esc(err.message)}</span> <a href="#replay">See the stored matches</a>`;
      return void root.firstElementChild.classList.add("failed"); // nothing to step through: no controls
    }
    if (disposed) return;
    const game = gameOf(data.events[0]);
    renderer = rendererFor(game);
    if (!renderer) {
      where.innerHTML = `<span class="error" role="alert">This page cannot show the game ${esc(game)} yet.</span>`;
      return void root.firstElementChild.classList.add("failed");
    }
    if (!hoverAttached) renderer.attachOverlay(overlayEl);
    hoverAttached = true;
    app.data = data;
    // a game without an advisor (Clue, Uno) is never asked for advice: no button either
    root.querySelector(".advisor-toggle").hidden = data.advice === false;
    const options = Object.entries(data.options || {}); // the table's options, e.g. players 5
    const optionsEl = root.querySelector("#table-options");
    optionsEl.hidden = !options.length;
    optionsEl.textContent = `Table options: ${options.map(([k, v]) => `${k} ${v}`).join(", ")}`;
    const seats = renderer.seatsOfState(renderer.apply(renderer.newState(), data.events[0] || {}));
    perspSel.innerHTML = optionsHtml(perspectives(seats, renderer.seatName), perspective);
    inPlay(!data.finished);
    scrub.max = String(data.events.length);
    buildMoveList();
    if (id !== "upload" && !app.chatAsked) app.chatAsked = showStoredChat(movesEl.parentElement, id, renderer.seatName);
    show(step == null ? Math.min(data.events.length, firstMove(data.events)) : step);
  }

  function inPlay(yes) {
    for (const opt of perspSel.options) opt.disabled = yes && opt.value !== "spectator";
    inPlayEl.hidden = !yes;
  }

  // just after the first play: the renderer knows which events are plays
  const firstMove = (events) => {
    const i = events.findIndex((e) => renderer.isPlay(e));
    return i < 0 ? events.length : i + 1;
  };

  function go(what) {
    if (!data) return;
    if (what === "first") show(0);
    else if (what === "prev") show(step - 1);
    else if (what === "next") show(step + 1);
    else if (what === "last") show(data.events.length);
    else if (what === "play") {
      if (timer) {
        clearInterval(timer);
        timer = null;
        show(step); // paused: the advisor may speak
      } else {
        timer = setInterval(() => (step >= data.events.length ? go("play") : show(step + 1)), 600);
      }
      root.querySelector('[data-go="play"]').textContent = timer ? "Pause" : "Play";
    }
  }

  root.querySelector(".replay-controls").addEventListener("click", (e) => {
    const b = e.target.closest("[data-go]");
    if (b) go(b.dataset.go);
    if (e.target.closest(".ov-toggle")) toggleOverlay();
    if (e.target.closest(".advisor-toggle")) toggleAdvisor();
    if (e.target.closest(".share")) share();
  });

  // A link to this very position (perspective and step): the address, copied.
  async function share() {
    try {
      await navigator.clipboard.writeText(location.href);
      toast("Link to this position copied.", "ok");
    } catch {
      toast(`Copy this link: ${location.href}`, "ok");
    }
  }
  scrub.addEventListener("input", () => show(Number(scrub.value)));
  // the chart is clickable: a point goes to the step of its belief
  overlayEl.addEventListener("click", (e) => {
    const dot = e.target.closest && e.target.closest("circle[data-seq]");
    if (!dot || !data) return;
    const i = data.events.findIndex((ev) => ev.seq === Number(dot.dataset.seq));
    if (i >= 0) show(i + 1);
  });
  perspSel.addEventListener("change", () => {
    perspective = perspSel.value;
    app.perspective = perspective;
    stopVerdicts(); // those were the last seat's: the new one's are asked for once it loads
    load();
  });

  function toggleOverlay() {
    overlayOn = !overlayOn;
    hideTip();
    setItem("domino-oracle:overlay", overlayOn ? "on" : "off");
    tv.classList.toggle("no-overlay", !overlayOn);
    show(step);
  }

  function onKey(e) {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", " ": "play" };
    if (keys[e.key]) {
      e.preventDefault();
      go(keys[e.key]);
    } else if (e.key.toLowerCase() === "o") toggleOverlay();
    else if (e.key.toLowerCase() === "a") toggleAdvisor();
  }
  document.addEventListener("keydown", onKey);
  load();

  return () => {
    disposed = true;
    clearInterval(timer);
    clearTimeout(adviceTimer);
    clearTimeout(verdictsTimer);
    document.removeEventListener("keydown", onKey);
  };
}
