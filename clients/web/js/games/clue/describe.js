// A Clue event in words: the move log and the replay's step line (seats by their players' names).

import { seatLabel as n, setPlayers } from "./names.js";

// `me`: the reader's seat, if any: its own moves read in the first person ("You suggest ...").
export function describe(ev, me = null) {
  // the seat as a sentence's subject, its verb agreeing ("You show", "Ann shows"), or as an object
  const who = (seat, verb, own) => (seat === me ? `You ${own}` : `${n(seat)} ${verb}`);
  const whom = (seat) => (seat === me ? "you" : n(seat));
  switch (ev.type) {
    case "match_started": setPlayers(ev.players); return `Clue for ${Object.keys(ev.players).length}: ${ev.variant}`;
    case "dealt": return `cards dealt (${Object.entries(ev.hand_sizes).map(([s, k]) => `${whom(s)} ${k}`).join(", ")})`;
    case "suggested": {
      const said = `${who(ev.seat, "suggests", "suggest")} ${ev.suspect} with the ${ev.weapon} in the ${ev.room}`;
      const passed = ev.passed.length ? `; ${ev.passed.map(whom).join(", ")} cannot refute` : "";
      return `${said}${passed}${ev.refuter ? `; ${ev.refuter === me ? "you refute" : `${n(ev.refuter)} refutes`}` : "; nobody refutes"}`;
    }
    case "card_shown": return `${who(ev.seat, "shows", "show")} ${whom(ev.to)} ${ev.card || "a card"}`;
    case "accused": return `${who(ev.seat, "accuses", "accuse")} ${ev.suspect}, ${ev.weapon}, ${ev.room}: ${ev.correct ? "right" : "wrong, out"}`;
    case "turn_passed": return `${who(ev.seat, "ends", "end")} the turn; ${whom(ev.to)} to play`;
    case "match_ended": return `${ev.winner ? who(ev.winner, "wins", "win") : "nobody wins"}: it was ${ev.envelope.join(", ")}`;
    default: return ev.type;
  }
}
