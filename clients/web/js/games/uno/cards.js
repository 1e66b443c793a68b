// Uno cards drawn as cards: a coloured face with the value in a white oval (a black face with
// the four colours for the wilds), and their names in words ("red 7", "Wild Draw Four"). The
// classes are the game's own (`uno-card`), so the page's other styles never reach them.

import { esc } from "../../ui.js";
import { COLOURS, isBlack } from "./fold.js";

const VALUE_WORDS = { S: "Skip", R: "Reverse", "+2": "Draw Two" };
const FACE = { S: "Skip", R: "Rev", "+2": "+2", W: "Wild", "W+4": "+4" };

export const colourOf = (kind) => (isBlack(kind) ? "k" : kind[0]);
const valueOf = (kind) => (isBlack(kind) ? kind : kind.slice(1));

// "red 7", "blue Skip", "Wild", "Wild Draw Four"
export function cardWords(kind) {
  if (kind === "W") return "Wild";
  if (kind === "W+4") return "Wild Draw Four";
  const v = valueOf(kind);
  return `${COLOURS[kind[0]] || kind[0]} ${VALUE_WORDS[v] || v}`;
}

// a card's face; opts: {mini, tag ("span" | "button"), attrs (raw, already escaped), label, cls}
export function cardFace(kind, opts = {}) {
  const tag = opts.tag || "span";
  const v = valueOf(kind);
  const cls = `uno-card ${colourOf(kind)}${opts.mini ? " mini" : ""}${opts.cls ? ` ${opts.cls}` : ""}`;
  const type = tag === "button" ? ` type="button"` : ` role="img"`;
  return `<${tag}${type} class="${cls}" aria-label="${esc(opts.label || cardWords(kind))}" ${opts.attrs || ""}>` +
    `<span class="face" aria-hidden="true">${esc(FACE[v] || v)}</span></${tag}>`;
}

export const CARD_STYLE = `
.uno-card { box-sizing: border-box; display: inline-flex; align-items: center; justify-content: center; vertical-align: middle;
  width: 46px; height: 68px; margin: 2px; padding: 0; border-radius: 8px; border: 3px solid #fff; box-shadow: 0 0 0 1px #0007, 0 1px 3px #0005;
  background: #222; color: #222; font: 800 0.95rem/1 system-ui, sans-serif; flex: none; }
.uno-card .face { display: inline-flex; align-items: center; justify-content: center; min-width: 30px; height: 40px; padding: 0 2px;
  border-radius: 50%; background: #fff; transform: rotate(-18deg); }
.uno-card.r { background: #c62828; color: #c62828; } .uno-card.y { background: #e6b800; color: #7a5c00; }
.uno-card.g { background: #2e7d32; color: #2e7d32; } .uno-card.b { background: #1565c0; color: #1565c0; }
.uno-card.k { background: #222; color: #fff; }
.uno-card.k .face { background: conic-gradient(#c62828 0 25%, #e6b800 0 50%, #2e7d32 0 75%, #1565c0 0); text-shadow: 0 0 2px #000, 0 0 2px #000; }
.uno-card.mini { width: 26px; height: 38px; border-width: 2px; border-radius: 5px; font-size: 0.62rem; margin: 0; }
.uno-card.mini .face { min-width: 20px; height: 24px; transform: none; border-radius: 40%; }
`;
