// A Clue event in words: the move log and the replay's step line.

export function describe(ev) {
  switch (ev.type) {
    case "match_started": return `Clue for ${Object.keys(ev.players).length}: ${ev.variant}`;
    case "dealt": return `cards dealt (${Object.entries(ev.hand_sizes).map(([s, n]) => `${s} ${n}`).join(", ")})`;
    case "suggested": {
      const who = `${ev.seat} suggests ${ev.suspect} with the ${ev.weapon} in the ${ev.room}`;
      const passed = ev.passed.length ? `; ${ev.passed.join(", ")} cannot refute` : "";
      return `${who}${passed}${ev.refuter ? `; ${ev.refuter} refutes` : "; nobody refutes"}`;
    }
    case "card_shown": return ev.card ? `${ev.seat} shows ${ev.to} ${ev.card}` : `${ev.seat} shows ${ev.to} a card`;
    case "accused": return `${ev.seat} accuses ${ev.suspect}, ${ev.weapon}, ${ev.room}: ${ev.correct ? "right" : "wrong, out"}`;
    case "turn_passed": return `${ev.seat} ends the turn; ${ev.to} to play`;
    case "match_ended": return `${ev.winner ? `${ev.winner} wins` : "nobody wins"}: it was ${ev.envelope.join(", ")}`;
    default: return ev.type;
  }
}
