// The rules page of each game, by the game's name (as `list_variants` and a table say it).
export { default as dominoes } from "./dominoes.js";
export { default as texas42 } from "./texas42.js";
export { default as clue } from "./clue.js";
export { default as uno } from "./uno.js";
