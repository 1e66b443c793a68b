// The lobby: open tables (join a free seat or watch), and a new table with bots in chosen seats.
// The variants come from the game renderers (js/games/); each names its seats, and the form
// shows one row per seat. A variant's table options come from the server's declaration
// (`list_variants`: type, bounds or choices, default, label): the form renders one input per
// option, and an option that decides the seats (Clue's players) redraws the seat rows.

import { Connection } from "./conn.js";
import { DEFAULT_GAME, allRenderers, gameOf } from "./games/registry.js";
import { getItem, heldSeats, setItem } from "./store.js";
import { esc, setConn, toast } from "./ui.js";

// Dominoes' table bots (strategy.TABLE_BOTS; pimc thinks up to ~0.6 s a move, pimc-behaviour
// as long, on deals weighed by how the others played). Another game names its own in its
// renderer's `bots` ([name, label] pairs, the default first).
const BOTS = [["greedy", "greedy"], ["random", "random"], ["pimc", "pimc (strong, slower)"],
  ["pimc-behaviour", "pimc-behaviour"]];
const botsOf = (renderer) => renderer.bots || BOTS;

export function lobbyView(root) {
  const renderers = allRenderers();
  const byGame = new Map(renderers.map((r) => [r.game, r]));
  // every game's variants: {name, label, seats, seatsNote, renderer}
  const variants = renderers.flatMap((r) => r.variants.map((v) => ({ ...v, renderer: r })));
  const variantNamed = (name) => variants.find((v) => v.name === name) || variants[0];
  const several = renderers.length > 1;
  const name = getItem("domino-oracle:name") || "";

  const seatRow = (renderer, s, i) =>
    `<label class="seat-choice">${renderer.seatName(s)} <select name="seat-${s}" data-seat="${s}">` +
    `<option value="me"${i === 0 ? " selected" : ""}>me</option><option value="open">open seat</option>` +
    botsOf(renderer).map(([b, label], k) => `<option value="bot:${b}"${i !== 0 && k === 0 ? " selected" : ""}>bot: ${esc(label)}</option>`).join("") +
    `</select></label>`;
  const seatsHtml = (v, seats) => `<legend>Seats (${esc(v.seatsNote)})</legend>${seats.map((s, i) => seatRow(v.renderer, s, i)).join("")}`;
  const option = (v) => `<option value="${esc(v.name)}">${several ? `${esc(v.renderer.title)}: ` : ""}${esc(v.label)}</option>`;

  root.innerHTML =
    `<div class="lobby"><section class="card"><h1>Play dominoes</h1>` +
    `<p class="muted">Every player sees, live, the exact probability that each other player holds each tile.</p>` +
    `<label>Your name <input id="name" maxlength="40" value="${esc(name)}" placeholder="Guest" autocomplete="nickname"></label>` +
    `<form id="create" class="create"><h2>New table</h2>` +
    `<div class="row"><label>Variant <select name="variant">${variants.map(option).join("")}</select></label>` +
    `<label>Target <input name="target" type="number" min="1" max="10000" value="100"></label>` +
    `<label>Scoring <select name="scoring"><option value="losers">losers' pips</option><option value="all">all pips</option></select></label>` +
    `<label>Turn clock <input name="clock" type="number" min="1" max="600" step="1" placeholder="none" title="seconds a player may take over a move; then a stand-in bot plays it"> s</label></div>` +
    `<fieldset class="row" id="options" hidden></fieldset>` +
    `<fieldset class="row" id="seats">${seatsHtml(variants[0], variants[0].seats)}</fieldset>` +
    `<label class="check"><input type="checkbox" name="advice" checked> Move advice for seated players ` +
    `<span class="muted">(an optimistic, perfect-information estimate of each legal move; everyone at the table may ask)</span></label>` +
    `<button type="submit" class="primary">Create table</button></form></section>` +
    `<section class="card" id="yours-card" hidden><h2>Your tables</h2><div id="yours"></div></section>` +
    `<section class="card"><div class="row spread"><h2>Open tables</h2><button type="button" id="refresh">Refresh</button></div>` +
    `<div id="tables" aria-live="polite"><p class="muted">Loading…</p></div></section></div>`;

  const tablesEl = root.querySelector("#tables");
  const nameEl = root.querySelector("#name");
  const form = root.querySelector("#create");
  const seatsEl = root.querySelector("#seats");
  const optionsEl = root.querySelector("#options");
  nameEl.addEventListener("change", () => setItem("domino-oracle:name", nameEl.value.trim()));

  // The server's declarations, by variant name (empty until `list_variants` answers: the
  // form then offers no options, and the server applies their defaults).
  const declared = new Map();
  const chosenVariant = () => variantNamed(form.elements.variant.value);

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
    const d = declared.get(chosenVariant().name);
    const out = {};
    for (const o of d ? d.options : []) {
      const el = form.elements[`opt-${o.name}`];
      if (!el) continue;
      out[o.name] = o.kind === "bool" ? el.checked : o.kind === "int" ? Number(el.value) : el.value;
    }
    return out;
  }

  // The seats of the chosen variant with these options (the server lists them per value).
  function currentSeats() {
    const v = chosenVariant();
    const d = declared.get(v.name);
    if (!d) return v.seats;
    const chosen = chosenOptions();
    for (const o of d.options.filter((x) => x.decides_seats)) {
      const value = chosen[o.name];
      const seats = (d.seats_by[o.name] || {})[typeof value === "string" ? value : JSON.stringify(value)];
      if (seats) return seats;
    }
    return d.seats;
  }

  // One row per seat (four, two for block-2 / draw-2, 3-6 for Clue). A new variant starts
  // afresh (its game may name other bots); an option that changes the seats keeps the
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

  function renderOptions(fresh = false) {
    const d = declared.get(chosenVariant().name);
    const options = d ? d.options : [];
    optionsEl.hidden = !options.length;
    optionsEl.innerHTML = options.length ? `<legend>Table options</legend>${options.map(optionInput).join("")}` : "";
    renderSeats(fresh);
  }
  form.elements.variant.addEventListener("change", () => renderOptions(true));
  optionsEl.addEventListener("input", () => renderSeats());
  optionsEl.addEventListener("change", () => renderSeats());

  async function loadVariants() {
    if (declared.size) return;
    try {
      const r = await conn.request({ type: "list_variants" });
      for (const v of r.variants) declared.set(v.name, v);
      renderOptions();
    } catch (err) {
      if (err.code !== "offline") toast(`${err.code}: ${err.message}`);
    }
  }

  // A table's seats in its game's order (the variant's, when this page knows it).
  function seatsOf(t) {
    const renderer = byGame.get(gameOf(t));
    const known = renderer && renderer.variants.find((v) => v.name === t.variant);
    const order = known ? known.seats : renderer ? renderer.seats : [];
    return [...order.filter((s) => s in t.seats), ...Object.keys(t.seats).filter((s) => !order.includes(s))];
  }

  // A table's variant as the form names it ("double-six (7 each)"), else its name; then its
  // table options by their declared labels ("Clue · Players 5").
  function variantLabel(t) {
    const renderer = byGame.get(gameOf(t));
    const known = renderer && renderer.variants.find((v) => v.name === t.variant);
    const d = declared.get(t.variant);
    const label = (name) => ((d && d.options.find((o) => o.name === name)) || { label: name }).label;
    const options = Object.entries(t.options || {}).map(([k, v]) => ` · ${label(k)} ${v === true ? "on" : v === false ? "off" : v}`);
    return (known ? known.label : t.variant) + options.join("");
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
      const go = t ? `<a class="button small" href="#table=${id}&seat=${encodeURIComponent(h.seat)}${game}" data-resume="${esc(h.seat)}">Resume ${esc(h.seat)}</a>`
        : `<a class="button small" href="#replay=${id}">Replay</a>`;
      return `<li data-table="${esc(h.table_id)}"><code>${esc(h.table_id)}</code> seat ${esc(h.seat)} · ${what} ${go}</li>`;
    }).join("")}</ul>`;
  }

  function renderTables(tables) {
    renderYours(tables);
    const held = heldSeats();
    if (!tables.length) {
      tablesEl.innerHTML = `<p class="muted">No tables yet: create one.</p>`;
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
      }).join("") + `</tbody></table>`;
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

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(e.target);
    const variant = variantNamed(data.get("variant"));
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
        type: "create_table", variant: variant.name, target: Number(data.get("target")) || 100,
        scoring: data.get("scoring"), bots, advice: data.get("advice") === "on",
        ...(Object.keys(options).length ? { options } : {}),
        ...(Number(data.get("clock")) > 0 ? { turn_clock: Number(data.get("clock")) } : {}),
      });
      const game = variant.renderer.game === DEFAULT_GAME ? "" : `&game=${encodeURIComponent(variant.renderer.game)}`;
      location.hash = (mine ? `table=${r.table_id}&seat=${mine}` : `watch=${r.table_id}`) + game;
    } catch (err) {
      toast(`${err.code}: ${err.message}`);
    }
  });

  return () => {
    clearInterval(timer);
    conn.close();
  };
}
