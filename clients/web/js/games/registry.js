// Lookups over the renderers js/games/index.js lists: the shell's only way to a game.

import * as RENDERERS from "./index.js";

export const DEFAULT_GAME = "dominoes";

// The default game first, then the rest by name (a module's exports come sorted by name).
export const knownGames = () =>
  [DEFAULT_GAME, ...Object.keys(RENDERERS).filter((name) => name !== DEFAULT_GAME)]
    .filter((name) => Object.hasOwn(RENDERERS, name));

// Every renderer (the lobby offers every game's variants, the default game's first).
export const allRenderers = () => knownGames().map((name) => RENDERERS[name]);

// The game a table's info, or a match's first event, names (older ones name none: dominoes).
export const gameOf = (info) => (info && info.game) || DEFAULT_GAME;

// A link's `&game=` part (none for the default game, so its links stay as they always were).
export const gameParam = (game) => (game === DEFAULT_GAME ? "" : `&game=${encodeURIComponent(game)}`);

// The renderer of `game`, or null when this page has none.
export const rendererFor = (game = DEFAULT_GAME) => (Object.hasOwn(RENDERERS, game) ? RENDERERS[game] : null);
