// The router: #table=ID&seat=S (play), #watch=ID (spectate), #replay[=ID&perspective=P&step=N]
// (replays), anything else the lobby. Each view returns its own clean-up.

import { lobbyView } from "./lobby_view.js";
import { replayView } from "./replay_view.js";
import { tableView } from "./table_view.js";

const metrics = (window.__metrics = window.__metrics || { overlay: [] });
let dispose = null;

function route() {
  if (dispose) dispose();
  dispose = null;
  const root = document.getElementById("app");
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  document.getElementById("conn").textContent = "";
  if (params.has("table")) {
    const seat = (params.get("seat") || "S").toUpperCase();
    if (!["S", "W", "N", "E"].includes(seat)) {
      root.textContent = `Unknown seat ${seat}: use S, W, N or E.`;
      return;
    }
    dispose = tableView(root, { tableId: params.get("table"), seat });
  } else if (params.has("watch")) {
    dispose = tableView(root, { tableId: params.get("watch"), seat: null });
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
