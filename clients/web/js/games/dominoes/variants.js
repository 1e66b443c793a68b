// The shapes of the dominoes variants the page draws (seats, set, hand size, whether the
// undealt tiles are a boneyard): what the board and the overlay need to lay a table out. The
// lobby offers what the server lists (`list_variants`), not this.

export const SEATS = ["S", "W", "N", "E"];
export const SEAT_NAMES = { S: "South", W: "West", N: "North", E: "East" };
const TWO = ["S", "N"];

function variant(name, maxPip, handSize, seats, { draws = false } = {}) {
  const tiles = ((maxPip + 1) * (maxPip + 2)) / 2;
  return { name, maxPip, handSize, seats, draws, pool: tiles - seats.length * handSize };
}

export const VARIANTS = {
  "partnership-6": variant("partnership-6", 6, 7, SEATS),
  "partnership-9": variant("partnership-9", 9, 10, SEATS),
  "block-2": variant("block-2", 6, 7, TWO),
  "draw-2": variant("draw-2", 6, 7, TWO, { draws: true }),
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

// The undealt tiles as a holder of the overlay: drawn from, or sleeping all hand.
export const poolName = (v) => (v.draws ? "Boneyard" : "Face-down pool");
