// Small shared pieces of page chrome: the connection badge and toast messages.

const LABELS = {
  connecting: "connecting…",
  open: "connected",
  lost: "connection lost — reconnecting…",
  reconnecting: "reconnecting…",
  offline: "",
};

export function setConn(status) {
  const el = document.getElementById("conn");
  if (!el) return;
  el.textContent = LABELS[status] ?? status;
  el.dataset.status = status;
}

export function toast(text, kind = "error") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = document.createElement("div");
  item.className = `toast ${kind}`;
  item.setAttribute("role", kind === "error" ? "alert" : "status");
  item.textContent = text;
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}

export const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
