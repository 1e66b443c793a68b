// The table as folded from (redacted) events: the browser's mirror of domino/state.py and
// domino/rules.py evolve. Pure functions over plain objects; no DOM here.

export const SEATS = ["S", "W", "N", "E"];
export const SEAT_NAMES = { S: "South", W: "West", N: "North", E: "East" };
export const VARIANTS = {
  "partnership-6": { maxPip: 6, handSize: 7, pool: 0 },
  "partnership-9": { maxPip: 9, handSize: 10, pool: 15 },
};

export const teamOf = (seat) => (seat === "N" || seat === "S" ? "NS" : "EW");
export const nextSeat = (seat) => SEATS[(SEATS.indexOf(seat) + 1) % 4];
export const parseTile = (name) => name.split("-").map(Number);
export const tileName = (a, b) => (a <= b ? `${a}-${b}` : `${b}-${a}`);

export function allTiles(maxPip) {
  const out = [];
  for (let a = 0; a <= maxPip; a++) for (let b = a; b <= maxPip; b++) out.push(`${a}-${b}`);
  return out;
}

export function newState() {
  return {
    matchId: null, variant: null, maxPip: 6, handSize: 7, pool: 0, target: 100,
    players: {}, scoring: "losers", scores: { NS: 0, EW: 0 },
    hand: null, phase: "waiting", lastEnded: null, winner: null, handsPlayed: 0, lastSeq: 0,
  };
}

function newHand(ev) {
  const blank = () => ({ S: null, W: null, N: null, E: null });
  return {
    number: ev.hand, leader: ev.leader, turn: ev.leader, hands: blank(),
    dealtTiles: blank(), counts: { S: 0, W: 0, N: 0, E: 0 }, line: [], passes: [], played: [], dealt: 0,
    ended: null,
  };
}

// Fold one event in (mutates and returns `state`).
export function apply(state, ev) {
  const h = state.hand;
  switch (ev.type) {
    case "match_started": {
      const v = VARIANTS[ev.variant] || VARIANTS["partnership-6"];
      Object.assign(state, {
        matchId: ev.match_id, variant: ev.variant, maxPip: v.maxPip, handSize: v.handSize,
        pool: v.pool, target: ev.target, players: ev.players, scoring: ev.scoring,
        phase: "between_hands",
      });
      break;
    }
    case "hand_started":
      state.hand = newHand(ev);
      state.phase = "dealing";
      break;
    case "hand_dealt":
      h.counts[ev.seat] = ev.tiles ? ev.tiles.length : state.handSize;
      h.hands[ev.seat] = ev.tiles ? [...ev.tiles] : null;
      h.dealtTiles[ev.seat] = ev.tiles ? [...ev.tiles] : null;
      h.dealt += 1;
      if (h.dealt === 4) state.phase = "playing";
      break;
    case "tile_played": {
      const [a, b] = parseTile(ev.tile);
      if (!h.line.length) h.line.push([a, b]);
      else if (ev.end === "left") {
        const outer = h.line[0][0];
        h.line.unshift([outer === a ? b : a, outer]);
      } else {
        const outer = h.line[h.line.length - 1][1];
        h.line.push([outer, outer === a ? b : a]);
      }
      h.counts[ev.seat] -= 1;
      if (h.hands[ev.seat]) h.hands[ev.seat] = h.hands[ev.seat].filter((t) => t !== ev.tile);
      h.played.push({ seat: ev.seat, tile: ev.tile, seq: ev.seq });
      h.turn = nextSeat(ev.seat);
      break;
    }
    case "passed":
      h.passes.push({ seat: ev.seat, left: ends(h).left, right: ends(h).right, seq: ev.seq });
      h.turn = nextSeat(ev.seat);
      break;
    case "hand_ended":
      h.ended = ev;
      h.turn = null;
      state.lastEnded = ev;
      state.scores = { ...ev.scores };
      state.handsPlayed += 1;
      state.phase = "between_hands";
      break;
    case "match_ended":
      state.scores = { ...ev.scores };
      state.winner = ev.winner;
      state.phase = "finished";
      break;
    default:
      break;
  }
  state.lastSeq = ev.seq;
  return state;
}

export function fold(events) {
  const state = newState();
  for (const ev of events) apply(state, ev);
  return state;
}

export function ends(hand) {
  if (!hand || !hand.line.length) return { left: null, right: null };
  return { left: hand.line[0][0], right: hand.line[hand.line.length - 1][1] };
}

// The ends `tile` fits: [null] when it opens the line, [] when it fits neither.
export function fits(tile, hand) {
  const { left, right } = ends(hand);
  if (left === null) return [null];
  const [a, b] = parseTile(tile);
  const out = [];
  if (a === left || b === left) out.push("left");
  if (a === right || b === right) out.push("right");
  return out;
}

// Legal moves of `seat` now: Map tile -> ends (empty when it must pass or it is not its turn).
export function legalMoves(state, seat) {
  const h = state.hand;
  const moves = new Map();
  if (state.phase !== "playing" || !h || h.turn !== seat || !h.hands[seat]) return moves;
  const tiles = h.hands[seat];
  if (!h.line.length) {
    if (h.number === 1) {
      const doubles = tiles.map(parseTile).filter(([a, b]) => a === b).sort((x, y) => y[0] - x[0]);
      if (doubles.length) {
        moves.set(tileName(...doubles[0]), [null]);
        return moves;
      }
    }
    for (const t of tiles) moves.set(t, [null]);
    return moves;
  }
  for (const t of tiles) {
    const e = fits(t, h);
    if (e.length) moves.set(t, e);
  }
  return moves;
}

export function mustPass(state, seat) {
  const h = state.hand;
  return state.phase === "playing" && h && h.turn === seat && h.line.length > 0 &&
    legalMoves(state, seat).size === 0;
}
