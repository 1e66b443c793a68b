// The game renderers by name: each line maps a game's name (as `match_started.game` and a
// table's info say it) to its renderer, the default export of its folder's index.js.
// Adding a game: its folder beside dominoes/ and one line here (docs/web.md, "Renderers").

export { default as dominoes } from "./dominoes/index.js";
export { default as texas42 } from "./texas42/index.js";
export { default as clue } from "./clue/index.js";
export { default as uno } from "./uno/index.js";
