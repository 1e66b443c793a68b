// The table as folded from (redacted) events, to draw it: the line, the counts, the hands this
// audience sees, passes and draws, the seat to play, the scores. It decides nothing: what a
// seat may play comes from the server (`legal_moves` on its feed's event). No DOM here.

import { DEFAULT_VARIANT, getVariant, nextSeat, sidesOf } from "./variants.js";

export const parseTile = (name) => name.split("-").map(Number);

const zeros = (keys) => Object.fromEntries(keys.map((k) => [k, 0]));

function withVariant(state, name) {
  const v = getVariant(name);
  return Object.assign(state, {
    variant: v.name, rules: v, seats: v.seats, sides: sidesOf(v),
    maxPip: v.maxPip, handSize: v.handSize, pool: v.pool, draws: v.draws,
  });
}

export function newState() {
  const state = {
    matchId: null, target: 100, players: {}, scoring: "losers",
    hand: null, phase: "waiting", lastEnded: null, winner: null, handsPlayed: 0, lastSeq: 0,
  };
  withVariant(state, DEFAULT_VARIANT);
  state.scores = zeros(state.sides);
  return state;
}

function newHand(state, ev) {
  const each = (value) => Object.fromEntries(state.seats.map((s) => [s, value()]));
  return {
    number: ev.hand, leader: ev.leader, turn: ev.leader, hands: each(() => null),
    // tile -> the seq from which its holder knew it (dealt, or drawn): what the overlay marks
    // "you" at a belief's seq
    gained: each(() => []), counts: each(() => 0), line: [], passes: [], draws: [], played: [],
    dealt: 0, boneyard: state.draws ? state.pool : 0, ended: null,
  };
}

function placeOnLine(h, ev) {
  const [a, b] = parseTile(ev.tile);
  if (!h.line.length) h.line.push([a, b]);
  else if (ev.end === "left") {
    const outer = h.line[0][0];
    h.line.unshift([outer === a ? b : a, outer]);
  } else {
    const outer = h.line[h.line.length - 1][1];
    h.line.push([outer, outer === a ? b : a]);
  }
}

// Fold one event in (mutates and returns `state`).
export function apply(state, ev) {
  const h = state.hand;
  switch (ev.type) {
    case "match_started":
      withVariant(state, ev.variant);
      Object.assign(state, {
        game: ev.game || "dominoes", matchId: ev.match_id, target: ev.target, players: ev.players,
        scoring: ev.scoring, scores: zeros(state.sides), phase: "between_hands",
      });
      break;
    case "hand_started":
      state.hand = newHand(state, ev);
      state.phase = "dealing";
      break;
    case "hand_dealt":
      h.counts[ev.seat] = ev.tiles ? ev.tiles.length : state.handSize;
      h.hands[ev.seat] = ev.tiles ? [...ev.tiles] : null;
      h.gained[ev.seat] = (ev.tiles || []).map((tile) => ({ tile, seq: ev.seq }));
      h.dealt += 1;
      if (h.dealt === state.seats.length) state.phase = "playing";
      break;
    case "tile_played":
      placeOnLine(h, ev);
      h.counts[ev.seat] -= 1;
      if (h.hands[ev.seat]) h.hands[ev.seat] = h.hands[ev.seat].filter((t) => t !== ev.tile);
      h.played.push({ seat: ev.seat, tile: ev.tile, seq: ev.seq });
      h.turn = nextSeat(state.rules, ev.seat);
      break;
    case "tiles_drawn": {
      // the turn stays with the drawer: it plays the tile that fitted, or passes
      const { left, right } = ends(h);
      h.counts[ev.seat] += ev.count;
      h.boneyard = Math.max(0, h.boneyard - ev.count);
      if (ev.tiles && h.hands[ev.seat]) {
        h.hands[ev.seat] = [...h.hands[ev.seat], ...ev.tiles];
        h.gained[ev.seat].push(...ev.tiles.map((tile) => ({ tile, seq: ev.seq })));
      }
      h.draws.push({ seat: ev.seat, count: ev.count, tiles: ev.tiles || null, left, right, seq: ev.seq });
      break;
    }
    case "passed":
      h.passes.push({ seat: ev.seat, left: ends(h).left, right: ends(h).right, seq: ev.seq });
      h.turn = nextSeat(state.rules, ev.seat);
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

// The line's open ends (what the board labels), null before the first tile.
export function ends(hand) {
  if (!hand || !hand.line.length) return { left: null, right: null };
  return { left: hand.line[0][0], right: hand.line[hand.line.length - 1][1] };
}
