// Texas 42's vocabulary as the page draws it: seats and teams, trumps and suits in words,
// which dominoes count and which are trumps (the overlay marks them), the suit a trick's lead
// calls (the board says it). Nothing here decides a move: the seat's legal bids, trumps and
// plays come from the server (`legal_moves`), and the page offers exactly those.

export const SEATS = ["S", "W", "N", "E"];
export const SEAT_NAMES = { S: "South", W: "West", N: "North", E: "East" };
const COUNT = { "5-5": 10, "4-6": 10, "0-5": 5, "1-4": 5, "2-3": 5 };
const TRUMP_SUIT = "trumps";

export const teamOf = (seat) => (seat === "N" || seat === "S" ? "NS" : "EW");
export const nextSeat = (seat) => SEATS[(SEATS.indexOf(seat) + 1) % 4];
export const partnerOf = (seat) => SEATS[(SEATS.indexOf(seat) + 2) % 4];
export const parseTile = (t) => t.split("-").map(Number);
export const countOf = (t) => COUNT[t] || 0;
export const dominoesWord = (n) => `${n} domino${n === 1 ? "" : "es"}`;

export function trumpWords(trump) {
  if (trump === "nello") return "nello (lose every trick, partner out)";
  if (trump === "doubles") return "doubles";
  if (trump === "follow-me") return "follow-me (no trump)";
  return `${suitWords(Number(trump))}`;
}

export function suitWords(n) {
  return n === 0 ? "blanks" : `${n}s`;
}

export function isTrump(tile, trump) {
  const [a, b] = parseTile(tile);
  if (trump === "doubles") return a === b;
  if (trump === "follow-me" || trump == null) return false;
  return a === Number(trump) || b === Number(trump);
}

// The suit a domino calls when led: "trumps", else its higher end (the board's "led: 5s").
export function ledSuit(tile, trump) {
  return isTrump(tile, trump) ? TRUMP_SUIT : Math.max(...parseTile(tile));
}

export function ledWords(suit, trump) {
  return suit === TRUMP_SUIT ? `trumps (${trumpWords(trump)})` : suitWords(suit);
}
