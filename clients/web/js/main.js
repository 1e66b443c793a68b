// The router: #table=ID&seat=S (play), #watch=ID (spectate), #replay[=ID&perspective=P&step=N]
// (replays), #rules=GAME (how to play), anything else the lobby; `&game=NAME` picks a game's renderer (js/games/index.js)
// where the table's own record does not say. Each view returns its own clean-up.

import { lobbyView } from "./lobby_view.js";
import { replayView } from "./replay_view.js";
import { rulesView } from "./rules_view.js";
import { tableView } from "./table_view.js";
import { clearToasts, hideTip } from "./ui.js";

const metrics = (window.__metrics = window.__metrics || { overlay: [] });
let dispose = null;

function route() {
  if (dispose) dispose();
  dispose = null;
  hideTip(); // a tooltip belongs to the view it was shown in
  clearToasts(); // and so does a toast: it would speak of a page no longer shown
  const root = document.getElementById("app");
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  document.getElementById("conn").textContent = "";
  const game = params.get("game"); // optional: the renderer to use (js/games/index.js)
  if (params.has("table")) {
    // the game's renderer checks the seat
    const seat = (params.get("seat") || "S").toUpperCase();
    dispose = tableView(root, { tableId: params.get("table"), seat, game });
  } else if (params.has("watch")) {
    dispose = tableView(root, { tableId: params.get("watch"), seat: null, game });
  } else if (params.has("rules")) {
    dispose = rulesView(root, params.get("rules"));
  } else if (params.has("replay") || location.hash === "#replay") {
    dispose = replayView(root, params);
  } else {
    dispose = lobbyView(root);
  }
}

window.addEventListener("hashchange", route);
route();

// First paint, for docs/web.md and the browser tests.
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) metrics[entry.name] = entry.startTime;
}).observe({ type: "paint", buffered: true });
