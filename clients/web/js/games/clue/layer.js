// Clue's show-aware layer (`behaviour:shows`, games/clue/behaviour.py) beside the exact
// notebook: its words (what it weighs, how sure it is, that the model is an assumption) and
// its switch and requests, made by the generic behaviour layer (../behaviour_layer.js). Only
// the cards shown *to the reader* are weighed: a seat that saw only "a card was shown", and a
// spectator, have nothing to weigh. The figures are the server's answer, never computed here.

import { behaviourLayer, grouped, layerErrors } from "../behaviour_layer.js";

export const SHOW_MODEL = "behaviour:shows";
const LAYER = behaviourLayer({ model: SHOW_MODEL, stored: "domino-oracle:clue-model",
  button: "Weighed by the cards shown (estimate)" });

export const layerSwitchHtml = LAYER.switchHtml;
export const liveLayer = LAYER.live;
export const replayLayer = LAYER.replayLayer;
export const replayClick = LAYER.replayClick;
export { layerErrors };

const ASSUMPTION = `Which card a refuter holding two or three of the suggested cards shows is a model ` +
  `(${SHOW_MODEL}) of how the project's bots choose: an assumption about the players, not a fact.`;

// What the layer is, in words: exact under the model (how many deals, and what they count
// like), or its widest error and effective sample; what it weighs; the model's assumption.
export function layerWords(odds, me) {
  if (!odds.weighed) {
    const why = me ? "No card has been shown to you yet, so there is nothing to weigh"
      : "A spectator never sees which card is shown, so there is nothing to weigh";
    return `${why}: these are the same figures as with every deal alike.${me ? " Once a card is shown to you, " +
      "each deal is weighed by how likely that card was with the suggested cards it gives the refuter." : ""} ${ASSUMPTION}`;
  }
  const cards = odds.weighed === 1 ? "the card you were shown was" : `the ${odds.weighed} cards you were shown were`;
  const ess = Math.max(1, Math.round(odds.ess));
  if (odds.exact) {
    const n = odds.samples != null ? ` ${grouped(odds.samples)}` : "";
    return `Weighed by the cards shown, exact under the model: each of the${n} deals that fit what you saw is ` +
      `weighed by how likely ${cards} with the suggested cards it gives each refuter (a refuter holding more of ` +
      `them had more to choose from); together they count like about ${ess} equally likely deals. ${ASSUMPTION}`;
  }
  const err = typeof odds.error_95 === "number" ? `each figure within ±${(odds.error_95 * 100).toFixed(1)} points ` +
    `(95% confidence, the widest)` : "its error is not known";
  const few = ess < 10 ? ": few, so read the figures as rough" : "";
  return `Estimate, not exact: ${err}, from ${grouped(odds.samples)} sampled deals, each weighed by how likely ` +
    `${cards} with the suggested cards it gives each refuter; they count like about ${ess} independent ones${few}. ` +
    `${ASSUMPTION}`;
}

// The model in its own terms, for the folded "technically" box.
export function layerTechnical(odds) {
  const shows = odds.weighed ?? 0;
  const pulled = odds.exact || !shows ? "" : `; each figure pulled toward the exact one by ${odds.shrink ?? "K"} / ` +
    `(${odds.shrink ?? "K"} + ESS)`;
  return `${odds.label}. ${shows} card${shows === 1 ? "" : "s"} shown weighed, effective sample ${odds.ess}, ` +
    `${odds.samples} deals ${odds.exact ? "listed" : "drawn"}${pulled}.`;
}
