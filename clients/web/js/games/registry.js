// Lookups over the renderers js/games/index.js lists: the shell's only way to a game.

import * as RENDERERS from "./index.js";

export const DEFAULT_GAME = "dominoes";

export const knownGames = () => Object.keys(RENDERERS);

// Every renderer (the lobby offers every game's variants).
export const allRenderers = () => Object.values(RENDERERS);

// The game a table's info, or a match's first event, names (older ones name none: dominoes).
export const gameOf = (info) => (info && info.game) || DEFAULT_GAME;

// The renderer of `game`, or null when this page has none.
export const rendererFor = (game = DEFAULT_GAME) => (Object.hasOwn(RENDERERS, game) ? RENDERERS[game] : null);
