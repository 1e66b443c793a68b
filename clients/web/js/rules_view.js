// #rules=GAME: how to play one game, in a few lines, linked from the lobby and each table.
// The text lives in js/rules/GAME.js; docs/games/ holds the full rule sets and their sources.

import * as RULES from "./rules/index.js";
import { esc } from "./ui.js";

export function rulesView(root, game) {
  const rules = RULES[game];
  const others = Object.entries(RULES).filter(([name]) => name !== game)
    .map(([name, r]) => `<a href="#rules=${encodeURIComponent(name)}">${esc(r.title)}</a>`).join(" · ");
  root.innerHTML = rules
    ? `<article class="card rules" id="rules" data-game="${esc(game)}"><h1>How to play ${esc(rules.title)}</h1>` +
      `${rules.html}<p class="muted">Other games: ${others} · <a href="#">Back to the lobby</a></p></article>`
    : `<article class="card rules" id="rules"><h1>No rules page for “${esc(game)}”</h1>` +
      `<p>Rules: ${others}. <a href="#">Back to the lobby</a></p></article>`;
  document.title = rules ? `How to play ${rules.title} · Domino Oracle` : "Domino Oracle";
  return () => {};
}

/** The rules link of a game, or "" when this page has none. */
export function rulesLink(game, text = "How to play") {
  return RULES[game] ? `<a class="rules-link" href="#rules=${encodeURIComponent(game)}">${esc(text)}</a>` : "";
}
