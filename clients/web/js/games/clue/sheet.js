// The detective sheet: the player's own marks beside the exact odds, one per card, kept in
// this browser for the table and seat. A mark is the player's note only: it never changes a
// figure (the odds come from the server's belief alone). A card's name, clicked, picks it in
// the suggestion's pickers, so a suggestion is made from the sheet.

import { esc } from "../../ui.js";
import { getItem, setItem } from "../../store.js";

// the marks in turn: none, cleared (not in the envelope), maybe, the suspect
export const MARKS = [
  { sign: "", words: "no mark" },
  { sign: "✗", words: "cleared" },
  { sign: "?", words: "maybe" },
  { sign: "★", words: "my suspect" },
];

const keyOf = (tableId, seat) => `domino-oracle:clue-sheet:${tableId}:${seat}`;

export function loadMarks(tableId, seat) {
  try {
    return JSON.parse(getItem(keyOf(tableId, seat)) || "{}") || {};
  } catch {
    return {};
  }
}

// the next mark of `card`, saved; returns the marks
export function cycleMark(tableId, seat, card) {
  const marks = loadMarks(tableId, seat);
  const next = ((marks[card] || 0) + 1) % MARKS.length;
  if (next) marks[card] = next;
  else delete marks[card];
  setItem(keyOf(tableId, seat), JSON.stringify(marks));
  return marks;
}

// the mark of one card's row (a button: Enter or a click cycles it)
export function markButton(card, marks) {
  const m = MARKS[marks[card] || 0];
  return `<button type="button" class="mark" data-mark="${esc(card)}" data-sign="${esc(m.sign)}" ` +
    `aria-label="${esc(`your mark on ${card}: ${m.words}`)}" title="your mark: ${esc(m.words)} (click for the next)">${m.sign || "·"}</button>`;
}

export const kindOf = (deck, card) => (deck.suspects.includes(card) ? "suspect" : deck.weapons.includes(card) ? "weapon" : "room");

// a click in the notebook: a mark cycled (true), or a card picked for the suggestion
export function onSheetClick(e, sheet, boardEl, deck) {
  const mark = e.target.closest("[data-mark]");
  if (mark && sheet) {
    cycleMark(sheet.tableId, sheet.seat, mark.dataset.mark);
    return true;
  }
  const name = e.target.closest("[data-pick]");
  if (!name || !boardEl) return false;
  const card = name.dataset.pick;
  const kind = kindOf(deck, card);
  const picker = boardEl.querySelector(`select[name=${kind}]`);
  if (picker && [...picker.options].some((o) => o.value === card)) {
    picker.value = card;
    picker.dispatchEvent(new Event("change", { bubbles: true }));
  }
  return true;
}
