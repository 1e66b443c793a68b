// A Clue match folded from events, to draw it: seats, hand sizes, your hand, the seat to act
// (as the board marks it, for every audience and in replays), the suggestion being answered,
// who is out, the winner; and the decks' card names, by kind, for the notebook. What the seat
// may do comes from the server (`legal_moves`).

import { setPlayers } from "./names.js";

export const DECKS = {
  standard: {
    suspects: ["Scarlet", "Mustard", "White", "Green", "Peacock", "Plum"],
    weapons: ["Candlestick", "Dagger", "Lead Pipe", "Revolver", "Rope", "Wrench"],
    rooms: ["Kitchen", "Ballroom", "Conservatory", "Dining Room", "Billiard Room", "Library",
      "Lounge", "Hall", "Study"],
  },
  mini: {
    suspects: ["Scarlet", "Mustard", "White"],
    weapons: ["Candlestick", "Dagger", "Rope"],
    rooms: ["Kitchen", "Ballroom", "Hall", "Study"],
  },
};

export const deckOf = (variant) => (variant === "clue-mini" ? DECKS.mini : DECKS.standard);

export function newState() {
  setPlayers({}); // a new table or replay: no names until its match_started
  return { lastSeq: 0, phase: "waiting", variant: null, seats: [], players: {}, handSizes: {},
    hands: {}, turn: null, pending: null, out: [], winner: null, envelope: null,
    suggestions: [], shownToMe: [] };
}

export function apply(prev, ev) {
  const s = { ...prev, lastSeq: ev.seq || prev.lastSeq };
  switch (ev.type) {
    case "match_started":
      s.variant = ev.variant;
      s.players = ev.players;
      setPlayers(ev.players);
      s.seats = Object.keys(ev.players).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
      s.phase = "deal";
      s.turn = s.seats[0];
      break;
    case "dealt":
      s.handSizes = ev.hand_sizes;
      s.hands = Object.fromEntries(Object.entries(ev.hands).filter(([, h]) => h));
      s.phase = "turn";
      break;
    case "suggested":
      s.pending = { seat: ev.seat, cards: [ev.suspect, ev.weapon, ev.room], refuter: ev.refuter,
        passed: ev.passed, shown: null };
      s.suggestions = [...prev.suggestions, s.pending];
      s.phase = ev.refuter ? "refute" : "after";
      break;
    case "card_shown":
      s.pending = { ...prev.pending, shown: ev.card, shownSeen: ev.card != null };
      s.suggestions = [...prev.suggestions.slice(0, -1), s.pending];
      s.phase = "after";
      break;
    case "accused":
      // a right accusation, or one that leaves nobody in, ends the match: nobody acts until
      // the match_ended that follows (a mirror of games/clue/state.py)
      if (ev.correct) {
        s.winner = ev.seat;
        s.phase = "ending";
      } else {
        s.out = [...prev.out, ev.seat];
        const next = nextActive(s, ev.seat);
        s.turn = next || prev.turn;
        s.phase = next ? "turn" : "ending";
        s.pending = null;
      }
      if (ev.envelope) s.envelope = ev.envelope;
      break;
    case "turn_passed":
      s.turn = ev.to;
      s.phase = "turn";
      s.pending = null;
      break;
    case "match_ended":
      s.phase = "finished";
      s.winner = ev.winner;
      s.envelope = ev.envelope;
      break;
    default:
      break;
  }
  return s;
}

function nextActive(s, seat) {
  const i = s.seats.indexOf(seat);
  for (let k = 1; k <= s.seats.length; k += 1) {
    const t = s.seats[(i + k) % s.seats.length];
    if (!s.out.includes(t)) return t;
  }
  return null;
}

// whose move the table awaits, as the board marks it
export function turnOf(s) {
  if (s.phase === "refute") return s.pending.refuter;
  if (s.phase === "turn" || s.phase === "after") return s.turn;
  return null;
}
