// The dominoes variants the page can show: the browser's mirror of games/dominoes/variants.py.
// The server has no message listing its variants yet, so the lobby offers this table.

export const SEATS = ["S", "W", "N", "E"];
export const SEAT_NAMES = { S: "South", W: "West", N: "North", E: "East" };
const TWO = ["S", "N"];

function variant(name, maxPip, handSize, seats, { draws = false, label }) {
  const tiles = ((maxPip + 1) * (maxPip + 2)) / 2;
  return { name, maxPip, handSize, seats, draws, label, pool: tiles - seats.length * handSize };
}

export const VARIANTS = {
  "partnership-6": variant("partnership-6", 6, 7, SEATS, { label: "double-six (7 each)" }),
  "partnership-9": variant("partnership-9", 9, 10, SEATS, { label: "double-nine (10 each, 15 face down)" }),
  "block-2": variant("block-2", 6, 7, TWO, { label: "two players, block (7 each, 14 face down)" }),
  "draw-2": variant("draw-2", 6, 7, TWO, { draws: true, label: "two players, draw (7 each, boneyard of 14)" }),
};
export const DEFAULT_VARIANT = "partnership-6";

// A variant by name; an unknown name reads as the default (with its own name kept).
export function getVariant(name) {
  return VARIANTS[name] || { ...VARIANTS[DEFAULT_VARIANT], name: name || DEFAULT_VARIANT };
}

export const isPartnership = (v) => v.seats.length === 4;

// The scoring units: teams NS and EW with four seats, else the seats themselves.
export const sidesOf = (v) => (isPartnership(v) ? ["NS", "EW"] : [...v.seats]);
export const sideOf = (v, seat) => (isPartnership(v) ? (seat === "N" || seat === "S" ? "NS" : "EW") : seat);
export const sideLabel = (side) => SEAT_NAMES[side] || side;
export const nextSeat = (v, seat) => v.seats[(v.seats.indexOf(seat) + 1) % v.seats.length];

// The seats in turn order starting from `first` (the bottom of the table).
export function seatsFrom(v, first) {
  const start = Math.max(0, v.seats.indexOf(first));
  return v.seats.map((_, i) => v.seats[(start + i) % v.seats.length]);
}

// What the lobby says about who plays whom.
export const seatsNote = (v) => (isPartnership(v) ? "S and N against W and E" : "South against North");

// The undealt tiles as a holder of the overlay: drawn from, or sleeping all hand.
export const poolName = (v) => (v.draws ? "Boneyard" : "Face-down pool");
