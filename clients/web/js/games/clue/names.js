// Clue's seats in words: each seat's player name as the match names it (a person's display
// name; a bot's, as "infomax bot"), else "Player 2". Two seats with one name get their number
// ("random bot 2", "random bot 3"). The seat codes (P1 ... P6) stay in ids and data attributes
// only. The names are the last match_started's, kept here so the move log's words (which see
// one event at a time) name seats as the board does.

let current = {};

export function setPlayers(players) {
  current = { ...(players || {}) };
}

const number = (seat) => seat.replace(/^P/, "");

function baseName(seat, players) {
  const raw = players[seat];
  if (!raw || raw === seat) return "";
  return raw.startsWith("bot:") ? `${raw.slice(4)} bot` : raw;
}

export function seatLabel(seat, players = current) {
  const base = baseName(seat, players);
  if (!base) return `Player ${number(seat)}`;
  const shared = Object.keys(players).some((s) => s !== seat && baseName(s, players) === base);
  return shared ? `${base} ${number(seat)}` : base;
}

// a sentence from the server ("P3 could not refute P1's ...") with its seat codes named, and
// `me` (the reader's seat, if any) as "you" ("your suggestion")
export function namedText(text, me = null, players = current) {
  return String(text).replace(/\bP([1-9])\b('s)?/g, (code, _, owner) => {
    const seat = owner ? code.slice(0, -2) : code;
    if (seat === me) return owner ? "your" : "you";
    return `${seatLabel(seat, players)}${owner || ""}`;
  });
}
