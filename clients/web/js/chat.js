// The table's chat box: the latest lines (the server's `chat_history`, then each
// `chat_message`), a line to say, and a mute per speaker. Everything a person typed is put in
// the page as text (textContent), never as markup: a "<script>" line reads as those letters.
//
// Mutes are this viewer's own: a speaker (a seat, or "Spectator k") muted at a table is
// hidden here and stays muted after a reload (localStorage, the MUTE_TABLES latest tables);
// nobody else is told.

import { getItem, setItem } from "./store.js";
import { toast } from "./ui.js";

export const MAX_CHARS = 280; // the server's limit (protocol/chat.py MAX_CHAT_CHARS)
const MAX_LINES = 200; // lines kept on the page, the latest
const MUTES = "domino-oracle:chat-mute";
const MUTE_TABLES = 20;

// A line's speaker, as a mute names it: the seat, or the spectator's "Spectator k".
const speakerOf = (line) => (line.seat != null ? `seat:${line.seat}` : `name:${line.name}`);

function loadMutes(tableId) {
  try {
    const all = JSON.parse(getItem(MUTES) || "{}");
    const mine = all && Array.isArray(all[tableId]) ? all[tableId] : [];
    return new Set(mine.filter((k) => typeof k === "string"));
  } catch {
    return new Set();
  }
}

function saveMutes(tableId, muted) {
  let all = {};
  try {
    all = JSON.parse(getItem(MUTES) || "{}") || {};
  } catch {
    all = {};
  }
  delete all[tableId]; // re-inserted last: the most recent table
  if (muted.size) all[tableId] = [...muted];
  const kept = Object.keys(all).slice(-MUTE_TABLES);
  setItem(MUTES, JSON.stringify(Object.fromEntries(kept.map((k) => [k, all[k]]))));
}

function el(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text != null) node.textContent = text;
  return node;
}

// One line as a list item, all of it text: "name (South): text", and a *mute* button.
function lineElement(line, seatName, { mine = false, mutable = false } = {}) {
  const item = el("li", { "data-seq": String(line.seq), "data-speaker": speakerOf(line) });
  if (mine) item.classList.add("mine");
  const who = el("span", { class: "chat-name" }, line.name);
  if (line.seat != null) who.title = seatName(line.seat);
  item.append(who);
  if (line.seat != null && line.name !== seatName(line.seat)) item.append(el("span", { class: "chat-seat muted" }, ` (${seatName(line.seat)})`));
  item.append(document.createTextNode(": "), el("span", { class: "chat-text" }, line.text));
  if (mutable) {
    item.append(" ", el("button", { type: "button", class: "chat-mute", "data-mute": speakerOf(line),
      "aria-label": `Mute ${line.name}` }, "mute"));
  }
  return item;
}

// A stored match's chat, under a replay's move list (GET /api/matches/{id}/chat): folded
// away ("Table chat: 12 lines"), nothing at all when nobody talked or it cannot be had.
export async function showStoredChat(host, matchId, seatName) {
  let lines = [];
  try {
    const r = await fetch(`/api/matches/${encodeURIComponent(matchId)}/chat`);
    if (r.ok) lines = (await r.json()).lines || [];
  } catch {
    return null;
  }
  if (!lines.length || !host.isConnected) return null;
  const box = el("details", { class: "chat chat-log", id: "chat-log" });
  box.append(el("summary", {}, `Table chat: ${lines.length} ${lines.length === 1 ? "line" : "lines"}`));
  const list = el("ol", { class: "chat-lines" });
  list.append(...lines.map((line) => lineElement(line, seatName)));
  box.append(list);
  host.append(box);
  return box;
}

// `host`: the element the box goes in; `seatName(seat)`: the seat's name in words ("South").
export function mountChat(host, { conn, tableId, me, seatName }) {
  const muted = loadMutes(tableId);
  const lines = new Map(); // seq -> line
  const box = el("section", { class: "chat", id: "chat", "aria-label": "table chat" });
  const head = el("h2", {}, "Chat");
  const list = el("ol", { class: "chat-lines", "aria-live": "polite" });
  const empty = el("p", { class: "chat-empty muted" }, "No messages yet. Chat is public to everyone at the table.");
  const mutedNote = el("p", { class: "chat-muted muted" });
  const form = el("form", { class: "chat-form" });
  const input = el("input", { type: "text", name: "chat", maxlength: String(MAX_CHARS), autocomplete: "off",
    "aria-label": "Message to the table", placeholder: "Say something to the table" });
  const send = el("button", { type: "submit" }, "Send");
  form.append(input, send);
  box.append(head, list, empty, mutedNote, form);
  host.append(box);

  function mine(line) {
    return me ? line.seat === me : false;
  }

  const lineItem = (line) => lineElement(line, seatName, { mine: mine(line), mutable: !mine(line) });

  function render() {
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    const shown = [...lines.values()].filter((line) => !muted.has(speakerOf(line)));
    list.replaceChildren(...shown.map(lineItem));
    empty.hidden = lines.size > 0;
    mutedNote.replaceChildren();
    if (muted.size) {
      mutedNote.append("Muted here: ");
      [...muted].forEach((key, i) => {
        if (i) mutedNote.append(" ");
        const label = key.startsWith("seat:") ? nameOfSeat(key.slice(5)) : key.slice(5);
        mutedNote.append(el("button", { type: "button", class: "chat-unmute", "data-unmute": key,
          "aria-label": `Unmute ${label}` }, `${label} ✕`));
      });
    }
    if (atBottom || !shown.length) list.scrollTop = list.scrollHeight;
  }

  // the name a seat speaks under (its latest line), else the seat in words
  function nameOfSeat(seat) {
    const said = [...lines.values()].reverse().find((line) => line.seat === seat);
    return said ? said.name : seatName(seat);
  }

  function add(line) {
    if (!line || typeof line.seq !== "number") return;
    lines.set(line.seq, line);
    while (lines.size > MAX_LINES) lines.delete(lines.keys().next().value);
  }

  function onMessage(msg) {
    if (msg.type === "chat_history") {
      for (const line of msg.lines || []) add(line);
      render();
      return true;
    }
    if (msg.type === "chat_message") {
      add(msg.line);
      render();
      return true;
    }
    return false;
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send.disabled = true;
    try {
      const r = await conn.request({ type: "chat", table_id: tableId, text });
      input.value = "";
      onMessage(r);
    } catch (err) {
      toast(err.code === "rate_limited" ? "Slow down: too many messages. Wait a few seconds." : `${err.code}: ${err.message}`);
    } finally {
      send.disabled = false;
      input.focus();
    }
  });

  box.addEventListener("click", (e) => {
    const mute = e.target.closest("[data-mute]");
    const unmute = e.target.closest("[data-unmute]");
    if (mute) muted.add(mute.dataset.mute);
    else if (unmute) muted.delete(unmute.dataset.unmute);
    else return;
    saveMutes(tableId, muted);
    render();
    if (unmute) input.focus();
  });

  render();
  return { onMessage, muted };
}
