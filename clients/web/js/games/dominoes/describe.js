// One event in words: the replay's step line and the live table's move log.

// The event that moved the overlay, in words, with what the table adds: a pass names the
// ends it was made on ("W passed on 3|5 (seq 14)").
export function changedBy(ev, state) {
  if (!ev) return "";
  const h = state && state.hand;
  const pass = ev.type === "passed" && h ? h.passes.find((p) => p.seq === ev.seq) : null;
  const words = pass ? `${ev.seat} passed on ${pass.left}|${pass.right}` : describe(ev);
  return `${words} (seq ${ev.seq})`;
}

export function describe(ev) {
  switch (ev.type) {
    case "match_started": return `match ${ev.match_id} starts (${ev.variant}, to ${ev.target})`;
    case "hand_started": return `hand ${ev.hand} starts, ${ev.leader} leads`;
    case "hand_dealt": return `${ev.seat} is dealt ${ev.tiles ? ev.tiles.join(" ") : "(hidden)"}`;
    case "tile_played": return `${ev.seat} plays ${ev.tile}${ev.end ? ` on the ${ev.end}` : ""}`;
    // the tiles only reach the drawer: everyone else sees how many
    case "tiles_drawn": return `${ev.seat} drew ${ev.count}${ev.tiles ? `: ${ev.tiles.join(" ")}` : ""}`;
    case "passed": return `${ev.seat} passes`;
    case "hand_ended": return `hand ${ev.hand} ends (${ev.reason}): ${ev.winner || "nobody"} scores ${ev.points}`;
    case "match_ended": return `match over: ${ev.winner} wins`;
    default: return ev.type;
  }
}
