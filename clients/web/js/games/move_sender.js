// One seat's moves, for a renderer whose game takes the generic `move` message: one in flight
// at a time (a second click while the first is unanswered does nothing), a refusal shown as a
// toast, and `after()` (a redraw) once the answer is in.

import { toast } from "../ui.js";

export function moveSender(app, tableId, after) {
  let busy = false;
  return async function send(move) {
    if (busy) return;
    busy = true;
    try {
      await app.conn.request({ type: "move", table_id: tableId, move });
    } catch (err) {
      toast(`${err.code}: ${err.message}`);
    } finally {
      busy = false;
      after();
    }
  };
}
