// The lobby: open tables (join a free seat or watch), and a new table with bots in chosen seats.

import { Connection } from "./conn.js";
import { SEATS, SEAT_NAMES } from "./game.js";
import { getItem, setItem } from "./store.js";
import { esc, setConn, toast } from "./ui.js";

// The server's table bots (strategy.TABLE_BOTS); pimc thinks up to ~0.6 s a move.
const BOTS = [["greedy", "greedy"], ["random", "random"], ["pimc", "pimc (strong, slower)"]];

export function lobbyView(root) {
  const name = getItem("domino-oracle:name") || "";
  const seatRow = (s) =>
    `<label class="seat-choice">${SEAT_NAMES[s]} <select name="seat-${s}" data-seat="${s}">` +
    `<option value="me"${s === "S" ? " selected" : ""}>me</option><option value="open">open seat</option>` +
    BOTS.map(([b, label]) => `<option value="bot:${b}"${s !== "S" && b === "greedy" ? " selected" : ""}>bot: ${label}</option>`).join("") +
    `</select></label>`;
  root.innerHTML =
    `<div class="lobby"><section class="card"><h1>Play partnership dominoes</h1>` +
    `<p class="muted">Every player sees, live, the exact probability that each other player holds each tile.</p>` +
    `<label>Your name <input id="name" maxlength="40" value="${esc(name)}" placeholder="Guest" autocomplete="nickname"></label>` +
    `<form id="create" class="create"><h2>New table</h2>` +
    `<div class="row"><label>Variant <select name="variant"><option value="partnership-6">double-six (7 each)</option>` +
    `<option value="partnership-9">double-nine (10 each, 15 face down)</option></select></label>` +
    `<label>Target <input name="target" type="number" min="1" max="10000" value="100"></label>` +
    `<label>Scoring <select name="scoring"><option value="losers">losers' pips</option><option value="all">all pips</option></select></label></div>` +
    `<fieldset class="row"><legend>Seats (S and N against W and E)</legend>${SEATS.map(seatRow).join("")}</fieldset>` +
    `<label class="check"><input type="checkbox" name="advice" checked> Move advice for seated players ` +
    `<span class="muted">(an optimistic, perfect-information estimate of each legal move; everyone at the table may ask)</span></label>` +
    `<button type="submit" class="primary">Create table</button></form></section>` +
    `<section class="card"><div class="row spread"><h2>Open tables</h2><button type="button" id="refresh">Refresh</button></div>` +
    `<div id="tables" aria-live="polite"><p class="muted">Loading…</p></div></section></div>`;

  const tablesEl = root.querySelector("#tables");
  const nameEl = root.querySelector("#name");
  nameEl.addEventListener("change", () => setItem("domino-oracle:name", nameEl.value.trim()));

  function renderTables(tables) {
    if (!tables.length) {
      tablesEl.innerHTML = `<p class="muted">No tables yet: create one.</p>`;
      return;
    }
    tablesEl.innerHTML = `<table class="tables"><thead><tr><th>Table</th><th>Variant</th><th>Seats</th><th>Status</th><th>Spectators</th><th></th></tr></thead><tbody>` +
      tables.map((t) => {
        const seats = SEATS.map((s) => {
          const who = t.seats[s];
          return who
            ? `<span class="seat-tag">${s}: ${esc(who)}</span>`
            : `<a class="button small" href="#table=${encodeURIComponent(t.table_id)}&seat=${s}" data-join="${s}">Join ${s}</a>`;
        }).join(" ");
        return `<tr data-table="${esc(t.table_id)}"><td data-label="Table"><code>${esc(t.table_id)}</code></td>` +
          `<td data-label="Variant">${esc(t.variant)}</td><td class="seats" data-label="Seats">${seats}</td>` +
          `<td data-label="Status">${esc(t.status)}</td><td data-label="Spectators">${t.spectators}</td>` +
          `<td class="go"><a class="button small" href="#watch=${encodeURIComponent(t.table_id)}">Watch</a></td></tr>`;
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

  const conn = new Connection({ onOpen: refresh, onStatus: setConn });
  const timer = setInterval(() => conn.isOpen && refresh(), 4000);
  root.querySelector("#refresh").addEventListener("click", refresh);

  root.querySelector("#create").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    const bots = {};
    let mine = null;
    for (const s of SEATS) {
      const v = form.get(`seat-${s}`);
      if (v.startsWith("bot:")) bots[s] = v.slice(4);
      if (v === "me" && !mine) mine = s;
    }
    setItem("domino-oracle:name", nameEl.value.trim());
    try {
      const r = await conn.request({
        type: "create_table", variant: form.get("variant"), target: Number(form.get("target")) || 100,
        scoring: form.get("scoring"), bots, advice: form.get("advice") === "on",
      });
      location.hash = mine ? `table=${r.table_id}&seat=${mine}` : `watch=${r.table_id}`;
    } catch (err) {
      toast(`${err.code}: ${err.message}`);
    }
  });

  return () => {
    clearInterval(timer);
    conn.close();
  };
}
