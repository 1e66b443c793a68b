// The table folded from Texas 42 events, to draw it (and to name the seat to act, for every
// audience and in replays). What the seat itself may do comes from the server.

import { SEATS, nextSeat, partnerOf, teamOf } from "./words.js";

const highBid = (state) => Math.max(0, ...state.bids.map(([, b]) => b));

// The seat the table waits for, as the board marks it (null: the referee's turn, or nobody's).
export function turnOf(state) {
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

export function newState() {
  return {
    lastSeq: 0, phase: "waiting", seats: SEATS, players: {}, targetMarks: 7, targetPoints: 0,
    dealerMustBid: false, nelloOffered: false, nello: false, hand: null, dealer: null, hands: {}, counts: {}, bids: [],
    bidder: null, trump: null, trick: [], leader: null, tricksPlayed: 0,
    tricks: { NS: 0, EW: 0 }, points: { NS: 0, EW: 0 }, totals: { NS: 0, EW: 0 },
    lastTrick: null, lastHand: null, winner: null,
  };
}

export function apply(prev, ev) {
  const s = { ...prev, lastSeq: ev.seq };
  switch (ev.type) {
    case "match_started":
      return { ...s, phase: "between", players: ev.players, targetMarks: ev.target_marks,
        targetPoints: ev.target_points, dealerMustBid: ev.dealer_must_bid, nelloOffered: !!ev.nello,
        dealer: ev.first_dealer };
    case "hand_started":
      return { ...s, phase: "dealing", hand: ev.hand, dealer: ev.dealer, hands: {}, counts: {},
        bids: [], bidder: null, trump: null, nello: false, trick: [], leader: null, tricksPlayed: 0,
        tricks: { NS: 0, EW: 0 }, points: { NS: 0, EW: 0 }, lastTrick: null };
    case "dealt": {
      const counts = { ...s.counts, [ev.seat]: 7 };
      return { ...s, hands: { ...s.hands, [ev.seat]: ev.tiles ? ev.tiles.slice() : null }, counts,
        phase: Object.keys(counts).length === 4 ? "bidding" : "dealing" };
    }
    case "bid": {
      const bids = [...s.bids, [ev.seat, ev.bid]];
      const next = { ...s, bids };
      const high = highBid(next);
      next.bidder = high ? bids.find(([, b]) => b === high)[0] : null;
      if (bids.length === 4 && high > 0) next.phase = "trump";
      return next;
    }
    case "trump_named": // nello: played without trump, the bidder's partner sitting out
      return ev.trump === "nello"
        ? { ...s, phase: "playing", trump: "follow-me", nello: true, leader: ev.seat }
        : { ...s, phase: "playing", trump: ev.trump, leader: ev.seat };
    case "played": {
      const own = s.hands[ev.seat];
      return { ...s, hands: { ...s.hands, [ev.seat]: own ? own.filter((t) => t !== ev.tile) : own },
        counts: { ...s.counts, [ev.seat]: s.counts[ev.seat] - 1 }, trick: [...s.trick, [ev.seat, ev.tile]] };
    }
    case "trick_won": {
      const team = teamOf(ev.seat);
      return { ...s, lastTrick: { plays: s.trick, winner: ev.seat, points: ev.points }, trick: [],
        leader: ev.seat, tricksPlayed: s.tricksPlayed + 1,
        tricks: { ...s.tricks, [team]: s.tricks[team] + 1 },
        points: { ...s.points, [team]: s.points[team] + ev.points } };
    }
    case "hand_ended":
      return { ...s, phase: "between", lastHand: ev, totals: { ...ev.totals } };
    case "match_ended":
      return { ...s, phase: "finished", winner: ev.winner, totals: { ...ev.totals } };
    default:
      return s;
  }
}
