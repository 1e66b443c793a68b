// The lobby: open tables (join a free seat or watch), and a new table with bots in chosen seats.
// Everything the form offers comes from the server's `list_variants`: the games and their
// variants (grouped by game, named by the server's titles), each variant's table options
// (type, bounds or choices, default, label: one input per option, dominoes' target and
// scoring and Texas 42's marks among them; an option that decides the seats, Clue's players,
// redraws the seat rows), its seats, the bots it may seat, its renderer, and whether its game
// offers advice (the advice switch is offered only then). The game renderers (js/games/) only
// name seats and bots in words. The form's defaults always make a table.

import { Connection } from "./conn.js";
import { gameParam, rendererFor } from "./games/registry.js";
import { rulesLink } from "./rules_view.js";
import { getItem, heldSeats, setItem } from "./store.js";
import { esc, setConn, toast } from "./ui.js";

// The bot a seat row starts with: the renderer's choice, else greedy where the variant has
// it, else its first.
const DEFAULT_BOT = "greedy";

export function lobbyView(root) {
  const name = getItem("domino-oracle:name") || "";

  root.innerHTML =
    `<div class="lobby"><section class="card"><h1>Play</h1>` +
    `<p class="muted">Hidden-information games where every player sees, live, the exact probability ` +
    `of every tile or card they cannot see.</p>` +
    `<label>Your name <input id="name" maxlength="40" value="${esc(name)}" placeholder="Guest" autocomplete="nickname"></label>` +
    `<div id="create-box"><h2>New table</h2><p class="muted" id="loading-games">Loading the games…</p></div></section>` +
    `<section class="card" id="yours-card" hidden><h2>Your tables</h2><div id="yours"></div></section>` +
    `<section class="card"><div class="row spread"><h2>Open tables</h2><button type="button" id="refresh">Refresh</button></div>` +
    `<div id="tables" aria-live="polite"><p class="muted">Loading…</p></div></section></div>`;

  const tablesEl = root.querySelector("#tables");
  const nameEl = root.querySelector("#name");
  const createBox = root.querySelector("#create-box");
  nameEl.addEventListener("change", () => setItem("domino-oracle:name", nameEl.value.trim()));

  // The server's variants in its order, by name (empty until `list_variants` answers).
  let listed = [];
  const declared = new Map();
  let form = null;
  let seatsEl = null;
  let optionsEl = null;

  // The renderer a variant's game declares (`renderer`, else the game's name), if this page
  // has it; a game in words: its renderer's title, else its own name.
  const rendererOf = (v) => rendererFor(v.renderer || v.game);
  const gameTitle = (game) => {
    const v = listed.find((x) => x.game === game);
    return ((v && rendererOf(v)) || { title: game }).title;
  };
  const seatName = (v, seat) => {
    const r = rendererOf(v);
    return r ? r.seatName(seat) : seat;
  };
  const chosenVariant = () => declared.get(form.elements.variant.value) || listed[0];

  // The bots of a variant, the default first ([name, words]).
  function botsOf(v) {
    const names = v.bots || [];
    const renderer = rendererOf(v) || {};
    const first = [renderer.defaultBot, DEFAULT_BOT].find((b) => names.includes(b));
    const ordered = first ? [first, ...names.filter((b) => b !== first)] : names;
    const words = renderer.botLabels || {};
    return ordered.map((b) => [b, words[b] || b]);
  }

  const seatRow = (v, s, i) =>
    `<label class="seat-choice">${esc(seatName(v, s))} <select name="seat-${esc(s)}" data-seat="${esc(s)}">` +
    `<option value="me"${i === 0 ? " selected" : ""}>me</option><option value="open">open seat</option>` +
    botsOf(v).map(([b, label], k) => `<option value="bot:${esc(b)}"${i !== 0 && k === 0 ? " selected" : ""}>bot: ${esc(label)}</option>`).join("") +
    `</select></label>`;
  const seatsNote = (v) => {
    const note = (rendererOf(v) || {}).seatsNote;
    return note ? note(v) : "";
  };
  const seatsHtml = (v, seats) => `<legend>Seats${seatsNote(v) ? ` (${esc(seatsNote(v))})` : ""}</legend>` +
    seats.map((s, i) => seatRow(v, s, i)).join("");

  const optionInput = (o) => {
    const name = `opt-${o.name}`;
    if (o.kind === "bool") {
      return `<label class="check"><input type="checkbox" name="${esc(name)}" data-option="${esc(o.name)}"${o.default ? " checked" : ""}> ${esc(o.label)}</label>`;
    }
    if (o.kind === "choice") {
      return `<label>${esc(o.label)} <select name="${esc(name)}" data-option="${esc(o.name)}">` +
        o.choices.map((c) => `<option value="${esc(c)}"${c === o.default ? " selected" : ""}>${esc(c)}</option>`).join("") + `</select></label>`;
    }
    return `<label>${esc(o.label)} <input type="number" name="${esc(name)}" data-option="${esc(o.name)}" ` +
      `min="${o.minimum}" max="${o.maximum}" step="1" value="${o.default}" required></label>`;
  };

  // The options as the form has them, typed as declared ({} for a variant that declares none).
  function chosenOptions() {
    const out = {};
    for (const o of chosenVariant().options) {
      const el = form.elements[`opt-${o.name}`];
      if (!el) continue;
      out[o.name] = o.kind === "bool" ? el.checked : o.kind === "int" ? Number(el.value) : el.value;
    }
    return out;
  }

  // The seats of the chosen variant with these options (the server lists them per value).
  function currentSeats() {
    const v = chosenVariant();
    const chosen = chosenOptions();
    for (const o of v.options.filter((x) => x.decides_seats)) {
      const value = chosen[o.name];
      const seats = (v.seats_by[o.name] || {})[typeof value === "string" ? value : JSON.stringify(value)];
      if (seats) return seats;
    }
    return v.seats;
  }

  // One row per seat (four, two for block-2 / draw-2, 3-6 for Clue). A new variant starts
  // afresh (its game may seat other bots); an option that changes the seats keeps the
  // choices made in rows that stay.
  function renderSeats(fresh = false) {
    const rows = [...seatsEl.querySelectorAll("select[data-seat]")];
    const kept = fresh ? {} : Object.fromEntries(rows.map((el) => [el.dataset.seat, el.value]));
    const seats = currentSeats();
    if (!fresh && seats.join() === rows.map((el) => el.dataset.seat).join()) return;
    seatsEl.innerHTML = seatsHtml(chosenVariant(), seats);
    for (const el of seatsEl.querySelectorAll("select[data-seat]")) {
      if (el.dataset.seat in kept) el.value = kept[el.dataset.seat];
    }
  }

  function renderVariant(fresh = false) {
    const v = chosenVariant();
    const options = v.options;
    optionsEl.hidden = !options.length;
    optionsEl.innerHTML = options.length ? `<legend>Table options</legend>${options.map(optionInput).join("")}` : "";
    form.querySelector("#advice-choice").hidden = !v.advice;
    form.querySelector("#variant-rules").innerHTML = rulesLink(v.game, `How to play ${gameTitle(v.game)}`);
    renderSeats(fresh);
  }

  // The form, once the server said what it hosts: a variant of a game this page has no
  // renderer for is listed but cannot be chosen.
  function renderForm() {
    const games = [...new Set(listed.map((v) => v.game))];
    const first = listed.find((v) => rendererOf(v)) || listed[0];
    const option = (v) => `<option value="${esc(v.name)}"${v === first ? " selected" : ""}` +
      `${rendererOf(v) ? "" : " disabled"}>${esc(v.title)}${rendererOf(v) ? "" : " (this page cannot show it)"}</option>`;
    createBox.innerHTML = `<form id="create" class="create"><h2>New table</h2>` +
      `<div class="row"><label>Game and variant <select name="variant">` +
      games.map((g) => `<optgroup label="${esc(gameTitle(g))}">${listed.filter((v) => v.game === g).map(option).join("")}</optgroup>`).join("") +
      `</select></label> <span id="variant-rules"></span>` +
      `<label>Turn clock <input name="clock" type="number" min="1" max="600" step="1" placeholder="none" title="seconds a player may take over a move; then a stand-in bot plays it"> s</label></div>` +
      `<fieldset class="row" id="options" hidden></fieldset>` +
      `<fieldset class="row" id="seats"></fieldset>` +
      `<label class="check" id="advice-choice" hidden><input type="checkbox" name="advice" checked> Move advice for seated players ` +
      `<span class="muted">(the game's advisor, on the player's own view; everyone at the table may ask)</span></label>` +
      `<button type="submit" class="primary">Create table</button></form>`;
    form = createBox.querySelector("#create");
    seatsEl = form.querySelector("#seats");
    optionsEl = form.querySelector("#options");
    form.elements.variant.addEventListener("change", () => renderVariant(true));
    optionsEl.addEventListener("input", () => renderSeats());
    optionsEl.addEventListener("change", () => renderSeats());
    form.addEventListener("submit", create);
    renderVariant(true);
  }

  async function loadVariants() {
    if (listed.length) return;
    try {
      const r = await conn.request({ type: "list_variants" });
      listed = r.variants;
      for (const v of listed) declared.set(v.name, v);
      renderForm();
      refresh(); // the table list names variants by their titles now
    } catch (err) {
      if (err.code !== "offline") toast(`${err.code}: ${err.message}`);
    }
  }

  // A table's seats in its variant's order (as the server declares it, when listed).
  function seatsOf(t) {
    const d = declared.get(t.variant);
    const order = d ? [...d.seats, ...Object.values(d.seats_by || {}).flatMap((bv) => Object.values(bv).flat())] : [];
    return [...new Set([...order.filter((s) => s in t.seats), ...Object.keys(t.seats)])];
  }

  // A table's variant as the server titles it, else its name; then its table options by
  // their declared labels ("Clue · Players 5").
  function variantLabel(t) {
    const d = declared.get(t.variant);
    const label = (name) => ((d && d.options.find((o) => o.name === name)) || { label: name }).label;
    const options = Object.entries(t.options || {}).map(([k, v]) => ` · ${label(k)} ${v === true ? "on" : v === false ? "off" : v}`);
    return (d ? d.title : t.variant) + options.join("");
  }

  // The seats this browser holds (a token): Resume, or the replay once the table is gone.
  function renderYours(tables) {
    const held = heldSeats();
    const card = root.querySelector("#yours-card");
    card.hidden = !held.length;
    const listed = new Map(tables.map((t) => [t.table_id, t]));
    root.querySelector("#yours").innerHTML = `<ul class="yours">${held.slice(0, 10).map((h) => {
      const t = listed.get(h.table_id);
      const id = encodeURIComponent(h.table_id);
      const game = t && t.game ? `&game=${encodeURIComponent(t.game)}` : "";
      const what = t ? `${esc(variantLabel(t))} · ${esc(t.status)}` : "no longer open";
      const go = t && t.status !== "abandoned" ? `<a class="button small" href="#table=${id}&seat=${encodeURIComponent(h.seat)}${game}" data-resume="${esc(h.seat)}">Resume ${esc(h.seat)}</a>`
        : `<a class="button small" href="#replay=${id}">Replay</a>`;
      return `<li data-table="${esc(h.table_id)}"><code>${esc(h.table_id)}</code> seat ${esc(h.seat)} · ${what} ${go}</li>`;
    }).join("")}</ul>`;
  }

  function renderTables(all) {
    renderYours(all);
    const held = heldSeats();
    // finished and abandoned tables (their people all left) leave the open list: their
    // matches are in the replays
    const over = (t) => t.status === "finished" || t.status === "abandoned";
    const tables = all.filter((t) => !over(t));
    // the latest first (a table restored after it ended has no time: last)
    const finished = all.filter(over).sort((a, b) => (b.ended_at || 0) - (a.ended_at || 0)).slice(0, 10);
    const ended = finished.length
      ? `<h3 class="finished-head">Just finished</h3><ul class="finished-tables">${finished.map((t) =>
        `<li data-table="${esc(t.table_id)}"><code>${esc(t.table_id)}</code> · ${esc(variantLabel(t))} ` +
        (t.status === "abandoned" ? `· <span class="abandoned">abandoned: everyone left</span> ` : "") +
        `<a class="button small" href="#replay=${encodeURIComponent(t.table_id)}">Replay</a></li>`).join("")}</ul>`
      : "";
    if (!tables.length) {
      tablesEl.innerHTML = `<p class="muted">No open tables: create one.</p>${ended}`;
      return;
    }
    tablesEl.innerHTML = `<table class="tables"><thead><tr><th>Table</th><th>Variant</th><th>Seats</th><th>Status</th><th>Spectators</th><th></th></tr></thead><tbody>` +
      tables.map((t) => {
        const game = t.game ? `&game=${encodeURIComponent(t.game)}` : "";
        const seats = seatsOf(t).map((s) => {
          const who = t.seats[s];
          return who
            ? `<span class="seat-tag">${esc(s)}: ${esc(who)}</span>`
            : `<a class="button small" href="#table=${encodeURIComponent(t.table_id)}&seat=${encodeURIComponent(s)}${game}" data-join="${esc(s)}">Join ${esc(s)}</a>`;
        }).join(" ");
        const mine = held.filter((h) => h.table_id === t.table_id && h.seat in t.seats).map((h) =>
          `<a class="button small primary" href="#table=${encodeURIComponent(t.table_id)}&seat=${encodeURIComponent(h.seat)}${game}" data-resume="${esc(h.seat)}">Resume ${esc(h.seat)}</a>`).join(" ");
        return `<tr data-table="${esc(t.table_id)}"><td data-label="Table"><code>${esc(t.table_id)}</code></td>` +
          `<td data-label="Variant">${esc(variantLabel(t))}</td><td class="seats" data-label="Seats">${seats}</td>` +
          `<td data-label="Status">${esc(t.status)}</td><td data-label="Spectators">${t.spectators}</td>` +
          `<td class="go">${mine} <a class="button small" href="#watch=${encodeURIComponent(t.table_id)}${game}">Watch</a></td></tr>`;
      }).join("") + `</tbody></table>${ended}`;
  }

  async function refresh() {
    try {
      const r = await conn.request({ type: "list_tables" });
      renderTables(r.tables);
    } catch (err) {
      if (err.code !== "offline") toast(`${err.code}: ${err.message}`);
    }
  }

  const conn = new Connection({ onOpen: () => { loadVariants(); refresh(); }, onStatus: setConn });
  const timer = setInterval(() => conn.isOpen && refresh(), 4000);
  root.querySelector("#refresh").addEventListener("click", refresh);

  async function create(e) {
    e.preventDefault();
    const data = new FormData(form);
    const variant = chosenVariant();
    const options = chosenOptions();
    const bots = {};
    let mine = null;
    for (const s of currentSeats()) {
      const v = data.get(`seat-${s}`);
      if (v.startsWith("bot:")) bots[s] = v.slice(4);
      if (v === "me" && !mine) mine = s;
    }
    setItem("domino-oracle:name", nameEl.value.trim());
    try {
      const r = await conn.request({
        type: "create_table", variant: variant.name, bots,
        advice: !!variant.advice && data.get("advice") === "on",
        ...(Object.keys(options).length ? { options } : {}),
        ...(Number(data.get("clock")) > 0 ? { turn_clock: Number(data.get("clock")) } : {}),
      });
      const shown = variant.renderer || variant.game;
      const game = gameParam(shown);
      location.hash = (mine ? `table=${r.table_id}&seat=${mine}` : `watch=${r.table_id}`) + game;
    } catch (err) {
      toast(`${err.code}: ${err.message}`);
    }
  }

  return () => {
    clearInterval(timer);
    conn.close();
  };
}
