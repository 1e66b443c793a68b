// One WebSocket to /ws: requests with ids (promises), a message stream, and reconnection
// with backoff. Views re-attach (resume / watch) in their `onOpen` handler.

export class ProtocolError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export function wsUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws`;
}

let counter = 0;
// Request ids are unique across page loads: the server answers a command whose id it has seen
// from this seat as a retry (acked, not applied again), so a reloaded page counting from c1
// again would have its moves acked and dropped.
const PAGE = Math.random().toString(36).slice(2, 10);

export class Connection {
  constructor({ onMessage, onOpen, onStatus } = {}) {
    this.onMessage = onMessage || (() => {});
    this.onOpen = onOpen || (() => {});
    this.onStatus = onStatus || (() => {});
    this.pending = new Map();
    this.closed = false;
    this.attempt = 0;
    this.everOpened = false;
    this.open();
  }

  open() {
    if (this.closed) return;
    const ws = (this.ws = new WebSocket(wsUrl()));
    this.onStatus(this.everOpened ? "reconnecting" : "connecting");
    ws.onopen = () => {
      const again = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.onStatus("open");
      this.onOpen(again);
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.id != null && this.pending.has(msg.id)) {
        const { resolve, reject, onProgress } = this.pending.get(msg.id);
        // a partial answer (advise {progress: true}): the request stays pending
        if (msg.type === "advice_progress") {
          if (onProgress) onProgress(msg);
          return;
        }
        this.pending.delete(msg.id);
        if (msg.type === "error") reject(new ProtocolError(msg.code, msg.message));
        else resolve(msg);
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      for (const { reject } of this.pending.values()) reject(new ProtocolError("offline", "the connection dropped"));
      this.pending.clear();
      if (this.closed) return;
      this.onStatus("lost");
      const delay = Math.min(5000, 300 * 2 ** this.attempt++);
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  get isOpen() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  // `onProgress`: called with each partial answer (`advice_progress`) before the reply
  request(message, { onProgress = null } = {}) {
    if (!this.isOpen) return Promise.reject(new ProtocolError("offline", "not connected; reconnecting…"));
    const id = `${PAGE}-${++counter}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  // Drop the socket as a network failure would (reconnects): used by tests and the UI.
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
