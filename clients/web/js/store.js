// localStorage, guarded: a full (or disabled) storage never breaks play. Every read and write
// goes through here; a failed write frees the expendable cache (the seats' event logs) and tries
// once more, then gives up quietly and says so by returning false.
//
// A seat keeps two entries:
//   domino-oracle:token:<table>:<seat>  {table_id, seat, token, saved_at}: small and precious
//     (without it a reload re-joins and finds the seat taken); written first, also copied to
//     sessionStorage, which survives a reload of the tab even when localStorage is full;
//   domino-oracle:seat:<table>:<seat>   {table_id, seat, token, last_seq, events, timeline,
//     finished, saved_at}: the cache that spares a reload the backlog; expendable.
// prune() keeps the logs of the MAX_LOGS most recent tables (a finished table's log goes as soon
// as another table is opened) and the MAX_TOKENS most recent tokens.

const PREFIX = "domino-oracle:";
const LOG = `${PREFIX}seat:`;
const TOKEN = `${PREFIX}token:`;
export const MAX_LOGS = 3;
export const MAX_TOKENS = 50;

export const logKey = (tableId, seat) => `${LOG}${tableId}:${seat}`;
export const tokenKey = (tableId, seat) => `${TOKEN}${tableId}:${seat}`;

function area(name) {
  try {
    return window[name] || null; // merely touching it throws where storage is disabled
  } catch {
    return null;
  }
}

export function getItem(key, where = "localStorage") {
  try {
    const s = area(where);
    return s ? s.getItem(key) : null;
  } catch {
    return null;
  }
}

export function removeItem(key, where = "localStorage") {
  try {
    const s = area(where);
    if (s) s.removeItem(key);
  } catch {
    /* nothing to do */
  }
}

function keys(prefix) {
  const s = area("localStorage");
  const out = [];
  try {
    for (let i = 0; s && i < s.length; i++) {
      const k = s.key(i);
      if (k && k.startsWith(prefix)) out.push(k);
    }
  } catch {
    /* as many as could be read */
  }
  return out;
}

function parse(text) {
  try {
    const data = JSON.parse(text);
    return data && typeof data === "object" ? data : null;
  } catch {
    return null;
  }
}

// Remove every seat log but `keep`; returns how many went.
function dropLogs(keep) {
  let n = 0;
  for (const k of keys(LOG)) {
    if (k === keep) continue;
    removeItem(k);
    n += 1;
  }
  return n;
}

// Write, or free the seat logs (all but `keep`) and write again; false when it did not fit.
export function setItem(key, value, keep = key) {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const s = area("localStorage");
      if (!s) return false;
      s.setItem(key, value);
      return true;
    } catch {
      if (attempt > 0 || dropLogs(keep) === 0) return false;
    }
  }
  return false;
}

export function saveToken(tableId, seat, token) {
  const text = JSON.stringify({ table_id: tableId, seat, token, saved_at: Date.now() });
  try {
    const s = area("sessionStorage");
    if (s) s.setItem(tokenKey(tableId, seat), text);
  } catch {
    /* localStorage below may still take it */
  }
  return setItem(tokenKey(tableId, seat), text, null); // every log may go to make room for it
}

// data: {token, last_seq, events, timeline, finished}. Without room for the events, the log
// keeps only the token (a reload then asks the server for the whole backlog).
export function saveLog(tableId, seat, data) {
  const key = logKey(tableId, seat);
  const entry = { table_id: tableId, seat, ...data, saved_at: Date.now() };
  return setItem(key, JSON.stringify(entry)) ||
    setItem(key, JSON.stringify({ ...entry, events: [], timeline: [], last_seq: 0 }));
}

const mine = (d, tableId, seat) => d && d.table_id === tableId && d.seat === seat && d.token;

// {table_id, seat, token, last_seq, events, timeline} for a seat this browser holds, or null.
export function loadSession(tableId, seat) {
  const tok = [getItem(tokenKey(tableId, seat)), getItem(tokenKey(tableId, seat), "sessionStorage")]
    .map(parse).find((d) => mine(d, tableId, seat));
  const log = parse(getItem(logKey(tableId, seat)));
  const token = tok ? tok.token : mine(log, tableId, seat) ? log.token : null; // older logs held it
  if (!token) return null;
  const out = { table_id: tableId, seat, token, last_seq: 0, events: [], timeline: [] };
  if (mine(log, tableId, seat) && log.token === token) {
    out.last_seq = log.last_seq;
    out.events = log.events;
    out.timeline = log.timeline;
  }
  return out;
}

export function forgetSeat(tableId, seat) {
  removeItem(logKey(tableId, seat));
  removeItem(tokenKey(tableId, seat));
  removeItem(tokenKey(tableId, seat), "sessionStorage");
}

// Keep the logs of the most recent tables (never a finished one but the current seat's) and the
// most recent tokens, the current seat's among them; unreadable entries go.
export function prune(tableId = null, seat = null) {
  const byAge = (list) => list.sort((a, b) => b.at - a.at);
  const keepLog = seat ? logKey(tableId, seat) : null;
  const keepToken = seat ? tokenKey(tableId, seat) : null;
  const logs = [];
  for (const k of keys(LOG)) {
    if (k === keepLog) continue;
    const d = parse(getItem(k));
    if (!d || d.finished) removeItem(k);
    else logs.push({ k, at: Number(d.saved_at) || 0 });
  }
  for (const { k } of byAge(logs).slice(MAX_LOGS - (seat ? 1 : 0))) removeItem(k);
  const tokens = [];
  for (const k of keys(TOKEN)) {
    if (k === keepToken) continue;
    const d = parse(getItem(k));
    if (!d || !d.token) removeItem(k);
    else tokens.push({ k, at: Number(d.saved_at) || 0 });
  }
  for (const { k } of byAge(tokens).slice(MAX_TOKENS - (seat ? 1 : 0))) removeItem(k);
}

// The seats this browser holds a token for, most recent first: [{table_id, seat, saved_at}]
// (the lobby's "your tables", with Resume).
export function heldSeats() {
  const out = [];
  for (const k of keys(TOKEN)) {
    const d = parse(getItem(k));
    if (d && d.table_id && d.seat && d.token) out.push({ table_id: d.table_id, seat: d.seat, saved_at: Number(d.saved_at) || 0 });
  }
  return out.sort((a, b) => b.saved_at - a.saved_at);
}
