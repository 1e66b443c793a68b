// Texas 42's rules as the page needs them: a mirror of games/texas42/suits.py and the turn
// and legal moves of games/texas42/rules.py (the server decides; this only draws).

export const SEATS = ["S", "W", "N", "E"];
export const SEAT_NAMES = { S: "South", W: "West", N: "North", E: "East" };
export const TRUMPS = ["0", "1", "2", "3", "4", "5", "6", "doubles", "follow-me"];
export const BIDS = [30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 84];
export const COUNT = { "5-5": 10, "4-6": 10, "0-5": 5, "1-4": 5, "2-3": 5 };
export const TRUMP_SUIT = "trumps";

export const teamOf = (seat) => (seat === "N" || seat === "S" ? "NS" : "EW");
export const nextSeat = (seat) => SEATS[(SEATS.indexOf(seat) + 1) % 4];
export const partnerOf = (seat) => SEATS[(SEATS.indexOf(seat) + 2) % 4];
export const parseTile = (t) => t.split("-").map(Number);
export const countOf = (t) => COUNT[t] || 0;

// What the bidder may name: any trump, and nello at a table offering it after a bid in marks.
export const trumpChoices = (state) =>
  (state.nelloOffered && highBid(state) >= 42 ? [...TRUMPS, "nello"] : TRUMPS);

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

// The suit a domino calls when led: "trumps", else its higher end.
export function ledSuit(tile, trump) {
  return isTrump(tile, trump) ? TRUMP_SUIT : Math.max(...parseTile(tile));
}

export function follows(tile, suit, trump) {
  if (suit === TRUMP_SUIT) return isTrump(tile, trump);
  return parseTile(tile).includes(suit) && !isTrump(tile, trump);
}

export function ledWords(suit, trump) {
  return suit === TRUMP_SUIT ? `trumps (${trumpWords(trump)})` : suitWords(suit);
}

// Whose move the table awaits (null: the referee's, or nobody's).
export function toAct(state) {
  if (state.phase === "bidding") {
    if (state.bids.length >= 4) return null;
    let seat = nextSeat(state.dealer);
    for (let i = 0; i < state.bids.length; i += 1) seat = nextSeat(seat);
    return seat;
  }
  if (state.phase === "trump") return state.bidder;
  if (state.phase === "playing") {
    if (state.trick.length === (state.nello ? 3 : 4) || state.tricksPlayed === 7) return null;
    if (state.nello && state.lastTrick && state.lastTrick.winner === state.bidder) return null; // set: over
    if (!state.trick.length) return state.leader;
    const seat = nextSeat(state.trick[state.trick.length - 1][0]);
    return state.nello && seat === partnerOf(state.bidder) ? nextSeat(seat) : seat; // sits out
  }
  return null;
}

export const highBid = (state) => Math.max(0, ...state.bids.map(([, b]) => b));

export function legalBids(state, seat) {
  const high = highBid(state);
  const forced = state.dealerMustBid && seat === state.dealer && state.bids.length === 3 && high === 0;
  const raises = BIDS.filter((b) => b > high);
  return forced ? raises : [0, ...raises];
}

export function legalTiles(state, seat) {
  const hand = (state.hands[seat] || []).slice();
  if (!state.trick.length) return new Set(hand);
  const suit = ledSuit(state.trick[0][1], state.trump);
  const following = hand.filter((t) => follows(t, suit, state.trump));
  return new Set(following.length ? following : hand);
}
