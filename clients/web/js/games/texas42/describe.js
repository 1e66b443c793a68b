// A Texas 42 event in words: the move log and the replay's step line.

import { trumpWords } from "./words.js";

export function describe(ev) {
  switch (ev.type) {
    case "match_started":
      return `match ${ev.match_id} starts (${ev.variant}, to ${ev.target_points ? `${ev.target_points} points` : `${ev.target_marks} marks`})`;
    case "hand_started": return `hand ${ev.hand}: ${ev.dealer} deals`;
    case "dealt": return `${ev.seat} is dealt ${ev.tiles ? ev.tiles.join(" ") : "7 (hidden)"}`;
    case "bid": return ev.bid ? `${ev.seat} bids ${bidWords(ev.bid)}` : `${ev.seat} passes`;
    case "trump_named": return `${ev.seat} names trump: ${trumpWords(ev.trump)}`;
    case "played": return `${ev.seat} plays ${ev.tile}`;
    case "trick_won": return `${ev.seat} takes trick ${ev.trick} (${pointsWord(ev.points)})`;
    case "hand_ended":
      if (ev.outcome === "redeal") return `hand ${ev.hand}: everyone passed, redeal`;
      return `hand ${ev.hand}: ${ev.bidder} bid ${bidWords(ev.bid)} : ${ev.outcome === "made" ? "made" : "set"} ` +
        `(NS ${ev.points.NS}, EW ${ev.points.EW} points)`;
    case "match_ended": { // the winner's score first
      const loser = ev.winner === "NS" ? "EW" : "NS";
      return `match over: ${ev.winner} wins ${ev.totals[ev.winner]}–${ev.totals[loser]}`;
    }
    default: return ev.type;
  }
}

export const pointsWord = (n) => `${n} point${n === 1 ? "" : "s"}`;

export const bidWords = (bid) => (bid === 84 ? "84 (2 marks)" : bid === 42 ? "42 (1 mark)" : String(bid));
