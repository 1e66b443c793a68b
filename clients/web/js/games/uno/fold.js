// An Uno match folded from events, to draw it: hand counts, your hand, the pile's top and the
// colour in force, the deck's size, the seat to act (as the board marks it, for every audience
// and in replays), a penalty owed. What the seat may play comes from the server.

const DECKS = { "uno-2": { size: 108, hand: 7 }, "uno-2-mini": { size: 20, hand: 3 } };
export const BLACK = ["W", "W+4"];
export const COLOURS = { r: "red", y: "yellow", g: "green", b: "blue" };
export const other = (seat) => (seat === "S" ? "N" : "S");
export const isBlack = (card) => BLACK.includes(card);
const valueOf = (card) => (isBlack(card) ? card : card.slice(1));

const penalty = (card) => (card === "W+4" ? 4 : valueOf(card) === "+2" ? 2 : 0);
const skips = (card) => ["S", "R"].includes(valueOf(card));

export function newState() {
  return { lastSeq: 0, phase: "waiting", variant: null, seats: ["S", "N"], players: {},
    hands: {}, counts: {}, deckCount: 0, pile: [], top: null, colour: null, turn: null,
    owed: 0, winner: null, reason: null };
}

export function apply(prev, ev) {
  const s = { ...prev, lastSeq: ev.seq || prev.lastSeq, hands: { ...prev.hands }, counts: { ...prev.counts } };
  const deck = DECKS[s.variant] || DECKS["uno-2"];
  switch (ev.type) {
    case "match_started":
      s.variant = ev.variant;
      s.players = ev.players;
      s.phase = "deal";
      break;
    case "hand_dealt": {
      const d = DECKS[s.variant] || deck;
      s.counts[ev.seat] = d.hand;
      if (ev.cards) s.hands[ev.seat] = [...ev.cards].sort();
      s.deckCount = d.size - 2 * d.hand;
      break;
    }
    case "starter_turned":
      s.pile = [ev.card];
      s.top = ev.card;
      s.colour = isBlack(ev.card) ? null : ev.card[0];
      s.deckCount -= 1;
      s.turn = "S";
      s.phase = "playing";
      break;
    case "card_played": {
      const hand = s.hands[ev.seat];
      if (hand) {
        const at = hand.indexOf(ev.card);
        s.hands[ev.seat] = hand.filter((_, i) => i !== at);
      }
      s.counts[ev.seat] -= 1;
      s.pile = [...s.pile, ev.card];
      s.top = ev.card;
      s.colour = ev.colour || ev.card[0];
      s.owed = penalty(ev.card);
      s.turn = s.owed || !skips(ev.card) ? other(ev.seat) : ev.seat;
      break;
    }
    case "cards_drawn":
      s.counts[ev.seat] += ev.count;
      if (ev.cards && s.hands[ev.seat]) s.hands[ev.seat] = [...s.hands[ev.seat], ...ev.cards].sort();
      s.deckCount -= ev.count;
      s.owed = ev.penalty ? s.owed - ev.count : 0;
      s.turn = ev.penalty && s.owed > 0 ? ev.seat : other(ev.seat);
      break;
    case "deck_reshuffled":
      s.deckCount = ev.count;
      s.pile = [s.top];
      break;
    case "turn_passed":
      s.owed = 0;
      s.turn = other(ev.seat);
      break;
    case "match_ended":
      s.phase = "finished";
      s.winner = ev.winner;
      s.reason = ev.reason;
      s.hands = { ...ev.hands };
      s.turn = null;
      break;
    default:
      break;
  }
  return s;
}

// whose move the table awaits, as the board marks it (none while the referee reshuffles)
export function turnOf(s) {
  if (s.phase !== "playing") return null;
  if (s.deckCount === 0 && s.pile.length > 1) return null;
  return s.turn;
}
