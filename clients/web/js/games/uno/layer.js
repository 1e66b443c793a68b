// Uno's play-aware layer (`behaviour:plays`, games/uno/behaviour.py) beside the exact odds:
// its words (what the layer assumes and how sure it is) and its switch and requests, made by
// the generic behaviour layer (../behaviour_layer.js): the `odds` request at a live table and
// GET /api/matches/{id}/odds in a replay. The exact belief is never replaced: the layer is
// drawn only while its button is pressed.

import { behaviourLayer, grouped, layerErrors as errorsOf } from "../behaviour_layer.js";

export const PLAY_MODEL = "behaviour:plays";
const NOT_EXACT = "Not computed here: the play-aware layer weighs the deals the exact odds count, and here the " +
  "exact odds are themselves an estimate.";
const LAYER = behaviourLayer({ model: PLAY_MODEL, stored: "domino-oracle:uno-model",
  button: "Weighed by the plays (estimate)", notExact: NOT_EXACT });

export const layerSwitchHtml = LAYER.switchHtml;
export const storedModel = LAYER.storedModel;
export const switched = LAYER.switched;
export const liveLayer = LAYER.live;
export const replayLayer = LAYER.replayLayer;
export const replayClick = LAYER.replayClick;

// Whose plays are weighed, from the observer: a seat weighs its opponent's, a spectator both.
function whose(odds) {
  return odds.observer === "S" ? "North's" : odds.observer === "N" ? "South's" : "the players'";
}

// What the layer is, in words: how sure (exact under the model, or the error and the
// effective sample), what it weighs, and that the model is an assumption.
export function layerWords(odds) {
  const assumption = "How a player picks a card was learnt from stored matches of the project's bots: " +
    "an assumption about the players, not a fact.";
  if (!odds.weighed) {
    return `No play to weigh yet: these are the exact figures. Once ${whose(odds)} plays are seen, each way the ` +
      `hidden cards could lie is weighed by how likely they were with the hand it gives. ${assumption}`;
  }
  const plays = odds.weighed === 1 ? `${whose(odds)} play was` : `${whose(odds)} ${odds.weighed} plays were`;
  const ess = Math.max(1, Math.round(odds.ess));
  if (odds.exact) {
    const n = odds.samples != null ? ` ${grouped(odds.samples)}` : "";
    return `Weighed by the plays, exact under the model: each of the${n} ways the hidden cards could lie is weighed ` +
      `by how likely ${plays} with the hand it gives (together they count like about ${ess} equally likely ways). ${assumption}`;
  }
  const err = typeof odds.error_95 === "number" ? `each figure within ±${(odds.error_95 * 100).toFixed(1)} points ` +
    `(95% confidence, the widest)` : "its error is not known";
  const few = ess < 10 ? ": few, so read the figures as rough" : "";
  return `Estimate, not exact: ${err}, from ${grouped(odds.samples)} sampled ways the hidden cards could lie, weighed ` +
    `by how likely ${plays} with the hand each gives; they count like about ${ess} independent ones${few}. ${assumption}`;
}

// The model in its own terms, for the folded "technically" box.
export function layerTechnical(odds) {
  const plays = odds.weighed ?? 0;
  const pulled = odds.exact ? "" : `; each figure pulled toward the exact one by ${odds.shrink ?? "K"} / (${odds.shrink ?? "K"} + ESS)`;
  return `${odds.label}. ${plays} play${plays === 1 ? "" : "s"} weighed, effective sample ${odds.ess}, ` +
    `${odds.samples} arrangements ${odds.exact ? "listed" : "drawn"}${pulled}.`;
}

// holder -> kind -> the 95% error of each figure (none when the layer is exact)
export const layerErrors = (odds) => errorsOf(odds, (item) => !item.includes(">="));
