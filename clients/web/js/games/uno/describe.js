// An Uno event in words: the move log and the replay's step line.

import { COLOURS } from "./fold.js";

export function describe(ev) {
  switch (ev.type) {
    case "match_started": return `Uno for two: ${ev.variant}`;
    case "hand_dealt": return ev.cards ? `${ev.seat} is dealt ${ev.cards.join(" ")}` : `${ev.seat} is dealt ${"a hand"}`;
    case "starter_turned": return `the pile starts with ${ev.card}`;
    case "card_played": return `${ev.seat} plays ${ev.card}${ev.colour ? ` and names ${COLOURS[ev.colour]}` : ""}`;
    case "cards_drawn": return `${ev.seat} draws ${ev.cards ? ev.cards.join(" ") : `${ev.count} card${ev.count > 1 ? "s" : ""}`}${ev.penalty ? " (penalty)" : " (nothing to play)"}`;
    case "deck_reshuffled": return `the pile is reshuffled into a deck of ${ev.count}`;
    case "turn_passed": return `${ev.seat} passes: nothing left to draw`;
    case "match_ended": return ev.winner ? `${ev.winner} wins (${ev.reason})` : "blocked: nobody wins";
    default: return ev.type;
  }
}
